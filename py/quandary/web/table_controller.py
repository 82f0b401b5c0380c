"""One table on the page, whoever holds its authority. Pure, no ``js``.

The same controller draws and drives a game on this device, in a room this
device hosts and in a room hosted elsewhere: it only talks to an ``Authority``.
It keeps what belongs to the device, not to the game: who is looking (several
people may share one screen), the move being built, which results the players
have stepped through, and the last refusal to show.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypedDict

from quandary.engine import (
    BadSetup,
    BadView,
    GameError,
    ViewHeader,
    read_header,
    round_words,
    spec_of,
)

from .actions import Action, DownloadText, Effect, UnknownAction
from .authority import Authority, View
from .game_log import GameLog, log_file_name, log_panel, log_text
from .html import EMPTY, Markup, Remembered, markup, stamped
from .phrases import Cast
from .render import Draft, GameUi, game_ui
from .render import Move as DraftMove
from .render.ending import why_line
from .render.table import (
    Exit,
    Ui,
    milestone,
    privacy_screen,
    round_banner,
    scoreboard,
    thinking_line,
    winners_line,
)

DAMAGED = (BadView, BadSetup, KeyError, TypeError, ValueError, IndexError, AttributeError)
"""What drawing a damaged view or lobby from another device raises (``BadSetup``: a
game nobody registered); caught only for what came from another device."""


class MoveAhead(TypedDict):
    """What the page needs to send this device's move itself at the click: the
    authority's ``ahead`` (where, as which intent, on which version), and the move the
    submit button makes of the draft (None while it is not a whole move)."""

    peer: str
    id: str
    version: int
    submit: DraftMove | None


class TableController:
    """What this device shows of one table, and the actions people take at it."""

    def __init__(
        self,
        authority: Authority,
        way_out: Exit,
        seen: int = 0,
        announce_every_version: bool = True,
    ) -> None:
        self.authority = authority
        self.way_out = way_out
        self.seen = seen
        # In a room other devices' moves change the version under a player who
        # is still choosing: re-announcing then would move their focus away.
        self.announce_every_version = announce_every_version
        self.viewer: int | None = None
        self.draft: Draft = {}
        self.error: str | None = None
        self.log = GameLog()
        self._log_panel = Remembered()
        self.effects: list[Effect] = []
        self._read: tuple[View, ViewHeader] | None = None
        """The last view whose header was read, and that header (``_header``)."""
        self.reactions: dict[int, Markup] = {}
        """Reaction bubbles by seat, set by a room before it draws (web/render/chat.py)."""
        self.settle()

    def _header(self, view: View) -> ViewHeader:
        """``read_header(view)``, once per view: drawing one screen reads its view's
        header several times (what to show, whether its player may act, what to
        announce), and a view is never changed once made (a new one comes instead)."""
        if self._read is not None and self._read[0] is view:
            return self._read[1]
        header = read_header(view)
        self._read = (view, header)
        return header

    # -- who is looking ------------------------------------------------------------

    @property
    def ui_module(self) -> GameUi:
        """The game's render module."""
        return game_ui(self.authority.game)

    def gated(self) -> bool:
        """Several people share this device: secret screens wait behind a privacy screen."""
        return len(self.authority.my_seats()) > 1

    def settle(self) -> None:
        """With one person at this device, that person is always the one looking."""
        if not self.gated():
            seats = self.authority.my_seats()
            self.viewer = seats[0] if seats else None

    def view(self) -> View | None:
        """The view this device shows: the viewer's, or what anyone may see."""
        return self.authority.view(self.viewer)

    def checkpoints(self) -> int:
        """How many results there are to step through so far.

        A damaged view from another device counts as no new result (``render``
        says it is damaged).
        """
        view = self.authority.view(None)
        if view is None:
            return 0
        try:
            return self.ui_module.checkpoints(self._header(view))
        except DAMAGED:
            if not self.authority.remote:
                raise
            return self.seen

    def awaited(self) -> bool:
        """Whether the game waits for a person at this device: the page then tells them,
        if its tab is hidden (a room played in a background tab, a bot that took its time).

        A damaged view from another device awaits nobody (``render`` says it is damaged).
        """
        try:
            mine = set(self.authority.my_seats())
            return bool(mine.intersection(self.authority.to_act()))
        except DAMAGED:
            if not self.authority.remote:
                raise
            return False

    def playable_view(self) -> ViewHeader | None:
        """The viewer's view while they may act on it (no result waiting to be seen)."""
        if self.viewer is None or self.seen < self.checkpoints():
            return None
        view = self.authority.view(self.viewer)
        return None if view is None else self._header(view)

    # -- actions -------------------------------------------------------------------

    def act(self, action: Action, data: dict[str, str]) -> None:
        """Handle one of ``TABLE_ACTIONS``; a refused move is shown, not raised."""
        handlers = {
            Action.REVEAL: self._reveal,
            Action.DRAFT: self._draft,
            Action.GESTURE: self._gesture,
            Action.MOVE: self._move,
            Action.SUBMIT: self._submit_draft,
            Action.NEXT: self._next,
            Action.AGAIN: self._again,
            Action.DOWNLOAD_LOG: self._download_log,
            Action.UNDO: self._undo,
        }
        handler = handlers.get(action)
        if handler is None:
            raise UnknownAction(f"A table has no action {action.value!r}.")
        if action in (Action.SUBMIT, Action.MOVE) and data.get("sent"):
            self._sent(data, handler)
        else:
            handler(data)
        self.settle()

    def _reveal(self, data: dict[str, str]) -> None:
        if self.gated():
            waiting = self.authority.to_act()
            self.viewer = waiting[0] if waiting else None

    def _draft(self, data: dict[str, str]) -> None:
        view = self.playable_view()
        if view is not None:
            self.draft = self.ui_module.update_draft(view, self.draft, data)
            self.error = None

    def _gesture(self, data: dict[str, str]) -> None:
        view = self.playable_view()
        if view is not None:
            move = self.ui_module.gesture_move(view, data)
            if move is not None:
                self._submit(move)

    def _move(self, data: dict[str, str]) -> None:
        """A button that is a whole move by itself (pass, peace, take this card)."""
        try:
            move = json.loads(data.get("move", ""))
        except ValueError:
            self.error = "That button does not hold a move."
            return
        self._submit(move)

    def _submit_draft(self, data: dict[str, str]) -> None:
        view = self.playable_view()
        if view is not None:
            move = self.ui_module.draft_move(view, self.draft)
            if move is None:
                self.error = "Your choice is not complete yet."
                return
            self._submit(move)

    def _submit(self, move: Any) -> None:
        if self.playable_view() is None or self.viewer is None:
            return
        try:
            self.authority.submit(self.viewer, move)
        except GameError as exc:
            self.error = exc.message
            return
        self._submitted()

    def _submitted(self) -> None:
        """A move went: its draft is done, and behind a privacy screen nobody is looking."""
        self.draft, self.error = {}, None
        if self.gated():
            self.viewer = None

    def _sent(self, data: dict[str, str], again: Callable[[dict[str, str]], None]) -> None:
        """The page sent the move itself at the click, as the intent ``ahead`` named
        (``data["sent"]``): what submitting does here, but the sending. Its draft may
        have changed since the screen was drawn (a new view came): the move sent is the
        one the player saw, and the host judges it against the table it has now. Sent
        to a connection that no longer hosts, it is submitted ``again``, the usual way."""
        if self.viewer is None:
            return
        try:
            noted = self.authority.sent_ahead(self.viewer, data["sent"])
        except GameError as exc:
            self.error = exc.message
            return
        if not noted:
            again({k: v for k, v in data.items() if k != "sent"})
            return
        self._submitted()

    def ahead(self) -> MoveAhead | None:
        """What the page needs to send this viewer's move itself at the click: the
        authority's ``ahead`` and the move the submit button makes of the draft (None
        while the draft is not a whole move). None while this viewer cannot move, or
        where moves are played on this device."""
        try:
            view = self.playable_view()
            if view is None or not view.get("legal_moves"):
                return None
            intent = self.authority.ahead()
            if intent is None:
                return None
            submit = self.ui_module.draft_move(view, self.draft)
            return {
                "peer": intent["peer"],
                "id": intent["id"],
                "version": intent["version"],
                "submit": submit,
            }
        except DAMAGED:
            if not self.authority.remote:
                raise
            return None  # a damaged view from another device: ``render`` says so

    def _undo(self, data: dict[str, str]) -> None:
        """Take back the person's last move (``quandary/undo.py``); a refusal is shown.

        What they were building goes with it, and they see again only the results the
        game had then (a rewound game never has more than it had).
        """
        try:
            self.authority.undo()
        except GameError as exc:
            self.error = exc.message
            return
        self.draft, self.error = {}, None
        self.seen = min(self.seen, self.checkpoints())

    def undo_control(self) -> Markup:
        """The Undo button, live or off with the reason in a sentence beside it; nothing
        where undo is never offered (a room, several people) or once the game is over."""
        verdict = self.authority.undo_verdict()
        view = self.authority.view(None)
        if verdict is None or view is None or view.get("result"):
            return EMPTY
        if verdict.offered:
            return Markup(
                '<button type="button" class="quiet" data-action="undo" id="undo"'
                ' aria-keyshortcuts="Control+Z Meta+Z"'
                ' title="Take back your last move (Ctrl+Z)">Undo</button>'
            )
        return markup(
            '<button type="button" class="quiet" id="undo" disabled title="{}"'
            ' aria-describedby="undo-why">Undo</button>'
            '<small class="undo-why" id="undo-why">{}</small>',
            verdict.reason,
            verdict.reason,
        )

    def _next(self, data: dict[str, str]) -> None:
        if self.seen < self.checkpoints():
            self.seen += 1

    def _again(self, data: dict[str, str]) -> None:
        view = self.authority.view(None)
        if self.authority.can_restart and view is not None and view.get("result"):
            self.authority.restart()
            self.seen, self.draft, self.error, self.viewer = 0, {}, None, None
            self.log = GameLog()

    def _download_log(self, data: dict[str, str]) -> None:
        """The log as the panel shows it, as a text file (names, not "you": it is kept)."""
        view = self.authority.view(None)
        if view is None:
            return
        names = list(view.get("names", []))
        title = str(view.get("title", "Quandary"))
        try:
            header = self._header(view)
            self.gather(header)
            shown = self.log_lines(self.unseen(header), Cast(names, None))
        except DAMAGED:
            if not self.authority.remote:
                raise
            return  # the screen already says what arrived is damaged
        text = log_text(title, names, shown, self.log.complete())
        self.effects.append(DownloadText(log_file_name(title), text))

    def follow(self) -> None:
        """The authority moved on by itself (a room's message, a clock): keep up with it.

        A view with fewer results than the players stepped through is a new game
        (the host started one): nothing of it was seen yet.
        """
        if self.seen > self.checkpoints():
            self.seen, self.draft, self.error = 0, {}, None
        self.settle()
        view = self.authority.view(None)
        if view is None:
            return
        try:
            self._header(view)  # from another device it may be damaged: ``render`` says so
        except BadView:
            return
        self.gather(view)

    # -- the log -------------------------------------------------------------------

    def gather(self, view: ViewHeader | View) -> None:
        """Keep the events of a view whose header was read; the whole log where it is here.

        The whole log is asked for only when the view's events do not follow on
        from those already kept (a reloaded save, a burst of bot moves).
        """
        entries, version = view["log"], view["version"]  # a header already read
        known = self.log.entries
        fresh = version < self.log.version
        if entries and (fresh or entries[0]["index"] > max(known, default=-1) + 1):
            whole = self.authority.full_log()
            if whole is not None:
                self.log.gather(whole, version)
        self.log.gather(entries, version)

    def unseen(self, view: ViewHeader) -> int:
        """How many of the view's results the players have not stepped through yet."""
        return self.ui_module.checkpoints(view) - self.seen

    def log_lines(self, unseen: int, cast: Cast) -> list[str]:
        """The log's lines as the panel shows them: up to the results the players have
        seen (all but the ``unseen`` last)."""
        ui_module = self.ui_module
        kinds = frozenset(getattr(ui_module, "RESULT_EVENTS", frozenset()))
        return self.log.lines(unseen, kinds, ui_module.describe, cast)

    # -- drawing -------------------------------------------------------------------

    def ui(self, view: ViewHeader) -> Ui:
        """What the renderers need besides the view."""
        return Ui(
            names=list(view.get("names", [])),
            kinds=list(view.get("kinds", [])),
            viewer=self.viewer,
            draft=self.draft,
            error=self.error,
            elapsed=self.authority.elapsed(view),
            now=self.authority.now(),
            reactions=self.reactions,
        )

    def render(self) -> Markup:
        """Scoreboard, the part of the table this device may see, and the log.

        A view from another device that cannot be drawn is reported in a sentence
        instead of breaking the page; a view made here that cannot be drawn is a
        bug, and raises so the tests see it.
        """
        view = self.view()
        if view is None:
            return Markup('<p class="waiting">Waiting for the game to start…</p>')
        if not self.authority.remote:
            return self._render(view)
        try:
            return self._render(view)
        except DAMAGED:
            return Markup(
                '<p class="form-error" role="alert">This table cannot be drawn: what arrived'
                " for it is damaged. It will be drawn again when the next move arrives.</p>"
            )

    def _render(self, whole: View) -> Markup:
        view = self._header(whole)  # shared parts below read the header: refuse a damaged one first
        ui_module = self.ui_module
        ui = self.ui(view)
        shown = milestone(
            view,
            ui,
            self.seen,
            ui_module,
            self.authority.can_restart,
            self.way_out,
            replay=bool(view.get("result")) and self.authority.record() is not None,
        )
        waiting = self.authority.to_act()
        if shown is not None:
            body = shown
        elif self.gated() and self.viewer not in waiting:
            body = (
                privacy_screen(ui.names[waiting[0]], ui_module.privacy_reason(view))
                if waiting
                else Markup('<p class="waiting">Waiting for the other players…</p>')
            )
        elif self.viewer is None:
            body = _watching(view, ui_module, ui_module_word(self.authority.game))
        else:
            body = ui_module.render_turn(view, ui)
        self.gather(view)
        # The panel is made from the log, which results the players have stepped
        # through, and the game's words with their names: a draw that changes none of
        # them (a line said, a reaction, a clock's tick) leaves it as it was, and a
        # move's new event is the only one told anew (``GameLog.lines``).
        unseen = self.unseen(view)
        panel = self._log_panel.get(
            (self.log.revision, unseen, self.authority.game, tuple(ui.names), ui.viewer),
            lambda: log_panel(self.log_lines(unseen, ui.cast), self.log.complete()),
        )
        return (
            (round_banner(view, ui_module_word(self.authority.game)) if shown is None else EMPTY)
            + scoreboard(view, ui, reading=shown is not None)
            + thinking_line(view, ui)
            # Stamped: another player's move often leaves this player's part as it was.
            + stamped(markup('<div class="turn">{}</div>', body))
            + panel
        )

    def screen_key(self) -> tuple[str, str]:
        """What the screen shows, and a sentence announcing it to screen readers."""
        view = self.view()
        if view is None:
            return "table-waiting", "Waiting for the game to start."
        try:
            return self._screen_key(view)
        except DAMAGED:
            if not self.authority.remote:
                raise
            return "table-damaged", "This table cannot be drawn."

    def _screen_key(self, view: View) -> tuple[str, str]:
        header = self._header(view)
        ui_module = self.ui_module
        cast = Cast(list(header.get("names", [])), self.viewer)
        if self.seen < ui_module.checkpoints(header):
            return f"result{self.seen}", ui_module.explain_milestone(header, self.seen, cast)
        result = header["result"]
        if result:
            why = why_line(result, cast, ui_module)
            return (
                "over",
                f"Game over. {winners_line(result['winners'], cast)}. {why or ''}".strip(),
            )
        phase = header["phase"]
        who = "gate" if self.viewer is None and self.gated() else self.viewer
        moment = header["version"] if self.announce_every_version else bool(header["legal_moves"])
        word = ui_module_word(self.authority.game)
        words = round_words(header["round"], header["round_limit"], word)
        return (
            f"{header['round']}:{phase}:{who}:{moment}",
            f"{words[0].upper()}{words[1:]}: {ui_module.PHASE_TITLES.get(phase, phase)}.",
        )


def ui_module_word(game: str) -> str:
    """What ``game`` calls a round, as its spec says ("challenge" in Dilemma)."""
    try:
        return spec_of(game).round_word
    except BadSetup:
        return "round"


def _watching(view: ViewHeader, ui_module: GameUi, word: str) -> Markup:
    """A spectator's turn area: the public table is in the scoreboard and the log."""
    header = read_header(view)
    words = round_words(header["round"], header["round_limit"], word)
    phase = ui_module.PHASE_TITLES.get(header["phase"], "the players are choosing")
    return markup(
        '<h2 tabindex="-1" data-autofocus>You are watching</h2><p class="explain">{}: {}.</p>',
        words[0].upper() + words[1:],
        phase,
    )
