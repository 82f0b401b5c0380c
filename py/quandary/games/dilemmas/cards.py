"""The Game of Dilemmas' card text, loaded from the JSON packs beside this file.

Card text is data, not code: each pack is one JSON file in ``cards/`` with
positive, negative and neutral cards. A negative card continues the sentence
after "... but", a neutral one after "... and". Weights (appeal of a positive,
harm of a negative, shift of a neutral) are for the bots.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from .view import CardView

Kind = Literal["positive", "negative", "neutral"]
KINDS: tuple[Kind, ...] = ("positive", "negative", "neutral")


@dataclass(frozen=True)
class Card:
    """One card: its id is unique across all packs."""

    id: str
    kind: Kind
    text: str
    weight: int
    pack: str


@dataclass(frozen=True)
class Pack:
    """A named set of cards that can be switched on in the lobby."""

    id: str
    name: str
    description: str
    default: bool
    cards: tuple[Card, ...]

    def of_kind(self, kind: Kind) -> tuple[Card, ...]:
        """The pack's cards of one kind, in file order."""
        return tuple(c for c in self.cards if c.kind == kind)


def load_packs(folder: str) -> tuple[Pack, ...]:
    """Read every pack in ``folder``; a malformed file is a build error, so raise.

    Plain ``os`` rather than ``pathlib``: the lobby lists these packs, and in the
    browser ``pathlib`` with what it imports costs the first screen more than the
    whole card data."""
    packs = []
    for name in sorted(n for n in os.listdir(folder) if n.endswith(".json")):
        with open(os.path.join(folder, name), encoding="utf-8") as file:
            data = json.load(file)
        cards = tuple(
            Card(c["id"], kind, c["text"], int(c["weight"]), data["id"])
            for kind in KINDS
            for c in data[kind]
        )
        packs.append(Pack(data["id"], data["name"], data["description"], data["default"], cards))
    packs.sort(key=lambda p: (not p.default, p.name))
    ids = [c.id for p in packs for c in p.cards]
    if len(ids) != len(set(ids)):
        raise ValueError("card ids must be unique across packs")
    return tuple(packs)


PACKS: tuple[Pack, ...] = load_packs(os.path.join(os.path.dirname(__file__), "cards"))
CARDS: dict[str, Card] = {c.id: c for p in PACKS for c in p.cards}


def card_json(card_id: str, cards: Mapping[str, Card] = CARDS) -> CardView:
    """A card as it appears in views: id, kind, text and weight (``cards``: the game's
    own deck, with the players' own cards, ``own_cards.deck``)."""
    card = cards[card_id]
    return {"id": card.id, "kind": card.kind, "text": card.text, "weight": card.weight}
