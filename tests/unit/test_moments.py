"""Reveals never hold a player back: no control ever turns over, and every reveal ends in 0.5 s.

Every screen of seeded random playouts of the four games is rendered for every
seat (turns and round results) and read back: an element marked ``data-reveal``
(it animates when it appears) must hold no button, field or link a player may
use, and its id must be unique on its screen (the page morph keys on it). The
timing in static/css/moments.css must match the renderers' and stay under half
a second.
"""

from __future__ import annotations

import collections
import random
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from quandary import engine
from quandary.web.render import game_ui
from quandary.web.render.table import REVEAL_LAST_STEP, REVEAL_MS, REVEAL_STEP_MS, Ui
from tests.unit.game_logs import _pick

ROOT = Path(__file__).resolve().parents[2]
CONTROLS = {"button", "input", "select", "textarea", "a"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
GAMES = [g.spec.id for g in engine.all_games()]
STEPS = 150


class Reveals(HTMLParser):
    """Reads a screen: its revealed elements, and any control inside one."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[bool] = []
        self.ids: collections.Counter[str] = collections.Counter()
        self.revealed = 0
        self.controls_inside: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        inside = any(self.stack)
        if inside and tag in CONTROLS:
            self.controls_inside.append(tag)
        if "data-reveal" in found:
            self.revealed += 1
            self.ids[found.get("id") or ""] += 1
        if tag not in VOID:
            self.stack.append("data-reveal" in found)

    def handle_endtag(self, tag: str) -> None:
        if tag not in VOID and self.stack:
            self.stack.pop()


def screens(game: str, seed: int, players: int) -> Any:
    """Every turn screen and round result of a seeded random playout, for every seat."""
    ui_module = game_ui(game)
    state = engine.setup(game, players, None, seed)
    chooser, tried = random.Random(seed), collections.Counter[str]()
    names = [f"P{i}" for i in range(players)]
    spec = engine.get(game).spec
    for _ in range(STEPS):
        for seat in range(players):
            view = engine.view(state, seat)
            view["names"], view["kinds"] = names, ["human"] * players
            ui = Ui(names, view["kinds"], seat)
            if not view["result"]:
                yield ui_module.render_turn(view, ui)
            reached = ui_module.checkpoints(view)
            if reached:  # the newest result (the older ones were read when they were new)
                yield ui_module.render_round_result(view, ui, reached - 1)
        step = _pick(state, chooser, tried)
        if step is None:
            return
        seat, move = step
        if move["type"] in spec.authority_moves:
            state = engine.apply_authority(state, move)
        else:
            state = engine.apply(state, seat, move)


@pytest.mark.parametrize("game", GAMES)
def test_no_control_is_ever_part_of_a_reveal(game: str) -> None:
    revealed = 0
    for seed in (1,):
        players = engine.get(game).spec.min_players + 1
        for html in screens(game, seed, players):
            reader = Reveals()
            reader.feed(str(html))
            assert not reader.controls_inside, f"a control turns over with a reveal: {html}"
            doubled = [i for i, n in reader.ids.items() if n > 1 or not i]
            assert not doubled, f"reveals need one id each: {doubled}"
            revealed += reader.revealed
    assert revealed, f"{game} reveals nothing"


def test_every_reveal_is_over_within_half_a_second() -> None:
    css = (ROOT / "static/css/moments.css").read_text(encoding="utf-8")
    assert re.search(rf"--reveal-step:\s*{REVEAL_STEP_MS}ms", css)
    assert re.search(rf"--reveal-time:\s*{REVEAL_MS}ms", css)
    assert REVEAL_MS + REVEAL_LAST_STEP * REVEAL_STEP_MS < 500
    reduced = css[css.index("prefers-reduced-motion: reduce") :]
    assert "[data-reveal]" in reduced.split("}")[0], "reduced motion stops every reveal"
