"""What each seat sees of a game of Maybe Minister, and what it must never see.

Stored votes are face down: their owner sees them, everyone else sees how many
lie on each card. A cast vote stays hidden until everyone has voted; the
reveal then shows every vote by number and kind (never by card id). Hands are
counts for everyone but their owner; the decks are counts.
"""

from __future__ import annotations

import functools
from collections import Counter
from typing import cast

from quandary.engine import Progress

from . import board, laws
from .faces import face as _card
from .material import CARDS, VOTES
from .state import TARGET, MinisterState
from .view_types import (
    LawInForce,
    MinisterEffects,
    MinisterOptions,
    MinisterOwnView,
    MinisterReveal,
    OwnVote,
    PublicVote,
    WonCard,
)


def vote_json(vote: str) -> OwnVote:
    """A vote card its owner may see."""
    v = VOTES[vote]
    return {"id": v.id, "kind": v.kind, "number": v.number}


def public_vote(vote: str) -> PublicVote:
    """A vote shown face up: number and kind only."""
    v = VOTES[vote]
    return {"kind": v.kind, "number": v.number}


_RECENT: list[tuple[MinisterState, tuple[MinisterOwnView, tuple[int, ...]]]] = []
"""The last few states whose public part was built, with that part and the scores:
every seat's view of one state shares them, and a room or a test asks for all of
them at once, sometimes for two or three states in turn (the engine asks for the
scores once per view, for the header). Kept by identity: states are immutable."""
RECENT = 4


def _shared(state: MinisterState) -> tuple[MinisterOwnView, tuple[int, ...]]:
    """The public part of ``state``'s views and its scores, built once per state."""
    for known, built in _RECENT:
        if known is state:
            return built
    built = _public(state)
    _RECENT.insert(0, (state, built))
    del _RECENT[RECENT:]
    return built


def progress(state: MinisterState) -> Progress:
    """Turns, not rounds, and no bound: the game ends at a turn's end with someone at the target."""
    return Progress(state.phase, state.turn, None, False, _shared(state)[1])


def view(state: MinisterState, seat: int | None) -> MinisterOwnView:
    """The table as ``seat`` may know it (``None``: a spectator)."""
    out = _shared(state)[0].copy()
    if seat is not None:
        tables = list(out["tables"])
        tables[seat] = _table(state, seat, True, board.effects(state))
        out["tables"] = tables
        out["hand"] = list(state.hands[seat])
        out["my_vote"] = state.ballots[seat] if state.phase == "vote" else None
        out["drawn"] = [vote_json(v) for v in state.drawn] if state.actor == seat else []
    return out


def _public(state: MinisterState) -> tuple[MinisterOwnView, tuple[int, ...]]:
    """What every seat sees alike, and the scores (the header's, so not in the view)."""
    active = board.active_laws(state)
    fx = laws.effects(active)
    explained = [laws.score(active, board.holding(state, s)) for s in range(state.players)]
    out: MinisterOwnView = {
        "title": "Maybe Minister",
        "turn": state.turn,
        "proposer": state.proposer,
        "actor": state.actor,
        "options": cast(MinisterOptions, state.options),
        "target": TARGET,
        "explain": [[line.to_json() for line in lines if line.points] for _, lines in explained],
        "hand_counts": [len(h) for h in state.hands],
        "deck": len(state.deck),
        "discard": len(state.discard),
        "vote_deck": len(state.vote_deck),
        "vote_discard": len(state.vote_discard),
        "laws": [_law(e.card, e.votes, e.card in active) for e in state.laws],
        "tables": [_table(state, s, False, fx) for s in range(state.players)],
        "support": [board.support(state, s) for s in range(state.players)],
        "starters": list(state.starters),
        "abstains": list(state.abstains),
        "bonus": list(state.bonus),
        "proposal": list(state.proposal),
        "submitted": [b is not None for b in state.ballots] if state.phase == "vote" else [],
        "reveal": _reveal(state),
        "reveals": state.reveals,
        "picks": list(state.picks) if state.phase == "pick" else [],
        "pick_at": state.pick_at,
        "drawn_count": len(state.drawn),
        "owed": state.owed,
        "traded": state.traded,
        "effects": _effects(fx),
    }
    return out, tuple(total for total, _ in explained)


def _law(card_id: str, votes: tuple[str, ...], active: bool) -> LawInForce:
    out: LawInForce = {"card": card_id, "active": active}
    if votes:
        kinds = Counter(VOTES[v].kind for v in votes)
        out["yes"], out["no"] = kinds["yes"], kinds["no"]
        out["votes"] = [public_vote(v) for v in votes]
    return out


def _table(state: MinisterState, seat: int, mine: bool, fx: laws.Effects) -> list[WonCard]:
    rows = []
    for w in state.won[seat]:
        cap = fx.capacity(CARDS[w.card])
        row: WonCard = {
            "card": w.card,
            "green": w.green,
            "stored": len(w.votes),
            "room": max(0, cap - len(w.votes)),
        }
        if mine:
            row["votes"] = [vote_json(v) for v in w.votes]
        rows.append(row)
    return rows


def _reveal(state: MinisterState) -> MinisterReveal | None:
    r = state.reveal
    if r is None:
        return None
    from .turn import reveal_json

    return {**reveal_json(r), "index": state.reveals - 1}


def _effects(fx: laws.Effects) -> MinisterEffects:
    return {
        "hand_size": fx.hand_size,
        "proposal_min": fx.proposal_min,
        "proposal_max": fx.proposal_max,
        "tie_passes": fx.tie_passes,
        "reverse_order": fx.reverse_order,
        "proposer_weight": fx.proposer_weight,
        "trade_votes": fx.trade_votes,
        "collect_bonus": fx.collect_bonus,
        "abstain_counts_as": fx.abstain_counts_as,
        "abstain_takes": fx.abstain_takes,
        "proposer_may_abstain": fx.proposer_may_abstain,
    }


@functools.cache
def _unique_texts() -> frozenset[str]:
    """Card texts printed on exactly one card: only those identify a card."""
    texts = Counter(_card(c).get("text", "") for c in CARDS)
    return frozenset(t for t, n in texts.items() if n == 1 and t)


@functools.cache
def _card_secrets(card_id: str) -> frozenset[str]:
    """What names a card: its id, its name and its text if no other card has it."""
    c = _card(card_id)
    out = {card_id, c["name"]}
    if c.get("text") in _unique_texts():
        out.add(c["text"])
    return frozenset(out)


def secrets(state: MinisterState, seat: int | None) -> set[str]:
    """Other hands, both decks, others' stored, drawn and cast votes: never in the view."""
    hidden = {str(state.rng)}
    for c in state.deck:
        hidden |= _card_secrets(c)
    hidden |= set(state.vote_deck)
    for other in range(state.players):
        if other == seat:
            continue
        for c in state.hands[other]:
            hidden |= _card_secrets(c)
        hidden |= set(board.stored(state, other))
        ballot = state.ballots[other]
        if ballot is not None:
            hidden.add(ballot)
    if state.actor != seat:
        hidden |= set(state.drawn)
    return hidden
