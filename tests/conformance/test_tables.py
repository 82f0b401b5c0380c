"""The suite's playout list visits every (players x options) cell of every game.

``make check`` runs the conformance suite with ``CHECK_PLAYOUTS`` playouts a game
(the Makefile's setting, read from it here so the two cannot drift apart): a
count, which the suite rounds down to a multiple of its chunks, or ``cells``,
each game's cells once in whole chunks (``playout.covering``). Those playouts
must reach every player count with every option combination before any cell is
played twice, or a quick loop would pass while a combination it never dealt is
broken.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from quandary import engine

from . import test_conformance
from .conftest import CELLS
from .playout import covering, option_combos, tables

MAKEFILE = Path(__file__).resolve().parents[2] / "Makefile"


def check_playouts() -> str:
    """``CHECK_PLAYOUTS`` as the Makefile sets it."""
    found = re.search(r"^CHECK_PLAYOUTS \?= (\d+|cells)$", MAKEFILE.read_text(), re.MULTILINE)
    assert found, "the Makefile no longer sets CHECK_PLAYOUTS"
    return found.group(1)


def played(count: str, game: engine.Game) -> int:
    """How many playouts ``game`` gets when the suite is asked for ``count``."""
    chunks = test_conformance.CHUNKS
    return covering(game, chunks) if count == CELLS else int(count) // chunks * chunks


def cells(game: engine.Game) -> set[tuple[int, str]]:
    """Every (players, options) cell of ``game``, options spelt as their repr."""
    sizes = range(game.spec.min_players, game.spec.max_players + 1)
    return {(p, repr(o)) for p in sizes for o in option_combos(game)}


@pytest.mark.parametrize("game", engine.all_games(), ids=lambda g: g.spec.id)
def test_the_quick_loop_plays_every_cell_of_every_game(game: engine.Game) -> None:
    count = played(check_playouts(), game)
    want = cells(game)
    assert count >= len(want), f"{count} playouts cannot cover {len(want)} cells"
    seen = {(p, repr(o)) for _, p, o in tables(game, count)}
    assert seen == want, f"{len(want - seen)} cells of {game.spec.id} are never played"


@pytest.mark.parametrize("game", engine.all_games(), ids=lambda g: g.spec.id)
def test_every_cell_is_played_before_any_is_played_again(game: engine.Game) -> None:
    want = cells(game)
    first = [(p, repr(o)) for _, p, o in tables(game, len(want))]
    assert set(first) == want and len(first) == len(want)
