"""Pebbles' table, drawn as the app draws it: for a seat, for a spectator, with a hostile name.

Pebbles is the game that lives in the tests only (``tests/fifth``), its renderer
beside its rules. The seat's screen comes from the pure ``Controller`` (what a
browser receives), which finds the renderer through the game's catalog entry
(``render.game_ui``); the spectator's table from the same ``game_ui``, given a
spectator's view. No ``js`` anywhere.
"""

from __future__ import annotations

import json
import re

from quandary import engine
from quandary.web.controller import Controller
from quandary.web.render import game_ui
from quandary.web.render.table import Ui
from tests.fifth import render

from .test_controller import MemoryStorage, seats
from .test_markup import assert_inert

HOSTILE = '"><script>x</script>'
"""A name that would end an attribute and open a script, in the 20 characters a name may have."""
ESCAPED = "&quot;&gt;&lt;script&gt;x&lt;/script&gt;"


def _game() -> Controller:
    c = Controller(MemoryStorage(), lambda: 11)
    c.dispatch("choose-game", {"game": "pebbles"})
    seats(c, [(HOSTILE, "human"), ("Bot Ada", "bot:random")])
    c.dispatch("start", {})
    return c


def test_the_app_finds_the_renderer_that_lives_with_the_game() -> None:
    assert game_ui("pebbles") is render


def test_a_seat_sees_its_own_pebbles_as_buttons_and_the_table() -> None:
    c = _game()
    assert c.table is not None and c.viewer == 0
    page = c.render()
    hand = c.table.view(0)["hand"]
    pressed = re.findall(r"data-action=\"move\" id=\"pebble-([a-z0-9]+)\"", page)
    assert pressed == hand and len(hand) == 3
    assert 'class="pebble-table"' in page and "In the bag: 18 pebbles" in page
    other = set(c.table.state.hands[1])
    assert not any(pebble in page for pebble in other), "the bot's hand is on the seat's screen"


def test_a_pick_shows_the_round_revealed_with_every_name_as_text() -> None:
    c = _game()
    assert c.table is not None
    move = c.table.view(0)["legal_moves"][0]
    c.dispatch("move", {"move": json.dumps(move)})
    page = c.render()
    assert "Round 1: revealed" in page and 'data-action="next"' in page
    assert_inert(page)
    assert page.count(ESCAPED) == 2  # in the scoreboard and among the revealed picks


def test_a_spectator_sees_the_table_and_no_hand() -> None:
    state = engine.setup("pebbles", 3, None, 5)
    view = engine.view(state, None)
    names = [HOSTILE, "Bot Ada", "Bot Bo"]
    ui = Ui(names, ["human", "bot", "bot"], None)
    html = game_ui("pebbles").render_turn(view, ui)  # type: ignore[arg-type]
    assert "You are watching" in html and 'data-action="move"' not in html
    assert html.count("3 pebbles · choosing") == 3
    assert not any(p in html for hand in state.hands for p in hand)
    assert_inert(html)
    assert ESCAPED in html
