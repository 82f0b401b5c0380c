"""Reading the table: active laws, their effects, storage room, scores.

Pure queries on a ``MinisterState``; the turn logic and the views both ask here,
so a rule such as "a law with more NO than YES votes on it is disabled" is
written once.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType

from . import laws
from .laws import Effects, Holding
from .material import CARDS, SUPPORT, VOTES
from .state import Enacted, MinisterState, Won, replace
from .view_types import ScoreCause, ScoreChanged


def disabled(law: Enacted) -> bool:
    """Undecided Voters: a law with more NO than YES votes on it is not followed.

    An ABSTAIN vote on a law counts for neither side, whatever laws say about
    counting abstain votes (RULINGS §3): it is moved, not cast.
    """
    if not law.votes:
        return False
    yes = sum(VOTES[v].kind == "yes" for v in law.votes)
    no = sum(VOTES[v].kind == "no" for v in law.votes)
    return no > yes


def active_laws(state: MinisterState) -> list[str]:
    """Enacted laws that are followed now, in the order they were enacted."""
    return list(_active(state.laws))


@functools.lru_cache(maxsize=1024)
def _active(enacted: tuple[Enacted, ...]) -> tuple[str, ...]:
    """Cached: every legal move list, transition and view asks, and laws rarely change."""
    return tuple(law.card for law in enacted if not law.votes or not disabled(law))


def effects(state: MinisterState) -> Effects:
    """What the active laws change about play."""
    return laws.effects(_active(state.laws))


def holding(state: MinisterState, seat: int) -> Holding:
    """What ``seat`` shows, as the scoring laws read it."""
    return Holding(
        tuple((w.card, w.green) for w in state.won[seat]),
        state.abstains[seat],
        state.bonus[seat],
    )


def scores(state: MinisterState) -> list[int]:
    """Every player's points at this moment."""
    active = active_laws(state)
    return [laws.score(active, holding(state, s))[0] for s in range(state.players)]


def stored(state: MinisterState, seat: int) -> list[str]:
    """The vote ids stored on ``seat``'s won cards."""
    return [v for w in state.won[seat] for v in w.votes]


def support(state: MinisterState, seat: int) -> int:
    """Support icons on ``seat``'s cards: green sides add, red sides subtract."""
    total = 0
    for w in state.won[seat]:
        icons = CARDS[w.card].icons(w.green)
        total += icons.count(SUPPORT) * (1 if w.green else -1)
    return total


def room(state: MinisterState, seat: int, fx: Effects | None = None) -> dict[str, int]:
    """Free storage per won card of ``seat`` (only cards with room are listed)."""
    fx = fx or effects(state)
    out = {}
    for w in state.won[seat]:
        free = fx.capacity(CARDS[w.card]) - len(w.votes)
        if free > 0:
            out[w.card] = free
    return out


def owner(state: MinisterState, card_id: str) -> int | None:
    """The seat that has won ``card_id``, if anyone has."""
    for seat, cards in enumerate(state.won):
        if any(w.card == card_id for w in cards):
            return seat
    return None


def won_card(state: MinisterState, seat: int, card_id: str) -> Won | None:
    """``seat``'s won card with this id, if it has it."""
    return next((w for w in state.won[seat] if w.card == card_id), None)


def vote_home(state: MinisterState, seat: int, vote: str) -> str | None:
    """The card of ``seat`` on which ``vote`` is stored."""
    return next((w.card for w in state.won[seat] if vote in w.votes), None)


def with_won(state: MinisterState, seat: int, cards: tuple[Won, ...]) -> MinisterState:
    """The state with ``seat``'s won cards replaced."""
    won = list(state.won)
    won[seat] = cards
    return replace(state, won=tuple(won))


def without_votes(cards: tuple[Won, ...], gone: set[str]) -> tuple[Won, ...]:
    """Won cards with the given votes taken off them."""
    return tuple(
        Won(w.card, w.green, tuple(v for v in w.votes if v not in gone))
        if gone.intersection(w.votes)
        else w
        for w in cards
    )


def next_seat(state: MinisterState, seat: int) -> int:
    """The next seat clockwise (in seat order)."""
    return (seat + 1) % state.players


def round_from(state: MinisterState, seat: int) -> tuple[int, ...]:
    """Every seat once, in seat order starting at ``seat``."""
    return tuple((seat + i) % state.players for i in range(state.players))


Sheet = tuple[int, Mapping[str, tuple[str, int]]]
"""A seat's total and its points per law (law id -> (title, points))."""


def score_sheets(state: MinisterState) -> tuple[Sheet, ...]:
    """Every seat's total and its points per law at this moment."""
    active = _active(state.laws)
    return tuple(_sheet(active, holding(state, seat)) for seat in range(state.players))


@functools.lru_cache(maxsize=4096)
def _sheet(active: tuple[str, ...], held: Holding) -> Sheet:
    """Cached: every move compares the sheets before and after it, and most moves
    change no seat's holding (a vote, a pick), so the same sheets come back."""
    total, lines = laws.score(active, held)
    per_law: dict[str, tuple[str, int]] = {}
    for line in lines:
        title = str(line.to_json()["title"])
        old = per_law.get(line.law, (title, 0))[1]
        per_law[line.law] = (title, old + line.points)
    return total, MappingProxyType(per_law)


def score_changes(before: tuple[Sheet, ...], state: MinisterState) -> list[ScoreChanged]:
    """One public record per seat whose score moved: from, to, and each law's share of it.

    Scores are recomputed from the laws in force and the cards on the table, so
    a jump (8 to 21 when a law is enacted) has no single "add" to point at;
    comparing each law's points before and after names every cause.
    """
    out: list[ScoreChanged] = []
    for seat, ((old, was), (new, now)) in enumerate(zip(before, score_sheets(state), strict=True)):
        if old == new:
            continue
        causes: list[ScoreCause] = []
        for law in dict.fromkeys([*was, *now]):
            title = (now.get(law) or was[law])[0]
            delta = now.get(law, (title, 0))[1] - was.get(law, (title, 0))[1]
            if delta:
                causes.append({"law": law, "title": title, "points": delta})
        out.append({"seat": seat, "before": old, "after": new, "laws": causes})
    return out
