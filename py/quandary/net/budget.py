"""Each connection's message budget on the host: a token bucket, bounded work per peer.

The page's transport already drops a flood before it is read (``static/js/gate.js``,
with the same limits from ``net/limits.json``); this is the protocol's own bound,
which holds whatever transport carries it.
"""

from __future__ import annotations

from typing import Any

from . import limits

RATE = limits.RATE
"""Messages per second a connection may send on average (a human clicks far less)."""
BURST = limits.BURST
"""Messages a connection may send at once before the rate applies."""


class Budget:
    """A token bucket per connection: ``BURST`` at once, then ``RATE`` a second."""

    def __init__(self) -> None:
        self._buckets: dict[str, tuple[float, float]] = {}

    def allows(self, peer: str, text: Any, now_ms: float) -> bool:
        """Whether ``peer`` may send ``text`` now; spends its tokens if so.

        A message costs a token per started 4 KiB, so the largest allowed message
        costs 16: a flood of big messages is cut off as soon as one of small ones,
        and checking what gets through stays cheap. An honest guest sends a few
        small messages a second (a pong per tick, a move now and then).
        """
        cost = 1 + (len(text) // 4096 if isinstance(text, str) else 0)
        now = now_ms / 1000
        tokens, since = self._buckets.get(peer, (BURST, now))
        tokens = min(BURST, tokens + max(0.0, now - since) * RATE)
        if tokens < cost:
            self._buckets[peer] = (tokens, now)
            return False
        self._buckets[peer] = (tokens - cost, now)
        return True

    def forget(self, peer: str) -> None:
        """A connection closed: its bucket goes with it."""
        self._buckets.pop(peer, None)
