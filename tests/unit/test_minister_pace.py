"""Maybe Minister at a newcomer's pace: fewer screens and less to re-read, no choice lost.

New votes are stored in one click where the table suggests, or vote by vote where the
player likes; a card reads the same in the proposal, on the take buttons and on the
table; another player's score change is its total. ``bench.minister_newcomer``
measures what these save.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

import pytest

import quandary.games  # noqa: F401  (fills the game and bot registries)
from bench.minister_newcomer import seen_blocks
from quandary import engine
from quandary.bots import bot_rng
from quandary.engine import IllegalMove
from quandary.games.minister import board
from quandary.games.minister.bots import HeuristicBot
from quandary.games.minister.state import MinisterState, Won
from quandary.web.phrases import Cast
from quandary.web.render import minister as ui
from quandary.web.render.minister_parts import card_body, score_panel, tables
from quandary.web.render.table import Ui

from .test_minister_polish import _game
from .test_minister_rules import STORER, _to_collect, rig

NAMES = ["Robin", "Bot Ada", "Bot Bo"]


def _two_drawn() -> MinisterState:
    """Seat 0 to store two drawn votes: S03 (support) has room for 1, R04 (resource) 2."""
    state = rig(**STORER, won={0: [Won("R04", True, ())]})  # type: ignore[arg-type]
    state = engine.apply(_to_collect(state, {0: "v8", 1: "v2", 2: "v4"}), 0, {"type": "collect"})
    assert state.drawn == ("v56",)
    # A second vote drawn too (as a trade would bring), taken from the vote deck.
    return replace(
        state, drawn=("v56", "v54"), vote_deck=tuple(v for v in state.vote_deck if v != "v54")
    )


def test_new_votes_can_be_stored_all_at_once_support_cards_first() -> None:
    state = _two_drawn()
    assert board.room(state, 0) == {"S03": 1, "R04": 2}
    legal = engine.legal_moves(state, 0)
    suggested = {"type": "store_all", "votes": ["v56", "v54"], "cards": ["S03", "R04"]}
    assert suggested in legal
    # Every single placement is still a move of its own: the choice stays the player's.
    singles = [m for m in legal if m["type"] == "store"]
    assert len(singles) == 4
    after = engine.apply(state, 0, suggested)
    assert not after.drawn and after.actor != 0
    assert board.vote_home(after, 0, "v56") == "S03"
    assert board.vote_home(after, 0, "v54") == "R04"


def test_only_the_suggested_places_are_one_move_and_a_vote_may_go_elsewhere() -> None:
    state = _two_drawn()
    elsewhere = {"type": "store_all", "votes": ["v56", "v54"], "cards": ["R04", "R04"]}
    with pytest.raises(IllegalMove, match="not the places suggested"):
        engine.apply(state, 0, elsewhere)
    # The player puts the first vote on the resource instead; the rest is suggested anew.
    state = engine.apply(state, 0, {"type": "store", "vote": "v56", "card": "R04"})
    assert board.vote_home(state, 0, "v56") == "R04"
    rest = [m for m in engine.legal_moves(state, 0) if m["type"] == "store_all"]
    assert rest == [{"type": "store_all", "votes": ["v54"], "cards": ["S03"]}]


def test_the_bot_stores_in_one_move_where_the_table_suggests() -> None:
    state = _two_drawn()
    view: Any = engine.view(state, 0)
    move = HeuristicBot().choose(view, bot_rng(7, 0, state.version))
    assert move["type"] == "store_all"


def _store_screen() -> tuple[dict[str, Any], str]:
    """A seeded game's first store screen with two votes or more, as the page draws it."""
    for seed in range(1, 30):
        c = _game(seed)
        assert c.table is not None
        for _ in range(400):
            page = str(c.render())
            if "Play again" in page:
                break
            view = c.table.view(c.viewer)
            if view.get("drawn") and len(view["drawn"]) > 1 and 'id="next"' not in page:
                return view, page
            if 'id="next"' in page:
                c.dispatch("next", {})
            else:
                from .test_minister_controller import _act

                _act(c)
    raise AssertionError("no seeded game had the human store two votes")


def test_the_store_screen_lists_the_suggestion_and_folds_the_cards_to_choose() -> None:
    view, page = _store_screen()
    suggested = next(m for m in view["legal_moves"] if m["type"] == "store_all")
    button = re.search(r'<button[^>]*id="store-all"[^>]*>', page)
    assert button is not None and "primary" in button.group(0)
    sent = re.search(r'data-move="([^"]*)"', button.group(0))
    assert sent is not None
    assert json.loads(sent.group(1).replace("&quot;", '"')) == suggested
    # Each drawn vote is listed beside the card it would go on, read as blocks of
    # their own: the vote as on the vote buttons, the card by its name.
    blocks = seen_blocks(page)
    drawn = {v["id"]: v for v in view["drawn"]}
    for vote, card in zip(suggested["votes"], suggested["cards"], strict=True):
        chip = (drawn[vote]["kind"].upper(), str(drawn[vote]["number"]))
        assert chip in blocks
        assert tuple(ui.name(card).split()) in blocks
    # The first vote's cards are there to choose, folded under a summary a player sees.
    folded = page[page.index('<details class="mm-own-places"') :]
    folded = folded[: folded.index("</details>")]
    first = view["drawn"][0]["id"]
    offered = {m["card"] for m in view["legal_moves"] if m["type"] == "store"}
    for card in offered:
        assert f'id="store-{first}-{card}"' in folded
    assert ("Or", "choose", "each", "vote's", "card", "yourself") in blocks
    assert not any(b[:1] == ("Store",) and b[-1] == "on:" for b in blocks), "folded: not read"


def test_a_card_reads_the_same_in_the_proposal_on_the_take_buttons_and_on_the_table() -> None:
    card = "R04"
    proposal = seen_blocks(str(ui.card_tile(card)))
    view: Any = {
        "reveal": {"accepted": False},
        "legal_moves": [{"type": "take", "card": card}, {"type": "take", "card": "R05"}],
        "picks": [],
        "waiting_for": [0],
    }
    take = str(ui._pick(view, Ui(names=NAMES, kinds=["human", "bot", "bot"], viewer=0)))
    button = re.search(rf'<button[^>]*id="take-{card}".*?</button>', take)
    assert button is not None and seen_blocks(button.group(0)) == proposal
    assert re.search(rf'class="mm-move mm-card red-up"[^>]*id="take-{card}"', take)
    row = {"card": card, "green": True, "stored": 0, "room": 2, "votes": []}
    table_view: Any = {
        "tables": [[row], [], []],
        "hand_counts": [0, 0, 0],
        "support": [0, 0, 0],
        "options": {},
    }
    table = str(tables(table_view, Cast(NAMES, 0)))
    assert proposal[0] in seen_blocks(table)
    assert 'class="mm-card resource green-up"' in table
    both = str(card_body(card, None, False))
    assert both in table, "both sides, the one not up dimmed by its class"


def test_only_the_viewers_score_change_names_its_laws() -> None:
    def change(seat: int) -> dict[str, Any]:
        laws = [{"law": "L1", "title": "Money Talks", "points": 3}]
        return {
            "kind": "score_changed",
            "data": {"seat": seat, "before": 2, "after": 5, "laws": laws},
        }

    view: Any = {
        "explain": [[], [], []],
        "scores": [5, 5, 0],
        "target": 25,
        "log": [change(0), change(1)],
    }
    shown = str(score_panel(view, NAMES, 0))
    assert 'Robin (you): 5 points<small class="mm-change"> (+3 Money Talks)</small>' in shown
    assert 'Bot Ada: 5 points<small class="mm-change"> (+3)</small>' in shown
