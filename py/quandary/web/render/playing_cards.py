"""Playing cards drawn as SVG for Royal Dilemma: value cards, royal faces and the back.

All art is drawn here for this project: suit shapes as paths (no font needs the
suit glyphs), a big corner index that stays readable on a 360 px phone (its
letters and numbers in the page's own font, inherited: a named face such as
Georgia is missing on most Linux and Android devices, and fell back to a serif), a
centre pip for value cards and a crowned portrait frame for the faces. A card
is decoration inside a button or a list item; its name is given to assistive
technology by the caller (``aria-label``), so every SVG is ``aria-hidden``.

>>> "Seven of Hearts" in card("7H", label=True)
True
"""

from __future__ import annotations

import functools

from quandary.games.royal.cards import FACES, card_name
from quandary.web.html import Markup, markup

RED = "#b3261e"
BLACK = "#1f1b2e"
SUIT_PATHS = {
    "H": "M50 90C22 68 6 52 6 32C6 17 17 7 30 7C40 7 46 13 50 21C54 13 60 7 70 7"
    "C83 7 94 17 94 32C94 52 78 68 50 90Z",
    "D": "M50 4L86 50L50 96L14 50Z",
    "S": "M50 5C78 30 94 45 94 61C94 75 84 83 72 83C63 83 57 79 54 73C55 83 59 90 67 95"
    "H33C41 90 45 83 46 73C43 79 37 83 28 83C16 83 6 75 6 61C6 45 22 30 50 5Z",
    "C": "M50 8A19 19 0 1 1 49.9 8ZM28 42A19 19 0 1 1 27.9 42ZM72 42A19 19 0 1 1 71.9 42Z"
    "M45 58C45 78 40 88 32 95H68C60 88 55 78 55 58Z",
}
CROWN = "M22 58L30 30L42 46L50 22L58 46L70 30L78 58Z"


def colour(card_id: str) -> str:
    """Red for Hearts and Diamonds, ink for Spades and Clubs."""
    return RED if card_id[-1] in "HD" else BLACK


def pip(suit: str, x: float, y: float, size: float, fill: str) -> Markup:
    """A suit shape of ``size`` units with its top-left corner at (x, y)."""
    scale = size / 100
    return markup(
        '<path d="{}" fill="{}" transform="translate({} {}) scale({})"/>',
        SUIT_PATHS[suit],
        fill,
        format(x, "g"),
        format(y, "g"),
        format(scale, "g"),
    )


def _index(rank: str, suit: str, fill: str) -> Markup:
    """The corner index: rank above a small suit, repeated upside down opposite."""
    size = 24 if len(rank) < 2 else 21
    corner = markup(
        '<text x="13" y="27" font-size="{}" font-weight="700" text-anchor="middle" '
        'fill="{}">{}</text>',
        size,
        fill,
        rank,
    ) + pip(suit, 4, 31, 18, fill)
    return markup('{}<g transform="rotate(180 50 70)">{}</g>', corner, corner)


def _centre_value(rank: str, suit: str, fill: str) -> Markup:
    """A value card's middle: a large suit shape with its number on it."""
    light = "#fff"
    return pip(suit, 24, 36, 52, fill) + (
        markup(
            '<text x="50" y="72" font-size="{}" font-weight="700" '
            'text-anchor="middle" fill="{}">{}</text>',
            22 if len(rank) < 2 else 19,
            light,
            rank,
        )
    )


def _centre_face(face: str, suit: str, fill: str) -> Markup:
    """A face card's middle: a framed portrait panel, crowned unless it is the Ace."""
    frame = markup(
        '<rect x="22" y="30" width="56" height="80" rx="6" fill="#fbf3dc" '
        'stroke="{}" stroke-width="2"/>',
        fill,
    )
    if face == "A":
        return frame + pip(suit, 29, 44, 42, fill) + _letter(face, 100, fill)
    crown = markup(
        '<g transform="translate(25 20) scale(0.5)"><path d="{}" fill="#e0b43a" '
        'stroke="{}" stroke-width="3"/></g>',
        CROWN,
        fill,
    )
    return frame + crown + _letter(face, 84, fill) + pip(suit, 40, 88, 20, fill)


def _letter(face: str, y: int, fill: str) -> Markup:
    return markup(
        '<text x="50" y="{}" font-size="34" font-weight="700" text-anchor="middle" '
        'fill="{}">{}</text>',
        y,
        fill,
        face,
    )


# A face is a pure function of the card; a screen draws many, each made of dozens
# of escaped pieces, so drawing each only once keeps the screen fast in Pyodide.
@functools.lru_cache(maxsize=256, typed=True)
def card(card_id: str, label: bool = False) -> Markup:
    """The SVG of a card face; with ``label`` it carries its name as an image title."""
    rank, suit = card_id[:-1], card_id[-1]
    fill = colour(card_id)
    middle = _centre_face(rank, suit, fill) if rank in FACES else _centre_value(rank, suit, fill)
    a11y = (
        markup(' role="img" aria-label="{}"', card_name(card_id))
        if label
        else Markup(' aria-hidden="true"')
    )
    return (
        markup(
            '<svg class="pcard-face" viewBox="0 0 100 140" width="100" height="140"{} '
            'focusable="false" xmlns="http://www.w3.org/2000/svg">'
            '<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="#fff" stroke="#b9b2cc" '
            'stroke-width="2"/>',
            a11y,
        )
        + middle
        + _index(rank, suit, fill)
        + Markup("</svg>")
    )


@functools.lru_cache(maxsize=64, typed=True)
def back(label: str = "") -> Markup:
    """The back of a card: a lattice in the brand colour (the deck, hidden cards)."""
    a11y = markup(' role="img" aria-label="{}"', label) if label else Markup(' aria-hidden="true"')
    return markup(
        '<svg class="pcard-face" viewBox="0 0 100 140" width="100" height="140"{} '
        'focusable="false" xmlns="http://www.w3.org/2000/svg">'
        '<defs><pattern id="royal-lattice" width="12" height="12" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="12" height="12" fill="#3b2f63"/>'
        '<path d="M0 0H12M0 0V12" stroke="#ffd166" stroke-width="1.5"/></pattern></defs>'
        '<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="url(#royal-lattice)" '
        'stroke="#3b2f63" stroke-width="2"/>'
        '<rect x="10" y="10" width="80" height="120" rx="6" fill="none" stroke="#fff" '
        'stroke-width="2"/></svg>',
        a11y,
    )
