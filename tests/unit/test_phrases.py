"""The shared phrases, table by table: what a player reads for each case."""

from __future__ import annotations

import pytest

from quandary.web.phrases import Cast, ago, indefinite, names_list, plural, third_person

MINUTE, HOUR, DAY = 60, 3600, 86400


@pytest.mark.parametrize(
    ("seconds", "words"),
    [
        (-30, "just now"),
        (0, "just now"),
        (59, "just now"),
        (60, "1 minute ago"),
        (5 * MINUTE + 59, "5 minutes ago"),
        (HOUR - 1, "59 minutes ago"),
        (HOUR, "1 hour ago"),
        (23 * HOUR, "23 hours ago"),
        (DAY, "yesterday"),
        (2 * DAY, "2 days ago"),
        (13 * DAY, "13 days ago"),
        (14 * DAY, "2 weeks ago"),
        (59 * DAY, "8 weeks ago"),
        (60 * DAY, "2 months ago"),
        (364 * DAY, "12 months ago"),
        (365 * DAY, "1 year ago"),
        (3 * 365 * DAY, "3 years ago"),
    ],
)
def test_ago(seconds: float, words: str) -> None:
    assert ago(seconds) == words


@pytest.mark.parametrize(
    ("verb", "form"),
    [
        ("throw", "throws"),
        ("challenge", "challenges"),
        ("keep", "keeps"),
        ("win", "wins"),
        ("pass", "passes"),
        ("catch", "catches"),
        ("push", "pushes"),
        ("fix", "fixes"),
        ("try", "tries"),
        ("play", "plays"),
        ("go", "goes"),
        ("do", "does"),
        ("have", "has"),
        ("be", "is"),
    ],
)
def test_third_person(verb: str, form: str) -> None:
    assert third_person(verb) == form


ROBIN_READS = Cast(["Robin", "Bot Ada", "Bot Bo"], viewer=0)
NOBODY_READS = Cast(["Robin", "Bot Ada", "Bot Bo"])
DEFAULT_NAME = Cast(["You", "Bot Ada", "Bot Bo"])
ADA_READS_DEFAULT = Cast(["You", "Bot Ada", "Bot Bo"], viewer=1)


@pytest.mark.parametrize(
    ("cast", "seat", "subject", "possessive", "object_"),
    [
        (ROBIN_READS, 0, "You throw", "your", "you"),
        (ROBIN_READS, 2, "Bot Bo throws", "Bot Bo's", "Bot Bo"),
        (NOBODY_READS, 0, "Robin throws", "Robin's", "Robin"),
        # The lobby's default name is spoken to, whoever reads, unless another seat does.
        (DEFAULT_NAME, 0, "You throw", "your", "you"),
        (Cast(["You", "Bot Ada"], viewer=0), 0, "You throw", "your", "you"),
        (ADA_READS_DEFAULT, 0, "“You” throws", "“You”'s", "“You”"),
        (ADA_READS_DEFAULT, 1, "You throw", "your", "you"),
        (ROBIN_READS, 7, "Seat 8 throws", "Seat 8's", "Seat 8"),
    ],
)
def test_a_player_in_a_sentence(cast, seat, subject, possessive, object_) -> None:
    assert cast.subject(seat, "throw", start=True) == subject
    assert cast.possessive(seat) == possessive
    assert cast.object(seat) == object_


def test_capitals_only_where_a_sentence_starts() -> None:
    assert ROBIN_READS.subject(0, "keep") == "you keep"
    assert ROBIN_READS.possessive(0, start=True) == "Your"
    assert ROBIN_READS.object(0, start=True) == "You"
    lowercase = Cast(["bob", "Ada"], viewer=1)
    assert lowercase.subject(0, "keep", start=True) == "bob keeps", "a name is kept as typed"


@pytest.mark.parametrize(
    ("verb", "you", "other"),
    [("be", "are", "is"), ("have", "have", "has"), ("lose", "lose", "loses")],
)
def test_verbs_agree_with_the_player(verb: str, you: str, other: str) -> None:
    assert ROBIN_READS.verb(0, verb) == you
    assert ROBIN_READS.verb(1, verb) == other


@pytest.mark.parametrize(
    ("seats", "start", "words"),
    [
        ([0], False, "you"),
        ([1, 0], True, "Bot Ada and you"),
        ([0, 2], True, "You and Bot Bo"),
        ([0, 1, 2], False, "you, Bot Ada and Bot Bo"),
        ([], False, ""),
    ],
)
def test_several_players(seats: list[int], start: bool, words: str) -> None:
    assert ROBIN_READS.listing(seats, start) == words


def test_what_a_player_keeps_of_their_own() -> None:
    assert (ROBIN_READS.own(0), ROBIN_READS.own(1)) == ("your", "their")


@pytest.mark.parametrize(
    ("thing", "phrase"),
    [
        (1, "a 1"),
        (7, "a 7"),
        (8, "an 8"),
        (10, "a 10"),
        (11, "an 11"),
        (12, "a 12"),
        (18, "an 18"),
        (80, "an 80"),
        (88, "an 88"),
        (100, "a 100"),
        (110, "a 110"),
        (800, "an 800"),
        (1100, "a 1100"),
        (11000, "an 11000"),
        (18500, "an 18500"),
        ("8♥", "an 8♥"),
        ("10♠", "a 10♠"),
        ("A♠", "an A♠"),
        ("K♦", "a K♦"),
        ("ace", "an ace"),
        ("Ace of Spades", "an Ace of Spades"),
        ("hour", "an hour"),
        ("one", "a one"),
        ("unicorn", "a unicorn"),
        ("umbrella", "an umbrella"),
        ("dilemma", "a dilemma"),
        ("X-ray", "an X-ray"),
    ],
)
def test_indefinite_article(thing: int | str, phrase: str) -> None:
    assert indefinite(thing) == phrase


@pytest.mark.parametrize(
    ("count", "word", "many", "words"),
    [
        (0, "point", None, "0 points"),
        (1, "point", None, "1 point"),
        (2, "point", None, "2 points"),
        (1, "life", "lives", "1 life"),
        (3, "life", "lives", "3 lives"),
        (1, "value card", None, "1 value card"),
        (4, "value card", None, "4 value cards"),
    ],
)
def test_plural(count: int, word: str, many: str | None, words: str) -> None:
    assert plural(count, word, many) == words


@pytest.mark.parametrize(
    ("names", "words"),
    [
        ([], ""),
        (["Anna"], "Anna"),
        (["Anna", "Ben"], "Anna and Ben"),
        (["A", "B", "C"], "A, B and C"),
    ],
)
def test_names_list(names: list[str], words: str) -> None:
    assert names_list(names) == words
