"""Dilemma's arena as drawn: the round table from the viewer's seat, thrown cards
where they came to rest (or in flight), the countdown to a window and its bar.

Split from ``randolph.py`` (the screens); the practice screen draws with it too.
Cards in flight are drawn with a negative animation delay, so a redraw in
mid-flight carries the animation on from where it was instead of restarting it.
"""

from __future__ import annotations

import math

from quandary.games.randolph.view import ArenaEntry, Landed, RandolphView, Seating, WindowView
from quandary.web.html import EMPTY, Markup, attrs, join, markup
from quandary.web.phrases import Cast, plural

from .table import Ui

ARENA_SPAN = 1.7
"""Half the width of the drawn table, in arena radii: the arena fills 1/1.7 of it."""
LANDINGS = {
    "flat": "flat in the arena",
    "diagonal": "at a slant",
    "edge": "on the edge",
    "outside": "outside the arena",
}
STATUSES = {
    "duelling": "the duelling card",
    "invalid": "invalid: the same value as the challenge",
    "removed": "removed from the game",
    "returned": "back to the thrower's hand",
    "pending": "",
}


# -- the arena --------------------------------------------------------------------


def arena(view: RandolphView, ui: Ui, aiming: bool = False, news: str = "") -> Markup:
    """The round table seen from the viewer's seat, the challenge card in the middle.

    While a window counts down to its opening, the box carries that moment on the
    page's clock (``data-opens-at``): the page counts "3, 2, 1, throw!" to it, and
    tests wait on it rather than on sleeps.
    """
    window = view.get("window")
    cards = join(arena_card(view, ui, i, t) for i, t in enumerate(view.get("arena", [])))
    challenge = view.get("challenge")
    middle = (
        markup(
            '<div class="arena-challenge" aria-label="Challenge card {}">{}</div>',
            challenge,
            challenge,
        )
        if challenge is not None
        else ""
    )
    timer = EMPTY
    opens_at = None
    if window is not None and view["phase"] == "react":
        opens_at = round(ui.now - ui.elapsed)
        timer = _timer(window, ui.elapsed, news)
    return markup(
        '<div class="{}" id="arena-box"{}><div class="arena" id="arena">{}{}</div>{}</div>',
        "arena-box" + (" aiming" if aiming else "") + (" open" if ui.elapsed >= 0 else ""),
        attrs(data_window=window["id"] if window else None, data_opens_at=opens_at),
        middle,
        cards,
        timer,
    )


def _timer(window: WindowView, elapsed: int, news: str) -> Markup:
    """The countdown to the opening ("3, 2, 1, throw!"), then the bar of time left.

    ``news`` is the last challenge's outcome: a bot may place the next challenge
    at once, and this is where every screen shows it. The count sits above the
    challenge card and the news below it, so the card the race is for stays in
    sight (static/css/randolph.css).
    """
    left = max(0, window["deadline"] - max(0, elapsed))
    share = left / max(1, window["deadline"])
    bar = markup(
        '<div class="countdown" role="timer" aria-label="Reaction window">'
        '<span style="--from:{};--left:{}ms;--wait:{}ms"></span></div>',
        format(share, ".3f"),
        left,
        max(0, -elapsed),
    )
    if elapsed >= 0:
        return bar
    seconds = -(elapsed // 1000)
    return bar + markup(
        '<div class="lead-in" role="timer" aria-label="The window opens in {}">'
        '<div class="lead-count"><span>Get ready</span><strong>{}</strong></div>{}</div>',
        plural(seconds, "second"),
        seconds,
        markup('<p class="lead-news">{}</p>', news) if news else EMPTY,
    )


def arena_list(view: RandolphView, ui: Ui) -> Markup:
    """Every card thrown this challenge, in landing order, with its fate in words."""
    listing = join(markup("<li>{}</li>", arena_line(t, ui.cast)) for t in view.get("arena", []))
    if not listing:
        return EMPTY
    return markup('<ol class="arena-list" aria-label="Cards thrown">{}</ol>', listing)


def arena_card(view: Seating, ui: Ui, index: int, throw: Landed | ArenaEntry) -> Markup:
    span = ARENA_SPAN
    tx, ty = _turned(view, throw["x"], throw["y"])
    x = 50 + 50 * max(-span, min(span, tx)) / span
    y = 50 + 50 * max(-span, min(span, ty)) / span
    fx, fy = _seat_position(view, throw["seat"])
    flight = max(1, throw["land_at"] - throw["at"])
    since = ui.elapsed - throw["at"]
    flying = view["phase"] == "react" and since < flight
    style = (
        f"--x:{x:.1f}%;--y:{y:.1f}%;--r:{throw['rotation']}deg;--fx:{fx:.1f}%;--fy:{fy:.1f}%;"
        f"--flight:{flight}ms;--since:{max(0, since)}ms"
    )
    classes = f"arena-card {throw['landing']} {throw.get('status', 'pending')}"
    classes += " flying" if flying else ""
    if throw.get("leading"):
        classes += " leading"
    return markup(
        '<div class="{}" style="{}" data-key="{}" title="{}">{}</div>',
        classes,
        style,
        index,
        arena_line(throw, ui.cast),
        throw["card"],
    )


def _turned(view: Seating, x: float, y: float) -> tuple[float, float]:
    """Table coordinates (seat 0 at the bottom) turned so the viewer sits at the bottom."""
    me = view["seat"] if view["seat"] is not None else 0
    angle = -2 * math.pi * me / view["players"]
    cos, sin = math.cos(angle), math.sin(angle)
    return x * cos - y * sin, x * sin + y * cos


def _seat_position(view: Seating, seat: int) -> tuple[float, float]:
    """Where a seat sits around the drawn table, in percent: the viewer at the bottom."""
    players = view["players"]
    me = view["seat"] if view["seat"] is not None else 0
    turn = ((seat - me) % players) / players
    angle = math.pi / 2 + 2 * math.pi * turn
    return 50 + 48 * math.cos(angle), 50 + 48 * math.sin(angle)


REASONS = {
    "first_valid": "the first card flat in the arena with another value: it duels",
    "same_value": "flat, but the same value as the challenge card, so invalid and removed",
    "late": "flat, but after the duelling card, so removed from the game",
    "diagonal": "not flat",
    "edge": "not flat",
    "outside": "not in the arena",
}

RETURNED = {
    "same_value": "flat, but the same value as the challenge card",
    "late": "flat, but after the duelling card",
    "diagonal": "not flat",
    "edge": "not flat",
    "outside": "not in the arena",
}
"""How a card that goes back to the hand lay (with two players left)."""


def arena_line(throw: Landed | ArenaEntry, cast: Cast) -> str:
    """Who threw what, where it landed and what became of it (and why)."""
    where = LANDINGS.get(throw["landing"], "")
    line = f"{cast.possessive(throw['seat'], start=True)} {throw['card']} landed {where}"
    status = throw.get("status", "pending")
    reason = throw.get("reason")
    if status == "pending":
        return line + (": it would duel if the window closed now" if throw.get("leading") else "")
    if status == "returned":
        how = RETURNED.get(reason or "", "it does not duel")
        return f"{line}: {how}, and with two players left it goes back to the hand"
    if status in ("duelling", "invalid") or reason in ("late", "same_value"):
        return f"{line}: {REASONS.get(reason or '', STATUSES[status])}"
    return f"{line}: {REASONS.get(reason or '', 'missed')}, so removed from the game"
