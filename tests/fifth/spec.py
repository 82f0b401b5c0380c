"""Pebbles' spec: what the lobby and the setup need, without its rules.

Pebbles is a game for the tests only (``tests/fifth``): it proves that a game
registers itself and runs through the conformance suite with nothing in ``py/``
naming it. Its rules are in ``rules.py``; this module is all the registry needs.
"""

from __future__ import annotations

from quandary.engine.spec import GameSpec, Option

NUMBERS = range(1, 9)
"""The numbers on the pebbles: 1 to 8."""
COPIES = "abc"
"""Three pebbles of each number, told apart by a letter (``"p5b"``), so that two
players can throw the same number and cancel each other out."""
HAND = 3
"""Pebbles in a hand after the deal, and after every draw."""

SPEC = GameSpec(
    id="pebbles",
    title="Pebbles",
    tagline="Throw your highest pebble, unless someone else throws the same.",
    min_players=2,
    max_players=4,
    options=(
        Option(
            "rounds",
            "Rounds",
            "How many rounds to play, if the bag lasts that long.",
            "choice",
            "3",
            (("3", "Three rounds"), ("5", "Five rounds")),
        ),
    ),
    simultaneous=True,
    hidden_information=True,
    # One pick a round, and at most five rounds.
    max_moves_per_seat=5,
    secret_moves=frozenset({"pick"}),
)


def bag() -> tuple[str, ...]:
    """Every pebble, in the bag's fixed order before shuffling (number, then letter)."""
    return tuple(f"p{n}{c}" for n in NUMBERS for c in COPIES)


def number(pebble: str) -> int:
    """The number on a pebble: ``number("p5b") == 5``."""
    return int(pebble[1:-1])


def rounds_at(players: int, wanted: int) -> int:
    """How many rounds a game lasts: ``wanted``, or fewer if the bag runs out first.

    After the deal the bag holds ``24 - 3 * players`` pebbles and every round but
    the last draws one for each player.

    >>> rounds_at(2, 5), rounds_at(4, 3), rounds_at(4, 5)
    (5, 3, 4)
    """
    left = len(bag()) - HAND * players
    return min(wanted, 1 + left // players)
