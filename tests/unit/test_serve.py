"""The local server sends what Netlify sends: text gzipped when the browser accepts
it (so the benchmarks count the bytes a visitor really downloads), everything else
as it is, the production headers on both, and a 304 for a copy still current."""

from __future__ import annotations

import gzip
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest

from scripts.serve import serve_in_thread

SCRIPT = "export const answer = 42;\n" * 200


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp_path = tmp_path_factory.mktemp("site")
    (tmp_path / "index.html").write_text("<!doctype html><title>t</title>" * 50)
    folder = tmp_path / "static" / "v" / "abc"
    folder.mkdir(parents=True)
    (folder / "app.mjs").write_text(SCRIPT)
    (folder / "pkg.zip").write_bytes(b"PK" + bytes(range(256)) * 20)
    server, url = serve_in_thread(tmp_path)
    yield url
    server.shutdown()


def get(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), b""


def test_text_goes_gzipped_to_a_browser_that_accepts_it(site: str) -> None:
    status, headers, body = get(site + "static/v/abc/app.mjs", **{"Accept-Encoding": "gzip, br"})
    assert status == 200
    assert headers["Content-Encoding"] == "gzip"
    assert headers["Vary"] == "Accept-Encoding"
    assert int(headers["Content-Length"]) == len(body) < len(SCRIPT) / 10
    assert gzip.decompress(body).decode() == SCRIPT
    # netlify.toml's headers for this path are still sent.
    assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert headers["Content-Type"].startswith("text/javascript")


def test_text_goes_plain_to_a_client_that_does_not_ask(site: str) -> None:
    status, headers, body = get(site + "static/v/abc/app.mjs")
    assert (status, body.decode()) == (200, SCRIPT)
    assert "Content-Encoding" not in headers


def test_an_archive_goes_as_it_is(site: str) -> None:
    status, headers, body = get(site + "static/v/abc/pkg.zip", **{"Accept-Encoding": "gzip"})
    assert status == 200 and body.startswith(b"PK")
    assert "Content-Encoding" not in headers


def test_the_page_is_gzipped_and_revalidates(site: str) -> None:
    status, headers, body = get(site, **{"Accept-Encoding": "gzip"})
    assert status == 200 and headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(body).startswith(b"<!doctype html>")
    assert "Content-Security-Policy" in headers
    again, _, empty = get(
        site, **{"Accept-Encoding": "gzip", "If-Modified-Since": headers["Last-Modified"]}
    )
    assert (again, empty) == (304, b"")
    stale = get(site, **{"Accept-Encoding": "gzip", "If-Modified-Since": "garbage"})
    assert stale[0] == 200


def test_a_browser_hanging_up_mid_download_is_no_error_but_a_real_one_is_reported(
    tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    from scripts.serve import make_server

    server = make_server(tmp_path_factory.mktemp("quiet"))
    try:
        for error in (ConnectionResetError(104, "reset"), BrokenPipeError(32, "pipe")):
            try:
                raise error
            except OSError:
                server.handle_error(None, ("127.0.0.1", 1))
        assert capsys.readouterr().err == ""
        try:
            raise ValueError("a bug in the handler")
        except ValueError:
            server.handle_error(None, ("127.0.0.1", 1))
        assert "a bug in the handler" in capsys.readouterr().err
    finally:
        server.server_close()
