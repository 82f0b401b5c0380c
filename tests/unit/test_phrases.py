"""The shared phrases, table by table: what a player reads for each case."""

from __future__ import annotations

import pytest

from quandary.web.phrases import ago

MINUTE, HOUR, DAY = 60, 3600, 86400


@pytest.mark.parametrize(
    ("seconds", "words"),
    [
        (-30, "just now"),
        (0, "just now"),
        (59, "just now"),
        (60, "1 minute ago"),
        (5 * MINUTE + 59, "5 minutes ago"),
        (HOUR - 1, "59 minutes ago"),
        (HOUR, "1 hour ago"),
        (23 * HOUR, "23 hours ago"),
        (DAY, "yesterday"),
        (2 * DAY, "2 days ago"),
        (13 * DAY, "13 days ago"),
        (14 * DAY, "2 weeks ago"),
        (59 * DAY, "8 weeks ago"),
        (60 * DAY, "2 months ago"),
        (364 * DAY, "12 months ago"),
        (365 * DAY, "1 year ago"),
        (3 * 365 * DAY, "3 years ago"),
    ],
)
def test_ago(seconds: float, words: str) -> None:
    assert ago(seconds) == words
