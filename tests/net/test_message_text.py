"""A message's text is searched for refused characters the cheap way first, and finds
exactly what one search for all of them finds (``messages._may_hide_text``)."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quandary.net import messages
from quandary.net.messages import GUEST_TYPES, ProtocolError, parse

REFUSED = "\x00\x1f\x7f\x85\x9f\u2028\u2029\u200e\u200f\u202a\u202e\u2066\u2069"
"""Some of every range the protocol refuses in a text."""
ALLOWED = ' az"\\/bfnrtuU{}[]:,\xa0\u200d\u00e9\u201c\u201d\u2014\U0001f44d'
"""Text a message may hold: quotes, backslashes and the letters of escapes, a
no-break space, a joiner (emoji sequences), accents, typographic quotes, an emoji."""
ONE_SEARCH = re.compile(messages._CONTROL.pattern + "|" + r"\\[bfnrtu]")
"""What the text was searched for before: every refused character, or an escape."""


@given(
    st.text(alphabet=ALLOWED, max_size=30),
    st.sampled_from(["", *REFUSED]),
    st.integers(min_value=0, max_value=30),
)
def test_the_cheap_search_finds_what_one_search_for_all_finds(
    allowed: str, refused: str, at: int
) -> None:
    text = allowed[:at] + refused + allowed[at:]  # one refused character at most
    assert messages._may_hide_text(text) == (ONE_SEARCH.search(text) is not None)


@pytest.mark.parametrize(
    ("text", "may_hide"),
    [("plain", False), ("a\\n", True), ('\\"quoted\\"', False), ("a\u202e", True), ("\xa0", False)],
)
def test_escapes_and_characters_anywhere_are_found(text: str, may_hide: bool) -> None:
    assert messages._may_hide_text(text) is may_hide


@pytest.mark.parametrize("character", list(REFUSED[4:]))  # JSON itself refuses raw C0
def test_a_refused_character_written_raw_is_refused(character: str) -> None:
    text = json.dumps({"t": "name", "name": f"Zed{character}"}, ensure_ascii=False)
    assert character in text
    with pytest.raises(ProtocolError, match="control characters"):
        parse(text, GUEST_TYPES)


def test_a_name_with_a_joiner_a_no_break_space_and_an_emoji_is_read() -> None:
    name = "Ana\xa0Lu \U0001f469\u200d\U0001f4bb"
    text = json.dumps({"t": "name", "name": name}, ensure_ascii=False)
    assert parse(text, GUEST_TYPES)["name"] == name
