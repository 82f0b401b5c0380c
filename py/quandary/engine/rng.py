"""Seeded randomness that lives inside the game state.

The generator's whole state is one 64-bit integer (SplitMix64), so it
round-trips through JSON, replays identically in CPython and Pyodide, and never
depends on the global ``random`` module or the clock.

>>> r = Rng.from_seed(7)
>>> a = r.randbelow(10)
>>> Rng.from_seed(7).randbelow(10) == a
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class Rng:
    """A small mutable generator, used inside one transition and then stored back.

    Rules create it from ``state.rng``, draw, and put ``rng.state`` into the new
    state, so the state value itself stays immutable.
    """

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        """Spread any integer seed over the 64-bit state space."""
        return cls(_mix((seed * _GOLDEN) & _MASK) ^ 0x5DEECE66D)

    def next64(self) -> int:
        """The next raw 64-bit output."""
        self.state = (self.state + _GOLDEN) & _MASK
        return _mix(self.state)

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``range(n)``, without modulo bias."""
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in ``[low, high]``, both ends included."""
        return low + self.randbelow(high - low + 1)

    def random(self) -> float:
        """A float in [0, 1) with 53 bits of precision."""
        return (self.next64() >> 11) / float(1 << 53)

    def choice(self, items: Sequence[T]) -> T:
        """One item, uniformly."""
        return items[self.randbelow(len(items))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A Fisher-Yates shuffled copy of ``items``."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.randbelow(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def fork(self, salt: int) -> Rng:
        """An independent generator derived from this one and ``salt``.

        Bots use forks so that their choices never advance the game's own stream.
        """
        return Rng(_mix(self.state ^ _mix((salt * _GOLDEN) & _MASK)))
