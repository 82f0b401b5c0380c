"""Key-value storage that survives a reload, as the controllers see it.

In the browser it is ``localStorage`` (``app.py``); in tests a dict. Writing may
fail (a full quota, private browsing), so every caller handles a refusal.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol


class Storage(Protocol):
    """Text by key."""

    def get(self, key: str) -> str | None:
        """The stored text, or None."""
        ...

    def set(self, key: str, value: str) -> None:
        """Store text; may raise when storage is full."""
        ...

    def remove(self, key: str) -> None:
        """Forget a key."""
        ...

    def keys(self) -> Iterable[str]:
        """Every stored key (the saved games are found by their keys, not an index)."""
        ...


class MemoryStorage(dict[str, str]):
    """A ``Storage`` kept in memory: a fresh device's, for the benchmarks and tests that
    drive the controllers in CPython (nothing survives the process)."""

    def get(self, key: str) -> str | None:  # type: ignore[override]
        """The stored text, or None."""
        return dict.get(self, key)

    def set(self, key: str, value: str) -> None:
        """Store text."""
        self[key] = value

    def remove(self, key: str) -> None:
        """Forget a key."""
        self.pop(key, None)
