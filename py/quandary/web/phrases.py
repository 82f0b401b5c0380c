"""Small phrases the screens share, as plain text (the renderers escape it).

Pure: time is passed in, never read here, so the words for any moment can be tested.

>>> ago(42)
'just now'
>>> ago(5 * 60 + 10)
'5 minutes ago'
>>> ago(26 * 3600)
'yesterday'
"""

from __future__ import annotations

MINUTE = 60
HOUR = 60 * MINUTE
DAY = 24 * HOUR


def ago(seconds: float) -> str:
    """How long ago something happened, as people say it, from the seconds since.

    A negative time (the device's clock was set back) reads "just now".
    """
    if seconds < MINUTE:
        return "just now"
    if seconds < HOUR:
        return _count(int(seconds // MINUTE), "minute") + " ago"
    if seconds < DAY:
        return _count(int(seconds // HOUR), "hour") + " ago"
    days = int(seconds // DAY)
    if days == 1:
        return "yesterday"
    if days < 14:
        return f"{days} days ago"
    if days < 60:
        return f"{days // 7} weeks ago"
    if days < 365:
        return f"{days // 30} months ago"
    return _count(days // 365, "year") + " ago"


def _count(count: int, word: str) -> str:
    return f"{count} {word if count == 1 else word + 's'}"
