"""The end of a game: who won and why, how the scores went, and the ways on.

Everything here comes from the result the engine puts in every view (scores,
winners, the score after each round and the story of the deciding moment), so
a guest in a room, a spectator and a reloaded save see the same ending as the
device that played the last move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from quandary.engine import BadSetup, spec_of
from quandary.web.html import EMPTY, Markup, attrs, join, markup
from quandary.web.phrases import Cast, plural

from .chart import score_chart

if TYPE_CHECKING:
    from . import GameUi
    from .table import Exit, Ui


def final_screen(
    view: dict[str, Any], ui: Ui, can_restart: bool, way_out: Exit, game_ui: GameUi | None = None
) -> Markup:
    """The winners and why, the final scores, the chart, then "Play again" and the way out.

    Only a device that may start the next game offers "Play again" (the same
    seats, a new deal); a room's guests are told the host does that.
    """
    result = view["result"]
    order = sorted(range(len(ui.names)), key=lambda s: -result["scores"][s])
    headline = winners_line(result["winners"], ui.cast) + "!"
    reason = why_line(result, ui.cast, game_ui)
    rows = join(
        markup(
            '<li{}><span class="who">{}</span><span class="score">{}</span></li>',
            attrs(class_="winner" if s in result["winners"] else None),
            ui.names[s],
            plural(result["scores"][s], "point"),
        )
        for s in order
    )
    chart = score_chart(result.get("history", []), ui.names, _round_word(view), ui.viewer)
    # A game may say more under the scores (Dilemma: why it ended, who won what).
    details = getattr(game_ui, "final_details", None)
    extra = details(view, ui) if details is not None else EMPTY
    again = (
        Markup(
            '<button type="button" class="primary big" data-action="again" id="again">'
            "Play again</button> "
        )
        if can_restart
        else Markup('<span class="hint">The host can start the next game.</span> ')
    )
    return markup(
        '<section class="final" aria-labelledby="final-title">'
        '<h2 id="final-title" tabindex="-1" data-autofocus>{}</h2>{}'
        '<ol class="final-scores">{}</ol>{}{}'
        '<p class="actions">{}<button type="button" data-action="{}" id="to-lobby">{}</button></p>'
        "</section>",
        headline,
        markup('<p class="why" id="why">{}</p>', reason) if reason else EMPTY,
        rows,
        extra,
        chart,
        again,
        way_out.action,
        way_out.label,
    )


def _round_word(view: dict[str, Any]) -> str:
    """What the game calls a round ("challenge" in Dilemma, "turn" in Maybe Minister)."""
    try:
        return spec_of(str(view.get("game"))).round_word
    except BadSetup:
        return "round"


def why_line(result: dict[str, Any], cast: Cast, game_ui: GameUi | None) -> str | None:
    """The deciding moment in a sentence, as the game tells it (None: it tells none)."""
    why = getattr(game_ui, "why", None)
    story = result.get("story")
    if why is None or not isinstance(story, dict):
        return None
    line = why(story, cast)
    return str(line) if line else None


def winners_line(winners: list[int], cast: Cast) -> str:
    """ "You win", "Ada wins", "Shared win: you and Ada" (no full stop)."""
    if len(winners) == 1:
        return cast.subject(winners[0], "win", start=True)
    return "Shared win: " + cast.listing(winners)
