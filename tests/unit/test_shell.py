"""The page the build paints before Python starts is the engine's own first screen.

The lobby and every game's setup are in index.html (scripts/shell.py) so a
player can choose and start a game while the engine boots; once it is ready the
engine's first screen replaces what was painted. Were the two different, the page
would jump under the player's finger at that moment.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from quandary import catalog
from quandary.web import preload
from quandary.web.bridge import open_bridge
from scripts.build import _shell
from scripts.shell import fill_shell
from tests.fifth import in_tests

ROOT = Path(__file__).resolve().parents[2]
SHELL = fill_shell((ROOT / "index.html").read_text(encoding="utf-8"))


def first_screen(storage: dict[str, str]) -> str:
    bridge = open_bridge(json.dumps({"storage": storage}))
    answer = json.loads(bridge.handle(json.dumps({"t": "start", "hash": ""})))
    (draw,) = [m for m in answer["out"] if m["t"] == "draw"]
    return str(draw["html"])


def painted_lobby() -> str:
    found = re.search(r'<main id="screen" tabindex="-1">\s*(.*?)\s*</main>', SHELL, re.S)
    assert found
    return found.group(1)


def test_the_painted_lobby_is_the_engines_first_screen_on_a_new_device() -> None:
    assert painted_lobby() == first_screen({})


def test_a_returning_device_differs_only_where_it_has_something_stored() -> None:
    """Its saved games and bot speed come with the engine's first screen."""
    screen = first_screen({"quandary:bot-speed": "relaxed"})
    assert screen != painted_lobby()
    assert '<option value="relaxed" selected>' in screen


@pytest.mark.parametrize("entry", catalog.entries(), ids=lambda e: e.id)
def test_every_game_has_its_setup_painted_with_a_row_for_each_seat(
    entry: catalog.GameEntry,
) -> None:
    spec = entry.spec
    found = re.search(
        rf'<template data-setup="{spec.id}" data-seats="(\d+)">(.*?)</template>', SHELL, re.S
    )
    assert found, spec.id
    assert spec.min_players <= int(found.group(1)) <= spec.max_players
    assert found.group(2).count('class="seat"') == spec.max_players
    assert f"Set up {spec.title}" in found.group(2)


def test_the_warm_start_snapshot_holds_every_module_of_the_package() -> None:
    package = ROOT / "py" / "quandary"
    files = {
        ".".join(p.relative_to(package.parent).with_suffix("").parts).removesuffix(".__init__")
        for p in package.rglob("*.py")
    }
    assert files - {"quandary"} == set(preload.MODULES)


def test_the_rules_index_links_every_game_the_site_ships_and_no_other() -> None:
    """The build lists each game's rules from the registry (a new game adds no line
    there), in a Python of its own: the tests' own game, registered here, has no page
    under static/rules and is not listed."""
    page = _shell(("--rules",), "static/rules/index.html")
    links = re.findall(r'<li><a href="([^"]+)">([^<]+)</a>', page)
    shipped = [e for e in catalog.entries() if not in_tests(e)]
    assert links == [(e.rules_page, html.escape(e.spec.title)) for e in shipped]
    assert all((ROOT / "static" / "rules" / name).is_file() for name, _ in links)
