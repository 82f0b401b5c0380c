"""Undo against bots on this device (quandary/undo.py): offered only when nothing hidden showed.

Every game is walked the way a person plays it on this device: one person and
bots, bots taking their moments (so the person sometimes moves first in a secret
phase), the person choosing at random. Along the walks:

- undo is offered in every game, and taking it back gives exactly the state
  (serialized) and record from before the move, also after a reload;
- it is refused after a reveal, saying why, and changes nothing;
- the oracle: whenever undo is offered, the tests' own resampling
  (tests/conformance/resample.py, written from the rule texts, never from the
  game's secrets or its ``redeal``) finds that no step since the checkpoint showed
  the person anything they could not tell already: at each step, in worlds
  dealt again from what the person may know then (every unrevealed choice made
  again), the same move leaves the person's view exactly as it really was;
- the page: the button, its reason when off, Ctrl+Z's attribute, the log after
  undo; never in rooms (not drawn, refused) nor with several people on one device.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from quandary import engine, undo
from quandary.engine import GameError, IllegalMove
from quandary.table import Seat, Table
from quandary.web.authority import LocalAuthority
from quandary.web.controller import Controller
from tests.conformance.playout import play
from tests.conformance.resample import first_difference, resample
from tests.net.test_room_screens import MemoryStorage, open_room, seat_everyone

GAMES = [g.spec.id for g in engine.all_games()]
WALKS = {"dilemmas": 6, "minister": 4, "royal": 16, "randolph": 10}
"""Walks per game in the oracle test: enough for dozens of offered undos in each."""
DEFAULT_WALKS = 6
"""Walks for a game not named above (a new game, or Pebbles in ``tests/fifth``): the
test still demands at least ten offered undos, so a game that needs more says so here."""
ORACLE_TRIES = 6
"""Worlds per step in the oracle: a choice of two that shows is missed in all of
them once in 64 (across the dozens of spans checked, a leak still shows)."""


ALTERNATIVES = 300
"""Other moves tried (all of them, up to this many) for another seat whose own move
the world cannot make: a secret one is matched by some, one that showed a card by none."""


# -- walking a game as a person against bots -------------------------------------------


def walk(
    game: str, seed: int, players: int | None = None, level: str = "heuristic", limit: int = 3000
) -> Iterator[Table]:
    """The table at each moment of a game: after each of the person's moves (bots
    still taking their moment) and after each time the table's clock moved on."""
    spec = engine.spec_of(game)
    count = players or spec.min_players + seed % (spec.max_players - spec.min_players + 1)
    seats = [Seat("You", "human")] + [Seat(f"Bot {i}", "bot", level) for i in range(1, count)]
    table = Table.new(game, seats, None, seed)
    table.speed = "normal"
    rng = random.Random(seed)
    now = 0.0
    table.advance(now)
    for _ in range(limit):
        if table.over:
            return
        if table.humans_to_act() and rng.random() < 0.8:
            options = engine.legal_moves(table.state, 0)
            try:
                table.submit(0, engine.moves.concrete(rng.choice(options), rng.randint), now)
            except GameError:
                pass  # a throw before its window opened: the person tries again later
            else:
                yield table
        wake = table.next_wakeup()
        now = max(now + 50, wake if wake is not None else now + 1000)
        table.advance(now)
        yield table


def first(game: str, wanted: str, seeds: range = range(40)) -> Table:
    """The first moment of some walk whose verdict is offered (``""``) or says ``wanted``."""
    for seed in seeds:
        for table in walk(game, seed):
            verdict = table.undo_verdict()
            assert verdict is not None
            if verdict.reason == wanted:
                return table
    raise AssertionError(f"no walk of {game} came to {wanted or 'an offered undo'!r}")


def state_text(state: Any) -> str:
    return engine.dumps(state)


# -- offered, refused, exact -----------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_undo_right_after_a_move_that_showed_nothing_gives_the_state_before_it(game: str) -> None:
    table = first(game, "")
    verdict = table.undo_verdict()
    assert verdict is not None and verdict.to is not None and verdict.seat == 0
    assert table.record.moves[verdict.to][0] == 0, "the checkpoint is before the person's move"
    before = Table(
        engine.Record(**{**vars(table.record), "moves": table.record.moves[: verdict.to]}),
        table.seats,
    )
    saved = json.loads(json.dumps(table.to_json()))
    LocalAuthority(table, lambda: 0.0, lambda: 1).undo()
    assert state_text(table.state) == state_text(before.state)
    assert table.record == before.record
    assert 0 in table.humans_to_act(), "back at the moment the person was to act"

    # After a reload the save says the same, and undo leads to the same state.
    reloaded = Table.from_json(saved)
    assert reloaded.undo_verdict() == verdict
    reloaded.rewind(verdict.to)
    assert state_text(reloaded.state) == state_text(before.state)


@pytest.mark.parametrize("game", GAMES)
def test_undo_after_a_reveal_is_refused_and_changes_nothing(game: str) -> None:
    table = first(game, undo.REVEALED)
    state, record = table.state, table.record
    with pytest.raises(IllegalMove) as refused:
        LocalAuthority(table, lambda: 0.0, lambda: 1).undo()
    assert refused.value.message == undo.REVEALED
    assert table.state is state and table.record is record


def test_dilemma_throws_are_never_taken_back() -> None:
    table = first("randolph", undo.REAL_TIME)
    span = table.record.moves[undo.last_own_move(table.record, 0) or 0 :]
    spec = engine.spec_of("randolph")
    assert engine.clock(table.state) is not None or any(
        m["type"] in spec.timed_moves | spec.authority_moves for _, m in span
    )


def test_the_first_move_has_nothing_before_it_and_a_finished_game_nothing_after() -> None:
    table = Table.new("royal", [Seat("You", "human"), Seat("Bot", "bot")], None, 3)
    assert table.undo_verdict() == undo.Verdict(0, undo.NOTHING)
    *_, table = walk("royal", 3, players=2)
    assert table.over and table.undo_verdict() == undo.Verdict(0, undo.OVER)


def test_several_people_on_one_device_are_never_offered_undo() -> None:
    seats = [Seat("Ann", "human"), Seat("Bea", "human"), Seat("Bot", "bot")]
    table = Table.new("minister", seats, None, 5)
    table.advance(0)
    assert table.undo_verdict() is None
    with pytest.raises(IllegalMove) as refused:
        LocalAuthority(table, lambda: 0.0, lambda: 1).undo()
    assert refused.value.message == undo.NOT_ALONE


def test_undo_goes_back_move_by_move_until_a_reveal() -> None:
    """Taken back once, the move before can be taken back too unless a reveal stands
    between (a vote taken back, then the proposal it was on); never past the reveal."""
    twice = stopped = 0
    for seed in range(6):
        for table in walk("minister", seed):
            verdict = table.undo_verdict()
            if verdict is None or verdict.to is None:
                continue
            copy = Table.from_json(table.to_json())
            copy.rewind(verdict.to)
            again = copy.undo_verdict()
            assert again is not None
            if again.to is not None:
                assert again.to < verdict.to
                twice += 1
            else:
                stopped += again.reason == undo.REVEALED
            if twice >= 3 and stopped >= 3:
                return
    raise AssertionError(f"{twice} undos went further back, {stopped} stopped at a reveal")


@pytest.mark.parametrize("game", GAMES)
def test_a_kept_verdict_is_the_verdict_made_again(game: str) -> None:
    """A table keeps a reveal's verdict while bots add moves (``undo.stands``): made
    again from scratch at every moment, it is the same."""
    kept = 0
    for seed in range(3):
        for table in walk(game, seed):
            verdict = table.undo_verdict()
            levels = [s.level for s in table.seats]
            again = undo.verdict(table.record, table.state, 0, levels, table.state_at)
            assert verdict == again, (seed, table.state.version)
            kept += verdict is not None and verdict.reason == undo.REVEALED
    assert kept


@pytest.mark.parametrize("game", ["minister", "royal"])
def test_an_offered_verdict_plays_its_worlds_on_as_bots_add_moves(game: str, monkeypatch) -> None:
    """While bots add moves after the person's, the table's next verdict plays the
    kept worlds on by those moves only: no world is dealt again for the same
    checkpoint (the verdict itself is checked against one made from scratch above)."""
    dealt: list[int] = []
    deal = undo._dealt

    def counted(before: Any, span: Any, *rest: Any) -> undo.Worlds | None:
        dealt.append(len(span))
        return deal(before, span, *rest)

    monkeypatch.setattr(undo, "_dealt", counted)
    played_on = 0
    for seed in range(3):
        kept: tuple[int, int] | None = None  # the last offered checkpoint and record length
        for table in walk(game, seed):
            before = len(dealt)
            verdict = table.undo_verdict()
            moves = len(table.record.moves)
            if verdict is None or verdict.to is None:
                kept = None
                continue
            if kept is not None and kept[0] == verdict.to and moves > kept[1]:
                assert len(dealt) == before, "the worlds were dealt again for the same checkpoint"
                assert verdict.worlds is not None and verdict.worlds.played == moves - verdict.to
                played_on += 1
            kept = (verdict.to, moves)
    assert played_on, "no verdict was made while bots added moves"


# -- the oracle ------------------------------------------------------------------------


def oracle(table: Table, verdict: undo.Verdict, rng: random.Random) -> str | None:
    """Where, if anywhere, the person saw something hidden since the checkpoint.

    Trusts no game: at each step, in worlds resampled by the tests (what the person
    cannot know at that step dealt again, every unrevealed choice made again), the
    step must be able to leave the person's view exactly as it was: the person's
    own move, or for another seat its move or, when that seat's move was secret
    (another seat's hand there cannot make it), some move of its there.
    """
    assert verdict.to is not None
    seat = verdict.seat
    states = [table.state_at(verdict.to)]
    span = table.record.moves[verdict.to :]
    for who, move in span:
        states.append(play(states[-1], who, move))
    assert state_text(states[-1]) == state_text(table.state)
    for step, (who, move) in enumerate(span):
        seen = engine.view(states[step + 1], seat)
        for _ in range(ORACLE_TRIES):
            world = resample(states[step], seat, rng)
            tries = [move]
            if who != seat:
                options = engine.legal_moves(world, who)
                if len(options) > ALTERNATIVES:
                    options = rng.sample(options, ALTERNATIVES)
                tries += [engine.moves.concrete(o, rng.randint) for o in options]
            if not any(_leaves(world, who, m, seat, seen) for m in tries):
                return f"step {step}: seat {who}'s {move} showed the person something"
    return None


def _leaves(world: Any, who: int, move: Any, seat: int, seen: dict[str, Any]) -> bool:
    """Whether ``who`` playing ``move`` in ``world`` leaves ``seat`` seeing ``seen``."""
    try:
        after = play(world, who, move)
    except GameError:
        return False
    return first_difference(seen, engine.view(after, seat)) is None


@pytest.mark.parametrize("game", GAMES)
def test_whenever_undo_is_offered_nothing_hidden_reached_the_person(game: str) -> None:
    rng = random.Random(game)
    offered = 0
    for seed in range(WALKS.get(game, DEFAULT_WALKS)):
        for level in ("heuristic", "random"):
            for table in walk(game, 500 + seed, level=level):
                verdict = table.undo_verdict()
                if verdict is None or not verdict.offered:
                    continue
                offered += 1
                leak = oracle(table, verdict, rng)
                assert leak is None, f"{game} seed {500 + seed} v{table.state.version}: {leak}"
    assert offered >= 10, f"only {offered} offered undos were checked"


# -- the page ----------------------------------------------------------------------------


def local_game(game: str = "minister", seed: int = 11) -> Controller:
    c = Controller(MemoryStorage(), new_seed=lambda: seed, make_id=lambda: "s1")
    c.form = c.form.__class__(game, c.form.seats, engine.spec_of(game).normalise_options(None))
    c.dispatch("start", {})
    return c


def undo_button(screen: str) -> str | None:
    start = screen.find('id="undo"')
    if start < 0:
        return None
    return screen[screen.rfind("<button", 0, start) : screen.find("</button>", start)]


def test_the_page_offers_undo_after_a_proposal_and_takes_it_back_with_its_log() -> None:
    c = local_game()
    table = c.table
    assert table is not None
    button = undo_button(c.render())
    assert button is not None and "disabled" in button and undo.NOTHING in c.render()
    before, seen_log = state_text(table.state), len(c.local.log.entries)  # type: ignore[union-attr]
    propose = next(m for m in engine.legal_moves(table.state, 0) if m["type"] == "propose")
    c.dispatch("move", {"move": json.dumps(engine.moves.concrete(propose, lambda a, b: a))})
    table = c.table
    assert table is not None and table.undo_verdict() == undo.Verdict(0, to=0)
    button = undo_button(c.render())
    assert button is not None and "disabled" not in button
    assert 'data-action="undo"' in button and 'aria-keyshortcuts="Control+Z Meta+Z"' in button
    c.dispatch("undo", {})
    table = c.table
    assert table is not None and state_text(table.state) == before and not table.record.moves
    assert c.error is None
    c.render()
    assert len(c.local.log.entries) == seen_log  # type: ignore[union-attr]
    assert sorted(c.local.log.entries) == [e["index"] for e in engine.full_log(table.state)]  # type: ignore[union-attr]
    # The save is the rewound game: reloaded, it is where undo left it.
    again = Controller(c.storage, new_seed=lambda: 1, make_id=lambda: "s2")
    again.dispatch("continue", {"save": "s1"})
    assert again.table is not None and state_text(again.table.state) == before


def test_the_page_says_why_undo_is_off_after_a_reveal_and_refuses_a_forced_one() -> None:
    c = local_game("royal", seed=4)
    for _ in range(20):
        table = c.table
        assert table is not None
        if table.undo_verdict() == undo.Verdict(0, undo.REVEALED):
            break
        options = engine.legal_moves(table.state, 0)
        if options:
            move = engine.moves.concrete(options[0], lambda a, b: a)
            c.dispatch("move", {"move": json.dumps(move)})
        else:
            c.dispatch("next", {})
    screen = c.render()
    button = undo_button(screen)
    assert button is not None and "disabled" in button and 'data-action="undo"' not in button
    assert undo.REVEALED in screen
    version = table.state.version
    c.dispatch("undo", {})  # a page that sends it anyway is told why, and nothing moves
    assert c.error == undo.REVEALED and table.state.version == version


def test_rooms_never_draw_undo_and_refuse_it() -> None:
    net, host, devices = open_room("minister", guests=())
    seat_everyone(net, host, devices)
    host.press("room-start")
    net.settle()
    room = host.controller.room
    assert room is not None and room.host is not None and room.host.table is not None
    view = room.table.view()
    assert view is not None
    propose = next(m for m in view["legal_moves"] if m["type"] == "propose")
    host.press("move", move=json.dumps(engine.moves.concrete(propose, lambda a, b: a)))
    net.settle()
    table = room.host.table
    assert table.undo_verdict() is not None, "the table alone would offer it: the room must not"
    version = table.state.version
    assert 'id="undo"' not in host.html()
    host.press("undo")
    assert room.table.error == undo.ROOM and table.state.version == version


def test_a_guest_in_a_room_is_never_offered_undo_and_is_refused() -> None:
    net, host, (anna,) = open_room("royal", guests=("Anna",))
    seat_everyone(net, host, [anna])
    host.press("room-start")
    net.settle()
    room = anna.controller.room
    assert room is not None and room.table.view() is not None
    assert 'id="undo"' not in anna.html() and 'id="undo"' not in host.html()
    version = room.table.view()["version"]  # type: ignore[index]
    anna.press("undo")
    net.settle()
    assert room.table.error == undo.ROOM and room.table.view()["version"] == version  # type: ignore[index]
