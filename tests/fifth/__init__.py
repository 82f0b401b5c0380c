"""Pebbles: a fifth game that lives in the tests only. Importing it registers it.

It registers exactly as the four real games do (``py/quandary/games/*``), one
``GameEntry``, and nothing under ``py/`` imports it, so the app never sees it.
``tests/conftest.py`` imports it, so every suite that walks the registry
(conformance first of all) plays it too: the proof that a game is one
descriptor and one folder. Its rules are in ``rules.py``, its table in
``render.py``.
"""

from quandary.catalog import GameEntry, register
from quandary.engine import Game

from .spec import SPEC


def _rules() -> Game:
    """The game's rules, imported when a game of this kind is first played."""
    from .rules import Pebbles

    return Pebbles()


ENTRY = register(
    GameEntry(
        SPEC,
        _rules,
        ui="tests.fifth.render",
        views="tests.fifth.view",
        rules_page="pebbles.html",
    )
)


def in_tests(entry: GameEntry) -> bool:
    """Whether ``entry`` is a game of the tests (its renderer lives under ``tests/``):
    the app never offers it, so checks of what the app ships (its rules pages, the
    browser walks) pass it over."""
    return entry.ui.startswith("tests.")


__all__ = ["ENTRY", "SPEC", "in_tests"]
