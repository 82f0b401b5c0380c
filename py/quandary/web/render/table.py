"""Parts of the table screen every game shares: scoreboard, privacy screen, log, end."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from quandary.web.html import EMPTY, Markup, attrs, join, markup
from quandary.web.phrases import Cast, plural

if TYPE_CHECKING:
    from . import GameUi


@dataclass
class Ui:
    """What the device knows besides the view: names, who is looking, drafts, errors."""

    names: list[str]
    kinds: list[str]
    viewer: int | None
    draft: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    elapsed: int = 0
    """Milliseconds since the open timed window opened, as this device reckons it
    (negative during a countdown before it opens)."""
    now: float = 0.0
    """The page's clock when drawn, so the page can count down to a moment."""

    @property
    def cast(self) -> Cast:
        """Who is who in this device's sentences: the viewer is "you"."""
        return Cast(self.names, self.viewer)


def scoreboard(view: dict[str, Any], ui: Ui, reading: bool = False) -> Markup:
    """Every seat with its score and whether it still has to act.

    While the viewer is ``reading`` a result, their own seat says so: the next
    move waits for them, but they are not "thinking" about it yet.
    """
    waiting = set(view["waiting_for"])
    rows = []
    for seat, name in enumerate(ui.names):
        status = "thinking…" if seat in waiting else "ready"
        if reading and seat == ui.viewer:
            status = "reading the results"
        if view.get("result"):
            status = "winner" if seat in view["result"]["winners"] else ""
        me = " (you)" if seat == ui.viewer and name.casefold() != "you" else ""
        bot = {"bot": " · bot", "covered": f" · bot playing for {name}"}.get(ui.kinds[seat], "")
        rows.append(
            markup(
                "<li{}>"
                '<span class="who">{}{}<small>{}</small></span>'
                '<span class="score" aria-label="score">{}</span>'
                '<span class="status">{}</span></li>',
                attrs(class_="me" if seat == ui.viewer else None),
                name,
                me,
                bot,
                view["scores"][seat],
                status,
            )
        )
    return markup('<ol class="scoreboard" aria-label="Players and scores">{}</ol>', join(rows))


def privacy_screen(name: str, reason: str) -> Markup:
    """Hand the device over without showing anything secret."""
    return markup(
        '<section class="privacy" aria-labelledby="privacy-title">'
        '<h2 id="privacy-title" tabindex="-1" data-autofocus>Pass the device to {}</h2>'
        "<p>{} Everyone else, look away.</p>"
        '<button type="button" class="primary big" data-action="reveal" id="reveal">'
        "I am {}: show my cards</button></section>",
        name,
        reason,
        name,
    )


@dataclass(frozen=True)
class Exit:
    """Where the end screen's second button leads: the lobby, or out of a room."""

    action: str
    label: str


TO_LOBBY = Exit("lobby", "Back to the lobby")
OUT_OF_ROOM = Exit("leave-room", "Leave the room")


def final_screen(view: dict[str, Any], ui: Ui, can_restart: bool, way_out: Exit) -> Markup:
    """Final scores, the winners, and the ways on.

    Only a device that may start the next game offers "Play again"; a room's
    guests are told the host does that.
    """
    result = view["result"]
    order = sorted(range(len(ui.names)), key=lambda s: -result["scores"][s])
    headline = winners_line(result["winners"], ui.cast) + "!"
    rows = join(
        markup(
            '<li{}><span class="who">{}</span><span class="score">{}</span></li>',
            attrs(class_="winner" if s in result["winners"] else None),
            ui.names[s],
            plural(result["scores"][s], "point"),
        )
        for s in order
    )
    return (
        markup(
            '<section class="final" aria-labelledby="final-title">'
            '<h2 id="final-title" tabindex="-1" data-autofocus>{}</h2>'
            '<ol class="final-scores">{}</ol>',
            headline,
            rows,
        )
        + Markup('<p class="actions">')
        + (
            Markup(
                '<button type="button" class="primary big" data-action="again" id="again">'
                "Play again</button> "
            )
            if can_restart
            else Markup('<span class="hint">The host can start the next game.</span> ')
        )
        + markup(
            '<button type="button" data-action="{}" id="to-lobby">{}</button></p></section>',
            way_out.action,
            way_out.label,
        )
    )


def winners_line(winners: list[int], cast: Cast) -> str:
    """ "You win", "Ada wins", "Shared win: you and Ada" (no full stop)."""
    if len(winners) == 1:
        return cast.subject(winners[0], "win", start=True)
    return "Shared win: " + cast.listing(winners)


def log_panel(lines: list[str]) -> Markup:
    """The last few things that happened, newest first."""
    if not lines:
        return EMPTY
    items = join(markup("<li>{}</li>", line) for line in reversed(lines[-6:]))
    return markup(
        '<details class="log"><summary>What happened</summary><ol>{}</ol></details>', items
    )


def error_line(ui: Ui) -> Markup:
    """A refused move's reason, shown where the player is looking."""
    return markup('<p class="form-error" role="alert">{}</p>', ui.error) if ui.error else EMPTY


def milestone(
    view: dict[str, Any], ui: Ui, seen: int, game_ui: GameUi, can_restart: bool, way_out: Exit
) -> Markup | None:
    """A round result not yet acknowledged, or the final screen; None when play goes on."""
    if seen < game_ui.checkpoints(view):
        return game_ui.render_round_result(view, ui, seen)
    if view.get("result"):
        # A game may say more under the scores (Dilemma: why it ended, who won what).
        details = getattr(game_ui, "final_details", None)
        extra = details(view, ui) if details is not None else EMPTY
        return final_screen(view, ui, can_restart, way_out) + extra
    return None
