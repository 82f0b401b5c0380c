"""The words every sentence about a player goes through, so "you" reads right everywhere.

A log line or a status line names seats. The seat that is reading is "you"
(with "you" verbs and "your"), every other seat is its name (with "-s" verbs
and "'s"): ``Cast`` knows which is which, so no renderer glues a name to a
verb or an apostrophe by hand ("You's 3 landed", "You keeps it"). Numbers and
words get their article ("an 8", "an 11", "a 7") and counts their plural.

Everything returns plain text (the renderers escape it). Pure: time is passed
in, never read here, so the words for any moment can be tested.

>>> cast = Cast(["Robin", "Bot Bo"], viewer=0)
>>> cast.subject(0, "throw", start=True) + " " + cast.possessive(0) + " 3"
'You throw your 3'
>>> cast.subject(1, "win", start=True) + " " + cast.possessive(0) + " 3"
'Bot Bo wins your 3'
>>> cast.listing([1, 0], start=True) + " both chose peace"
'Bot Bo and you both chose peace'
>>> indefinite(8), indefinite(11), indefinite(7), indefinite("ace")
('an 8', 'an 11', 'a 7', 'an ace')
>>> plural(1, "point"), plural(2, "point"), plural(3, "life", "lives")
('1 point', '2 points', '3 lives')
>>> ago(5 * 60 + 10)
'5 minutes ago'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

YOU = "you"

IRREGULAR = {"be": "is", "have": "has", "do": "does", "go": "goes"}
"""Third-person forms that no spelling rule gives; "be" is "are" for you."""


def third_person(verb: str) -> str:
    """The "-s" form of a verb for anyone but you: throws, challenges, tries, has.

    Only base forms: a past tense ("chose") needs no agreement, so it never comes here.
    """
    if verb in IRREGULAR:
        return IRREGULAR[verb]
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if len(verb) > 1 and verb.endswith("y") and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


@dataclass(frozen=True)
class Cast:
    """Who the seats of a sentence are: their names, and the seat that is reading.

    ``viewer`` is None when nobody in particular reads (a spectator, or a
    device waiting to be passed on). A seat whose name reads "you" (the
    lobby's default) is spoken to as you as well, unless another seat is the
    viewer: then it is a name like any other, in quotes, so "you" never means
    two people.
    """

    names: Sequence[str]
    viewer: int | None = None

    def is_you(self, seat: int) -> bool:
        """Whether sentences about ``seat`` speak to the reader."""
        if seat == self.viewer:
            return True
        return self.viewer is None and self._named_you(seat)

    def _named_you(self, seat: int) -> bool:
        return self.name(seat).strip().casefold() == YOU

    def name(self, seat: int) -> str:
        """The seat's name as typed (a seat the view does not name: "Seat 3")."""
        return self.names[seat] if 0 <= seat < len(self.names) else f"Seat {seat + 1}"

    def _third(self, seat: int) -> str:
        name = self.name(seat)
        return f"“{name}”" if self._named_you(seat) else name

    def object(self, seat: int, start: bool = False) -> str:
        """The seat as the object of a sentence, or a name in a list: "you", "Ada"."""
        if self.is_you(seat):
            return _capital(YOU) if start else YOU
        return self._third(seat)

    def verb(self, seat: int, verb: str) -> str:
        """``verb`` (a base form) agreeing with the seat: "throw" for you, "throws" else."""
        if self.is_you(seat):
            return "are" if verb == "be" else verb
        return third_person(verb)

    def subject(self, seat: int, verb: str, start: bool = False) -> str:
        """The seat doing something: "You throw", "Bot Bo throws" (``start``: capitalised)."""
        return f"{self.object(seat, start)} {self.verb(seat, verb)}"

    def possessive(self, seat: int, start: bool = False) -> str:
        """Whose: "your", "Ada's" (``start``: "Your")."""
        if self.is_you(seat):
            return "Your" if start else "your"
        return self._third(seat) + "'s"

    def own(self, seat: int) -> str:
        """What the seat keeps of its own, after it is the subject: "your", "their"."""
        return "your" if self.is_you(seat) else "their"

    def listing(self, seats: Iterable[int], start: bool = False) -> str:
        """Several seats: "you and Ada", "Ada, Bo and you" (a plural subject: base verbs)."""
        words = [self.object(s) for s in seats]
        text = names_list(words)
        return _capital(text) if start and words and words[0] == YOU else text


NUMBER = re.compile(r"\d+")
AN_WORDS = ("hour", "honest", "honour", "honor", "heir")
A_WORDS = ("one", "once", "uni", "use", "usu", "uti", "eu", "ewe", "ure", "uro")
AN_LETTERS = frozenset("AEFHILMNORSX")


def indefinite(thing: int | str) -> str:
    """``thing`` with "a" or "an" as it is said: "an 8", "an 11", "an 18", "a 7", "an ace"."""
    return f"{article(thing)} {thing}"


def article(thing: int | str) -> str:
    """ "a" or "an", as ``thing`` is said (for a template that sets the thing apart).

    Numbers go by how they are read: 8, 11, 18, 80-89, 800-899, 11,000, 18,000 …
    take "an". A lone capital letter goes by its name ("an A♠", "a K♦").
    """
    text = str(thing)
    digits = NUMBER.match(text)
    if digits:
        number = digits.group()
        lead = number[: (len(number) - 1) % 3 + 1]  # the digits before the first comma
        an = number.startswith("8") or lead in ("11", "18")
    elif len(text) == 1 or (text[:1].isupper() and not text[1:2].isalpha()):
        an = text[:1] in AN_LETTERS
    else:
        word = text.casefold()
        an = word.startswith(AN_WORDS) or (word[:1] in "aeiou" and not word.startswith(A_WORDS))
    return "an" if an else "a"


def plural(count: int, word: str, many: str | None = None) -> str:
    """'1 point', '3 points'; ``many`` for a plural no "-s" makes ('3 lives')."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def names_list(names: list[str]) -> str:
    """'Anna', 'Anna and Ben', 'Anna, Ben and Cy'."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


MINUTE = 60
HOUR = 60 * MINUTE
DAY = 24 * HOUR


def ago(seconds: float) -> str:
    """How long ago something happened, as people say it, from the seconds since.

    A negative time (the device's clock was set back) reads "just now".
    """
    if seconds < MINUTE:
        return "just now"
    if seconds < HOUR:
        return plural(int(seconds // MINUTE), "minute") + " ago"
    if seconds < DAY:
        return plural(int(seconds // HOUR), "hour") + " ago"
    days = int(seconds // DAY)
    if days == 1:
        return "yesterday"
    if days < 14:
        return f"{days} days ago"
    if days < 60:
        return f"{days // 7} weeks ago"
    if days < 365:
        return f"{days // 30} months ago"
    return plural(days // 365, "year") + " ago"
