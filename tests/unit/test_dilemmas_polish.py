"""The Game of Dilemmas read as a player reads it: a Build button that stays put, ties told right.

Each test renders through the pure Controller or the render functions, so what
is checked is the markup a player's browser would receive.
"""

from __future__ import annotations

import re
from typing import Any

from quandary.web.controller import Controller
from quandary.web.phrases import Cast
from quandary.web.render import dilemmas as ui

from .test_controller import MemoryStorage, build_and_vote

NAMES = ["Robin", "Bot Ada", "Bot Bo", "Bot Cy"]


def _before_button(html: str) -> str:
    return html[: html.index('id="submit"')]


def test_the_build_button_stays_where_it_is_when_cards_are_picked() -> None:
    """Everything above the button is the same whether no, one or two cards are picked.

    Only the pressed states change; nothing appears above the button, so it does
    not jump away from the pointer when the second card brings the preview.
    """
    c = Controller(MemoryStorage(), lambda: 11)
    c.dispatch("start", {})
    view = c.table.view(c.viewer)
    move = view["legal_moves"][0]
    shapes = []
    for step in ({}, {"card": move["positive"]}, {"card": move["negative"]}):
        if step:
            c.dispatch("draft", step)
        above = _before_button(c.render())
        # The turn's digest (data-h) changes with them: it is no part of the layout.
        shapes.append(re.sub(r'aria-pressed="(true|false)"| data-h="[0-9a-f]+"', "", above))
    assert shapes[0] == shapes[1] == shapes[2]
    html = c.render()
    assert "Your dilemma</h3>" in html, "the preview is shown once both cards are picked"
    assert html.index('id="submit"') < html.index("Your dilemma</h3>")


def _record(
    tallies: list[tuple[int, int]], winners: list[int], points: list[int]
) -> dict[str, Any]:
    card = {"text": "x", "weight": 3, "kind": "positive", "id": "p"}
    dilemmas = [
        {
            "positive": card,
            "negative": {**card, "kind": "negative"},
            "neutral": None,
            "creators": [s],
        }
        for s in range(len(tallies))
    ]
    return {
        "round": 2,
        "dilemmas": dilemmas,
        "tallies": [list(t) for t in tallies],
        "winners": winners,
        "points": points,
    }


def test_two_winning_dilemmas_are_named_with_their_yes_tokens() -> None:
    record = _record([(3, 2), (3, 2), (1, 4), (2, 1)], [0, 1], [3, 3, 0, 0])
    text = ui.explain_result(record, Cast(NAMES, 0))
    assert text == (
        "Your dilemma (3 YES) and Bot Ada's dilemma (3 YES) tie as the closest call"
        " (difference 1, 2 NO each), so both win."
        " 1 other dilemma was as close but had fewer NO tokens."
        " Each creator scores their dilemma's YES tokens: you +3, Bot Ada +3."
    )
    spectator = ui.explain_result(record, Cast(NAMES, None))
    assert spectator.startswith("Robin's dilemma (3 YES) and Bot Ada's dilemma (3 YES) tie")


def test_three_winners_without_yes_say_nobody_scores() -> None:
    record = _record([(0, 0), (0, 0), (0, 0), (1, 5)], [0, 1, 2], [0, 0, 0, 0])
    text = ui.explain_result(record, Cast(NAMES, 3))
    assert "so all 3 win." in text and "None has a YES token, so nobody scores." in text
    assert "fewer NO" not in text


def test_each_winning_row_says_it_shares_the_win() -> None:
    record = _record([(3, 2), (3, 2), (1, 4), (2, 1)], [0, 1], [3, 3, 0, 0])
    view = {"history": [record], "round_limit": {"count": 5, "exact": True}, "round": 3}
    html = ui.render_round_result(view, ui.Ui(NAMES, ["human"] + ["bot"] * 3, 0), 0)
    assert html.count(" · one of the winners") == 2 and " · winner<" not in html


def test_your_status_says_reading_then_your_move_while_the_others_think() -> None:
    c = Controller(MemoryStorage(), lambda: 11)
    c.dispatch("start", {})
    build_and_vote(c)
    build_and_vote(c)
    html = c.render()
    assert "the votes</h2>" in html
    mine = re.search(r'<li class="me">.*?</li>', html)
    assert mine is not None
    assert "reading the results" in mine.group(0) and "thinking" not in mine.group(0)
    c.dispatch("next", {})
    mine = re.search(r'<li class="me">.*?</li>', c.render())
    assert mine is not None and "your move" in mine.group(0) and "thinking" not in mine.group(0)
