"""Players' own card packs for The Game of Dilemmas: checked data, never code.

A player writes a pack on their device (a name, good cards and "... but"
cards) and chooses it in the setup, mixed into the built-in packs or instead
of them. The chosen packs travel inside the game's options, so a room's
guests never need them on their own device; that makes every pack text from
someone else, so ``parse_own`` checks it wherever options are parsed: shape,
counts, lengths, a total size that fits a room's messages, duplicates, and
text cleaned like a player's name (NFC, no control or invisible characters).

How many cards a game uses (RULINGS §1): every player is dealt 4 good and 4
"but" cards and draws one of each after each of the first four rounds (the
fifth ends the game), so a game of N players turns up ``8 * N`` of each kind
(coop included: each round's N dilemmas still use N of each kind), and
``N`` neutral cards with that variant. The decks are reshuffled from their
discards when they run dry, but then cards already played come back, so a
game is only started with enough fresh cards (``shortfall``).

>>> shortfall(6, {"packs": ["family"], "neutral": False, "own": NO_OWN})
{}
>>> shortfall(3, {"packs": [], "neutral": False,
...     "own": {"use": "instead", "packs": [{"name": "Tiny", "positive": ["a"], "negative": []}]}})
{'positive': 23, 'negative': 24}
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any, TypedDict

from quandary.engine import BadSetup
from quandary.text import clean_line

from .cards import CARDS, PACKS, Card, Kind

MAX_TEXT = 100
"""The longest card, in characters."""
MAX_NAME = 40
"""The longest pack name, in characters."""
MAX_CARDS = 80
"""The most cards of one kind (good or "but") in one pack."""
MAX_PACKS = 4
"""The most own packs chosen for one game."""
MAX_BYTES = 24_000
"""All chosen packs' text together, in UTF-8 bytes: a room's lobby message carries
it to every guest, and a message is at most 64 KiB (net/limits.json)."""
WEIGHT = 3
"""How strongly the bots weigh an own card: the middle of the built-in 1-5."""
PER_PLAYER = 8
"""Good (and "but") cards one player turns up in a game: 4 dealt, 4 drawn."""
USES = ("mix", "instead")
"""Own packs are shuffled in with the built-in packs chosen, or played alone."""
NO_OWN: dict[str, Any] = {"use": "mix", "packs": []}
"""The option's default: no own packs."""
OWN_KINDS: tuple[Kind, Kind] = ("positive", "negative")
"""An own pack has good and "but" cards; neutral cards only come from built-in packs."""
FILE_KIND = "quandary-dilemmas-pack"
FILE_VERSION = 1
_WORD = {"positive": "good", "negative": "“but”", "neutral": "neutral"}


def clean_text(text: object, limit: int, what: str) -> str:
    """``text`` as everyone keeps it: NFC, no control or invisible characters, spaces
    collapsed; ``BadSetup`` if it is not text, is empty or is longer than ``limit``.

    >>> clean_text("  Fly\\u202e\\u0007  high ", 100, "A card")
    'Fly high'
    """
    if not isinstance(text, str):
        raise BadSetup(f"{what} must be text.")
    out = clean_line(text)  # cleaned as names and chat are (quandary.text)
    if not out:
        raise BadSetup(f"{what} is empty.")
    if len(out) > limit:
        raise BadSetup(f"{what} is longer than {limit} characters: {out[:30]}…")
    return out


class OwnPack(TypedDict):
    """One pack of a player's own cards, checked and cleaned (``parse_pack``)."""

    name: str
    positive: list[str]
    negative: list[str]


def parse_pack(data: object) -> OwnPack:
    """One pack, checked and cleaned: ``{"name", "positive", "negative"}``.

    A card written twice in one kind (ignoring case) is refused: it would be
    the same card twice in a hand.
    """
    if not isinstance(data, dict) or set(data) != {"name", *OWN_KINDS}:
        raise BadSetup("A card pack has a name, good cards and “but” cards, and nothing else.")
    name = clean_text(data["name"], MAX_NAME, "A pack's name")
    out: dict[str, list[str]] = {}
    for kind in OWN_KINDS:
        cards = data[kind]
        word = _WORD[kind]
        if not isinstance(cards, list):
            raise BadSetup(f"The {word} cards of {name} must be a list.")
        if len(cards) > MAX_CARDS:
            raise BadSetup(f"{name} has more than {MAX_CARDS} {word} cards.")
        texts = [clean_text(c, MAX_TEXT, f"A {word} card of {name}") for c in cards]
        seen: set[str] = set()
        for text in texts:
            if text.casefold() in seen:
                raise BadSetup(f"{name} has the {word} card “{text}” twice.")
            seen.add(text.casefold())
        out[kind] = texts
    return {"name": name, "positive": out["positive"], "negative": out["negative"]}


def parse_own(value: object) -> dict[str, Any]:
    """The own-packs option (``{"use", "packs"}``), checked: ``BadSetup`` says why not."""
    if not isinstance(value, dict) or set(value) != {"use", "packs"}:
        raise BadSetup("Your own cards option must say which packs and how they are used.")
    if value["use"] not in USES:
        raise BadSetup("Your own packs are mixed in or used instead of the built-in ones.")
    packs = value["packs"]
    if not isinstance(packs, list):
        raise BadSetup("Your own packs must be a list.")
    if len(packs) > MAX_PACKS:
        raise BadSetup(f"Choose at most {MAX_PACKS} of your own packs for one game.")
    parsed = [parse_pack(p) for p in packs]
    if value["use"] == "instead" and not parsed:
        raise BadSetup("Choose one of your own packs to play instead of the built-in ones.")
    size = len(json.dumps(parsed, ensure_ascii=False).encode("utf-8"))
    if size > MAX_BYTES:
        raise BadSetup(
            f"The chosen packs hold too much text for one game ({size:,} bytes of at most"
            f" {MAX_BYTES:,}): choose fewer."
        )
    return {"use": value["use"], "packs": parsed}


def summary(value: object) -> str:
    """The own packs chosen, in a few words for the setup's folded line.

    >>> summary({"use": "instead", "packs": [{"name": "Moon"}, {"name": "Sea"}]})
    'Own cards instead: Moon, Sea'
    >>> summary(NO_OWN)
    ''
    """
    try:
        names = ", ".join(str(p["name"]) for p in value["packs"])  # type: ignore[index]
        alone = value["use"] == "instead"  # type: ignore[index]
    except (KeyError, TypeError):
        return ""
    return f"Own cards {'instead' if alone else 'mixed in'}: {names}" if names else ""


def needed(players: int, neutral: bool) -> dict[Kind, int]:
    """How many fresh cards of each kind a game of ``players`` turns up."""
    return {
        "positive": PER_PLAYER * players,
        "negative": PER_PLAYER * players,
        "neutral": players if neutral else 0,
    }


def chosen_cards(options: Mapping[str, Any]) -> list[Card]:
    """Every card a game with these (normalised) options shuffles in, built-in first."""
    own = options.get("own", NO_OWN)
    built_in = [] if own["use"] == "instead" else [p for p in PACKS if p.id in options["packs"]]
    return [c for p in built_in for c in p.cards] + list(_own_cards(_key(own)))


def shortfall(players: int, options: Mapping[str, Any]) -> dict[Kind, int]:
    """The cards of each kind the chosen packs lack for a game of ``players`` (none: {})."""
    cards = chosen_cards(options)
    want = needed(players, bool(options.get("neutral")))
    have = {kind: sum(c.kind == kind for c in cards) for kind in want}
    return {kind: want[kind] - have[kind] for kind in want if have[kind] < want[kind]}


def shortfall_text(players: int, missing: Mapping[Kind, int]) -> str:
    """The shortfall as a sentence a player can act on.

    >>> shortfall_text(6, {"positive": 3, "neutral": 6})
    'The chosen packs are too small for 6 players: 3 good cards and 6 neutral cards missing.'
    """
    parts = [f"{n} {_WORD[k]} card{'s' if n != 1 else ''}" for k, n in missing.items()]
    listed = " and ".join([", ".join(parts[:-1]), parts[-1]] if len(parts) > 1 else parts)
    return f"The chosen packs are too small for {players} players: {listed} missing."


def deck(options: Mapping[str, Any]) -> Mapping[str, Card]:
    """Every card a game with these options may hold, by id: the built-in ones and its own."""
    own = options.get("own", NO_OWN)
    if not own["packs"]:
        return CARDS
    return _deck(_key(own))


def _key(own: Mapping[str, Any]) -> str:
    """The own packs as text, so the cards made of them are cached by value."""
    return json.dumps(own["packs"], sort_keys=True, ensure_ascii=False)


@functools.lru_cache(maxsize=16)
def _deck(key: str) -> Mapping[str, Card]:
    return {**CARDS, **{c.id: c for c in _own_cards(key)}}


@functools.lru_cache(maxsize=16)
def _own_cards(key: str) -> tuple[Card, ...]:
    """The own packs' cards with ids unlike any built-in one: ``own2-n07`` is the
    seventh "but" card of the second pack chosen."""
    out = []
    for number, pack in enumerate(json.loads(key), start=1):
        for kind in OWN_KINDS:
            letter = kind[0]
            for i, text in enumerate(pack[kind], start=1):
                out.append(Card(f"own{number}-{letter}{i:02d}", kind, text, WEIGHT, f"own{number}"))
    return tuple(out)


def pack_file(pack: OwnPack) -> str:
    """A pack as the text of a file to keep or share (``read_pack_file`` reads it)."""
    body = {"kind": FILE_KIND, "version": FILE_VERSION, "pack": parse_pack(dict(pack))}
    return json.dumps(body, ensure_ascii=False, indent=2) + "\n"


def read_pack_file(text: str) -> OwnPack:
    """The pack in a file's ``text``; ``BadSetup`` with a readable reason if it is none.

    >>> read_pack_file("not json")
    Traceback (most recent call last):
    ...
    quandary.engine.errors.BadSetup: That file is not a card pack: it is not JSON.
    """
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise BadSetup("That file is not a card pack: it is not JSON.") from None
    if not isinstance(data, dict) or data.get("kind") != FILE_KIND:
        raise BadSetup("That file is not a card pack of The Game of Dilemmas.")
    if data.get("version") != FILE_VERSION:
        raise BadSetup("That card pack was made by another version of Quandary.")
    try:
        return parse_pack(data.get("pack"))
    except BadSetup as exc:
        raise BadSetup(f"That card pack is damaged: {exc.message}") from None
