"""The reaction window: its timing, landing order and which card duels.

As static/rules/dilemma.html, 'Rulings', says: the window closes 2 s after
the last card landed or 8 s after it opened, whichever is first (the "window"
option tunes both: "relaxed", the default, gives a newcomer 4 s and 15 s). Before
it opens, every device counts down "3, 2, 1, throw!" (``Timing.lead``, kept by
the table's clock, not by the rules: a throw's ``at`` counts from "throw!"). One
refinement of ours: a card released before the window's end is allowed to
land, so a card still in the air holds the window open until it rests. Nobody
may release a card after the window's end (``release_limit``).

The duelling card is the first card to come to rest flat in the arena whose
value differs from the challenge card. Flat cards of the challenge card's value
that landed before it are invalid; every other thrown card is removed from the
game. With only two players holding cards, every thrown card that does not duel
(missed, invalid or later) goes back to the thrower's hand instead, so the last
opponent cannot throw cards away to cut the provocateur's winnings.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .state import Status, Throw

MIN_GAP = 250
"""Least ms between two throws of the same player: hands are not faster, and so
a window holds finitely many throws."""


@dataclass(frozen=True)
class Timing:
    """A reaction window's constants, in ms."""

    grace: int
    """How long the window stays open after the last card landed."""
    cap: int
    """How long after opening the window closes at the latest."""
    lead: int = 3000
    """The countdown before the window opens, so nobody is caught unready."""


TIMINGS = {
    "first": Timing(grace=7000, cap=25000, lead=5000),
    "relaxed": Timing(grace=4000, cap=15000),
    "standard": Timing(grace=2000, cap=8000),
    "quick": Timing(grace=1500, cap=6000),
}
"""Per "window" option. "relaxed" and "standard" are what earlier saves hold, so
their numbers must never change (a record replays by them). "first" is a first
game's pace: a five-second countdown, and a card down in time even for someone
who still has to think where the arena is and how a flick feels."""


def landing_order(throws: tuple[Throw, ...], provocateur: int, players: int) -> tuple[Throw, ...]:
    """Throws sorted by window, then by the moment they came to rest.

    Equal landing times go to the earlier release, then to the seat nearer the
    provocateur's left, so the order never depends on arrival at the authority.
    """
    return tuple(
        sorted(
            throws,
            key=lambda t: (t.window, t.land_at, t.at, (t.seat - provocateur) % players),
        )
    )


def current(arena: tuple[Throw, ...], window: int) -> tuple[Throw, ...]:
    """The throws of the open window (``window`` is 1 or 2 within the round)."""
    return tuple(t for t in arena if t.window == window)


def deadline(throws: tuple[Throw, ...], timing: Timing) -> int:
    """When the window with these throws closes, in ms after it opened."""
    if not throws:
        return timing.cap
    last = max(t.land_at for t in throws)
    return max(min(last + timing.grace, timing.cap), last)


def release_limit(throws: tuple[Throw, ...], timing: Timing) -> int:
    """The latest moment a card may still be released in this window."""
    return min(deadline(throws, timing), timing.cap)


def earliest_release(throws: tuple[Throw, ...], seat: int) -> int:
    """The first moment ``seat`` may release its next card in this window."""
    own = [t.at for t in throws if t.seat == seat]
    return max(own) + MIN_GAP if own else 0


def floor(throws: tuple[Throw, ...]) -> int:
    """The latest release recorded, so a reloaded authority counts on from there."""
    return max((t.at for t in throws), default=0)


def duelling_index(throws: tuple[Throw, ...], challenge: int) -> int | None:
    """The position (in landing order) of the card that duels, if any."""
    for i, t in enumerate(throws):
        if t.landing == "flat" and t.card != challenge:
            return i
    return None


def settle(throws: tuple[Throw, ...], challenge: int, two_left: bool) -> tuple[Throw, ...]:
    """The window's throws with their final status and the reason for it.

    The reason says how the card lay ("outside", "same_value", "late", ...); the
    status what becomes of it, which with two players left is always "returned"
    unless it duels.
    """
    winner = duelling_index(throws, challenge)
    settled = []
    for i, t in enumerate(throws):
        status: Status
        reason: str
        if i == winner:
            status, reason = "duelling", "first_valid"
        elif t.landing != "flat":
            status, reason = "removed", t.landing
        elif winner is not None and i > winner:
            status, reason = "removed", "late"
        else:
            status, reason = "invalid", "same_value"
        if two_left and status != "duelling":
            status = "returned"
        settled.append(replace(t, status=status, reason=reason))
    return tuple(settled)
