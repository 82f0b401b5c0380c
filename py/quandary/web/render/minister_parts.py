"""Pieces of the Maybe Minister table: cards, votes, the law area, tables, scores.

Views name decree cards by id; their faces come from the game's public
catalogue (``material.card_json``), the same text printed on every copy.
"""

from __future__ import annotations

import functools
from typing import Any

from quandary.games.minister.laws import ICON_NAMES
from quandary.games.minister.material import card_json
from quandary.web.html import attrs, esc, join, plural

KIND_LABELS = {"law": "Law", "support": "Support", "resource": "Resource", "special": "Special"}
VOTE_LABELS = {"yes": "YES", "no": "NO", "abstain": "ABSTAIN"}


@functools.cache
def face(card_id: str) -> dict[str, Any]:
    """A card's printed face (public catalogue data)."""
    return card_json(card_id)


def name(card_id: str) -> str:
    """A card's name."""
    return str(face(card_id)["name"])


def icons(items: list[str]) -> str:
    """Icons as words with a small badge each, e.g. '2 money, 1 science'."""
    if not items:
        return "nothing"
    counts: dict[str, int] = {}
    for icon in items:
        counts[icon] = counts.get(icon, 0) + 1
    return ", ".join(f"{n} {ICON_NAMES.get(i, i)}" for i, n in counts.items())


def card_body(card_id: str, side: bool | None = None) -> str:
    """A card's face: kind, name, text or its two sides, and how many votes it stores."""
    c = face(card_id)
    text = f'<span class="mm-text">{esc(c["text"])}</span>' if c.get("text") else ""
    sides = ""
    if c["kind"] != "law":
        green = f'<span class="mm-green">Green: {esc(icons(c["green"]))}</span>'
        red = f'<span class="mm-red">Red: {esc(icons(c["red"]))}</span>'
        if side is True:
            sides = green
        elif side is False:
            sides = red
        else:
            sides = green + red
    store = f'<span class="mm-cap">Stores {c["capacity"]}</span>' if c["kind"] != "law" else ""
    return (
        f'<span class="mm-kind">{KIND_LABELS[c["kind"]]}</span>'
        f'<span class="mm-name">{esc(c["name"])}</span>{text}{sides}{store}'
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


def card_tile(card_id: str, side: bool | None = None, extra: str = "") -> str:
    """A card that is only shown (not a button)."""
    tone = "" if side is None else (" green-up" if side else " red-up")
    return (
        f'<div class="mm-card {face(card_id)["kind"]}{tone}" role="group" '
        f'aria-label="{esc(card_label(card_id, side))}">{card_body(card_id, side)}{extra}</div>'
    )


def vote_text(vote: dict[str, Any]) -> str:
    """'YES 17'."""
    return f"{VOTE_LABELS[vote['kind']]} {vote['number']}"


def vote_chip(vote: dict[str, Any]) -> str:
    """A vote card, face up."""
    return f'<span class="mm-vote {vote["kind"]}">{esc(vote_text(vote))}</span>'


def law_area(view: dict[str, Any]) -> str:
    """Enacted laws, marked active or disabled (Undecided Voters)."""
    if not view["laws"]:
        return (
            '<section class="mm-laws" aria-labelledby="laws-title"><h3 id="laws-title">'
            "Laws in force</h3><p>No law has been enacted yet: nothing scores.</p></section>"
        )
    items = []
    for law in view["laws"]:
        state = "active" if law["active"] else "disabled"
        votes = ""
        if law.get("votes"):
            votes = (
                f'<p class="mm-lawvotes">{law["yes"]} YES · {law["no"]} NO on it: {esc(state)}</p>'
            )
        badge = "" if law["active"] else '<span class="mm-off">Disabled</span>'
        items.append(
            f'<li class="mm-law {state}">{card_tile(law["card"], extra=badge + votes)}</li>'
        )
    return (
        '<section class="mm-laws" aria-labelledby="laws-title"><h3 id="laws-title">'
        f'Laws in force</h3><ul class="mm-cards">{join(items)}</ul></section>'
    )


def score_panel(view: dict[str, Any], names: list[str], viewer: int | None) -> str:
    """Each player's score with the reasons: which law gives which points for what."""
    rows = []
    for seat, who in enumerate(names):
        lines = view["explain"][seat]
        reasons = join(
            f'<li><span class="mm-pts">{line["points"]:+d}</span> '
            f"{esc(line['title'])}: {esc(line['because'])}</li>"
            for line in lines
        )
        body = f"<ul>{reasons}</ul>" if lines else "<p>No law gives points for these cards.</p>"
        me = " (you)" if seat == viewer and who.casefold() != "you" else ""
        rows.append(
            f'<details class="mm-score"{attrs(open=seat == viewer)}><summary>'
            f"{esc(who)}{me}: {plural(view['scores'][seat], 'point')}</summary>{body}</details>"
        )
    target = view["target"]
    return (
        '<section class="mm-scores" aria-labelledby="scores-title">'
        f'<h3 id="scores-title">Scores (first to {target} wins)</h3>{join(rows)}</section>'
    )


def tables(view: dict[str, Any], names: list[str], viewer: int | None) -> str:
    """Everyone's won cards: side up, votes stored (face down for others)."""
    parts = []
    for seat, who in enumerate(names):
        rows = view["tables"][seat]
        items = []
        for row in rows:
            if "votes" in row:
                stored = join(vote_chip(v) for v in row["votes"]) or "no votes"
            else:
                stored = plural(row["stored"], "vote") + " face down"
            starter = " · starting card" if row["card"] in view["starters"] else ""
            extra = f'<p class="mm-stored">Stored: {stored} · room for {row["room"]}{starter}</p>'
            items.append(f"<li>{card_tile(row['card'], row['green'], extra)}</li>")
        me = " (you)" if seat == viewer and who.casefold() != "you" else ""
        info = (
            f"{plural(view['hand_counts'][seat], 'card')} in hand · support {view['support'][seat]}"
        )
        if view["options"].get("abstain"):
            info += f" · abstained {view['abstains'][seat]} times"
        parts.append(
            f'<section class="mm-table" aria-label="{esc(who)}\'s cards">'
            f'<h3>{esc(who)}{me}</h3><p class="mm-info">{esc(info)}</p>'
            f'<ul class="mm-cards">{join(items)}</ul></section>'
        )
    return f'<div class="mm-tables">{join(parts)}</div>'


def supply(view: dict[str, Any]) -> str:
    """The decks and discard piles, as counts."""
    return (
        f'<p class="mm-supply">Decree deck: {view["deck"]} · discarded: {view["discard"]}'
        f" · vote deck: {view['vote_deck']} · vote discards: {view['vote_discard']}</p>"
    )
