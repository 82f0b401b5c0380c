"""Pebbles' table: its view in, markup out. Pure (no ``js``), like every renderer.

It lives with the game, outside ``quandary.web.render``: the catalog entry names
it by its full dotted path (``tests.fifth.render``). A pick is one button press,
so there is no draft to build; every finished round is shown once, in turn, before
play goes on (``checkpoints``).
"""

from __future__ import annotations

import json

from quandary.engine import LeadStory, round_words
from quandary.web.html import EMPTY, Markup, attrs, join, markup
from quandary.web.phrases import Cast, plural
from quandary.web.render import Draft
from quandary.web.render.ending import lead_line
from quandary.web.render.table import Ui, error_line, reveal

from .spec import number
from .view import PebblesEvent, PebblesView, RoundView

PHASE_TITLES = {
    "pick": "Pick a pebble in secret",
    "over": "The game is over",
}


def checkpoints(view: PebblesView) -> int:
    """One result per finished round, each shown until acknowledged."""
    return len(view["history"])


def render_round_result(view: PebblesView, ui: Ui, index: int) -> Markup:
    """Round ``index``: every pick, revealed together, and who scored."""
    done = view["history"][index]
    picks = join(
        markup(
            '<li{}><span class="seat">{}</span> <span class="pebble">{}</span></li>',
            reveal("turn", f"pebbles-{done['round']}-{seat}", seat),
            ui.names[seat],
            number(pebble),
        )
        for seat, pebble in enumerate(done["picks"])
    )
    last = index == len(view["history"]) - 1 and view["result"] is not None
    button = "See the final scores" if last else f"On to round {done['round'] + 1}"
    return markup(
        '<section class="round-result" aria-labelledby="result-title">'
        '<h2 id="result-title" tabindex="-1" data-autofocus>Round {}: revealed</h2>'
        '<ul class="pebble-picks">{}</ul><p class="explain">{}</p>'
        '<p class="actions"><button type="button" class="primary big" data-action="next" '
        'id="next">{}</button></p></section>',
        done["round"],
        picks,
        explain_round(done, ui.cast),
        button,
    )


def explain_milestone(view: PebblesView, index: int, cast: Cast) -> str:
    """Round ``index``'s outcome in a sentence, for screen readers."""
    done = view["history"][index]
    return f"Round {done['round']} revealed. " + explain_round(done, cast)


def explain_round(done: RoundView, cast: Cast) -> str:
    """Who scored a round, or why nobody did."""
    if done["winner"] is None:
        return "Every number was thrown more than once: nobody scores."
    return (
        f"{cast.subject(done['winner'], 'score', start=True)} {plural(done['points'], 'point')}"
        " with the highest number nobody else threw."
    )


def privacy_reason(view: PebblesView) -> str:
    """Why a shared device is passed: the next player's hand is secret."""
    return "It is time to pick a pebble in secret."


def update_draft(view: PebblesView, draft: Draft, data: dict[str, str]) -> Draft:
    """No drafts: a pick is one press."""
    return draft


def draft_move(view: PebblesView, draft: Draft) -> None:
    """No drafts: a pick is one press."""
    return None


def gesture_move(view: PebblesView, data: dict[str, str]) -> None:
    """No gestures in Pebbles."""
    return None


def render_turn(view: PebblesView, ui: Ui) -> Markup:
    """The viewer's screen: their hand to pick from (or the wait), then the table."""
    phase = view["phase"]
    head = markup(
        '<h2 id="turn-title" tabindex="-1" data-autofocus>{}<small> · {}</small></h2>',
        PHASE_TITLES.get(phase, phase),
        round_words(view["round"], view["round_limit"]),
    )
    return head + error_line(ui) + _hand(view, ui) + _table(view, ui)


def _hand(view: PebblesView, ui: Ui) -> Markup:
    """The seat's pebbles as buttons while it may pick; a spectator has no hand."""
    if "hand" not in view:
        return Markup('<p class="explain">You are watching: every hand is hidden from you.</p>')
    picked = view.get("picked")
    if picked is not None:
        return markup(
            '<p class="waiting">You threw your {} face down. Waiting for the others…</p>',
            number(picked),
        )
    legal = view["legal_moves"]
    buttons = join(
        markup(
            '<li><button type="button" class="pebble" data-action="move" id="pebble-{}" '
            "data-move='{}'{}>{}</button></li>",
            pebble,
            json.dumps(move),
            attrs(disabled=move not in legal),
            number(pebble),
        )
        for pebble in view["hand"]
        for move in [{"type": "pick", "pebble": pebble}]
    )
    return markup(
        '<section aria-label="Your pebbles"><h3>Your pebbles</h3>'
        '<ul class="pebbles">{}</ul></section>',
        buttons,
    )


def _table(view: PebblesView, ui: Ui) -> Markup:
    """Every seat's hand size and whether it has picked, the bag and the last round."""
    seats = join(
        markup(
            '<li><span class="seat">{}</span> {} · {}</li>',
            ui.names[seat],
            plural(size, "pebble"),
            "picked" if view["submitted"][seat] else "choosing",
        )
        for seat, size in enumerate(view["hand_sizes"])
    )
    last = view["history"][-1] if view["history"] else None
    told = markup('<p class="explain">{}</p>', explain_round(last, ui.cast)) if last else EMPTY
    return markup(
        '<section class="pebble-table" aria-label="The table"><ul>{}</ul>'
        "<p>In the bag: {} · discarded: {}</p>{}</section>",
        seats,
        plural(view["bag"], "pebble"),
        plural(len(view["discard"]), "pebble"),
        told,
    )


def why(story: LeadStory, cast: Cast) -> str | None:
    """How the game was won: the round from which the winner was never behind."""
    return lead_line(story, cast, "round")


def describe(event: PebblesEvent, cast: Cast) -> str | None:
    """A log line for an event, or None for events not worth a line."""
    if event["kind"] == "submitted":
        return f"{cast.subject(event['data']['seat'], 'pick', start=True)} a pebble."
    if event["kind"] == "round_over":
        return explain_round(event["data"], cast)
    if event["kind"] == "game_over":
        return f"The game is over: {cast.listing(event['data']['winners'])} won."
    return None
