"""Watching a finished game again, move by move, forwards and back. Pure, no ``js``.

The screen holds a checked ``GameRecord`` (``quandary.replay``): every position
was replayed through the engine already, so stepping is only choosing which
one to draw. The game is over, so every hand may be shown: the player picks
whose seat the table is drawn from, and the game's own renderer draws it, inert
(a replay takes no moves). The log beside it holds what had happened up to the
position shown, and the line of the move just made is read out.

Everything here came from a record someone may have doctored: names are only
ever text in ``markup``, never markup themselves.
"""

from __future__ import annotations

from typing import Any

from quandary import engine
from quandary.engine import ViewHeader, read_header, spec_of
from quandary.replay import GameRecord, dumps

from .game_log import lines
from .html import EMPTY, Markup, attrs, join, markup
from .phrases import Cast
from .render import game_ui
from .render.chart import score_chart
from .render.ending import why_line
from .render.table import Ui, scoreboard, winners_line


class ReplayScreen:
    """One record being watched: the position shown and whose hand it shows."""

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        self.data = record.to_json()
        """The record as JSON data, to download or send as a link again."""
        self.step = 0
        """How many moves have been made in the position shown (0: the deal)."""
        self.seat = 0
        self.link: str | None = None
        """The replay link, once the page has made it (it compresses the record)."""
        self.link_error: str | None = None
        self.names = [s.name for s in record.seats]
        self.kinds = [s.kind for s in record.seats]
        self.title = engine.spec_of(record.game).title

    @property
    def last(self) -> int:
        """The last position: every move made."""
        return len(self.record.moves)

    def text(self) -> str:
        """The record as the text a file or a link holds."""
        return dumps(self.data)

    def go(self, to: str) -> None:
        """Show position ``to`` ("start", "back", "forward", "end" or a number), bounded."""
        steps = {"start": 0, "back": self.step - 1, "forward": self.step + 1, "end": self.last}
        if to in steps:
            target = steps[to]
        else:
            try:
                target = int(to)
            except ValueError:
                return
        self.step = max(0, min(self.last, target))

    def show_seat(self, seat: str) -> None:
        """Draw the table from ``seat``'s side (any seat: the game is over)."""
        try:
            number = int(seat)
        except ValueError:
            return
        if 0 <= number < len(self.names):
            self.seat = number

    # -- drawing -----------------------------------------------------------------------

    def _view(self, state: Any) -> ViewHeader:
        view = engine.view(state, self.seat)
        view["names"], view["kinds"] = self.names, self.kinds
        return read_header(view)

    def log_lines(self, step: int) -> list[str]:
        """What had happened by position ``step``, in words (nobody is "you")."""
        ui_module = game_ui(self.record.game)
        state = self.record.states[step]
        return lines(engine.full_log(state), ui_module.describe, Cast(self.names, None))

    def render(self) -> Markup:
        """Controls, the position from the chosen seat, and the log beside it."""
        state = self.record.states[self.step]
        view = self._view(state)
        ui = Ui(names=self.names, kinds=self.kinds, viewer=self.seat)
        shown = self.log_lines(self.step)
        before = len(self.log_lines(self.step - 1)) if self.step else 0
        fresh = shown[before:] if self.step else ["The cards are dealt."]
        return markup(
            '<section class="replay" id="replay" aria-labelledby="replay-title">'
            '<h2 id="replay-title" tabindex="-1" data-autofocus>Replay: {}</h2>'
            '<p class="explain">{}. The game is over, so every hand may be shown: choose'
            " whose side of the table to see. Use ← and → to step.</p>{}{}"
            '<p class="replay-now" id="replay-now" aria-live="polite">{}</p>'
            '<div class="replay-body"><div class="replay-table">{}'
            '<div class="replay-board" inert>{}</div></div>{}</div>{}</section>',
            self.title,
            _final(self.record, self.names),
            self._controls(),
            self._seats(),
            " ".join(fresh) or "Nothing anyone can see changed.",
            scoreboard(view, ui),
            _board(self.record.game, view, ui),
            _log(shown, before if self.step else len(shown)),
            self._tools(),
        )

    def _controls(self) -> Markup:
        at_start, at_end = self.step == 0, self.step == self.last

        def button(to: str, label: str, disabled: bool, ident: str) -> Markup:
            return markup(
                '<button type="button"{}>{}</button>',
                attrs(
                    data_action="replay-step",
                    data_to=to,
                    id=ident,
                    disabled=disabled,
                    aria_keyshortcuts={"back": "ArrowLeft", "forward": "ArrowRight"}.get(to),
                ),
                label,
            )

        return markup(
            '<div class="replay-controls" role="group" aria-label="Step through the game">'
            '{}{}<output id="replay-position">Move {} of {}</output>{}{}</div>',
            button("start", "⏮ Start", at_start, "replay-start"),
            button("back", "◀ Back", at_start, "replay-back"),
            self.step,
            self.last,
            button("forward", "Forward ▶", at_end, "replay-forward"),
            button("end", "End ⏭", at_end, "replay-end"),
        )

    def _seats(self) -> Markup:
        buttons = join(
            markup(
                '<button type="button"{}>{}</button>',
                attrs(
                    data_action="replay-seat",
                    data_seat=str(seat),
                    id=f"replay-seat-{seat}",
                    aria_pressed="true" if seat == self.seat else "false",
                ),
                name,
            )
            for seat, name in enumerate(self.names)
        )
        return markup(
            '<div class="replay-seats" role="group" aria-label="Whose hand to show">'
            "<span>Hand shown:</span> {}</div>",
            buttons,
        )

    def _tools(self) -> Markup:
        if self.link is not None:
            link = markup(
                '<label class="replay-link">Replay link <input type="text" readonly'
                ' id="replay-link-field"{}></label>',
                attrs(value=self.link),
            )
        elif self.link_error is not None:
            link = markup('<p class="form-error" role="alert">{}</p>', self.link_error)
        else:
            link = EMPTY
        return markup(
            '<p class="actions">'
            '<button type="button" data-action="download-record" id="download-record">'
            "Download the record</button> "
            '<button type="button" data-action="replay-link" id="replay-link">'
            "Copy the replay link</button> "
            '<button type="button" class="quiet" data-action="replay-close" id="replay-close">'
            "Close the replay</button></p>{}",
            link,
        )

    def screen_key(self) -> tuple[str, str]:
        """What the screen shows, and what a screen reader hears when it appears."""
        return "replay", f"Replay of {self.title}. Move {self.step} of {self.last}."


def _final(record: GameRecord, names: list[str]) -> str:
    """ "Ada wins with 12 points" or the like: the result the record replayed to."""
    cast = Cast(names, None)
    return winners_line(list(record.winners), cast)


def _board(game: str, view: ViewHeader, ui: Ui) -> Markup:
    """The table as the chosen seat saw it then, drawn by the game, taking no clicks.

    A position a renderer cannot draw (no game offers a screen for every moment
    of a finished game) says so in a sentence rather than breaking the replay.
    """
    ui_module = game_ui(game)
    result = view.get("result")
    if result:
        why = why_line(result, ui.cast, ui_module)
        return markup(
            '<h3 class="replay-over">Game over: {}.</h3>{}{}',
            winners_line(list(result["winners"]), ui.cast),
            markup('<p class="why">{}</p>', why) if why else EMPTY,
            score_chart(result.get("history", []), ui.names, spec_of(game).round_word, None),
        )
    try:
        return ui_module.render_turn(view, ui)
    except Exception:  # noqa: BLE001 - a replay shows what it can
        return Markup('<p class="hint">This moment has no table to show: see the log.</p>')


def _log(shown: list[str], fresh_from: int) -> Markup:
    """The log up to the position shown; the move's own lines are marked."""
    items = join(
        markup("<li{}>{}</li>", attrs(class_="fresh" if n >= fresh_from else None), line)
        for n, line in enumerate(shown)
    )
    return markup(
        '<div class="replay-log"><h3>What happened</h3>'
        '<ol class="log-lines" id="replay-log">{}</ol></div>',
        items,
    )
