"""What a seat sees of a game of Dilemma, as plain JSON.

Every card played is seen by everyone, so all seats get the same table. The
one thing held back is a duellist's choice until both have chosen: the view
shows only who has chosen (``submitted``), never what.
"""

from __future__ import annotations

from typing import Any

from . import arena
from .state import RandolphState, RoundResult, Throw, starting_lives


def entry_json(t: Throw, leading: bool) -> dict[str, Any]:
    """One card in the arena: who threw what, how, where it rests and its fate."""
    return landed_json(t) | {"flight": t.flight, "leading": leading}


def landed_json(t: Throw) -> dict[str, Any]:
    """A throw as events and finished rounds tell it: where it rests and, once settled, why."""
    return {
        "seat": t.seat,
        "card": t.card,
        "window": t.window,
        "landing": t.landing,
        "x": t.x / 1000,
        "y": t.y / 1000,
        "rotation": t.rotation,
        "at": t.at,
        "land_at": t.land_at,
        "status": t.status,
        "reason": t.reason,
    }


def result_json(r: RoundResult, with_arena: bool = True) -> dict[str, Any]:
    """A finished round, for the milestone screens (the round_over event leaves out the arena)."""
    duel = None
    if r.opponent is not None:
        duel = {
            "seats": [r.provocateur, r.opponent],
            "challenge": r.challenge,
            "card": r.card,
            "choices": list(r.choices),
        }
    return {
        "round": r.round,
        "provocateur": r.provocateur,
        "challenge": r.challenge,
        "second_window": r.second_window,
        "duel": duel,
        "outcome": r.outcome,
        "winner": r.winner,
        "gains": [list(g) for g in r.gains],
        "lives_lost": list(r.lives_lost),
        "reason": r.reason,
    } | ({"arena": [landed_json(t) for t in r.throws]} if with_arena else {})


def table_view(state: RandolphState, title: str, timing: arena.Timing) -> dict[str, Any]:
    """The public table (the same for every seat)."""
    number = 2 if state.window is not None and state.window.second else 1
    open_now = state.phase == "react"
    leading = None
    if open_now and state.challenge is not None:
        current = arena.current(state.arena, number)
        index = arena.duelling_index(current, state.challenge)
        leading = current[index] if index is not None else None
    window = None
    if state.window is not None:
        throws = arena.current(state.arena, number)
        window = {
            "id": state.window.id,
            "deadline": arena.deadline(throws, timing),
            "release_limit": arena.release_limit(throws, timing),
            "second": state.window.second,
            "opened_round": state.window.opened_round,
            "grace": timing.grace,
            "cap": timing.cap,
            "lead": timing.lead,
        }
    duel = None
    submitted = [False] * state.players
    if state.duel is not None:
        seats = [state.provocateur, state.duel.opponent]
        duel = {"seats": seats, "challenge": state.challenge, "card": state.duel.card}
        for seat, choice in zip(seats, state.duel.choices, strict=True):
            submitted[seat] = choice is not None
    return {
        "title": title,
        "options": state.options,
        "provocateur": state.provocateur,
        "hands": [list(h) for h in state.hands],
        "lives": list(state.lives),
        "lives_start": starting_lives(state.players),
        "won": [[c.value for c in pile] for pile in state.won],
        "removed": [
            sorted(c.value for c in state.removed if c.owner == s) for s in range(state.players)
        ],
        "challenge": state.challenge,
        "two_left": state.two_left,
        "window": window,
        "arena": [entry_json(t, t is leading) for t in state.arena],
        "duel": duel,
        "submitted": submitted,
        "history": [result_json(r) for r in state.history],
    }
