"""Royal Dilemma through the pure Controller: whole games by clicks, milestones, hot seat."""

from __future__ import annotations

import json
import re

from quandary.web.controller import Controller
from quandary.web.phrases import Cast
from quandary.web.render import royal as ui

from .test_controller import MemoryStorage, seats


def start(c: Controller, spec: list[tuple[str, str]]) -> None:
    c.dispatch("choose-game", {"game": "royal"})
    seats(c, spec)
    c.dispatch("start", {})
    assert c.screen == "table", c.render()


def act(c: Controller) -> None:
    """The viewer's turn by clicks: capture the first card offered, or target the next seat."""
    view = c.table.view(c.viewer)
    if view["phase"] == "capture":
        first = view["legal_moves"][0]
        assert f'id="capture-{first["card"]}"' in c.render()
        c.dispatch("move", {"move": json.dumps(first)})
        return
    me = c.viewer
    target = view["targets"][(me + 1) % view["players"]]
    c.dispatch("draft", {"target": target})
    if not view["hand"]:
        c.dispatch("move", {"move": json.dumps({"type": "pass"})})
        return
    c.dispatch("draft", {"value": view["hand"][-1]})
    html = c.render()
    assert 'aria-pressed="true"' in html and "You will target" in html
    c.dispatch("submit", {})


def test_a_whole_game_against_bots_reaches_the_end_screen() -> None:
    storage = MemoryStorage()
    c = Controller(storage, lambda: 21)
    start(c, [("Robin", "human"), ("Bot Ada", "bot:heuristic")])
    assert "Choose a target and a value card" in c.render()
    for _ in range(40):
        if c.seen < len(c.table.view(None)["history"]):
            html = c.render()
            assert "how it resolved</h2>" in html and "Step by step" in html
            c.dispatch("next", {})
            continue
        if c.table.over:
            break
        act(c)
    html = c.render()
    assert "Play again" in html and "final-scores" in html
    assert not storage.saved_games(), "a finished game leaves no save behind"
    history = c.table.view(None)["history"]
    assert len(history) >= 2


def test_an_illegal_choice_shows_its_reason_and_changes_nothing() -> None:
    c = Controller(MemoryStorage(), lambda: 5)
    start(c, [("Robin", "human"), ("Bot Ada", "bot:builder")])
    before = c.table.state
    c.dispatch("draft", {"target": "KS"})
    c.dispatch("draft", {"value": "10H"})
    c.dispatch("submit", {})
    assert c.table.state == before
    assert "You do not hold the target card King of Spades." in c.render()


def test_the_round_result_retells_each_step() -> None:
    c = Controller(MemoryStorage(), lambda: 8)
    start(c, [("Robin", "human"), ("Bot Ada", "bot:opportunist")])
    view = c.table.view(0)
    c.dispatch("draft", {"target": "AS"})
    c.dispatch("draft", {"value": view["hand"][0]})
    c.dispatch("submit", {})
    html = c.render()
    assert "Round 1: how it resolved" in html
    assert "You (Ace of Spades) build" in html
    assert "Jack of Clubs (Bot Ada) invades you (Ace of Spades)" in html
    announcement = c.announcement()
    assert announcement is not None and announcement.startswith("Round 1 resolved.")


def test_hot_seat_hides_each_hand_behind_the_privacy_screen() -> None:
    c = Controller(MemoryStorage(), lambda: 13)
    start(c, [("Anna", "human"), ("Ben", "human"), ("Cy", "bot:random")])
    gate = c.render()
    assert "Pass the device to Anna" in gate
    assert "data-value" not in gate
    c.dispatch("reveal", {})
    anna = set(re.findall(r'data-value="(\w+)"', c.render()))
    assert anna == set(c.table.state.hands[0])
    act(c)
    gate = c.render()
    assert "Pass the device to Ben" in gate
    assert not re.findall(r'data-value="(\w+)"', gate)
    c.dispatch("reveal", {})
    ben = set(re.findall(r'data-value="(\w+)"', c.render()))
    assert ben == set(c.table.state.hands[1])


def test_explanations_name_the_doubling_and_the_capture() -> None:
    step = {
        "kind": "invasion",
        "seat": 2,
        "target": 1,
        "card": "7H",
        "strength": 14,
        "doubled": True,
        "after_battle": False,
        "captured": "9C",
        "could_capture": ["9C"],
        "surrendered": None,
        "surrendered_count": 0,
        "from_hand": False,
    }
    names = Cast(["A", "B", "C"])
    assert ui.explain_step(step, names) == (
        "Queen of Hearts (C) invades Jack of Clubs (B) with 7♥, doubled to 14 "
        "(Hearts is the Queen's suit) and captures 9♣."
    )
    hidden = step | {"captured": None, "could_capture": [], "from_hand": True}
    assert ui.explain_step(hidden | {"surrendered_count": 14}, names).endswith(
        "surrenders 14 value cards from its hand into the Queen of Hearts's hand."
        " Only cards in play score, so no score changes."
    )
    assert ui.explain_step(
        hidden | {"surrendered_count": 1, "surrendered": ["5C"]}, names
    ).endswith(
        "surrenders all 1 value card it held (5♣) from its hand into the Queen of Hearts's hand."
        " Only cards in play score, so no score changes."
    )
    assert ui.PHASE_TITLES["choose"] == "Choose a target and a value card"
