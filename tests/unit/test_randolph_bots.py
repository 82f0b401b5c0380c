"""The Dilemma (Randolph) bots: legal, deterministic, human-paced, and better than random.

Bots in a reaction window are driven by ``Table.advance`` with a virtual clock,
exactly as the browser and the bench drive them. The table quietly drops a
planned throw that has become illegal (the window closed first), so legality is
checked where the bot decides: every move a bot returns must be one its view
offered at that moment.
"""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from typing import Any

import pytest

import quandary.games  # noqa: F401  (fills the game and bot registries)
from quandary import engine
from quandary import table as table_module
from quandary.bots import Bot, RandomBot, make_bot
from quandary.engine import Move, Rng, moves
from quandary.games.randolph.bots import REACTIONS, HeuristicBot, RandomThrower
from quandary.games.randolph.state import Card
from quandary.table import Seat, Table

GAME = "randolph"


class Checked:
    """Wraps a bot and asserts that every move it returns was on offer."""

    def __init__(self, bot: Bot, seen: list[tuple[dict[str, Any], Move | None]]) -> None:
        self.bot = bot
        self.name = bot.name
        self.seen = seen

    def choose(self, view: dict[str, Any], rng: Rng) -> Move | None:
        before = json.dumps(view, sort_keys=True)
        move = self.bot.choose(view, rng)
        assert json.dumps(view, sort_keys=True) == before, "the bot changed its view"
        if move is not None:
            assert move["type"] != "close", "a bot made the clock's move"
            assert moves.allowed(view["legal_moves"], move), (view["phase"], move)
        self.seen.append((view, move))
        return move


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> list[tuple[dict[str, Any], Move | None]]:
    log: list[tuple[dict[str, Any], Move | None]] = []
    monkeypatch.setattr(
        table_module, "make_bot", lambda game, level: Checked(make_bot(game, level), log)
    )
    return log


def run(seed: int, levels: list[str], window: str = "standard") -> Table:
    """A whole game of bots in virtual time."""
    seats = [Seat(f"Bot {i}", "bot", level) for i, level in enumerate(levels)]
    table = Table.new(GAME, seats, {"window": window}, seed)
    now = 0.0
    table.advance(now)
    while (wake := table.next_wakeup()) is not None:
        assert wake >= now, "time ran backwards"
        now = wake
        table.advance(now)
    return table


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("window", ["standard", "relaxed", "quick"])
def test_whole_games_end_under_virtual_time(
    players: int, window: str, seen: list[tuple[dict[str, Any], Move | None]]
) -> None:
    for k in range(3):
        levels = ["heuristic" if (s + k) % 2 else "random" for s in range(players)]
        table = run(10 * players + k, levels, window)
        assert table.over
        assert table.record.replay() == table.state
        result = engine.result(table.state)
        assert result is not None and len(result["scores"]) == players
        assert sum(map(len, table.state.hands)) <= 10
    assert {v["phase"] for v, _ in seen} >= {"challenge", "react", "duel"}


def test_all_heuristic_tables_end_too(seen: list[tuple[dict[str, Any], Move | None]]) -> None:
    for players in (3, 4, 5):
        assert run(7 + players, ["heuristic"] * players).over


def test_games_with_bots_replay_identically() -> None:
    first = run(21, ["heuristic", "random", "heuristic", "random"])
    second = run(21, ["heuristic", "random", "heuristic", "random"])
    assert first.record == second.record and first.state == second.state


def test_the_heuristic_bot_beats_random_bots() -> None:
    share = baseline = 0.0
    games = 60
    for index in range(games):
        players = 3 + index % 3
        clever = (index // 3) % players
        levels = ["heuristic" if s == clever else "random" for s in range(players)]
        result = engine.result(run(5000 + index, levels).state)
        assert result is not None
        if clever in result["winners"]:
            share += 1 / len(result["winners"])
        baseline += 1 / players
    assert share / games > baseline / games + 0.2, (share / games, baseline / games)


def test_bots_throw_after_a_human_reaction_time(
    seen: list[tuple[dict[str, Any], Move | None]],
) -> None:
    for window in ("relaxed", "standard", "quick"):
        seen.clear()
        run(3, ["random", "heuristic", "heuristic", "heuristic"], window)
        throws = [(v, m) for v, m in seen if m is not None and m["type"] == "throw"]
        for level, seats in (("heuristic", (1, 2, 3)), ("random", (0,))):
            low, high = REACTIONS[level][window]
            mine = [(v, m) for v, m in throws if v["seat"] in seats]
            assert mine, (level, window)
            for view, move in mine:
                number = 2 if view["window"]["second"] else 1
                current = [e for e in view["arena"] if e["window"] == number]
                base = max((e["land_at"] for e in current), default=0)
                reaction = move["at"] - base
                earliest = view["legal_moves"][0]["at"]["min"]
                assert move["at"] == earliest or low <= reaction <= high, (level, window)


# -- the heuristic's choices, from views built to order ---------------------------


def _view(state: Any, seat: int) -> dict[str, Any]:
    return engine.view(state, seat)


def _react_state(challenge: int) -> Any:
    state = engine.setup(GAME, 4, {}, 1)
    return engine.apply(state, 0, {"type": "challenge", "card": challenge})


def test_a_high_challenge_is_answered_with_the_lowest_card() -> None:
    view = _view(_react_state(10), 2)
    move = HeuristicBot().choose(view, Rng.from_seed(4))
    assert move is not None and move["card"] == 1
    assert abs(move["aim"]) <= 45 and 0 <= move["power"] <= 100
    low, high = REACTIONS["heuristic"]["relaxed"]  # the default setting
    assert low <= move["at"] <= high


def test_a_low_challenge_is_let_pass() -> None:
    assert HeuristicBot().choose(_view(_react_state(1), 2), Rng.from_seed(4)) is None


def test_no_throw_while_another_valid_card_leads() -> None:
    state = _react_state(10)
    for s in range(200):
        move = {"type": "throw", "card": 1, "aim": 0, "power": 50, "spin": 0, "at": 500}
        after = engine.apply(replace(state, rng=Rng.from_seed(s).state), 1, move)
        if after.arena[0].landing == "flat":
            break
    view = _view(after, 2)
    assert view["arena"][0]["leading"]
    assert HeuristicBot().choose(view, Rng.from_seed(4)) is None


def test_the_clever_throw_usually_lands_flat() -> None:
    view = _view(_react_state(10), 2)
    flat = 0
    for s in range(300):
        move = HeuristicBot().choose(view, Rng.from_seed(s))
        assert move is not None
        state = replace(_react_state(10), rng=Rng.from_seed(1000 + s).state)
        flat += engine.apply(state, 2, move).arena[0].landing == "flat"
    assert 0.7 * 300 < flat < 300


def _close(state: Any) -> Any:
    """The table's clock closes the reaction window at its deadline."""
    clock = engine.clock(state)
    return engine.apply_authority(state, clock.due | {"at": clock.deadline})


def _duel_view(
    seat: int, lives: tuple[int, ...], hands: tuple[tuple[int, ...], ...], history: Any = ()
) -> Any:
    """Anna's 9 against Bernhard's 2, in the duel, with the given lives and hands."""
    state = _react_state(9)
    move = {"type": "throw", "card": 2, "aim": 0, "power": 50, "spin": 0, "at": 500}
    for s in range(200):
        after = engine.apply(replace(state, rng=Rng.from_seed(s).state), 1, move)
        if after.arena[0].landing == "flat":
            break
    after = _close(after)
    assert after.phase == "duel"
    return _view(replace(after, lives=lives, hands=hands, history=history), seat)


def test_without_lives_the_bot_chooses_peace() -> None:
    view = _duel_view(0, (0, 2, 2, 2), ((1,), (3,), (4,), (5,)))
    assert HeuristicBot().choose(view, Rng.from_seed(1)) == {"type": "duel", "choice": "peace"}


def test_conflict_when_the_opponent_cannot_fight_back_and_lives_are_cheap() -> None:
    # Anna's 9 against Bernhard's 2; Bernhard has no life left, Anna one card.
    view = _duel_view(0, (2, 0, 2, 2), ((1,), (3, 4), (5,), (6,)))
    assert HeuristicBot().choose(view, Rng.from_seed(1)) == {"type": "duel", "choice": "conflict"}


def test_peace_against_a_peaceful_opponent_while_a_life_is_dear() -> None:
    # Bernhard holds the 2 against Anna's 9 and eight more cards; Anna has chosen
    # peace in every one of her ten duels so far.
    hands = (tuple(range(1, 9)), tuple(range(3, 11)), (5,), (6,))
    history = _answered_history(engine.setup(GAME, 4, {}, 1), 10).history
    view = _duel_view(1, (2, 2, 2, 2), hands, history)
    assert HeuristicBot().choose(view, Rng.from_seed(1)) == {"type": "duel", "choice": "peace"}


def test_conflict_against_a_bold_opponent_who_holds_the_higher_card() -> None:
    # Without a record, Anna with the 9 at stake is likely to fight: answering
    # peace would hand her both cards, so Bernhard risks his life too.
    hands = (tuple(range(1, 9)), tuple(range(3, 11)), (5,), (6,))
    view = _duel_view(1, (2, 2, 2, 2), hands)
    assert HeuristicBot().choose(view, Rng.from_seed(1)) == {"type": "duel", "choice": "conflict"}


def test_the_challenge_card_follows_how_often_challenges_are_answered() -> None:
    state = engine.setup(GAME, 4, {}, 1)
    view = _view(state, 0)
    unanswered = engine.view(_kept_history(state, 6), 0)
    answered = engine.view(_answered_history(state, 6), 0)
    assert HeuristicBot().choose(unanswered, Rng.from_seed(1))["card"] == 10
    assert HeuristicBot().choose(answered, Rng.from_seed(1))["card"] == 1
    assert HeuristicBot().choose(view, Rng.from_seed(1))["type"] == "challenge"


def _kept_history(state: Any, rounds: int) -> Any:
    for _ in range(rounds):
        state = engine.apply(state, state.provocateur, {"type": "challenge", "card": 1})
        state = _close(state)
        state = replace(state, provocateur=0, phase="challenge", hands=_full(state))
    return state


def _answered_history(state: Any, rounds: int) -> Any:
    kept = _kept_history(state, rounds)
    history = tuple(
        replace(r, opponent=1, card=2, choices=("peace", "peace"), outcome="peace")
        for r in kept.history
    )
    return replace(kept, history=history, won=((Card(1, 2),), (), (), ()))


def _full(state: Any) -> Any:
    return tuple(tuple(range(1, 11)) for _ in range(state.players))


def test_random_bot_fills_the_gesture_ranges() -> None:
    view = _view(_react_state(5), 1)
    move = RandomBot().choose(view, Rng.from_seed(2))
    assert move is not None and move["type"] == "throw"
    assert moves.allowed(view["legal_moves"], move)
    assert copy.deepcopy(view) == view


def test_the_clever_level_is_registered() -> None:
    assert isinstance(make_bot(GAME, "heuristic"), HeuristicBot)
    assert isinstance(make_bot(GAME, "random"), RandomThrower)


def test_slower_settings_make_slower_bots() -> None:
    """Relaxed bots react later than standard ones, standard later than quick ones."""
    for level in ("heuristic", "random"):
        means = []
        for window in ("quick", "standard", "relaxed"):
            view = _view(_react_state(10), 2)
            view["options"] = {"window": window}
            bot = HeuristicBot() if level == "heuristic" else RandomThrower()
            ats = [m["at"] for seed in range(40) if (m := bot.choose(view, Rng.from_seed(seed)))]
            assert ats
            means.append(sum(ats) / len(ats))
        assert means == sorted(means) and means[0] < means[2] - 1000, (level, means)
