"""Parts of the table screen every game shares: scoreboard, privacy screen, log, end."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from quandary.web.html import attrs, esc, join, names_list, plural

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
    """Milliseconds since the open timed window opened, as this device reckons it."""


def scoreboard(view: dict[str, Any], ui: Ui) -> str:
    """Every seat with its score and whether it still has to act."""
    waiting = set(view["waiting_for"])
    rows = []
    for seat, name in enumerate(ui.names):
        status = "thinking…" if seat in waiting else "ready"
        if view.get("result"):
            status = "winner" if seat in view["result"]["winners"] else ""
        me = " (you)" if seat == ui.viewer and name.casefold() != "you" else ""
        bot = " · bot" if ui.kinds[seat] == "bot" else ""
        rows.append(
            f"<li{attrs(class_='me' if seat == ui.viewer else None)}>"
            f'<span class="who">{esc(name)}{me}<small>{bot}</small></span>'
            f'<span class="score" aria-label="score">{view["scores"][seat]}</span>'
            f'<span class="status">{esc(status)}</span></li>'
        )
    return f'<ol class="scoreboard" aria-label="Players and scores">{join(rows)}</ol>'


def privacy_screen(name: str, reason: str) -> str:
    """Hand the device over without showing anything secret."""
    return (
        '<section class="privacy" aria-labelledby="privacy-title">'
        f'<h2 id="privacy-title" tabindex="-1" data-autofocus>Pass the device to {esc(name)}</h2>'
        f"<p>{esc(reason)} Everyone else, look away.</p>"
        f'<button type="button" class="primary big" data-action="reveal" id="reveal">'
        f"I am {esc(name)}: show my cards</button></section>"
    )


@dataclass(frozen=True)
class Exit:
    """Where the end screen's second button leads: the lobby, or out of a room."""

    action: str
    label: str


TO_LOBBY = Exit("lobby", "Back to the lobby")
OUT_OF_ROOM = Exit("leave-room", "Leave the room")


def final_screen(view: dict[str, Any], ui: Ui, can_restart: bool, way_out: Exit) -> str:
    """Final scores, the winners, and the ways on.

    Only a device that may start the next game offers "Play again"; a room's
    guests are told the host does that.
    """
    result = view["result"]
    order = sorted(range(len(ui.names)), key=lambda s: -result["scores"][s])
    winners = [ui.names[s] for s in result["winners"]]
    headline = (
        f"{esc(winners[0])} wins!"
        if len(winners) == 1
        else f"Shared win: {esc(names_list(winners))}!"
    )
    rows = join(
        f"<li{attrs(class_='winner' if s in result['winners'] else None)}>"
        f'<span class="who">{esc(ui.names[s])}</span>'
        f'<span class="score">{plural(result["scores"][s], "point")}</span></li>'
        for s in order
    )
    return (
        '<section class="final" aria-labelledby="final-title">'
        f'<h2 id="final-title" tabindex="-1" data-autofocus>{headline}</h2>'
        f'<ol class="final-scores">{rows}</ol>'
        + '<p class="actions">'
        + (
            '<button type="button" class="primary big" data-action="again" id="again">'
            "Play again</button> "
            if can_restart
            else '<span class="hint">The host can start the next game.</span> '
        )
        + f'<button type="button" data-action="{way_out.action}" id="to-lobby">'
        f"{esc(way_out.label)}</button></p></section>"
    )


def log_panel(lines: list[str]) -> str:
    """The last few things that happened, newest first."""
    if not lines:
        return ""
    items = join(f"<li>{esc(line)}</li>" for line in reversed(lines[-6:]))
    return f'<details class="log"><summary>What happened</summary><ol>{items}</ol></details>'


def error_line(ui: Ui) -> str:
    """A refused move's reason, shown where the player is looking."""
    return f'<p class="form-error" role="alert">{esc(ui.error)}</p>' if ui.error else ""


def milestone(
    view: dict[str, Any], ui: Ui, seen: int, game_ui: GameUi, can_restart: bool, way_out: Exit
) -> str | None:
    """A round result not yet acknowledged, or the final screen; None when play goes on."""
    if seen < game_ui.checkpoints(view):
        return game_ui.render_round_result(view, ui, seen)
    if view.get("result"):
        return final_screen(view, ui, can_restart, way_out)
    return None
