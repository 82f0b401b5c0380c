"""Shared test setup: every game registered before any test runs.

The four real games, and Pebbles, the game that exists in the tests only
(``tests/fifth``): it registers itself as the real ones do, so every suite that
walks the registry plays it too, while the app never imports it.
"""

from typing import Any

import quandary.games  # noqa: F401 - fills the registry
import tests.fifth  # noqa: F401 - the test-only fifth game, registered after the four


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Why each test that was run again failed the first time (pytest-rerunfailures
    names them only): a rerun that passed still says what went wrong, for the next
    person to read in CI's log."""
    reruns = terminalreporter.stats.get("rerun", [])
    if not reruns:
        return
    terminalreporter.section("why tests were run again")
    for report in reruns:
        lines = [line[1:].strip() for line in report.longreprtext.splitlines() if line[:2] == "E "]
        terminalreporter.write_line(f"{report.nodeid}: {' '.join(lines[-3:])[:600]}")
