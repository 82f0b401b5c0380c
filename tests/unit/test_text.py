"""One rule for text people type: names, chat lines, pack names and cards, here or in a room."""

from __future__ import annotations

import pytest

from quandary.games.dilemmas.own_cards import clean_text
from quandary.net.chat import clean_chat
from quandary.text import clean_line, clean_name
from quandary.web.controller import Controller

from .test_controller import MemoryStorage, seats

HOSTILE = [
    ("An\u202ena", "Anna"),  # a bidi override would reorder what follows it
    ("An\u200bna", "Anna"),  # a zero-width space: two names that look alike
    ("An\u0007na", "Anna"),  # a control character
    ("An\ud800na", "Anna"),  # a lone surrogate: no message holding it can be encoded
    ("An\ue000na", "Anna"),  # private use: a different picture on every device
    ("\tAnna\n  Lee\u2028", "Anna Lee"),  # breaks and tabs are spaces between words
    ("A\u0301nna", "\u00c1nna"),  # composed (NFC): the same name in one form
]


@pytest.mark.parametrize(("typed", "kept"), HOSTILE)
def test_names_chat_and_cards_are_cleaned_alike(typed: str, kept: str) -> None:
    assert clean_line(typed) == kept
    assert clean_name(typed) == kept
    assert clean_chat(typed) == kept
    assert clean_text(typed, 100, "A card") == kept


def test_only_chat_keeps_the_joiner_that_makes_one_emoji_of_several() -> None:
    family = "\U0001f469\u200d\U0001f467"
    assert clean_chat(family) == family
    assert clean_name(family) == "\U0001f469\U0001f467"


def test_a_cut_line_ends_on_a_character_not_a_space() -> None:
    assert clean_line("Anna " + "x" * 30, 5) == "Anna"


def test_a_name_typed_at_a_table_on_this_device_is_cleaned_as_in_a_room() -> None:
    c = Controller(MemoryStorage(), lambda: 11)
    seats(
        c,
        [
            ("\u202eAn\u200bna\u0007", "human"),
            ("Bot", "bot:heuristic"),
            ("Bot two", "bot:heuristic"),
        ],
    )
    c.dispatch("start", {})
    assert c.table is not None
    assert c.table.view(0)["names"][0] == "Anna"
