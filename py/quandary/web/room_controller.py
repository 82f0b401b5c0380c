"""A room on this device: as its host (the authority) or as a guest. Pure, no ``js``.

The web layer feeds it transport events (a peer joined or left, a message) and
clicks; it answers with HTML and with effects for the web layer to carry out
(open the transport, copy the link). The host's room and a guest's seat token
are kept in storage, so a reload of either side picks the room up again.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from quandary.engine import BadSetup, CorruptState, GameError
from quandary.net.guest import RoomGuest
from quandary.net.host import RoomHost
from quandary.net.link import RoomLink

from .html import esc
from .render import game_ui
from .render.room import presence, room_lobby, share_box, status_line
from .render.table import Ui, log_panel, milestone, scoreboard

SEARCH_PATIENCE = 8
"""Timer beats (2 s each) before a guest is told nobody has answered yet."""


def room_key(room: str) -> str:
    """Where this device keeps what it knows about a room."""
    return f"quandary.room.{room}"


class RoomController:
    """One room, seen from this device."""

    def __init__(
        self,
        storage: Any,
        new_seed: Callable[[], int],
        make_id: Callable[[], str],
        link: RoomLink,
        page: str,
        name: str,
        create: bool = False,
        now: Callable[[], float] = lambda: 0.0,
    ) -> None:
        self.storage = storage
        self.now = now
        self.link = link
        self.url = f"{page.split('#')[0]}#{link.fragment()}"
        self.send: Callable[[str, str], None] | None = None
        self.host: RoomHost | None = None
        self.guest: RoomGuest | None = None
        self.error: str | None = None
        self.notice: str | None = None
        self.seen = 0
        self.draft: dict[str, Any] = {}
        self.beats = 0
        self._window_seen: tuple[Any, float] | None = None
        self.can_share = False
        self.dirty = False
        record = {} if create else self._stored()
        if create or (record.get("role") == "host" and record.get("secret") == link.secret):
            self.host = RoomHost(self._send, make_id, new_seed, name, now)
        if self.host is not None and not create:
            try:
                self.host.restore(record.get("host"))
                self.seen = int(record.get("seen", 0))
            except (CorruptState, ValueError) as exc:
                self.host = None
                self.error = f"This room's saved game could not be read: {exc}"
        if self.host is None and self.error is None:
            token = record.get("token") if record.get("role") == "guest" else None
            self.guest = RoomGuest(self._send, make_id, record.get("name") or name, token)
        self.persist()

    # -- storage -------------------------------------------------------------------

    def _stored(self) -> dict[str, Any]:
        raw = self.storage.get(room_key(self.link.room))
        try:
            data = json.loads(raw) if raw else {}
        except ValueError:
            data = {}
        return data if isinstance(data, dict) else {}

    def persist(self) -> None:
        """Save the host's room or the guest's token; a full storage is reported, not fatal."""
        self.dirty = False
        if self.host is not None:
            record = {
                "role": "host",
                "secret": self.link.secret,
                "host": self.host.to_json(),
                "seen": self.seen,
            }
        elif self.guest is not None and self.guest.token:
            record = {"role": "guest", "token": self.guest.token, "name": self.guest.name}
        else:
            return
        try:
            self.storage.set(room_key(self.link.room), json.dumps(record))
        except Exception:  # noqa: BLE001 - quota errors differ by browser
            self.notice = "This device's storage is full: the room is not saved. Play on."

    # -- transport events --------------------------------------------------------

    def attach(self, send: Callable[[str, str], None]) -> None:
        """The transport is open: this is how to reach a peer."""
        self.send = send

    def _send(self, peer: str, text: str) -> None:
        if self.send is not None:
            self.send(peer, text)

    def on_join(self, peer: str) -> None:
        """A peer arrived."""
        (self.host or self.guest).on_join(peer)  # type: ignore[union-attr]
        self.dirty = True

    def on_leave(self, peer: str) -> None:
        """A peer left."""
        (self.host or self.guest).on_leave(peer)  # type: ignore[union-attr]

    def on_message(self, peer: str, text: str) -> None:
        """A message arrived from a peer."""
        (self.host or self.guest).on_message(peer, text)  # type: ignore[union-attr]
        view = self.my_view()
        if view is not None and self._game_ui().checkpoints(view) < self.seen:
            self.seen = 0  # a new game started in this room
        self.dirty = True  # the web layer persists after drawing: the screen comes first

    def on_join_error(self, detail: str) -> None:
        """The transport could not join: for a guest, almost always a wrong secret."""
        if self.guest is not None and self.guest.status != "joined":
            self.error = (
                "Cannot join this room: the link's secret does not match. "
                "Ask for the link again, or create a new room."
            )

    def on_timer(self) -> bool:
        """Every two seconds: greet again while searching, remind guests of the version.

        Returns whether anything this device shows changed, so the page redraws
        only then (the timer runs all game long).
        """
        if self.host is not None:
            self.host.tick()
            return False
        assert self.guest is not None
        before = (self.guest.status, self.notice)
        self.guest.beat()
        self.beats = 0 if self.guest.host else self.beats + 1
        if self.guest.status == "searching" and self.beats >= SEARCH_PATIENCE:
            self.notice = (
                "Nobody has answered yet. The host may be offline: keep this page open, "
                "it keeps trying."
            )
        elif self.guest.status == "joined" and self.notice and "Nobody" in self.notice:
            self.notice = None
        return (self.guest.status, self.notice) != before

    def on_clock(self) -> bool:
        """The host's table clock ran: bots' throws, a window closing. True if it moved."""
        if self.host is None or not self.host.advance():
            return False
        self.dirty = True
        return True

    def next_wakeup(self) -> float | None:
        """When ``on_clock`` next has work (only a host's table keeps time)."""
        return self.host.next_wakeup() if self.host is not None else None

    # -- state seen from here ----------------------------------------------------

    @property
    def lobby(self) -> dict[str, Any] | None:
        """The room's lobby as this device knows it."""
        return self.host.lobby() if self.host is not None else self.guest.lobby  # type: ignore[union-attr]

    def my_view(self) -> dict[str, Any] | None:
        """This device's view of the game, if one is running."""
        if self.host is not None:
            return self.host.view_for(self.host.me)
        assert self.guest is not None
        return self.guest.view if self.lobby and self.lobby.get("started") else None

    def my_member(self) -> str | None:
        """This device's member id."""
        return self.host.me if self.host is not None else self.guest.member  # type: ignore[union-attr]

    def my_name(self) -> str:
        """This device's player name."""
        if self.host is not None:
            return self.host.members[self.host.me].name
        assert self.guest is not None
        return self.guest.name

    # -- actions -----------------------------------------------------------------

    def dispatch(self, action: str, data: dict[str, str]) -> bool:
        """Handle a click or field change that belongs to the room."""
        handler = getattr(self, "_on_" + action.replace("-", "_"), None)
        if handler is None:
            return False
        self.notice = None
        try:
            handler(data)
        except (BadSetup, GameError) as exc:
            self.notice = exc.message
        self.persist()
        return True

    def _on_field(self, data: dict[str, str]) -> None:
        field, value = data.get("field", ""), data.get("value", "")
        if field == "room-name" and value.strip():
            if self.host is not None:
                self.host.rename_me(value.strip())
            elif self.guest is not None:
                self.guest.rename(value.strip())
        elif self.host is not None:
            self._host_field(field, value, data)

    def _host_field(self, field: str, value: str, data: dict[str, str]) -> None:
        host = self.host
        assert host is not None
        if field == "room-game":
            host.configure(game=value)
        elif field == "room-seat-count":
            host.set_seat_count(int(value))
        elif field == "room-seat-kind":
            kind, _, level = value.partition(":")
            host.set_seat_kind(int(data["seat"]), kind, level or "heuristic")
        elif field == "room-option":
            host.configure(options={**host.options, data["key"]: data.get("checked") == "true"})
        elif field == "room-choice":
            host.configure(options={**host.options, data["key"]: value})
        elif field == "room-multi":
            values = [v for v in host.options[data["key"]] if v != data["value"]]
            if data.get("checked") == "true":
                values.append(data["value"])
            host.configure(options={**host.options, data["key"]: values})

    def _on_room_sit(self, data: dict[str, str]) -> None:
        self._sit(int(data["seat"]))

    def _on_room_stand(self, data: dict[str, str]) -> None:
        self._sit(None)

    def _sit(self, seat: int | None) -> None:
        if self.host is not None:
            reason = self.host.sit(self.host.me, seat)
            if reason:
                self.notice = reason
        elif self.guest is not None:
            self.guest.sit(seat)

    def _on_room_start(self, data: dict[str, str]) -> None:
        if self.host is not None:
            self.host.start()
            self.seen, self.draft = 0, {}

    def _on_pick(self, data: dict[str, str]) -> None:
        view = self._playable_view()
        if view is not None:
            self.draft = self._game_ui().pick(view, self.draft, data.get("card", ""))

    def _on_token(self, data: dict[str, str]) -> None:
        if self._playable_view() is not None:
            self.draft = self._game_ui().set_token(
                self.draft, int(data["dilemma"]), data.get("token", "")
            )

    def _on_draft(self, data: dict[str, str]) -> None:
        view = self._playable_view()
        if view is not None:
            self.draft = self._game_ui().update_draft(view, self.draft, data)

    def _on_move(self, data: dict[str, str]) -> None:
        try:
            move = json.loads(data.get("move", ""))
        except ValueError:
            return
        if self._playable_view() is not None:
            self._submit(move)

    def _on_submit(self, data: dict[str, str]) -> None:
        view = self._playable_view()
        if view is not None:
            self._submit(self._game_ui().draft_move(view, self.draft))

    def _submit(self, move: Any) -> None:
        if self.host is not None:
            self.host.submit(move)  # a GameError is shown by dispatch
        else:
            assert self.guest is not None
            if self.guest.submit(move) is None:
                self.notice = self.guest.notice
                return
        self.draft = {}

    def _on_next(self, data: dict[str, str]) -> None:
        view = self.my_view()
        if view is not None and self.seen < self._game_ui().checkpoints(view):
            self.seen += 1

    def _on_again(self, data: dict[str, str]) -> None:
        if self.host is not None and self.host.table is not None and self.host.table.over:
            self.host.reopen()
            self.seen, self.draft = 0, {}

    # -- drawing -----------------------------------------------------------------

    def render(self) -> str:
        """The room screen: lobby before the game, the table during it."""
        role = "host" if self.host is not None else "guest"
        status = self.guest.status if self.guest is not None else "joined"
        rejected = self.guest.notice if self.guest is not None else None
        head = (
            '<section class="room" aria-label="Room">'
            '<div class="table-head"><p class="game-title">Room</p>'
            '<button type="button" class="quiet" data-action="leave-room" id="leave-room">'
            "Leave the room</button></div>"
            + status_line(role, status, self.error, self.notice or rejected)
        )
        if self.error:
            return head + _new_room_offer() + "</section>"
        lobby = self.lobby
        view = self.my_view()
        if lobby is None:
            body = '<p class="waiting">Waiting for the host to let you in…</p>'
        elif view is None:
            body = room_lobby(lobby, self.my_member(), self.host is not None, self.my_name())
            if self.host is not None:
                body = share_box(self.url, self.can_share) + body
        else:
            body = self._render_game(view)
        return head + body + "</section>"

    def _render_game(self, view: dict[str, Any]) -> str:
        game_ui = self._game_ui()
        ui = Ui(view["names"], view["kinds"], view["seat"], self.draft, None, self._elapsed(view))
        shown = milestone(view, ui, self.seen, game_ui)
        if shown is not None and view.get("result") and self.host is None:
            shown = shown.replace('data-action="again"', 'data-action="again" disabled')
        if shown is not None:
            body = shown
        elif view["seat"] is None:
            rounds = f" of {view['rounds']}" if view.get("rounds") else ""
            phase = game_ui.PHASE_TITLES.get(view.get("phase"), "the players are choosing")
            body = (
                '<h2 tabindex="-1" data-autofocus>You are watching</h2>'
                f'<p class="explain">Round {view.get("round")}{rounds}: {esc(phase)}.</p>'
            )
        else:
            body = game_ui.render_turn(view, ui)
        lines = [line for e in view["log"] if (line := game_ui.describe(e, view["names"]))]
        return (
            f'<div class="game" data-version="{view["version"]}">'
            + (presence(self.lobby) if self.lobby else "")
            + scoreboard(view, ui)
            + f'<div class="turn">{body}</div>'
            + log_panel(lines)
            + "</div>"
        )

    def screen_key(self) -> tuple[str, str]:
        """What the screen shows, for announcing changes to screen readers."""
        view = self.my_view()
        if self.error:
            return "room-error", self.error
        if view is None:
            return "room-lobby", "Room lobby."
        game_ui = self._game_ui()
        if self.seen < game_ui.checkpoints(view):
            return f"result{self.seen}", game_ui.explain_milestone(view, self.seen, view["names"])
        if view.get("result"):
            return "over", "Game over."
        phase = view.get("phase", "")
        waiting = bool(view.get("legal_moves"))
        return (
            f"{view.get('round')}:{phase}:{waiting}",
            f"Round {view.get('round')}: {game_ui.PHASE_TITLES.get(phase, phase)}.",
        )

    # -- helpers -----------------------------------------------------------------

    def _elapsed(self, view: dict[str, Any]) -> int:
        """Time since the open window opened: the host's table knows; a guest counts
        from when it first saw the window (late by one network delay, which only
        affects the countdown shown, never the order of throws)."""
        if self.host is not None and self.host.table is not None:
            return self.host.table.elapsed(self.now())
        window = view.get("window")
        if not isinstance(window, dict):
            return 0
        if self._window_seen is None or self._window_seen[0] != window.get("id"):
            self._window_seen = (window.get("id"), self.now())
        return max(0, round(self.now() - self._window_seen[1]))

    def _game_ui(self) -> Any:
        lobby = self.lobby or {}
        return game_ui(lobby.get("game", "dilemmas"))

    def _playable_view(self) -> dict[str, Any] | None:
        view = self.my_view()
        if view is None or view["seat"] is None:
            return None
        if self.seen < self._game_ui().checkpoints(view):
            return None
        return view


def _new_room_offer() -> str:
    return (
        '<p class="actions"><button type="button" class="primary" data-action="create-room" '
        'id="create-room">Create a new room</button> <button type="button" '
        'data-action="leave-room">Back to the lobby</button></p>'
    )
