"""One catalog entry per game, and everything that reads it: renderers, lobby, page shell."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from quandary import catalog, engine
from quandary.bots import levels
from quandary.engine import BadSetup
from quandary.web.actions import Action, UnknownAction
from quandary.web.render import GameUi, game_ui
from scripts.shell import fill_shell
from tests.fifth import in_tests

ROOT = Path(__file__).resolve().parents[2]
ENTRIES = catalog.entries()


def test_every_registered_game_has_one_entry_in_registration_order() -> None:
    assert [e.id for e in ENTRIES] == [g.spec.id for g in engine.all_games()]


def rules_page(entry: catalog.GameEntry) -> Path:
    """Where ``entry``'s rules page is: under ``static/rules/`` for a game the app ships,
    beside the renderer for a game that lives in the tests (``tests/fifth``), whose
    page must not ship with the app."""
    if in_tests(entry):
        return ROOT.joinpath(*entry.ui.split(".")[:-1], entry.rules_page)
    return ROOT / "static" / "rules" / entry.rules_page


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.id)
def test_an_entry_names_files_that_exist(entry: catalog.GameEntry) -> None:
    assert rules_page(entry).is_file()
    if entry.stylesheet is not None:
        assert (ROOT / "static" / "css" / entry.stylesheet).is_file()
    assert "random" in levels(entry.id)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.id)
def test_each_games_ui_module_has_the_whole_contract(entry: catalog.GameEntry) -> None:
    module = game_ui(entry.id)
    for name, member in inspect.getmembers(GameUi):
        if name.startswith("_"):
            continue
        assert hasattr(module, name), f"{entry.ui} lacks {name}"
        if callable(member):
            wanted = list(inspect.signature(member).parameters)[1:]  # without self
            got = list(inspect.signature(getattr(module, name)).parameters)
            assert got == wanted, f"{entry.ui}.{name}{got} should take {wanted}"
    assert isinstance(module.PHASE_TITLES, dict)


def test_an_unknown_game_has_no_renderer_rather_than_someone_elses() -> None:
    with pytest.raises(BadSetup):
        game_ui("chess")


def test_every_action_a_renderer_names_is_a_known_action() -> None:
    sources = (ROOT / "py/quandary/web").rglob("*.py")
    named = {
        name
        for path in sources
        for name in re.findall(r'data-action=\\?"([a-z-]+)', path.read_text(encoding="utf-8"))
    }
    assert named, "the pattern found no actions at all"
    for name in named:
        Action.parse(name)
    with pytest.raises(UnknownAction):
        Action.parse("pick")  # The Game of Dilemmas' cards are drafts now


def test_the_page_shell_lists_every_game_and_links_none_of_their_styles() -> None:
    """Each game's stylesheet is linked by the page when its table is first drawn
    (static/js/app.entry.js); the first paint loads none of them."""
    html = fill_shell((ROOT / "index.html").read_text(encoding="utf-8"))
    listed = re.findall(r'data-game="([a-z]+)"', html)
    assert listed == [e.id for e in ENTRIES]
    assert "Coming soon" not in html
    for entry in ENTRIES:
        if entry.stylesheet:
            assert entry.stylesheet not in html
    assert "quandary:" not in html.replace('data-quandary="loading"', ""), "a marker is left"
