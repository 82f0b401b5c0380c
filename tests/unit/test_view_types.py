"""Each game's declared view types hold for its real views and refuse doctored ones."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from quandary import catalog
from quandary.engine import BadView
from quandary.table import Seat, Table


def _table(game: str, players: int = 3) -> Table:
    seats = [Seat("Anna", "human")] + [Seat(f"Bot {i}", "bot") for i in range(1, players)]
    return Table.new(game, seats, None, 7)


def _doctor_dilemmas(view: dict[str, Any]) -> None:
    view["hand"]["positive"][0]["text"] = 5


def _doctor_royal(view: dict[str, Any]) -> None:
    view["realms"] = [["AS"], "KD"]


def _doctor_randolph(view: dict[str, Any]) -> None:
    view["lives"][1] = "3"


DOCTORED = {
    "randolph": (_doctor_randolph, "view.lives[1] must be a whole number"),
    "dilemmas": (_doctor_dilemmas, "view.hand.positive[0].text must be text"),
    "royal": (_doctor_royal, "view.realms[1] must be a list"),
}


@pytest.mark.parametrize("game", sorted(DOCTORED))
def test_a_real_view_passes_and_a_doctored_one_is_refused_naming_the_field(game: str) -> None:
    table = _table(game)
    for seat in (0, None):
        catalog.read_view(table.view(seat))
    view = copy.deepcopy(table.view(0))
    doctor, said = DOCTORED[game]
    doctor(view)
    with pytest.raises(BadView, match=said.replace("[", r"\[").replace("]", r"\]")):
        catalog.read_view(view)


def test_a_damaged_header_is_told_before_the_game_s_own_part() -> None:
    view = copy.deepcopy(_table("randolph").view(0))
    view["lives"] = None
    del view["round"]
    with pytest.raises(BadView, match="no round"):
        catalog.read_view(view)
