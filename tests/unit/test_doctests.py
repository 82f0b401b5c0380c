"""The examples in the pure modules' docstrings are tests too."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "bench.minister_newcomer",
    "quandary.engine.rng",
    "quandary.engine.codec",
    "quandary.engine.typed",
    "quandary.games.minister.faces",
    "quandary.engine.moves",
    "quandary.games.dilemmas.own_cards",
    "quandary.games.dilemmas.scoring",
    "quandary.games.minister.laws",
    "quandary.games.minister.material",
    "quandary.games.royal.cards",
    "quandary.games.royal.resolution",
    "quandary.net.chat",
    "quandary.net.messages",
    "quandary.net.link",
    "quandary.replay",
    "quandary.text",
    "quandary.web.actions",
    "quandary.web.html",
    "quandary.web.mode",
    "quandary.web.phrases",
    "quandary.web.render.minister_icons",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
