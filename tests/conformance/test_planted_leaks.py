"""Planted leaks that the suite must keep finding, without the game's help.

Each test breaks a game's view on purpose (and, where the game could hide it,
its ``secrets`` list too), shows that the checks that trust the game's own
``secrets`` miss it, and that the resample check the suite runs
(``check_resampled_views``, the very function ``_playout`` calls) reports it.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from quandary import engine

from . import test_conformance as suite
from .plants import every_hand, pending_duel_for_spectators
from .playout import pick_move, play, tables
from .resample import check_resampled_views


def _states(game_id: str, playouts: int) -> list[Any]:
    """Every state of a few random playouts (the suite's own tables and move picker)."""
    game = engine.get(game_id)
    out = []
    for seed, players, options in tables(game, playouts):
        state = engine.setup(game_id, players, options, seed)
        chooser = random.Random(seed)
        while (picked := pick_move(state, chooser)) is not None:
            out.append(state)
            state = play(state, *picked)
        out.append(state)
    return out


def _caught(states: list[Any]) -> list[Any]:
    """The states that the suite's resample check rejects."""
    rng = random.Random(7)
    caught = []
    for state in states:
        try:
            check_resampled_views(state, rng)
        except AssertionError:
            caught.append(state)
    return caught


def _leaky_minister(monkeypatch: pytest.MonkeyPatch) -> None:
    every_hand(monkeypatch, "minister")


def _leaky_randolph(monkeypatch: pytest.MonkeyPatch) -> None:
    pending_duel_for_spectators(monkeypatch)


def test_the_honest_games_pass_the_resample_check_on_these_playouts() -> None:
    """The control: the same states, unplanted, raise nothing."""
    assert _caught(_states("minister", 2)[::5]) == []
    assert _caught(_states("randolph", 3)) == []


def test_a_minister_view_showing_every_hand_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    _leaky_minister(monkeypatch)
    game = engine.get("minister")
    sampled = _states("minister", 2)[::5]
    # Without the resample check: the game's own secrets list sees nothing wrong.
    for state in sampled:
        suite._check_views(game, state)
    # With it: every sampled state with cards still in the deck (so some hand
    # could have been dealt otherwise) is reported.
    caught = _caught(sampled)
    assert [s for s in sampled if s.deck] == [s for s in caught if s.deck] != []
    with pytest.raises(AssertionError, match="all_hands"):
        check_resampled_views(sampled[0], random.Random(1))


def test_a_full_minister_playout_fails_on_the_planted_leak(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The suite's own playout, exactly as ``make test`` runs it, stops at the leak."""
    _leaky_minister(monkeypatch)
    game = engine.get("minister")
    seed, players, options = next(tables(game, 1))
    with pytest.raises(AssertionError, match="depends on what its seat cannot know"):
        suite._playout(game, seed, players, options)


def test_randolphs_spectator_seeing_pending_duel_choices_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _leaky_randolph(monkeypatch)
    game = engine.get("randolph")
    halfway = [s for s in _states("randolph", 3) if s.duel and s.duel.choices.count(None) == 1]
    assert halfway, "these playouts reach a duel with one choice in"
    # Without the resample check: the secrets list and the seats' views see nothing.
    for state in halfway:
        suite._check_views(game, state)
        for seat in range(state.players):
            assert "pending_choices" not in engine.view(state, seat)
    # With it: each half-decided duel whose chooser had a real choice is reported.
    open_choices = [s for s in halfway if _had_a_choice(s)]
    assert open_choices
    assert _caught(open_choices) == open_choices


def test_the_secret_submission_check_now_watches_the_spectator(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _leaky_randolph(monkeypatch)
    state = next(s for s in _states("randolph", 3) if s.duel and s.duel.choices == (None, None))
    mover = state.provocateur
    before = {s: engine.view(state, s) for s in [*range(state.players), None] if s != mover}
    after = engine.apply(state, mover, {"type": "duel", "choice": "peace"})
    assert after.duel is not None, "the duel waits for the other choice"
    seats_only = {s: v for s, v in before.items() if s is not None}
    suite._check_secret_submission(after, seats_only)  # the seats-only check passes
    with pytest.raises(AssertionError, match="seat None learnt something via pending_choices"):
        suite._check_secret_submission(after, before)


def _had_a_choice(state: Any) -> bool:
    """A duellist has chosen who had a life left, so could have chosen conflict."""
    pairs = zip((state.provocateur, state.duel.opponent), state.duel.choices, strict=True)
    return any(choice is not None and state.lives[who] > 0 for who, choice in pairs)


PLANTED_VIEWS: dict[str, tuple[Any, str]] = {
    "a tuple": (("L1",), "not hold a tuple"),
    "a number as a key": ({1: "a"}, "key must be a string"),
    "a float JSON cannot carry": ([float("nan")], "not JSON"),
    "an infinity": ({"x": float("inf")}, "not JSON"),
    "a string subclass": (type("Name", (str,), {})("Ada"), "not hold a Name"),
    "a set": ({"a"}, "not hold a set"),
    "the RNG as a number": ("RNG", "random generator"),
    "the RNG inside a sentence": ("seed RNG here", "RNG"),
    "a card of the deck": ("DECK", "can see the secrets"),
}


@pytest.mark.parametrize("planted", PLANTED_VIEWS, ids=str)
def test_the_view_check_refuses_what_is_not_plain_json_or_is_secret(
    monkeypatch: pytest.MonkeyPatch, planted: str
) -> None:
    """The per-step check walks each view once: it must still refuse all of these."""
    game = engine.get("minister")
    state = engine.setup("minister", 3, {}, 5)
    value, why = PLANTED_VIEWS[planted]
    if value == "RNG":
        value = state.rng
    elif isinstance(value, str) and "RNG" in value:
        value = value.replace("RNG", str(state.rng))
    elif value == "DECK":
        value = {"nested": [state.deck[0]]}
    honest = game.view
    monkeypatch.setattr(game, "view", lambda s, seat: honest(s, seat) | {"planted": value})
    with pytest.raises(AssertionError, match=why):
        suite._check_views(game, state)
    monkeypatch.setattr(game, "view", honest)
    suite._check_views(game, state)  # the control: unplanted, it passes


def test_pebbles_showing_every_hand_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test-only game (``tests/fifth``) is held to the same checks as the real ones:
    with every hand in every view and its ``secrets`` cut to the generator, its own
    list sees nothing, the resample check reports every state, and the suite's
    playouts stop at the leak (a playout resamples a tenth of its steps, and a game
    of Pebbles is short, so some of the first few do)."""
    game = engine.get("pebbles")
    states = _states("pebbles", 6)
    assert _caught(states) == []  # the control: honest, nothing is reported
    every_hand(monkeypatch, "pebbles")
    for state in states:
        suite._check_views(game, state)
    assert _caught(states) == states
    stopped = 0
    for seed, players, options in tables(game, 6):
        try:
            suite._playout(game, seed, players, options)
        except AssertionError as leak:
            assert "depends on what its seat cannot know" in str(leak)
            stopped += 1
    assert stopped, "no playout stopped at the leak"
