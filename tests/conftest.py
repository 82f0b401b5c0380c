"""Shared test setup: every game registered before any test runs.

The four real games, and Pebbles, the game that exists in the tests only
(``tests/fifth``): it registers itself as the real ones do, so every suite that
walks the registry plays it too, while the app never imports it.
"""

import re

import pytest

import quandary.games  # noqa: F401 - fills the registry
import tests.fifth  # noqa: F401 - the test-only fifth game, registered after the four


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Why each test that was run again failed the first time (pytest-rerunfailures
    names them only): a rerun that passed still says what went wrong, for the next
    person to read in CI's log."""
    reruns = terminalreporter.stats.get("rerun", [])
    if not reruns:
        return
    terminalreporter.section("why tests were run again")
    for report in reruns:
        text = report.longreprtext.splitlines()
        lines = [line[1:].strip() for line in text if line[:2] == "E "]
        # Where the test was when it failed: its last line of our own tests (for a
        # timeout, the call that never returned).
        where = [m[0] for line in text if (m := re.match(r"tests/\S+\.py:\d+", line))]
        at = f" (at {where[-1]})" if where else ""
        terminalreporter.write_line(f"{report.nodeid}{at}: {' '.join(lines[-3:])[:600]}")
