"""Dealing again, for every game: an heir's possible world hides what it must, openings fit.

A room's host leaves each heir a possible world (``dealing.redeal`` for the
heir's seat alone) and, when it is gone, the successor puts back what present
owners tell it (``reinstate``) and deals the rest again (``redeal`` for all of
them). Checked here, at sampled steps of random playouts:

- a seat kept cannot tell the dealt state from the real one (its view, and the
  spectator's, is unchanged, and so is its own hidden part);
- a world depends on nothing its seat could not know: dealt with the same seed
  from the tests' own resampling of what that seat cannot see (``resample``,
  never the game's ``secrets``), it comes out the same, so pooling the worlds
  of several seats tells those seats nothing beyond their own views;
- cards are conserved and the game plays on from a dealt state;
- the successor's table, rebuilt from its own world and the others' openings,
  shows every present seat exactly what it saw.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from quandary import engine
from quandary.engine import CorruptState, dealing

from .playout import pick_move, play, tables
from .resample import first_difference, resample

GAMES = engine.all_games()
PLAYOUTS = {"royal": 300}
"""Playouts per game (40 unless named): Royal Dilemma's are short, and a surrender
between two seats (whose cards only those two have seen) comes up in few of them."""
SAMPLE_RATE = 1 / 4


def _ids(game: engine.Game) -> str:
    return game.spec.id


@pytest.mark.parametrize("game", GAMES, ids=_ids)
def test_dealing_again_hides_what_it_must_and_keeps_what_is_known(game: engine.Game) -> None:
    checked = 0
    playouts = PLAYOUTS.get(game.spec.id, 40)
    for seed, players, options in tables(game, playouts):
        state = engine.setup(game.spec.id, players, options, seed)
        chooser = random.Random(seed)
        sampler = random.Random(-seed)
        for _ in range(game.spec.max_moves_per_seat * players + 1):
            if sampler.random() < SAMPLE_RATE:
                _check_state(state, sampler)
                checked += 1
            picked = pick_move(state, chooser)
            if picked is None:
                break
            state = play(state, *picked)
    assert checked > playouts, "too few states were checked to mean anything"


def _check_state(state: Any, rng: random.Random) -> None:
    players = state.players
    heir = rng.randrange(players)
    seed = rng.getrandbits(48)
    world = dealing.redeal(state, {heir}, seed)
    _same_for(state, world, [heir, None], "an heir's world")
    assert dealing.hidden(world, heir) == dealing.hidden(state, heir)

    blind = resample(state, heir, rng)
    again = dealing.redeal(blind, {heir}, seed)
    moved = first_difference(engine.to_json(world), engine.to_json(again), "world")
    assert moved is None, f"seat {heir}'s world depends on what it cannot know: {moved}"

    present = [s for s in range(players) if s != heir and rng.random() < 0.5]
    parts = {s: dealing.hidden(state, s) for s in present}
    parts[heir] = dealing.hidden(world, heir)
    rebuilt = dealing.reinstate(world, parts)
    _same_for(state, rebuilt, [heir, *present, None], "the successor's table")

    final = dealing.redeal(rebuilt, {heir, *present}, rng.getrandbits(48))
    _same_for(state, final, [heir, *present, None], "the successor's deal")
    _plays_on(final, rng)


def _same_for(real: Any, dealt: Any, viewers: list[int | None], what: str) -> None:
    """Each viewer sees ``dealt`` exactly as it saw ``real``."""
    for viewer in viewers:
        moved = first_difference(engine.view(real, viewer), engine.view(dealt, viewer))
        assert moved is None, f"{what} changed what seat {viewer} sees: {moved}"


def _plays_on(state: Any, rng: random.Random) -> None:
    """A few random moves from a dealt state, each accepted as from any state."""
    for _ in range(6):
        picked = pick_move(state, rng)
        if picked is None:
            return
        state = play(state, *picked)


@pytest.mark.parametrize("game", GAMES, ids=_ids)
def test_a_part_a_seat_could_not_hold_is_refused(game: engine.Game) -> None:
    """Another seat's part told as one's own is refused (or, if both could hold it, exact)."""
    refused = 0
    for seed, players, options in tables(game, 12):
        state = engine.setup(game.spec.id, players, options, seed)
        chooser = random.Random(seed)
        for _ in range(3 * players):
            picked = pick_move(state, chooser)
            if picked is None:
                break
            state = play(state, *picked)
        world = dealing.redeal(state, {0}, seed)
        mine, theirs = dealing.hidden(state, 0), dealing.hidden(state, 1)
        if mine == theirs:
            continue  # nothing hidden to tell apart (no duel in progress, say)
        if game.spec.id in INTERCHANGEABLE and _holds(world, theirs):
            continue
        with pytest.raises(CorruptState):
            dealing.reinstate(world, {0: theirs})
        refused += 1
    if game.spec.id != "randolph" and game.spec.id not in INTERCHANGEABLE:
        # Only a duel choice is ever hidden in Dilemma (randolph).
        assert refused, "no state had parts to tell apart"


INTERCHANGEABLE = {"pebbles"}
"""Games where seat 0 may truly hold seat 1's part: in Pebbles (the test-only game)
every pebble in a hand is unseen by others and hands are as large as each other,
so between rounds seat 1's hand is one seat 0 could hold. There the part must be
put back exactly; a refusal is still demanded when it cannot be."""


def _holds(world: Any, part: Any) -> bool:
    """Whether seat 0 of ``world`` is given ``part`` exactly (``reinstate`` checks that
    itself, so it either refuses or holds it as told)."""
    try:
        out = dealing.reinstate(world, {0: part})
    except CorruptState:
        return False
    assert dealing.hidden(out, 0) == part
    return True
