"""The printed faces of Maybe Minister's decree cards: public catalogue data for screens.

A view names decree cards by id; a screen draws each from its face here, the
same on every copy and every device. The sentence a law or a special resource
prints is written by the law engine from the card's own data
(``laws.card_text``), so text and effect never drift. This module, the view's
types (``view_types``) and nothing else of the game is what the renderer reads.

>>> face("L01")["kind"], "text" in face("L01")
('law', True)
>>> ICON_NAMES["livestock"]
'livestock'
"""

from __future__ import annotations

import functools
from typing import NotRequired, TypedDict

from .laws import ICON_NAMES, card_text, scores
from .material import CARDS, CardKind, ScoringLaw

__all__ = ["ICON_NAMES", "CardFace", "ScoringLaw", "face", "scoring_law"]


class CardFace(TypedDict):
    """A decree card as printed: kind, name, vote storage, the icons of each side;
    ``text`` when it prints a sentence, ``law_type`` for a law."""

    id: str
    kind: CardKind
    name: str
    capacity: int
    green: list[str]
    red: list[str]
    text: NotRequired[str]
    law_type: NotRequired[str]


@functools.cache
def face(card_id: str) -> CardFace:
    """A card's face (shared: not to be changed by its readers)."""
    c = CARDS[card_id]
    out: CardFace = {
        "id": c.id,
        "kind": c.kind,
        "name": c.name,
        "capacity": c.capacity,
        "green": list(c.green),
        "red": list(c.red),
    }
    text = card_text(c)
    if text:
        out["text"] = text
    if c.law is not None:
        out["law_type"] = c.law["type"]
    return out


def scoring_law(card_id: str) -> ScoringLaw | None:
    """A law card's law if it scores (its type and numbers), None for a rule of play or
    any other card: what a screen draws as a formula."""
    law = CARDS[card_id].law
    return law if scores(law) else None
