"""The suite's Chromium is launched as conftest.py says: its own ``--disable-features``
(which, coming last, replaces Playwright's) still turns off every feature Playwright
turns off, and the address bar's web-page dropdown that cost each context seconds of CPU;
and it runs WebAssembly by the baseline compiler only (``WASM_BASELINE_ONLY``), except in
CI's long run.

Read from the running browser's own command line (/proc), so a Playwright upgrade
that turns off one more feature fails here, naming it, instead of being silently undone.
"""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import Browser

from .conftest import WASM_BASELINE_ONLY, WEBUI_OMNIBOX

PROC = Path("/proc")


def _parent(pid: int) -> int:
    stat = (PROC / str(pid) / "stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[1])


def _descends_from(pid: int, ancestor: int) -> bool:
    while pid > 1:
        if pid == ancestor:
            return True
        try:
            pid = _parent(pid)
        except (OSError, ValueError, IndexError):
            return False
    return False


def _our_browsers() -> list[list[str]]:
    """The command lines of the Chromium browser processes this test process started."""
    found = []
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().decode().split("\0")
        except OSError:
            continue
        # Playwright drives its browser over a pipe; Chromium's helpers have a --type.
        is_browser = "--remote-debugging-pipe" in argv and not any(
            a.startswith("--type=") for a in argv
        )
        if is_browser and _descends_from(int(entry.name), os.getpid()):
            found.append(argv)
    return found


def test_the_browser_keeps_playwrights_features_off_and_has_no_web_page_address_bar(
    browser: Browser,
) -> None:
    browsers = _our_browsers()
    assert browsers, "no Chromium started by this test process was found in /proc"
    for argv in browsers:
        switches = [
            a.split("=", 1)[1].split(",") for a in argv if a.startswith("--disable-features=")
        ]
        assert switches, f"no --disable-features in {argv}"
        last = set(switches[-1])
        dropped = sorted({f for s in switches[:-1] for f in s if f} - last)
        assert not dropped, f"conftest's --disable-features turns these back on: {dropped}"
        assert set(WEBUI_OMNIBOX) <= last
        js_flags = [a for a in argv if a.startswith("--js-flags=")]
        if os.environ.get("QUANDARY_WASM_TOP_TIER"):
            assert WASM_BASELINE_ONLY not in js_flags, js_flags
        else:  # the last --js-flags is the one V8 reads
            assert js_flags[-1:] == [WASM_BASELINE_ONLY], js_flags
