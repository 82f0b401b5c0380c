"""Dilemma's windows in time: the countdown before a window opens, and throws that
belong to the challenge they were aimed at.

The table's clock is the authority: it counts "3, 2, 1" (``Clock.lead``) before a
window opens and stamps every throw; a throw names the window it was aimed at, so
one released as a challenge closed is refused, never landed on the next one.
"""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

import quandary.games  # noqa: F401  (fills the game and bot registries)
from quandary import engine
from quandary.engine import IllegalMove, Record
from quandary.games.randolph.arena import TIMINGS
from quandary.games.randolph.bots import REACTIONS
from quandary.table import TOO_EARLY, TOO_LATE, Seat, Table
from quandary.web.authority import GuestAuthority
from quandary.web.controller import FINISHED_KEY, PRACTISED_KEY, Controller
from quandary.web.render import randolph as render
from quandary.web.render.table import Ui

from .test_controller import MemoryStorage

GOOD = {"type": "throw", "aim": 0, "power": 50, "spin": 0}
LEAD = TIMINGS["relaxed"].lead


def people(options: dict[str, str] | None = None) -> Table:
    """Anna, Bo and Robin, all people: nothing moves unless the test says so."""
    seats = [Seat("Anna", "human"), Seat("Bo", "human"), Seat("Robin", "human")]
    return Table.new("randolph", seats, options or {}, seed=11)


def test_a_throw_aimed_at_a_closed_challenge_never_lands_on_the_next() -> None:
    """Aimed at Anna's 10, arriving when Bo's 10 is up: refused, the card kept."""
    table = people()
    table.submit(0, {"type": "challenge", "card": 10})
    table.advance(0)
    first = engine.clock(table.state)
    assert first is not None
    # Nobody throws: the window closes at its deadline and Anna keeps her 10.
    closes = LEAD + first.deadline
    table.advance(closes)
    assert table.state.phase == "challenge" and table.state.provocateur == 1
    table.submit(1, {"type": "challenge", "card": 10}, now=closes + 100)
    table.advance(closes + 100)
    second = engine.clock(table.state)
    assert second is not None and second.window != first.window
    version, hand = table.state.version, table.state.hands[2]
    late = GOOD | {"card": 4, "window": first.window}
    with pytest.raises(IllegalMove) as refused:
        table.submit(2, late, now=closes + 100 + LEAD + 500)
    assert refused.value.message == TOO_LATE
    assert "challenge" in TOO_LATE and "stays in your hand" in TOO_LATE
    assert table.state.version == version and table.state.hands[2] == hand
    assert not table.state.arena, "nothing landed on Bo's challenge"
    # The same throw aimed at Bo's challenge lands on it.
    table.submit(2, GOOD | {"card": 4, "window": second.window}, now=closes + 100 + LEAD + 600)
    assert [(t.seat, t.card, t.at) for t in table.state.arena] == [(2, 4, 600)]
    assert all(
        set(m) == {"type", "card", "aim", "power", "spin", "at"}
        for _, m in table.record.moves
        if m["type"] == "throw"
    ), "the record keeps the rules' move: the window is checked, not recorded"


def test_a_throw_for_a_window_when_none_is_open_is_too_late() -> None:
    table = people()
    table.submit(0, {"type": "challenge", "card": 7})
    table.advance(0)
    window = engine.clock(table.state).window
    table.advance(LEAD + 20_000)  # closed; Bo now chooses a challenge
    with pytest.raises(IllegalMove, match="Too late"):
        table.submit(2, GOOD | {"card": 3, "window": window}, now=LEAD + 20_100)


def test_nothing_can_be_thrown_during_the_countdown() -> None:
    table = people()
    table.submit(0, {"type": "challenge", "card": 9})
    table.advance(1000)  # the table first sees the window at 1 s
    assert table.elapsed(1000) == -LEAD
    assert table.elapsed(1000 + LEAD - 1) == -1
    window = engine.clock(table.state).window
    with pytest.raises(IllegalMove) as refused:
        table.submit(1, GOOD | {"card": 2, "window": window}, now=1000 + LEAD - 1)
    assert refused.value.message == TOO_EARLY
    assert not table.state.arena
    table.submit(1, GOOD | {"card": 2, "window": window}, now=1000 + LEAD)
    assert table.state.arena[0].at == 0


def test_bots_wait_for_the_countdown_and_the_clock_counts_it() -> None:
    seats = [Seat("Robin", "human"), Seat("Bot Ada", "bot"), Seat("Bot Bo", "bot")]
    table = Table.new("randolph", seats, {}, seed=5)
    table.submit(0, {"type": "challenge", "card": 10})
    table.advance(0)
    wake = table.next_wakeup()
    assert wake is not None and wake >= LEAD, "nothing happens before the window opens"
    now = 0.0
    while (wake := table.next_wakeup()) is not None and table.state.round == 1:
        now = wake
        table.advance(now)
    landed = [e for e in table.state.log if e.kind == "card_landed"]
    assert landed and all(e.data["at"] >= 0 for e in landed)


def test_a_record_from_before_the_countdown_still_replays() -> None:
    """The countdown lives in the table's clock, not the rules: old saves load."""
    moves = (
        (0, {"type": "challenge", "card": 8}),
        (1, GOOD | {"card": 3, "at": 0}),  # at once: before, there was no countdown
    )
    record = Record("randolph", 3, {"window": "standard"}, 4, moves)
    seats = [Seat("Anna", "human"), Seat("Bo", "human"), Seat("Robin", "human")]
    saved = Table(record, seats).to_json()
    loaded = Table.from_json(json.loads(json.dumps(saved)))
    assert loaded.state.arena[0].at == 0


def test_the_newcomer_setting_is_the_default_and_quick_is_offered() -> None:
    spec = engine.get("randolph").spec
    options = spec.normalise_options(None)
    assert options == {"window": "relaxed"}, "a record without the option replays as before"
    choices = {c for c, _ in spec.options[0].choices}
    assert choices == {"first", "relaxed", "standard", "quick"}
    assert spec.options[0].newcomer == "first"


def test_a_first_game_is_slower_than_a_relaxed_one_and_its_bots_too() -> None:
    first, relaxed = TIMINGS["first"], TIMINGS["relaxed"]
    assert first.lead > relaxed.lead and first.grace > relaxed.grace and first.cap > relaxed.cap
    assert first.lead <= 10_000, "a guest believes a lead up to 10 s"
    table = people({"window": "first"})
    table.submit(0, {"type": "challenge", "card": 9})
    table.advance(0)
    window = table.view(1)["window"]
    assert (window["lead"], window["grace"], window["cap"]) == (5000, 7000, 25000)
    assert table.elapsed(0) == -5000, "a five-second countdown"
    lows = {w: REACTIONS["heuristic"][w][0] for w in ("first", "relaxed")}
    assert lows["first"] > lows["relaxed"]


def test_the_setup_starts_at_a_first_games_pace_until_one_was_finished() -> None:
    storage = MemoryStorage()
    c = Controller(storage, lambda: 7)
    c.dispatch("choose-game", {"game": "randolph"})
    assert c.form.options["window"] == "first"
    assert 'value="first" selected' in str(c.render())
    storage.set(FINISHED_KEY.format("randolph"), "1")
    again = Controller(storage, lambda: 7)
    again.dispatch("choose-game", {"game": "randolph"})
    assert again.form.options["window"] == "relaxed"


def test_a_finished_game_marks_the_device() -> None:
    storage = MemoryStorage()
    storage.set(PRACTISED_KEY, "1")
    c = Controller(storage, lambda: 7)
    c.dispatch("choose-game", {"game": "randolph"})
    c.dispatch("field", {"field": "seat-kind", "seat": "0", "value": "bot:heuristic"})
    c.dispatch("field", {"field": "seat-kind", "seat": "1", "value": "human"})
    c.dispatch("start", {})
    table = c.table
    assert table is not None
    now = 0.0
    while not table.over:
        wake = table.next_wakeup()
        if wake is None:  # the human's turn: challenge with the last card, else peace
            view = table.view(1)
            moves = view["legal_moves"]
            move = (
                moves[-1] if view["phase"] == "challenge" else {"type": "duel", "choice": "peace"}
            )
            table.submit(1, move, now)
        else:
            now = max(now, wake)
        table.advance(now)
    assert storage.get(FINISHED_KEY.format("randolph")) is None
    c.dispatch("lobby", {})  # from the end screen
    assert storage.get(FINISHED_KEY.format("randolph")) == "1"


def test_the_page_names_the_window_a_card_was_picked_up_in() -> None:
    data = {"card": "4", "aim": "1.4", "power": "50", "spin": "0", "window": "7"}
    assert render.gesture_move({}, data) == GOOD | {"card": 4, "aim": 1, "window": 7}
    assert "window" not in (render.gesture_move({}, data | {"window": ""}) or {})


def test_the_countdown_is_drawn_from_the_tables_clock() -> None:
    table = people()
    table.submit(0, {"type": "challenge", "card": 9})
    table.advance(1000)
    view = table.view(1)
    ui = Ui(names=["Anna", "Bo", "Robin"], kinds=["human"] * 3, viewer=1)
    ui.now, ui.elapsed = 2000.0, table.elapsed(2000)
    html = str(render.render_turn(view, ui))
    assert f'data-opens-at="{1000 + LEAD}"' in html
    assert 'class="lead-in"' in html and "<strong>2</strong>" in html
    assert "Get ready" in html and "open" not in html.split('id="arena-box"')[0][-40:]
    ui.now, ui.elapsed = 1000.0 + LEAD, 0
    html = str(render.render_turn(view, ui))
    assert 'class="lead-in"' not in html and 'class="arena-box aiming open"' in html


def test_a_guest_counts_down_from_when_it_saw_the_window() -> None:
    """A room's guest has no clock of the host's: it counts from the view's arrival."""

    view = {"window": {"id": 4, "lead": LEAD}}
    room = SimpleNamespace(lobby={"started": True, "game": "randolph"}, view=view)
    now = [5000.0]
    guest = GuestAuthority(room, lambda: now[0])  # type: ignore[arg-type]
    assert guest.elapsed(view) == -LEAD
    now[0] += LEAD - 1
    assert guest.elapsed(view) == -1
    now[0] += 501
    assert guest.elapsed(view) == 500
    # A forged lead is not believed beyond reason.
    forged = {"window": {"id": 5, "lead": 10**9}}
    assert guest.elapsed(forged) == 0


def test_a_slow_newcomer_gets_a_card_down_in_every_relaxed_window() -> None:
    """1.5 s to react after "throw!", 1 s to aim: still in time, window after window
    (bench/randolph_newcomer.py measures it over many more games)."""
    from bench.randolph_newcomer import play

    games = [play(80_000 + i, "relaxed") for i in range(8)]
    windows = sum(g["windows"] for g in games)
    assert windows > 40
    assert sum(g["accepted"] for g in games) == windows, [g["refusals"] for g in games]


def test_a_room_plays_at_the_pace_its_host_chose() -> None:
    """The host's setup choice is the room's: every seat's view counts down and
    closes the window by the first game's timing."""
    from quandary.net.host import RoomHost
    from tests.net.memnet import Network

    net = Network()
    send = net.sender("H", net.key.private)
    host = RoomHost(send, net.make_id, lambda: 5, "Hana", now=lambda: 0.0)
    net.connect("H", host)
    host.configure(game="randolph")
    host.configure(options={"window": "first"})
    host.set_seat_kind(1, "bot", "heuristic")
    host.set_seat_kind(2, "bot", "heuristic")
    net.settle()
    host.start()
    assert host.table is not None and host.table.state.options["window"] == "first"
    host.table.submit(0, {"type": "challenge", "card": 9}, 0.0)
    host.advance()
    for seat in range(3):
        window = host.table.view(seat)["window"]
        assert (window["lead"], window["grace"], window["cap"]) == (5000, 7000, 25000)
