"""The end of a game: who won and why, how the scores went, and the ways on.

Everything here comes from the result the engine puts in every view (scores,
winners, the score after each round and the story of the deciding moment), so
a guest in a room, a spectator and a reloaded save see the same ending as the
device that played the last move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from quandary.engine import BadSetup, Lead, Result, Story, ViewHeader, spec_of
from quandary.engine.typed import needed
from quandary.web.html import EMPTY, Markup, attrs, join, markup
from quandary.web.phrases import Cast, plural

from .chart import score_chart

if TYPE_CHECKING:
    from . import GameUi
    from .table import Exit, Ui


def final_screen(
    view: ViewHeader,
    ui: Ui,
    can_restart: bool,
    way_out: Exit,
    game_ui: GameUi | None = None,
    replay: bool = False,
) -> Markup:
    """The winners and why, the final scores, the chart, then "Play again" and the way out.

    Only a device that may start the next game offers "Play again" (the same
    seats, a new deal); a room's guests are told the host does that. A device
    that holds the game's record (``replay``) offers to watch it again and to
    download it.
    """
    result = needed(view["result"], "result of a game that is over")
    order = sorted(range(len(ui.names)), key=lambda s: -result["scores"][s])
    headline = winners_line(result["winners"], ui.cast) + "!"
    reason = why_line(result, ui.cast, game_ui)
    rows = join(
        markup(
            '<li{}><span class="who">{}{}</span><span class="score">{}</span></li>',
            attrs(class_="winner" if s in result["winners"] else None),
            ui.names[s],
            _stand_in(s, ui),
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
        "{}</section>",
        headline,
        markup('<p class="why" id="why">{}</p>', reason) if reason else EMPTY,
        rows,
        extra,
        chart,
        again,
        way_out.action,
        way_out.label,
        REPLAY_TOOLS if replay else EMPTY,
    )


REPLAY_TOOLS = Markup(
    '<p class="actions replay-tools">'
    '<button type="button" data-action="watch-replay" id="watch-replay">Watch the replay</button> '
    '<button type="button" class="quiet" data-action="download-record" id="download-record">'
    "Download the record</button></p>"
)


def _stand_in(seat: int, ui: Ui) -> Markup:
    """A note on a seat a bot was playing when the game ended (its player had left the room).

    The seat's score and win are still its player's, but the end screen must not
    let anyone think the player made the last moves themselves.
    """
    if ui.kinds[seat] != "covered":
        return EMPTY
    return markup("<small> · a bot finished the game for {}</small>", ui.names[seat])


def _round_word(view: ViewHeader) -> str:
    """What the game calls a round ("challenge" in Dilemma, "turn" in Maybe Minister)."""
    try:
        return spec_of(str(view.get("game"))).round_word
    except BadSetup:
        return "round"


def why_line(result: Result[Story], cast: Cast, game_ui: GameUi | None) -> str | None:
    """The deciding moment in a sentence, as the game tells it (None: it tells none).

    The story is the game's own type (``why`` takes it), checked with the rest of
    its view before anything is drawn (``catalog.read_view``).
    """
    why = getattr(game_ui, "why", None)
    story = result.get("story")
    if why is None or story is None:
        return None
    line = why(story, cast)
    return str(line) if line else None


def was(seat: int, cast: Cast) -> str:
    """ "was", or "were" when the seat is the reader."""
    return "were" if cast.is_you(seat) else "was"


def lead_line(story: Lead, cast: Cast, unit: str) -> str | None:
    """The winner's lead as a sentence true of the game played (None: nothing to tell).

    ``story`` holds ``moves.lead_story``'s fields. "Led" only when the winner
    was alone at the top after every round since; a lead taken in the last
    round is told as that, never as one kept "to the end" or "from then on".

    >>> cast = Cast(["Ada", "Bo"], 0)
    >>> lead_line({"seat": 1, "round": 4, "rounds": 4, "alone": True}, cast, "round")
    'Bo moved ahead only in the last round, round 4.'
    >>> lead_line({"seat": 0, "round": 1, "rounds": 4, "alone": False}, cast, "turn")
    'You were never behind, from turn 1 to the end.'
    """
    seat, number, rounds, alone = story["seat"], story["round"], story["rounds"], story["alone"]
    if not number or not rounds:
        return None
    who = cast.object(seat, start=True)
    if rounds == 1:
        top = "ahead" if alone else "level at the top"
        return f"{who} {was(seat, cast)} {top} after the only {unit}."
    if number == rounds:
        moved = "moved ahead" if alone else "drew level at the top"
        return f"{who} {moved} only in the last {unit}, {unit} {number}."
    if alone:
        since = f"after every {unit}" if number == 1 else f"alone from {unit} {number} to the end"
        return f"{who} led {since}."
    return f"{who} {was(seat, cast)} never behind, from {unit} {number} to the end."


def lead_tail(story: Lead, cast: Cast) -> str:
    """The lead after a sentence that already named its round: ", and led from then on"."""
    seat, number, rounds, alone = story["seat"], story["round"], story["rounds"], story["alone"]
    if number == rounds:
        them, top = cast.object(seat), "ahead" if alone else "level at the top"
        if number == 1:
            return f", the only one, which left {them} {top}"
        return f", the last, which {'moved' if alone else 'brought'} {them} {top}"
    if alone:
        return ", and led alone from then on"
    return f", and {was(seat, cast)} never behind from then on"


def winners_line(winners: list[int], cast: Cast) -> str:
    """ "You win", "Ada wins", "Shared win: you and Ada" (no full stop)."""
    if len(winners) == 1:
        return cast.subject(winners[0], "win", start=True)
    return "Shared win: " + cast.listing(winners)
