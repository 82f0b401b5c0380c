"""The newcomer benchmark (bench/minister_newcomer.py) on one short seeded first game.

The bench plays through the real controller and charges each screen for reading,
deciding, clicking and waiting; here its accounting must add up: the categories of
every step make the game's virtual clock, and each step costs what its constants say.
"""

from __future__ import annotations

import math

import pytest

from bench.minister_newcomer import (
    CATEGORIES,
    CLICK_S,
    REVEAL_ANIMATION_MS,
    WORDS_PER_MINUTE,
    Newcomer,
    decide_seconds,
    new_words,
    seen_blocks,
)

SHORT = 3
"""A seed whose first game ends after six turns."""


@pytest.fixture(scope="module")
def game() -> Newcomer:
    newcomer = Newcomer(SHORT)
    newcomer.play()
    return newcomer


def test_the_game_is_played_to_its_end_screen(game: Newcomer) -> None:
    table = game.c.table
    assert table is not None and table.over
    assert "Play again" in str(game.c.render())
    reveals = [s for s in game.steps if s["kind"] == "reveal"]
    assert len(reveals) == table.state.reveals == table.state.turn


def test_every_second_is_accounted_for(game: Newcomer) -> None:
    summary = game.summary()
    total = sum(summary["seconds"][c] for c in CATEGORIES)
    assert math.isclose(total, summary["minutes"] * 60, abs_tol=0.05)
    by_kind = sum(row[c] for row in summary["steps"].values() for c in CATEGORIES)
    assert math.isclose(by_kind, total, abs_tol=0.05)
    assert sum(row["count"] for row in summary["steps"].values()) == len(game.steps)


def test_each_step_costs_what_the_model_says(game: Newcomer) -> None:
    for step in game.steps:
        assert math.isclose(step["reading"], step["words"] * 60 / WORDS_PER_MINUTE, abs_tol=1e-3)
        assert math.isclose(step["deciding"], decide_seconds(step["options"]), abs_tol=1e-3)
        if step["kind"] == "waiting":
            assert step["reading"] == step["clicking"] == 0 < step["waiting"]
        elif step["kind"] == "reveal":
            assert step["clicking"] == CLICK_S
            assert step["waiting"] == REVEAL_ANIMATION_MS / 1000
        elif step["kind"] == "propose":
            assert step["clicking"] >= 3 * CLICK_S  # two cards at least, then Propose
        elif step["kind"] == "vote":
            assert step["clicking"] == 2 * CLICK_S  # a vote, then Cast this vote
    first = game.steps[0]
    assert first["kind"] == "propose" and first["words"] > 100, "all of the first screen is new"


def test_only_visible_words_that_changed_are_read() -> None:
    page = (
        '<p>Deck: 64</p><p>Pick <span class="sr-only">(secret)</span>one</p>'
        "<details><summary>What happened</summary><ol><li>old news</li></ol></details>"
    )
    blocks = seen_blocks(page)
    assert blocks == [("Deck:", "64"), ("Pick", "one"), ("What", "happened")]
    later = seen_blocks("<p>Pick one</p><p>Deck: 63</p><p>Vote now</p>")
    assert new_words(blocks, later, set(blocks)) == 3  # "63", "Vote now"
    assert decide_seconds(1) == 0 < decide_seconds(2) < decide_seconds(21)
