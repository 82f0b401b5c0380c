"""Pieces of the Maybe Minister table: cards, votes, the law area, tables, scores.

Views name decree cards by id; their faces come from the game's public
catalogue (``games.minister.faces``: the law engine writes a card's text), the
same text printed on every copy.
"""

from __future__ import annotations

import functools

from quandary.games.minister.faces import CardFace, scoring_law
from quandary.games.minister.faces import face as card_face
from quandary.games.minister.view_types import MinisterView, PublicVote
from quandary.web.html import Markup, attrs, join, markup
from quandary.web.phrases import Cast, plural

from . import minister_icons as pics

KIND_LABELS = {"law": "Law", "support": "Support", "resource": "Resource", "special": "Special"}
VOTE_LABELS = {"yes": "YES", "no": "NO", "abstain": "ABSTAIN"}


def face(card_id: str) -> CardFace:
    """A card's printed face (public catalogue data)."""
    return card_face(card_id)


def name(card_id: str) -> str:
    """A card's name."""
    return face(card_id)["name"]


def icons(items: list[str]) -> str:
    """Icons as words, e.g. '2 money, 1 science' (what the pictures' labels say)."""
    return pics.words(items)


# A card's face depends only on the printed catalogue, and a screen draws dozens
# of them: caching keeps the escaping helpers off the hot path in Pyodide. typed:
# Markup("<b>") and "<b>" are equal keys, but one is markup and one is text.
@functools.lru_cache(maxsize=1024, typed=True)
def card_body(card_id: str, side: bool | None = None, show_slots: bool = True) -> Markup:
    """A card's face: kind, name, text, its green and red sides as pictures, its vote slots."""
    c = face(card_id)
    text = markup('<span class="mm-text">{}</span>', c["text"]) if c.get("text") else ""
    sides: Markup | str = ""
    if c["kind"] != "law":
        green = pics.side("green", c["green"])
        red = pics.side("red", c["red"])
        if side is True:
            sides = green
        elif side is False:
            sides = red
        else:
            sides = green + red
    store = pics.slots(c["capacity"], 0) if c["kind"] != "law" and show_slots else ""
    return markup(
        # Spaces between the parts (a flex column, where they take no room): a button
        # named by its face reads "Resource Observatory", not "ResourceObservatory".
        '<span class="mm-kind">{}</span> <span class="mm-name">{}</span> {} {} {}',
        KIND_LABELS[c["kind"]],
        c["name"],
        text,
        sides,
        store,
    )


def card_label(card_id: str, side: bool | None = None) -> str:
    """A card as one sentence for screen readers."""
    c = face(card_id)
    parts = [f"{KIND_LABELS[c['kind']]}: {c['name']}"]
    if c.get("text"):
        parts.append(c["text"])
    if c["kind"] != "law":
        if side is not False:
            parts.append(f"green side {icons(c['green'])}")
        if side is not True:
            parts.append(f"red side {icons(c['red'])}")
    return ". ".join(parts)


def tone(side: bool | None) -> str:
    """The class of a card with a side up: its colour, and the other side's dimmed."""
    return "" if side is None else ("green-up" if side else "red-up")


@functools.lru_cache(maxsize=1024, typed=True)
def card_tile(
    card_id: str, side: bool | None = None, extra: str = "", show_slots: bool = True
) -> Markup:
    """A card that is only shown (not a button).

    A won card (``side`` given) shows both its sides, as the physical card does,
    with the side pointing away from its owner in force and the other one dimmed:
    the card reads the same on the table as it did in the proposal, so a player
    recognises it instead of reading it again.
    """
    return markup(
        '<div class="mm-card {} {}" role="group" aria-label="{}">{}{}</div>',
        face(card_id)["kind"],
        tone(side),
        card_label(card_id, side),
        card_body(card_id, None, show_slots),
        extra,
    )


def vote_text(vote: PublicVote) -> str:
    """'YES 17'."""
    return f"{VOTE_LABELS[vote['kind']]} {vote['number']}"


def vote_chip(vote: PublicVote) -> Markup:
    """A vote card, face up."""
    return markup('<span class="mm-vote {}">{}</span>', vote["kind"], vote_text(vote))


def law_area(view: MinisterView) -> Markup:
    """Enacted laws, marked active or disabled (Undecided Voters)."""
    if not view["laws"]:
        return Markup(
            '<section class="mm-laws" aria-labelledby="laws-title"><h3 id="laws-title">'
            "Laws in force</h3><p>No law has been enacted yet: nothing scores.</p></section>"
        )
    items = []
    # Laws that score come first, each short enough to share a row with another;
    # then the laws that change how the game runs, each a sentence on its own row.
    for law in sorted(view["laws"], key=lambda law: not scoring(law["card"])):
        state = "active" if law["active"] else "disabled"
        state += " scoring" if scoring(law["card"]) else " rule"
        votes = ""
        if law.get("votes"):
            votes = markup(
                '<p class="mm-lawvotes">{} YES · {} NO on it: {}</p>', law["yes"], law["no"], state
            )
        badge = "" if law["active"] else Markup(' <span class="mm-off">Disabled</span>')
        # One line per law, not a card tile: a table of many laws still leaves the
        # points and the action in the first screen.
        items.append(
            markup(
                '<li class="mm-law {}"{}>{}{}{}</li>',
                state,
                attrs(title=law_text(law["card"])),
                law_line(law["card"]),
                badge,
                votes,
            )
        )
    return markup(
        '<section class="mm-laws" aria-labelledby="laws-title"><h3 id="laws-title">'
        'Laws in force</h3><ul class="mm-lawlist">{}</ul></section>',
        join(items),
    )


def law_text(card_id: str) -> str:
    """The sentence a law card states."""
    return face(card_id).get("text", "")


def scoring(card_id: str) -> bool:
    """Whether a law gives or takes points (drawn as a formula), not a rule of play."""
    return law_formula(card_id) is not None


@functools.cache
def law_formula(card_id: str) -> Markup | None:
    """A law's formula in pictures, made once per card."""
    law = scoring_law(card_id)
    return None if law is None else pics.law_formula(law)


@functools.cache
def law_line(card_id: str) -> Markup:
    """A law's name, then what it does: a scoring law as a formula in pictures (its
    sentence for screen readers), any other law in its own words."""
    formula = law_formula(card_id)
    if formula is None:
        return markup(
            '<strong>{}</strong> <span class="mm-text">{}</span>', name(card_id), law_text(card_id)
        )
    return markup(
        '<strong>{}</strong> <span class="mm-effect" aria-hidden="true">{}</span>'
        '<span class="sr-only">: {}</span>',
        name(card_id),
        formula,
        law_text(card_id),
    )


def score_panel(view: MinisterView, names: list[str], viewer: int | None) -> Markup:
    """Each player's score with the reasons: which law gives which points for what."""
    rows = []
    for seat, who in enumerate(names):
        lines = view["explain"][seat]
        reasons = join(
            markup(
                '<li><span class="mm-pts">{}</span> {}: {}</li>',
                format(line["points"], "+d"),
                line["title"],
                line["because"],
            )
            for line in lines
        )
        body = (
            markup("<ul>{}</ul>", reasons)
            if lines
            else Markup("<p>No law gives points for these cards.</p>")
        )
        me = " (you)" if seat == viewer and who.casefold() != "you" else ""
        change = last_change(view, seat, named=viewer is None or seat == viewer)
        rows.append(
            markup(
                # Closed: one line per player keeps every score in the first screen;
                # the latest change and its laws are in the line itself.
                '<details class="mm-score"><summary>{}{}: {}{}</summary>{}</details>',
                who,
                me,
                plural(view["scores"][seat], "point"),
                change,
                body,
            )
        )
    target = view["target"]
    return markup(
        '<section class="mm-scores" aria-labelledby="scores-title">'
        '<h3 id="scores-title">Points · the game ends after a turn with anyone at {}+</h3>'
        "{}</section>",
        target,
        join(rows),
    )


def last_change(view: MinisterView, seat: int, named: bool = True) -> Markup:
    """The seat's latest logged score change, law by law, beside its score.

    Scores are recomputed from the laws in force, so a jump (8 to 21 when a law
    passes) would otherwise be unexplained on the screen. The change is said as
    what each law added or took ("+13 Money Talks"), not as the score before it:
    the new score is beside it, and the same change (a green card taken under the
    same law) then reads the same each time it happens.

    Not ``named``, only the change's total is said ("+13"): the screen names the
    laws on the viewer's own line, where a player learns what a law does for
    them; another player's laws are in that line's breakdown, one click away.
    Naming every player's laws on every change was the text a first game re-read
    most (``bench.minister_newcomer``).

    >>> change = {"seat": 0, "before": 8, "after": 21, "laws": [
    ...     {"law": "L1", "title": "Money Talks", "points": 13}]}
    >>> str(last_change({"log": [{"kind": "score_changed", "data": change}]}, 0))
    '<small class="mm-change"> (+13 Money Talks)</small>'
    >>> str(last_change({"log": [{"kind": "score_changed", "data": change}]}, 0, named=False))
    '<small class="mm-change"> (+13)</small>'
    """
    found = None
    for event in view["log"]:
        if event["kind"] == "score_changed" and event["data"]["seat"] == seat:
            found = event["data"]
    if found is None:
        return Markup("")
    if not named:
        total = found["after"] - found["before"]
        return markup('<small class="mm-change"> ({})</small>', format(total, "+d"))
    causes = ", ".join(f"{c['points']:+d} {c['title']}" for c in found["laws"])
    return markup('<small class="mm-change"> ({})</small>', causes or f"was {found['before']}")


def tables(view: MinisterView, cast: Cast) -> Markup:
    """Everyone's won cards: side up, votes stored (face down for others)."""
    parts = []
    for seat, who in enumerate(cast.names):
        rows = view["tables"][seat]
        items = []
        for row in rows:
            # The slots drawn are the card's real ones now: a starting card holds
            # two whatever it prints, and laws can change storage.
            chips = join(vote_chip(v) for v in row.get("votes", []))
            slots = row["stored"] + row["room"]
            if not slots and not face(row["card"])["capacity"]:
                # It holds no votes, as printed: the card reads as in the proposal.
                tile = card_tile(row["card"], row["green"])
            else:
                extra = markup(
                    '<p class="mm-stored">{}</p>', pics.slots(slots, row["stored"], chips)
                )
                tile = card_tile(row["card"], row["green"], extra, show_slots=False)
            items.append(markup("<li>{}</li>", tile))
        me = " (you)" if seat == cast.viewer and who.casefold() != "you" else ""
        # A label and its number each: a count that moves leaves its label as read.
        info = [("Cards in hand", view["hand_counts"][seat]), ("Support", view["support"][seat])]
        if view["options"].get("abstain"):
            info.append(("Times abstained", view["abstains"][seat]))
        parts.append(
            markup(
                '<section class="mm-table" aria-label="{} cards">'
                '<h3>{}{}</h3><ul class="mm-info">{}</ul>'
                '<ul class="mm-cards">{}</ul></section>',
                cast.possessive(seat, start=True),
                who,
                me,
                join(markup("<li>{}: {}</li>", label, n) for label, n in info),
                join(items),
            )
        )
    return markup('<div class="mm-tables">{}</div>', join(parts))


LOW_DECK = 10
"""Decree cards left below which the fold's title says how many: the game also ends
when the decree deck and every hand are empty (``games.minister.turn``)."""


def supply(view: MinisterView) -> Markup:
    """The decks and discard piles, as counts, folded under a title that rarely changes.

    No move depends on them until the decree deck runs low, yet open they were four
    new numbers to skim on every screen of a first game; a player who wants them
    opens the fold. Once the decree deck is nearly out (it is never reshuffled, and
    the game ends when it and every hand are empty) the title says so.
    """
    low = view["deck"] <= LOW_DECK
    return markup(
        '<details class="mm-supply" id="mm-supply"><summary>Decks and discards{}</summary>'
        "<p>Decree deck: {} · discarded: {} · vote deck: {} · vote discards: {}</p></details>",
        f" · only {plural(view['deck'], 'decree card')} left" if low else "",
        view["deck"],
        view["discard"],
        view["vote_deck"],
        view["vote_discard"],
    )
