"""Maybe Minister's pictures: resource icons, a card's two sides and its vote slots.

A newcomer reads "2 money, 1 wood on the green side" faster as two coins and a
log in a green band, and "Stores 2" faster as two empty slots. The shapes are
small inline SVGs drawn for this project (no fonts, no files, nothing fetched),
each group of icons named for screen readers by its words.

>>> str(slots(2, 0)).count('class="mm-slot empty"')
2
"""

from __future__ import annotations

import functools

from quandary.games.minister.faces import ICON_NAMES, ScoringLaw
from quandary.games.minister.view_types import MinisterView
from quandary.web.html import EMPTY, Markup, join, markup, repeated
from quandary.web.phrases import plural

MOST_SLOTS = 12
"""Vote slots drawn on one card at most, stored or empty (a card holds a few)."""

# Each shape is drawn on a 24 x 24 grid; colours carry meaning only together
# with the shape, so the icons stay apart for colour-blind players.
_SHAPES: dict[str, Markup] = {
    # a coin: a gold disc, a ring and a bar
    "money": Markup(
        '<circle cx="12" cy="12" r="10" fill="#e3b341" stroke="#8a6400" stroke-width="1.5"/>'
        '<circle cx="12" cy="12" r="6" fill="none" stroke="#8a6400" stroke-width="1.5"/>'
        '<path d="M12 8v8" stroke="#8a6400" stroke-width="2"/>'
    ),
    # a house: roof, walls and a door
    "homes": Markup(
        '<path d="M3 12 12 4l9 8" fill="#c0504d" stroke="#6e2422" stroke-width="1.5"/>'
        '<rect x="6" y="11" width="12" height="10" fill="#f3e3c3" stroke="#6e2422"'
        ' stroke-width="1.5"/><rect x="10.5" y="15" width="3" height="6" fill="#6e2422"/>'
    ),
    # a flask with liquid
    "science": Markup(
        '<path d="M9 3h6M10 3v6l-6 10a2 2 0 0 0 2 3h12a2 2 0 0 0 2-3l-6-10V3" fill="#e8f1fb"'
        ' stroke="#2d5a8a" stroke-width="1.5"/>'
        '<path d="M6.5 17h11l1.5 3H5z" fill="#4a90d9"/>'
    ),
    # a log seen from the side, its cut end showing rings
    "wood": Markup(
        '<rect x="2" y="8" width="17" height="9" rx="2" fill="#9a6b3f" stroke="#5a3b1c"'
        ' stroke-width="1.5"/><ellipse cx="19" cy="12.5" rx="3" ry="4.5" fill="#d9b27c"'
        ' stroke="#5a3b1c" stroke-width="1.5"/><circle cx="19" cy="12.5" r="1.3" fill="#5a3b1c"/>'
    ),
    # a cut gem
    "minerals": Markup(
        '<path d="M6 4h12l4 6-10 11L2 10z" fill="#8fd3e8" stroke="#2c6e80" stroke-width="1.5"/>'
        '<path d="M2 10h20M9 4l3 17 3-17" fill="none" stroke="#2c6e80" stroke-width="1"/>'
    ),
    # a leaf with its vein
    "nature": Markup(
        '<path d="M4 20C4 9 11 4 21 3c0 10-5 17-17 17z" fill="#5fae4f" stroke="#2b6420"'
        ' stroke-width="1.5"/><path d="M4 20 15 9" stroke="#2b6420" stroke-width="1.5"/>'
    ),
    # a sheep: woolly body, dark head and legs
    "livestock": Markup(
        '<path d="M7 18v3M15 18v3" stroke="#333" stroke-width="2"/>'
        '<ellipse cx="11" cy="13" rx="8" ry="5.5" fill="#f4f1ea" stroke="#555" stroke-width="1.5"/>'
        '<ellipse cx="19.5" cy="10.5" rx="2.8" ry="2.2" fill="#333"/>'
    ),
    # a card with a question mark: stands for any icon
    "wildcard": Markup(
        '<rect x="4" y="2" width="16" height="20" rx="3" fill="#f1e6ff" stroke="#6a3fa0"'
        ' stroke-width="1.5"/><path d="M9 9a3 3 0 1 1 4.5 2.6c-1 .6-1.5 1.2-1.5 2.4"'
        ' fill="none" stroke="#6a3fa0" stroke-width="2"/><circle cx="12" cy="17.5" r="1.3"'
        ' fill="#6a3fa0"/>'
    ),
    # a raised hand: support
    "support": Markup(
        '<path d="M7 21v-8L5 9.5a1.5 1.5 0 0 1 2.6-1.5L9 10V4.5a1.5 1.5 0 0 1 3 0V10V3.5a1.5'
        ' 1.5 0 0 1 3 0V10V5a1.5 1.5 0 0 1 3 0v9c0 4-2 7-5 7z" fill="#f6d7b0" stroke="#7a4a1e"'
        ' stroke-width="1.3"/>'
    ),
}


@functools.cache
def icon(kind: str) -> Markup:
    """One icon, hidden from screen readers: the group around it says what it is."""
    shape = _SHAPES.get(kind)
    if shape is None:
        return markup('<span class="mm-icon-word">{}</span>', ICON_NAMES.get(kind, kind))
    return markup(
        '<svg class="mm-icon {}" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"'
        ' focusable="false">{}</svg>',
        kind,
        shape,
    )


def words(items: list[str]) -> str:
    """Icons as words: '2 money, 1 wood' (or 'nothing')."""
    if not items:
        return "nothing"
    counts: dict[str, int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    return ", ".join(f"{n} {ICON_NAMES.get(i, i)}" for i, n in counts.items())


def icon_row(items: list[str]) -> Markup:
    """Icons drawn one per item, named once as a group: two coins read "2 money"."""
    if not items:
        return Markup('<span class="mm-icons none">nothing</span>')
    return markup(
        '<span class="mm-icons" role="img" aria-label="{}" title="{}">{}</span>',
        words(items),
        words(items),
        join(icon(i) for i in items),
    )


def side(colour: str, items: list[str]) -> Markup:
    """One side of a won card as a band: green adds its icons, red takes them away."""
    sign, when = (
        ("+", "if won green side up") if colour == "green" else ("\u2212", "if won red side up")
    )
    return markup(
        '<span class="mm-side {}" title="{}"><span class="mm-sign" aria-hidden="true">{}</span>'
        '<span class="sr-only">{} side ({}): </span>{}</span>',
        colour,
        "Green side: adds these" if colour == "green" else "Red side: takes these away",
        sign,
        colour.capitalize(),
        "adds" if colour == "green" else "takes away",
        icon_row(items),
    ) + markup('<span class="sr-only">, {}.</span>', when)


def slots(capacity: int, filled: int, chips: Markup = EMPTY) -> Markup:
    """Vote slots: ``chips`` (or face-down votes) in the filled ones, the rest empty.

    A card with no slots says so in words, since nothing drawn would show it.
    """
    if capacity <= 0 and filled <= 0:
        return Markup('<span class="mm-slots none">holds no votes</span>')
    if filled:
        label = (
            f"{plural(filled, 'vote')} stored, {plural(max(0, capacity - filled), 'empty slot')}"
        )
    else:
        label = f"holds {plural(capacity, 'vote')}"
    inside = (
        chips
        if chips
        else repeated(Markup('<span class="mm-slot down"></span>'), filled, MOST_SLOTS)
    )
    empty = repeated(Markup('<span class="mm-slot empty"></span>'), capacity - filled, MOST_SLOTS)
    return markup(
        '<span class="mm-slots" role="img" aria-label="{}">{}{}</span>', label, inside, empty
    )


def _signed(points: int) -> str:
    return f"+{points}" if points >= 0 else f"\u2212{-points}"


_SIDES = {"green": "card green side up", "red": "card red side up", "abstain": "abstain vote cast"}


def _counted(kind: str) -> Markup | str:
    """What a scoring law counts: its picture, or words for what has none."""
    return icon(kind) if kind in _SHAPES else _SIDES.get(kind, ICON_NAMES.get(kind, kind))


def law_formula(law: ScoringLaw) -> Markup:
    """A scoring law as a short formula of numbers and icons.

    "Each pair of money and homes is worth +3." takes two lines beside a law's
    name; "+3 per pair (coin)(house)" takes one, so every law in force stays in
    the first screen, and it reads in the pictures the won cards show. The law's
    sentence stays beside it for screen readers.

    >>> str(law_formula({"type": "per_icon", "icon": "red", "points": -1}))
    '\u22121 per card red side up'
    >>> law_formula({"type": "at_most", "icon": "nature", "count": 0, "points": -2}).startswith(
    ...     '\u22122 with no <svg class="mm-icon nature"')
    True
    """
    if law["type"] == "per_icon":
        return markup("{} per {}", _signed(law["points"]), _counted(law["icon"]))
    if law["type"] == "pair":
        a, b = law["icons"]
        return markup("{} per pair {}{}", _signed(law["points"]), _counted(a), _counted(b))
    if law["type"] == "at_least":
        return markup("{} with {}+ {}", _signed(law["points"]), law["count"], _counted(law["icon"]))
    most = "no" if law["count"] == 0 else f"at most {law['count']}"
    return markup("{} with {} {}", _signed(law["points"]), most, _counted(law["icon"]))


def legend(view: MinisterView) -> Markup:
    """The icons a newcomer meets at this table, each with its word (once, under the laws)."""
    kinds = ["money", "homes", "science", "wood", "minerals", "nature", "support"]
    if view["options"].get("advanced"):
        kinds.append("livestock")
    if view["options"].get("wildcard"):
        kinds.append("wildcard")
    items = join(markup("<li>{}<span>{}</span></li>", icon(k), ICON_NAMES.get(k, k)) for k in kinds)
    return markup('<ul class="mm-legend" aria-label="What the icons mean">{}</ul>', items)
