"""Parts of the table screen every game shares: scoreboard, privacy screen, log, end."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from quandary.engine import ViewHeader, round_words
from quandary.web.html import EMPTY, Markup, attrs, join, markup, stamped
from quandary.web.phrases import Cast

# The end screen is its own module; its two names stay importable from here too.
from .ending import final_screen as final_screen
from .ending import winners_line as winners_line

if TYPE_CHECKING:
    from . import GameUi


@dataclass
class Ui:
    """What the device knows besides the view: names, who is looking, drafts, errors."""

    names: list[str]
    kinds: list[str]
    viewer: int | None
    draft: Mapping[str, object] = field(default_factory=dict)
    """The move being built, which only its game reads (``render.Draft``)."""
    error: str | None = None
    elapsed: int = 0
    """Milliseconds since the open timed window opened, as this device reckons it
    (negative during a countdown before it opens)."""
    now: float = 0.0
    """The page's clock when drawn, so the page can count down to a moment."""
    reactions: dict[int, Markup] = field(default_factory=dict)
    """A room's reaction bubbles, by the seat of who sent them (web/render/chat.py)."""

    @property
    def cast(self) -> Cast:
        """Who is who in this device's sentences: the viewer is "you"."""
        return Cast(self.names, self.viewer)


def scoreboard(view: ViewHeader, ui: Ui, reading: bool = False) -> Markup:
    """Every seat with its score and whether it still has to act.

    The viewer's own seat speaks to them: when the table waits for them it says
    "your move" (the others' "thinking…" would read as if the game were busy
    without them), and while they are ``reading`` a result it says so.
    """
    waiting = set(view["waiting_for"])
    rows = []
    for seat, name in enumerate(ui.names):
        status = "thinking…" if seat in waiting else "ready"
        if seat in waiting and seat == ui.viewer:
            status = "your move"
        if reading and seat == ui.viewer:
            status = "reading the results"
        result = view["result"]
        if result:
            status = "winner" if seat in result["winners"] else ""
        me = " (you)" if seat == ui.viewer and name.casefold() != "you" else ""
        bot = {"bot": " · bot", "covered": f" · bot playing for {name}"}.get(ui.kinds[seat], "")
        rows.append(
            markup(
                "<li{}>"
                '<span class="who">{}{}<small>{}</small>{}</span>'
                '<span class="score" aria-label="score">{}</span>'
                '<span class="status">{}</span></li>',
                attrs(class_="me" if seat == ui.viewer else None),
                name,
                me,
                bot,
                ui.reactions.get(seat, EMPTY),
                view["scores"][seat],
                status,
            )
        )
    return stamped(
        markup('<ol class="scoreboard" aria-label="Players and scores">{}</ol>', join(rows))
    )


REVEAL_STEP_MS = 50
REVEAL_MS = 240
REVEAL_LAST_STEP = 4
"""A reveal's timing, mirrored by static/css/moments.css: secrets turn over one
after another, ``REVEAL_STEP_MS`` apart, each in ``REVEAL_MS``, and the last has
started by step ``REVEAL_LAST_STEP``, so every reveal is over within
``REVEAL_MS + REVEAL_LAST_STEP * REVEAL_STEP_MS`` (under half a second). Controls
are never revealed this way: a player may always act at once."""


def reveal(kind: str, key: str, order: int = 0) -> Markup:
    """Attributes that make an element a moment: it turns over when it first appears.

    ``kind`` names the motion (``turn``, ``uncover``, ``rise``), ``order`` its place
    in the sequence. The id, made from ``key``, is new for every moment, so the page
    morph inserts the element afresh and its CSS animation runs once, when the
    secret is revealed, never again on a later redraw.
    """
    step = max(0, min(order, REVEAL_LAST_STEP))
    return attrs(id=f"reveal-{key}", data_reveal=kind, style=f"--reveal-order: {step}")


def round_banner(view: ViewHeader, word: str = "round") -> Markup:
    """The round, announced briefly at the top of the table when it begins, in the
    game's own word for it (``word``: "challenge" in Dilemma, "turn" in Maybe
    Minister), as the step's title says it.

    Its id changes with the round, so it appears (and fades) once per round; it
    never takes a click or the focus, and screen readers hear the round from the
    announcer instead.
    """
    if view.get("result"):
        return EMPTY
    words = round_words(view["round"], view.get("round_limit"), word)
    return markup(
        '<div class="round-banner" id="round-banner-{}" aria-hidden="true">{}</div>',
        view["round"],
        words[0].upper() + words[1:],
    )


def thinking_line(view: ViewHeader, ui: Ui) -> Markup:
    """ "Bot Ada is thinking…": the bots the table waits for while they take their moment.

    A timed window's bots keep their own time and say nothing (their throws show).
    """
    if view.get("result") or isinstance(view.get("window"), dict):
        return EMPTY
    bots = [s for s in view["waiting_for"] if ui.kinds[s] in ("bot", "covered")]
    if not bots:
        return EMPTY
    cast = ui.cast
    who = (
        cast.subject(bots[0], "be", start=True)
        if len(bots) == 1
        else cast.listing(bots, start=True) + " are"
    )
    return markup('<p class="thinking" id="thinking">{} thinking…</p>', who)


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


def log_panel(lines: list[str]) -> Markup:
    """The last few things that happened, newest first."""
    if not lines:
        return EMPTY
    items = join(markup("<li>{}</li>", line) for line in reversed(lines[-6:]))
    return stamped(
        markup('<details class="log"><summary>What happened</summary><ol>{}</ol></details>', items)
    )


def error_line(ui: Ui) -> Markup:
    """A refused move's reason, shown where the player is looking."""
    return markup('<p class="form-error" role="alert">{}</p>', ui.error) if ui.error else EMPTY


def milestone(
    view: ViewHeader,
    ui: Ui,
    seen: int,
    game_ui: GameUi,
    can_restart: bool,
    way_out: Exit,
    replay: bool = False,
) -> Markup | None:
    """A round result not yet acknowledged, or the final screen; None when play goes on.

    ``replay``: this device holds the game's record, so the end screen offers it."""
    if seen < game_ui.checkpoints(view):
        return game_ui.render_round_result(view, ui, seen)
    if view.get("result"):
        return final_screen(view, ui, can_restart, way_out, game_ui, replay)
    return None
