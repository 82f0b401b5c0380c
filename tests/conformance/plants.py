"""Planted leaks the leak checks must keep finding, shared by the engine and room suites.

Each plant patches a registered game for one test (``monkeypatch`` undoes it) so
that its views leak, while the game's own ``secrets()`` list says nothing is wrong:
checks that trust the game miss them; checks that resample what a seat cannot
see do not.
"""

from __future__ import annotations

from typing import Any

import pytest

from quandary import engine


def every_hand(monkeypatch: pytest.MonkeyPatch, game_id: str) -> str:
    """Every view shows every player's hand; the game's secrets are cut to the generator."""
    game = engine.get(game_id)
    honest = game.view

    def view(state: Any, seat: int | None) -> dict[str, Any]:
        return honest(state, seat) | {"all_hands": [list(h) for h in state.hands]}

    monkeypatch.setattr(game, "view", view)
    monkeypatch.setattr(game, "secrets", lambda state, seat: {str(state.rng)})
    return game_id


def pending_duel_for_spectators(monkeypatch: pytest.MonkeyPatch) -> str:
    """Dilemma's spectator view shows the duel choices before both are in."""
    game = engine.get("randolph")
    honest = game.view

    def view(state: Any, seat: int | None) -> dict[str, Any]:
        out = honest(state, seat)
        if seat is None and state.duel is not None:
            out["pending_choices"] = list(state.duel.choices)
        return out

    monkeypatch.setattr(game, "view", view)
    return "randolph"
