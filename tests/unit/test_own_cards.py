"""Own card packs of The Game of Dilemmas: what a pack may hold, what hostile text
becomes, when packs are too small for a table, and how the device keeps them."""

from __future__ import annotations

import json
from typing import Any

import pytest

from quandary import engine, games  # noqa: F401 - games: registers every game
from quandary.engine import BadSetup
from quandary.games.dilemmas import own_cards
from quandary.games.dilemmas.cards import CARDS
from quandary.games.dilemmas.own_cards import (
    MAX_BYTES,
    MAX_CARDS,
    MAX_NAME,
    MAX_PACKS,
    MAX_TEXT,
    pack_file,
    parse_own,
    parse_pack,
    read_pack_file,
    shortfall,
)
from quandary.web.actions import Action, DownloadText
from quandary.web.own_packs import KEY, PackDesk
from quandary.web.storage import MemoryStorage

SPEC = engine.spec_of("dilemmas")


def pack(good: int, but: int, name: str = "Mine", tag: str = "") -> dict[str, Any]:
    return {
        "name": name,
        "positive": [f"You can do thing {tag}{i}" for i in range(good)],
        "negative": [f"you must do chore {tag}{i}" for i in range(but)],
    }


def own(*packs: dict[str, Any], use: str = "mix") -> dict[str, Any]:
    return {"use": use, "packs": list(packs)}


# -- lengths and counts ---------------------------------------------------------------


def test_a_card_of_the_longest_length_is_kept_and_one_more_character_is_refused() -> None:
    assert parse_pack({**pack(0, 0), "positive": ["x" * MAX_TEXT]})["positive"] == ["x" * MAX_TEXT]
    with pytest.raises(BadSetup, match="longer than 100 characters"):
        parse_pack({**pack(0, 0), "negative": ["x" * (MAX_TEXT + 1)]})


def test_a_pack_name_is_at_most_forty_characters_and_not_empty() -> None:
    assert parse_pack(pack(1, 1, "n" * MAX_NAME))["name"] == "n" * MAX_NAME
    with pytest.raises(BadSetup, match="name is longer"):
        parse_pack(pack(1, 1, "n" * (MAX_NAME + 1)))
    with pytest.raises(BadSetup, match="name is empty"):
        parse_pack(pack(1, 1, " \u200b\t"))


def test_cards_per_pack_packs_per_game_and_total_text_are_bounded() -> None:
    assert len(parse_pack(pack(MAX_CARDS, 0))["positive"]) == MAX_CARDS
    with pytest.raises(BadSetup, match="more than 80 good cards"):
        parse_pack(pack(MAX_CARDS + 1, 0))
    chosen = [pack(2, 2, f"P{i}") for i in range(MAX_PACKS)]
    assert len(parse_own(own(*chosen))["packs"]) == MAX_PACKS
    with pytest.raises(BadSetup, match="at most 4"):
        parse_own(own(*chosen, pack(2, 2, "One too many")))
    # Four packs of long cards in a script of three bytes a character: over the budget.
    wide = {"name": "Wide", "positive": [f"{i:02d}" + "語" * 98 for i in range(30)], "negative": []}
    assert len(json.dumps(wide, ensure_ascii=False).encode()) < MAX_BYTES
    with pytest.raises(BadSetup, match="too much text"):
        parse_own(own(wide, {**wide, "name": "Wide 2"}, {**wide, "name": "Wide 3"}))


def test_an_option_that_is_not_shaped_like_own_packs_is_refused() -> None:
    for bad in (
        None,
        [],
        "packs",
        {"use": "mix"},
        {"use": "mix", "packs": [], "extra": 1},
        {"use": "sometimes", "packs": []},
        {"use": "mix", "packs": {"name": "x"}},
        {"use": "mix", "packs": [{"name": "x", "positive": "abc", "negative": []}]},
        {"use": "mix", "packs": [{"name": "x", "positive": [1], "negative": []}]},
        {"use": "mix", "packs": [{"name": "x", "positive": [], "negative": [], "id": "y"}]},
        {"use": "instead", "packs": []},
    ):
        with pytest.raises(BadSetup):
            SPEC.normalise_options({"own": bad})


# -- hostile text -------------------------------------------------------------------------


def test_hostile_text_is_cleaned_like_a_players_name() -> None:
    raw = {
        "name": "  Evil\u202e\u0000 pack ",
        "positive": ["Fly\u0007\u2066 <b>high</b>\u200b", "Cafe\u0301 for\nfree", "\ud800x"],
        "negative": ["\u0085but \u2028slowly"],
    }
    out = parse_pack(raw)
    assert out == {
        "name": "Evil pack",
        "positive": ["Fly <b>high</b>", "Café for free", "x"],
        "negative": ["but slowly"],
    }


def test_a_card_of_nothing_but_invisible_characters_is_refused() -> None:
    with pytest.raises(BadSetup, match="is empty"):
        parse_pack({**pack(0, 0), "positive": ["\u200b\u200d\u202e"]})


def test_hostile_markup_reaches_the_setup_escaped() -> None:
    from quandary.web.render.own_cards import own_section

    storage = MemoryStorage()
    desk = PackDesk(storage)
    desk.new()
    desk.change("own-name", {"value": '<script>alert("x")</script>'})
    desk.change("own-positive", {"value": '<img src=x onerror="alert(1)">'})
    desk.save()
    desk.edit("p1")
    html = own_section(desk)
    assert "<script>" not in html and "<img" not in html
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in html


# -- duplicates ----------------------------------------------------------------------------


def test_a_card_written_twice_in_one_kind_is_refused_whatever_its_case_or_hidden_marks() -> None:
    for twins in (["Fly", "Fly"], ["Fly", "fLY"], ["Fly", "Fly\u200b"], ["Café", "Cafe\u0301"]):
        with pytest.raises(BadSetup, match="twice"):
            parse_pack({**pack(0, 0), "positive": twins})
    # The same words as a good and as a "but" card are two different cards.
    assert parse_pack({"name": "Both", "positive": ["sing"], "negative": ["sing"]})


def test_own_card_ids_never_meet_a_built_in_card() -> None:
    options = SPEC.normalise_options({"own": own(pack(50, 50, "A"), pack(50, 50, "B", "b"))})
    deck = own_cards.deck(options)
    own_ids = set(deck) - set(CARDS)
    assert len(own_ids) == 200
    assert all(i.startswith(("own1-", "own2-")) for i in own_ids)


# -- too small --------------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(3, 7))
def test_a_table_needs_eight_good_and_eight_but_cards_a_player(players: int) -> None:
    enough = 8 * players
    options = SPEC.normalise_options({"own": own(pack(enough, enough), use="instead")})
    assert shortfall(players, options) == {}
    engine.setup("dilemmas", players, options, 1)
    short = SPEC.normalise_options({"own": own(pack(enough - 1, enough - 3), use="instead")})
    assert shortfall(players, short) == {"positive": 1, "negative": 3}
    with pytest.raises(BadSetup, match=f"too small for {players} players: 1 good card and 3"):
        engine.setup("dilemmas", players, short, 1)
    # Mixed in, the built-in default pack makes up for a small pack at every size.
    mixed = SPEC.normalise_options({"own": own(pack(1, 1))})
    assert shortfall(players, mixed) == {}
    # Own packs have no neutral cards: played alone, the Neutral variant has none.
    neutral = SPEC.normalise_options(
        {"neutral": True, "own": own(pack(enough, enough), use="instead")}
    )
    assert shortfall(players, neutral) == {"neutral": players}


@pytest.mark.parametrize("packs", [["family"], ["deep-end"], ["family", "deep-end"]])
def test_every_built_in_pack_seats_six(packs: list[str]) -> None:
    assert shortfall(6, SPEC.normalise_options({"packs": packs, "neutral": True})) == {}


def test_the_views_name_own_packs_but_never_show_cards_not_dealt() -> None:
    options = SPEC.normalise_options({"own": own(pack(24, 24), use="instead")})
    state = engine.setup("dilemmas", 3, options, 5)
    view = json.dumps(engine.view(state, 0))
    shown = sum(f'You can do thing {i}"' in view for i in range(24))
    assert shown == 4  # the four good cards in seat 0's hand, and not one more
    assert engine.view(state, 0)["options"]["own"] == {
        "use": "instead",
        "packs": [{"name": "Mine", "positive": 24, "negative": 24}],
    }


# -- files ---------------------------------------------------------------------------------------


def test_a_pack_file_reads_back_as_the_same_pack() -> None:
    mine = parse_pack(pack(3, 2))
    assert read_pack_file(pack_file(mine)) == mine


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "not JSON"),
        ("\x89PNG", "not JSON"),
        ("[" * 5000, "not JSON"),
        ("[]", "not a card pack of The Game of Dilemmas"),
        ('{"kind": "quandary-record", "version": 1}', "not a card pack of"),
        ('{"kind": "quandary-dilemmas-pack", "version": 2, "pack": {}}', "another version"),
        ('{"kind": "quandary-dilemmas-pack", "version": 1, "pack": null}', "damaged"),
        (
            '{"kind": "quandary-dilemmas-pack", "version": 1,'
            ' "pack": {"name": "x", "positive": ["' + "y" * 101 + '"], "negative": []}}',
            "damaged: A good card of x is longer than 100",
        ),
    ],
)
def test_a_damaged_or_foreign_file_is_refused_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(BadSetup, match=reason):
        read_pack_file(text)


# -- the device ----------------------------------------------------------------------------------


def test_packs_are_kept_edited_exported_imported_and_deleted_on_the_device() -> None:
    storage = MemoryStorage()
    desk = PackDesk(storage)
    desk.act(Action.OWN_NEW, {})
    desk.change("own-name", {"value": "Moon"})
    desk.change("own-positive", {"value": "Fly\n\nSwim\n"})
    desk.change("own-negative", {"value": "slowly"})
    desk.act(Action.OWN_SAVE, {})
    assert json.loads(storage[KEY]) == {
        "p1": {"name": "Moon", "positive": ["Fly", "Swim"], "negative": ["slowly"]}
    }
    assert desk.chosen == ["p1"]
    assert desk.option() == {
        "use": "mix",
        "packs": [{"name": "Moon", "positive": ["Fly", "Swim"], "negative": ["slowly"]}],
    }
    assert PackDesk(storage).packs == desk.packs  # kept across a reload
    desk.act(Action.OWN_EDIT, {"pack": "p1"})
    desk.change("own-negative", {"value": "slowly\nSLOWLY"})
    desk.act(Action.OWN_SAVE, {})
    assert desk.error == "Moon has the “but” card “SLOWLY” twice."
    assert json.loads(storage[KEY])["p1"]["negative"] == ["slowly"]  # unchanged
    desk.act(Action.OWN_CANCEL, {})
    download = desk.act(Action.OWN_EXPORT, {"pack": "p1"})
    assert isinstance(download, DownloadText) and download.name == "moon.dilemmas-pack.json"
    before = dict(storage)
    desk.change("own-import", {"value": download.text.replace('"Fly"', '"Swim"')})
    assert desk.error is not None and "twice" in desk.error
    assert storage == before
    desk.change("own-import", {"value": ""})
    assert desk.error == "That file is empty or too large to be a card pack."
    assert storage == before
    desk.change("own-import", {"value": download.text})
    assert desk.notice == "The pack Moon (2) was imported."
    desk.act(Action.OWN_DELETE, {"pack": "p1"})
    assert "p1" in desk.packs  # the first press only asks
    desk.act(Action.OWN_DELETE_CONFIRM, {"pack": "p1", "yes": "true"})
    assert list(json.loads(storage[KEY])) == ["p2"] and desk.chosen == []


def test_a_damaged_storage_entry_keeps_the_readable_packs() -> None:
    storage = MemoryStorage()
    storage[KEY] = json.dumps({"p1": pack(2, 2), "p2": {"name": 3}, "p3": pack(1, 1, "x" * 99)})
    assert list(PackDesk(storage).packs) == ["p1"]
    storage[KEY] = "{not json"
    assert PackDesk(storage).packs == {}
