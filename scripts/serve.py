"""A small static server for dist/, bound to loopback, for `make run` and the tests.

It sends the headers of netlify.toml (types, caching, Content-Security-Policy),
read from that file, and compresses text with gzip when the browser accepts it, as
Netlify does, so what the tests and benchmarks see is what production sends.

    python scripts/serve.py [--port 8000] [--dir dist]
"""

from __future__ import annotations

import argparse
import contextlib
import email.utils
import functools
import gzip
import re
import sys
import threading
import tomllib
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parent.parent
TYPES = {
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".toml": "text/plain",
    ".svg": "image/svg+xml",
    ".webmanifest": "application/manifest+json",
    ".zip": "application/zip",
}


COMPRESSED = {".html", ".js", ".mjs", ".css", ".json", ".toml", ".svg", ".webmanifest", ".txt"}
"""Kinds of file sent gzipped (text; archives, images and wasm go as they are)."""


@functools.lru_cache(maxsize=256)
def gzipped(path: Path, stamp: tuple[int, int]) -> bytes:
    """A file's bytes, gzipped once per version (``stamp``: its mtime and size)."""
    return gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)


RELAY_META = '<meta name="quandary-relays" content="">'


def netlify_headers(path: Path = ROOT / "netlify.toml") -> list[tuple[str, dict[str, str]]]:
    """The ``[[headers]]`` rules of netlify.toml, in order: (path pattern, headers)."""
    rules = tomllib.loads(path.read_text(encoding="utf-8")).get("headers", [])
    return [(rule["for"], dict(rule.get("values", {}))) for rule in rules]


def headers_for(url_path: str, rules: list[tuple[str, dict[str, str]]]) -> dict[str, str]:
    """Headers for a path, as Netlify matches them: ``*`` is a splat across folders."""
    out: dict[str, str] = {}
    for pattern, values in rules:
        regex = "^" + ".*".join(re.escape(part) for part in pattern.split("*")) + "$"
        if re.match(regex, url_path):
            out.update(values)
    return out


class Handler(SimpleHTTPRequestHandler):
    """Static files with the production headers."""

    relays: ClassVar[tuple[str, ...]] = ()
    rules: ClassVar[list[tuple[str, dict[str, str]]]] = []
    extensions_map: ClassVar[dict[str, str]] = {**SimpleHTTPRequestHandler.extensions_map, **TYPES}

    def do_GET(self) -> None:
        """Serve files; the page learns which relays to use from a meta tag we fill in."""
        if self.relays and self.path.split("?")[0] in ("/", "/index.html"):
            page = (Path(self.directory) / "index.html").read_text(encoding="utf-8")
            filled = RELAY_META.replace('content=""', f'content="{",".join(self.relays)}"')
            body = page.replace(RELAY_META, filled).encode("utf-8")
            self._send(body, "text/html; charset=utf-8", None)
            return
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if path.suffix in COMPRESSED and path.is_file() and self._accepts_gzip():
            stat = path.stat()
            if self._not_modified(stat.st_mtime):
                self.send_response(304)
                self.end_headers()
                return
            body = gzipped(path, (stat.st_mtime_ns, stat.st_size))
            self._send(body, self.guess_type(str(path)), stat.st_mtime, encoded=True)
            return
        super().do_GET()

    def _accepts_gzip(self) -> bool:
        return "gzip" in self.headers.get("Accept-Encoding", "")

    def _not_modified(self, mtime: float) -> bool:
        """Whether the browser's copy (If-Modified-Since) is still this file's."""
        since = self.headers.get("If-Modified-Since")
        if not since or self.headers.get("If-None-Match"):
            return False
        with contextlib.suppress(TypeError, ValueError, IndexError, OverflowError):
            return int(mtime) <= email.utils.parsedate_to_datetime(since).timestamp()
        return False

    def _send(self, body: bytes, kind: str, mtime: float | None, encoded: bool = False) -> None:
        """A whole response from bytes in memory; gzipped ones say so and vary by it."""
        if not encoded and self._accepts_gzip():
            body, encoded = gzip.compress(body, mtime=0), True
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        if mtime is not None:
            self.send_header("Last-Modified", self.date_time_string(int(mtime)))
        if encoded:
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        self.wfile.write(body)

    def send_header(self, keyword: str, value: str) -> None:
        """Let a netlify.toml Content-Type win over the guessed one."""
        if keyword.lower() == "content-type" and self._rule_headers().get("Content-Type"):
            return
        super().send_header(keyword, value)

    def end_headers(self) -> None:
        """Add the headers netlify.toml gives this path."""
        for keyword, value in self._rule_headers().items():
            super().send_header(keyword, value)
        super().end_headers()

    def _rule_headers(self) -> dict[str, str]:
        return headers_for(self.path.split("?")[0], self.rules)

    def log_message(self, format: str, *args: Any) -> None:
        """Stay quiet: tests and `make run` only need errors."""


class QuietServer(ThreadingHTTPServer):
    """A page closed or reloaded mid-download resets its connection: that is no error
    of the server's, and its traceback would only bury the tests' own output."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Stay quiet about a browser that hung up; report anything else."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def make_server(
    directory: Path,
    port: int = 0,
    relays: tuple[str, ...] = (),
    extra_rules: list[tuple[str, dict[str, str]]] | None = None,
    handler: type[Handler] = Handler,
) -> ThreadingHTTPServer:
    """A server on 127.0.0.1 (``port`` 0 picks a free one); call ``serve_forever``.

    ``relays`` are the signalling relays the page should use (a local one in tests
    and in `make run`); without them the page uses public relays. ``extra_rules``
    add headers after netlify.toml's (the benchmarks' reference page needs its own
    policy). ``handler`` is a subclass of ``Handler`` for a server that answers a
    few paths of its own (the browser tests hand a booted engine's snapshot from
    one browser context to the next: tests/e2e/warm.py).
    """
    rules = netlify_headers() + list(extra_rules or [])
    handler_class = type("BoundHandler", (handler,), {"relays": tuple(relays), "rules": rules})
    handler = functools.partial(handler_class, directory=str(directory))
    server = QuietServer(("127.0.0.1", port), handler)
    server.daemon_threads = True
    return server


def serve_in_thread(
    directory: Path,
    relays: tuple[str, ...] = (),
    extra_rules: list[tuple[str, dict[str, str]]] | None = None,
    handler: type[Handler] = Handler,
) -> tuple[ThreadingHTTPServer, str]:
    """Start a server in a daemon thread; returns it and its base URL."""
    server = make_server(directory, relays=relays, extra_rules=extra_rules, handler=handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    host, port = server.server_address[:2]
    return server, f"http://{host}:{port}/"


def main() -> None:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--dir", type=Path, default=ROOT / "dist")
    parser.add_argument("--relay-port", type=int, default=6969, help="0: no local relay")
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        relays: tuple[str, ...] = ()
        if args.relay_port:
            from scripts.relay import running_relay

            relays = (stack.enter_context(running_relay(args.relay_port)),)
            print(f"Local Nostr relay for rooms at {relays[0]}")
        server = make_server(args.dir, args.port, relays)
        print(f"Quandary is at http://127.0.0.1:{server.server_address[1]}/  (Ctrl-C stops)")
        with contextlib.suppress(KeyboardInterrupt):
            server.serve_forever()


if __name__ == "__main__":
    main()
