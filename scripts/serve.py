"""A small static server for dist/, bound to loopback, for `make run` and the tests.

It serves the right types for .mjs and .wasm (Pyodide needs both) and tells the
browser not to cache, so a rebuild shows at once.

    python scripts/serve.py [--port 8000] [--dir dist]
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import threading
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


class Handler(SimpleHTTPRequestHandler):
    """Static files with correct types and no caching."""

    extensions_map: ClassVar[dict[str, str]] = {**SimpleHTTPRequestHandler.extensions_map, **TYPES}

    def end_headers(self) -> None:
        """Add the headers every response gets."""
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        """Stay quiet: tests and `make run` only need errors."""


def make_server(directory: Path, port: int = 0) -> ThreadingHTTPServer:
    """A server on 127.0.0.1 (``port`` 0 picks a free one); call ``serve_forever``."""
    handler = functools.partial(Handler, directory=str(directory))
    server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    server.daemon_threads = True
    return server


def serve_in_thread(directory: Path) -> tuple[ThreadingHTTPServer, str]:
    """Start a server in a daemon thread; returns it and its base URL."""
    server = make_server(directory)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    host, port = server.server_address[:2]
    return server, f"http://{host}:{port}/"


def main() -> None:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--dir", type=Path, default=ROOT / "dist")
    args = parser.parse_args()
    server = make_server(args.dir, args.port)
    print(f"Quandary is at http://127.0.0.1:{server.server_address[1]}/  (Ctrl-C stops)")
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()


if __name__ == "__main__":
    main()
