"""Royal Dilemma's rough edges: a steady round counter, targets drawn one way, setup words.

Each test reads what a player reads (the rendered screen or the view's header)
over seeded games played by bots, so a counter that moves mid-round or a target
drawn in two suits shows up as a failed comparison.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import quandary.games  # noqa: F401  (fills the game and bot registries)
from quandary import engine
from quandary.bots import bot_rng, make_bot
from quandary.games.royal.cards import seat_face, target_seat
from quandary.games.royal.spec import most_rounds_at
from quandary.web.controller import Controller

from .test_controller import MemoryStorage, seats

LEVELS = ("heuristic", "builder", "opportunist", "tit_for_tat")


def _bots(players: int, seed: int) -> list[Any]:
    return [make_bot("royal", LEVELS[(seed + s) % len(LEVELS)]) for s in range(players)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_round_counter_never_changes_within_a_round(players: int) -> None:
    """Between two "round_started" events every view says the same "at most N"."""
    checked = 0
    for seed in range(25):
        state = engine.setup("royal", players, {}, 300 + seed)
        bots = _bots(players, seed)
        seen: dict[int, dict[str, Any]] = {}
        while engine.result(state) is None:
            header = engine.view(state, None)
            limit = seen.setdefault(header["round"], header["round_limit"])
            assert header["round_limit"] == limit, (seed, header["round"], header["phase"])
            checked += 1
            for seat in engine.game_of(state).waiting_for(state):
                view = engine.view(state, seat)
                move = bots[seat].choose(view, bot_rng(300 + seed, seat, state.version))
                state = engine.apply(state, seat, move)
        # The bound never promised fewer rounds than were played.
        assert all(r <= limit["count"] for r, limit in seen.items())
    assert checked > 0


def test_the_setup_bound_matches_what_the_deck_allows() -> None:
    """No seeded game lasts longer than the setup screen said it could."""
    for players in (2, 3, 4):
        for seed in range(25):
            state = engine.setup("royal", players, {}, 500 + seed)
            bots = _bots(players, seed)
            while engine.result(state) is None:
                for seat in engine.game_of(state).waiting_for(state):
                    view = engine.view(state, seat)
                    move = bots[seat].choose(view, bot_rng(500 + seed, seat, state.version))
                    state = engine.apply(state, seat, move)
            assert engine.view(state, None)["round"] <= most_rounds_at(players)


def _faces(html: str, attribute: str = "data-face") -> list[str]:
    return re.findall(attribute + r'="([^"]+)"', html)


def test_a_target_looks_the_same_at_choice_and_at_reveal() -> None:
    """The target button and the revealed choice both show the target's own face and suit."""
    c = Controller(MemoryStorage(), lambda: 33)
    c.dispatch("choose-game", {"game": "royal"})
    seats(c, [("Robin", "human"), ("Ada", "bot:builder"), ("Bo", "bot:builder")])
    c.dispatch("start", {})
    view = c.table.view(c.viewer)
    html = c.render()
    for card in view["targets"]:
        button = re.search(r'<button[^>]*data-target="' + card + r'"[^>]*>', html)
        assert button is not None
        face = seat_face(target_seat(card))
        assert f'data-face="{face}"' in button.group(0)
    # Robin aims at Ada's seat; her card must look the same once revealed.
    aim = view["targets"][1]
    c.dispatch("draft", {"target": aim})
    c.dispatch("draft", {"value": view["hand"][-1]})
    c.dispatch("submit", {})
    view = c.table.view(c.viewer)
    while view["phase"] == "capture":  # a capture comes before the retelling; decline it
        c.dispatch("move", {"move": '{"type": "decline"}'})
        view = c.table.view(c.viewer)
    record = view["history"][0]
    reveal = c.render()
    assert "how it resolved</h2>" in reveal
    shown = _faces(reveal)
    for seat, choice in enumerate(record["choices"]):
        if choice is not None:
            assert seat_face(choice["target"]) in shown, (seat, choice, shown)
    assert seat_face(target_seat(aim)) in shown


def test_setup_says_how_long_the_game_can_last_and_has_no_empty_variants_box() -> None:
    c = Controller(MemoryStorage(), lambda: 1)
    c.dispatch("choose-game", {"game": "royal"})
    seats(
        c,
        [
            ("Robin", "human"),
            ("Ada", "bot:heuristic"),
            ("Bo", "bot:builder"),
            ("Cy", "bot:grudger"),
        ],
    )
    html = c.render()
    assert "With 4 players the deck allows only one round." in html
    assert "<legend>Variants</legend>" not in html
    seats(c, [("Robin", "human"), ("Ada", "bot:heuristic")])
    assert "With 2 players the deck allows at most 8 rounds." in c.render()
    # A game with variants keeps its box.
    c.dispatch("choose-game", {"game": "dilemmas"})
    assert "<legend>Variants</legend>" in c.render()


def test_bot_levels_read_as_their_own_labels() -> None:
    c = Controller(MemoryStorage(), lambda: 1)
    c.dispatch("choose-game", {"game": "royal"})
    html = c.render()
    assert '<optgroup label="Bots">' in html
    assert ">Builder: always builds</option>" in html
    assert "Bot (" not in html and "((" not in html and "))" not in html


def _room_lobby(game: str) -> dict[str, Any]:
    return {
        "title": "Royal Dilemma",
        "game": game,
        "host": "h",
        "min": 2,
        "max": 4,
        "options": {},
        "members": [{"id": "h", "name": "Hana", "connected": True, "seat": 0}],
        "seats": [
            {"kind": "open", "member": "h", "name": "Hana", "level": None},
            {"kind": "bot", "member": None, "name": "Bot Ada", "level": "builder"},
        ],
    }


def test_a_room_of_royal_dilemma_reads_cleanly_for_a_guest_and_the_host() -> None:
    from quandary.web.render.room import room_lobby

    guest = str(room_lobby(_room_lobby("royal"), "g", False, "Gus"))
    assert "Variants" not in guest
    assert "Bot Ada · bot · Builder: always builds" in guest
    host = str(room_lobby(_room_lobby("royal"), "h", True, "Hana"))
    assert '<optgroup label="Bots">' in host and ">Builder: always builds</option>" in host
    assert "Bot (" not in host
    assert "Variants: none." in str(room_lobby(_room_lobby("dilemmas"), "g", False, "Gus"))
