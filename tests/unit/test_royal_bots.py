"""Royal Dilemma's bots: always legal, true to their characters, and the Clever one wins.

The characters read the public history in their view: these tests play a
round by hand and check what each character does next.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from quandary import engine
from quandary.bots import levels, make_bot
from quandary.engine import Rng
from quandary.games.royal.cards import card_points, value_deck
from quandary.games.royal.state import RoyalState
from quandary.table import Seat, Table

GAME = "royal"
LEVELS = list(levels(GAME))
ACE, JACK, QUEEN = range(3)


def _play(seed: int, seats: list[str]) -> dict:
    """A whole game played by the table; a bot move not among those offered would raise."""
    table = Table.new(GAME, [Seat(f"{i}", "bot", level) for i, level in enumerate(seats)], {}, seed)
    table.play_bots(limit=engine.get(GAME).spec.max_moves_per_seat * len(seats))
    result = engine.result(table.state)
    assert result is not None, "the game did not end"
    return result


def test_every_level_is_offered_with_a_label() -> None:
    assert LEVELS[:2] == ["random", "heuristic"]
    assert levels(GAME)["heuristic"] == "Clever"
    assert {"builder", "tit_for_tat", "forgiving", "opportunist"} <= set(LEVELS)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_bot_moves_legally_at_every_table_size(players: int) -> None:
    for i, level in enumerate(LEVELS):
        others = [LEVELS[(i + k) % len(LEVELS)] for k in range(1, players)]
        _play(300 + 10 * players + i, [level, *others])


def test_a_bot_game_replays_identically_from_its_seed() -> None:
    seats = ["heuristic", "forgiving", "random"]
    assert _play(77, seats) == _play(77, seats)


def test_the_clever_bot_beats_random_clearly() -> None:
    wins = 0.0
    games = 0
    for seed in range(30):
        for seat in (0, 1):
            seats = ["random", "random"]
            seats[seat] = "heuristic"
            result = _play(1000 + seed, seats)
            wins += seat in result["winners"] and 1 / len(result["winners"])
            games += 1
    assert wins / games >= 0.85
    # Against three random bots, far above the 25% a random seat would win.
    share = 0.0
    for seed in range(16):
        seats = ["random"] * 4
        seats[seed % 4] = "heuristic"
        result = _play(2000 + seed, seats)
        share += (seed % 4) in result["winners"] and 1 / len(result["winners"])
    assert share / 16 >= 0.45


# -- characters ------------------------------------------------------------------------


def _table(realms: list[list[str]], hands: list[list[str]]) -> RoyalState:
    state = engine.setup(GAME, len(realms), {}, seed=1)
    used = {c for zone in realms + hands for c in zone}
    return replace(
        state,
        realms=tuple(tuple(r) for r in realms),
        hands=tuple(tuple(h) for h in hands),
        deck=tuple(c for c in value_deck() if c not in used),
    )


def _after_jack_invades_ace() -> RoyalState:
    """Round 1: the Jack invades the Ace (nothing in reach), the others build."""
    state = _table([["10D"], ["6H"], ["2H"]], [["7S", "3H"], ["2C", "9D"], ["5H", "8S"]])
    for seat, move in enumerate(
        [
            {"type": "choose", "target": "AS", "value": "7S"},
            {"type": "choose", "target": "AC", "value": "2C"},
            {"type": "choose", "target": "QH", "value": "5H"},
        ]
    ):
        state = engine.apply(state, seat, move)
    assert state.round == 2 and state.stage == "choose"
    return state


def _choice(level: str, state: RoyalState, seat: int, salt: int = 0) -> dict:
    return make_bot(GAME, level).choose(engine.view(state, seat), Rng.from_seed(salt))


def test_the_builder_always_builds_its_most_valuable_card() -> None:
    state = _after_jack_invades_ace()
    move = _choice("builder", state, ACE)
    assert move["target"] == "AS"
    hand = engine.view(state, ACE)["hand"]
    assert card_points(move["value"], ACE) == max(card_points(c, ACE) for c in hand)


def test_tit_for_tat_invades_whoever_invaded_it_last_round() -> None:
    state = _after_jack_invades_ace()
    assert _choice("tit_for_tat", state, ACE)["target"] == "JS"
    # The Queen was left alone: it builds.
    assert _choice("tit_for_tat", state, QUEEN)["target"] == "QH"
    # Round 1 has no history: tit for tat opens by building.
    fresh = engine.setup(GAME, 2, {}, seed=3)
    assert _choice("tit_for_tat", fresh, ACE)["target"] == "AS"


def test_forgiving_retaliates_at_most_once_in_a_row_and_sometimes_not_at_all() -> None:
    state = _after_jack_invades_ace()
    picks = {_choice("forgiving", state, ACE, salt)["target"] for salt in range(30)}
    assert picks == {"AS", "JS"}, "it retaliates, but not every time"
    # After retaliating, it offers peace even if invaded again.
    moves = [
        {"type": "choose", "target": "JS", "value": engine.view(state, ACE)["hand"][0]},
        {"type": "choose", "target": "AC", "value": engine.view(state, JACK)["hand"][0]},
        {"type": "pass"},
    ]
    for seat, move in enumerate(moves):
        state = engine.apply(state, seat, move)
    while state.stage == "capture":
        state = engine.apply(state, state.capture.step.seat, {"type": "decline"})
    if state.stage == "choose":
        assert all(_choice("forgiving", state, ACE, s)["target"] == "AS" for s in range(10))


def test_the_grudger_never_forgets() -> None:
    state = _after_jack_invades_ace()
    assert _choice("grudger", state, ACE)["target"] == "JS"
    assert _choice("grudger", state, QUEEN)["target"] == "QH"


def test_the_opportunist_invades_the_rival_with_the_fewest_cards() -> None:
    state = _table([["4D"], ["6H"], ["2H"]], [["7S", "3H"], ["2C"], ["5H", "8S", "9D"]])
    assert _choice("opportunist", state, ACE)["target"] == "JS"
    assert _choice("opportunist", state, QUEEN)["target"] == "JH"


def test_every_character_captures_the_card_that_swings_most() -> None:
    state = _table([["4D"], ["6H", "5C", "9D"]], [["10S"], ["2C"]])
    state = engine.apply(state, ACE, {"type": "choose", "target": "JS", "value": "10S"})
    state = engine.apply(state, JACK, {"type": "pass"})
    assert state.stage == "capture"
    # Swings: 9♦ 9 + 9 = 18; 5♣ 5 + 10 (Clubs, the Jack's suit) = 15; 6♥ 6 + 6 = 12.
    for level in LEVELS[1:]:
        assert _choice(level, state, ACE) == {"type": "capture", "card": "9D"}, level
