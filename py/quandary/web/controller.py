"""The app as a pure state machine: actions in, HTML out. No ``js`` here.

``app.py`` forwards each click or field change as ``dispatch(action, data)`` and
writes ``render()`` into the page. Keeping this layer pure lets CPython tests
drive whole games through the same code the browser runs, privacy screens and
saves included.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol

from quandary import engine
from quandary.bots import BOT_NAMES
from quandary.engine import BadSetup, CorruptState, GameError
from quandary.net.link import BadLink, RoomLink, WrongSecret, is_room_fragment, parse_fragment
from quandary.table import Seat, Table

from .html import esc
from .render import game_ui
from .render.lobby import LobbyForm, SavedGame, SeatDraft, render_lobby
from .render.table import Ui, log_panel, milestone, privacy_screen, scoreboard

if TYPE_CHECKING:
    from .room_controller import RoomController

SAVE_KEY = "quandary.save"
CORRUPT_KEY = "quandary.save.corrupt"
ROOM_EXITS = {"leave-room", "create-room"}


class Storage(Protocol):
    """Key-value storage that survives a reload (localStorage in the browser)."""

    def get(self, key: str) -> str | None:
        """The stored text, or None."""
        ...

    def set(self, key: str, value: str) -> None:
        """Store text; may raise when storage is full."""
        ...

    def remove(self, key: str) -> None:
        """Forget a key."""
        ...


class Controller:
    """Lobby, table and saves for one device."""

    def __init__(
        self,
        storage: Storage,
        new_seed: Callable[[], int],
        make_id: Callable[[], str] = lambda: "",
        page: str = "http://127.0.0.1/",
        relays: tuple[str, ...] = (),
        now: Callable[[], float] = lambda: 0.0,
    ) -> None:
        self.storage = storage
        self.now = now
        self.new_seed = new_seed
        self.make_id = make_id
        self.page = page
        self.relays = relays
        self.room: RoomController | None = None
        self.effects: list[tuple[str, Any]] = []
        self.specs = [g.spec for g in engine.all_games()]
        self.form = _default_form(self.specs[0])
        self.screen = "lobby"
        self.table: Table | None = None
        self.seen = 0
        self.viewer: int | None = None
        self.draft: dict[str, Any] = {}
        self.error: str | None = None
        self.saved = self._load_save()
        self._last_key = ""

    # -- saves -------------------------------------------------------------------

    def _load_save(self) -> Table | None:
        raw = self.storage.get(SAVE_KEY)
        if raw is None:
            return None
        try:
            data = json.loads(raw)
            table = Table.from_json(data.get("table") if isinstance(data, dict) else None)
            seen = data.get("seen", 0)
            self.seen = seen if isinstance(seen, int) and seen >= 0 else 0
            return table
        except (ValueError, CorruptState) as exc:
            reason = exc.message if isinstance(exc, CorruptState) else "it is not valid JSON."
            self._set_aside(raw)
            self.form.notices.append(
                f"A saved game could not be read and was set aside. ({reason})"
            )
            return None

    def _set_aside(self, raw: str) -> None:
        self.storage.remove(SAVE_KEY)
        try:
            self.storage.set(CORRUPT_KEY, raw)
        except Exception:  # noqa: BLE001 - storage full: dropping the copy is all we can do
            self.storage.remove(CORRUPT_KEY)

    def _save(self) -> None:
        if self.table is None:
            return
        if self.table.over and self.seen >= self._checkpoints():
            self.storage.remove(SAVE_KEY)
            return
        text = json.dumps({"table": self.table.to_json(), "seen": self.seen})
        try:
            self.storage.set(SAVE_KEY, text)
        except Exception:  # noqa: BLE001 - quota errors differ by browser
            self.error = "This device's storage is full, so the game is not saved. Play on."

    # -- actions -----------------------------------------------------------------

    def dispatch(self, action: str, data: dict[str, str]) -> bool:
        """Handle one user action; returns whether the screen must be drawn again."""
        if self.room is not None and action not in ROOM_EXITS:
            return self.room.dispatch(action, data)
        handler = getattr(self, "_on_" + action.replace("-", "_"), None)
        if handler is None:
            return False
        result = handler(data)
        self._settle()
        return result is not False

    def _settle(self) -> None:
        """With one human on this device, that human is always the one looking."""
        if self.table is not None and not self._gated():
            self.viewer = self._only_human()

    def _on_field(self, data: dict[str, str]) -> bool:
        field, value = data.get("field", ""), data.get("value", "")
        form = self.form
        if field == "seat-name":
            form.seats[int(data["seat"])].name = value[:20]
            return False
        if field == "seat-count":
            count = int(value)
            while len(form.seats) < count:
                form.seats.append(SeatDraft(_free_bot_name(form.seats)))
            del form.seats[count:]
        elif field == "seat-kind":
            seat = form.seats[int(data["seat"])]
            seat.kind, _, level = value.partition(":")
            seat.level = level or seat.level
            if seat.kind == "human" and seat.name.startswith("Bot "):
                seat.name = f"Player {int(data['seat']) + 1}"
            elif seat.kind == "bot" and not seat.name.startswith("Bot "):
                seat.name = _free_bot_name(form.seats)
        elif field == "option":
            form.options[data["key"]] = data.get("checked") == "true"
        elif field == "choice":
            form.options[data["key"]] = value
        elif field == "multi":
            values = [v for v in form.options[data["key"]] if v != data["value"]]
            if data.get("checked") == "true":
                values.append(data["value"])
            form.options[data["key"]] = values
        form.error = None
        return True

    def _on_choose_game(self, data: dict[str, str]) -> None:
        spec = next((s for s in self.specs if s.id == data.get("game")), None)
        if spec is not None and spec.id != self.form.game:
            self.form = _default_form(spec)

    def _on_start(self, data: dict[str, str]) -> None:
        seats = self._seats_from_form()
        if seats is None:
            return
        self._begin(Table.new(self.form.game, seats, self.form.options, self.new_seed()))

    def _begin(self, table: Table) -> None:
        self.table, self.seen, self.viewer, self.draft, self.error = table, 0, None, {}, None
        self.form.error = None
        table.advance(self.now())
        self.saved = None
        self.screen = "table"
        self._save()

    def _seats_from_form(self) -> list[Seat] | None:
        form = self.form
        names = [s.name.strip() or f"Player {i + 1}" for i, s in enumerate(form.seats)]
        humans = sum(s.kind == "human" for s in form.seats)
        if len({n.casefold() for n in names}) != len(names):
            form.error = "Every seat needs a different name."
        elif not any(s.kind == "human" for s in form.seats):
            form.error = "Seat at least one human on this device."
        elif engine.get(form.game).spec.timed_moves and humans > 1:
            # Throwing is a race: two people cannot race on one screen.
            form.error = (
                f"{engine.get(form.game).spec.title} is played one person per device:"
                " make the other seats bots, or create a room and send your friends the link."
            )
        else:
            try:
                spec = engine.get(form.game).spec
                spec.normalise_options(form.options)
                return [
                    Seat(n, "human" if s.kind == "human" else "bot", s.level)
                    for n, s in zip(names, form.seats, strict=True)
                ]
            except BadSetup as exc:
                form.error = exc.message
        return None

    def _on_resume(self, data: dict[str, str]) -> None:
        if self.saved is not None:
            self.table, self.saved = self.saved, None
            self.viewer, self.draft, self.error, self.screen = None, {}, None, "table"
            self.table.advance(self.now())

    def _on_abandon(self, data: dict[str, str]) -> None:
        self.form.confirm_abandon = True

    def _on_abandon_cancel(self, data: dict[str, str]) -> None:
        self.form.confirm_abandon = False

    def _on_abandon_confirm(self, data: dict[str, str]) -> None:
        self.storage.remove(SAVE_KEY)
        self.saved, self.form.confirm_abandon = None, False

    def _on_leave(self, data: dict[str, str]) -> None:
        self._save()
        self.saved, self.table, self.screen = self.table, None, "lobby"

    def _on_lobby(self, data: dict[str, str]) -> None:
        self._save()
        self.saved = None if self.table is None or self.table.over else self.table
        self.table, self.screen = None, "lobby"

    def _on_again(self, data: dict[str, str]) -> None:
        if self.table is not None:
            old = self.table
            self._begin(Table.new(old.game, old.seats, old.record.options, self.new_seed()))

    def _on_reveal(self, data: dict[str, str]) -> None:
        if self.table is not None and self._gated():
            waiting = self.table.humans_to_act()
            self.viewer = waiting[0] if waiting else None

    def _on_pick(self, data: dict[str, str]) -> None:
        view = self._viewer_view()
        if view is not None:
            self.draft = self._ui_module().pick(view, self.draft, data.get("card", ""))
            self.error = None

    def _on_token(self, data: dict[str, str]) -> None:
        if self._viewer_view() is not None:
            self.draft = self._ui_module().set_token(
                self.draft, int(data["dilemma"]), data.get("token", "")
            )
            self.error = None

    def _on_draft(self, data: dict[str, str]) -> None:
        """A step of building a move (choosing a card, a target, a vote), kept on this device."""
        view = self._viewer_view()
        if view is not None:
            self.draft = self._ui_module().update_draft(view, self.draft, data)
            self.error = None

    def _on_move(self, data: dict[str, str]) -> None:
        """A button that is a whole move by itself (pass, peace, take this card)."""
        try:
            move = json.loads(data.get("move", ""))
        except ValueError:
            return
        self._submit(move)

    def _on_submit(self, data: dict[str, str]) -> None:
        view = self._viewer_view()
        if view is not None:
            self._submit(self._ui_module().draft_move(view, self.draft))

    def _submit(self, move: Any) -> None:
        view = self._viewer_view()
        if view is None or self.table is None or self.viewer is None:
            return
        try:
            self.table.submit(self.viewer, move, self.now())
        except GameError as exc:
            self.error = exc.message
            return
        self.draft, self.error = {}, None
        self.table.advance(self.now())
        if self._gated():
            self.viewer = None
        self._save()

    def _on_next(self, data: dict[str, str]) -> None:
        if self.table is not None and self.seen < self._checkpoints():
            self.seen += 1
            self._save()

    # -- the clock (games with a timed window) ------------------------------------

    def on_clock(self) -> bool:
        """Time passed: let the table act on it; returns whether the screen must change."""
        if self.room is not None:
            return self.room.on_clock()
        if self.table is None or self.screen != "table":
            return False
        if not self.table.advance(self.now()):
            return False
        self._settle()
        self._save()
        return True

    def next_wakeup(self) -> float | None:
        """When (on ``now``'s clock) ``on_clock`` next has work, if ever."""
        if self.room is not None:
            return self.room.next_wakeup()
        if self.table is None or self.screen != "table":
            return None
        return self.table.next_wakeup()

    # -- rooms -------------------------------------------------------------------

    def open_fragment(self, fragment: str) -> None:
        """Enter the room a link's fragment names (or explain why the link is broken)."""
        if not is_room_fragment(fragment):
            return
        try:
            link = parse_fragment(fragment)
        except WrongSecret as exc:
            self.form.notices.append(exc.message)
            self.effects.append(("set-hash", ""))
            return
        except BadLink as exc:
            self.form.notices.append(f"{exc.message} You can create a new room instead.")
            self.effects.append(("set-hash", ""))
            return
        if self.room is not None and self.room.link == link:
            return
        self._enter_room(link, create=False)

    def _on_create_room(self, data: dict[str, str]) -> None:
        link = RoomLink.create(self.make_id(), self.relays)
        self.effects.append(("set-hash", link.fragment()))
        self._enter_room(link, create=True)

    def _enter_room(self, link: RoomLink, create: bool) -> None:
        """Leave any open room, then open ``link``'s: as its new host or as whoever we were."""
        self._close_room()
        self.room = _room_controller()(
            self.storage,
            self.new_seed,
            self.make_id,
            link,
            self.page,
            self._player_name(),
            create=create,
            now=self.now,
        )
        self.effects.append(("open-room", link))

    def _on_leave_room(self, data: dict[str, str]) -> None:
        self._close_room()
        self.effects.append(("set-hash", ""))
        self.screen = "lobby"

    def _close_room(self) -> None:
        if self.room is not None:
            self.room = None
            self.effects.append(("close-room", None))

    def _player_name(self) -> str:
        human = next((s.name for s in self.form.seats if s.kind == "human"), "")
        return human if human and human != "You" else "Player"

    # -- drawing -----------------------------------------------------------------

    def render(self) -> str:
        """The current screen as HTML."""
        if self.room is not None:
            return self.room.render()
        if self.screen == "lobby" or self.table is None:
            return render_lobby(self.specs, self.form, _summary(self.saved))
        return self._render_table()

    def _render_table(self) -> str:
        table = self.table
        assert table is not None
        public = table.view(None)
        ui_mod = self._ui_module()
        ui = self._ui()
        shown = milestone(public, ui, self.seen, ui_mod)
        if shown is not None:
            body = shown
        elif self._gated() and self.viewer not in table.humans_to_act():
            waiting = table.humans_to_act()
            body = privacy_screen(table.seats[waiting[0]].name, ui_mod.privacy_reason(public))
        elif self.viewer is not None:
            body = ui_mod.render_turn(table.view(self.viewer), ui)
        else:
            body = '<p class="waiting">Waiting for the other players…</p>'
        names = [s.name for s in table.seats]
        lines = [line for e in public["log"] if (line := ui_mod.describe(e, names))]
        shown_view = table.view(self.viewer) if self.viewer is not None else public
        return (
            f'<section class="table" aria-label="{esc(public["title"])}">'
            '<div class="table-head">'
            f'<p class="game-title">{esc(public["title"])}</p>'
            '<button type="button" class="quiet" data-action="leave" id="leave">'
            "Save and leave</button></div>"
            + scoreboard(shown_view, ui)
            + f'<div class="turn">{body}</div>'
            + log_panel(lines)
            + "</section>"
        )

    def announcement(self) -> str | None:
        """A sentence for the screen reader when the screen changed meaningfully."""
        key, text = self._screen_key()
        if key == self._last_key:
            return None
        self._last_key = key
        return text

    def _screen_key(self) -> tuple[str, str]:
        if self.room is not None:
            return self.room.screen_key()
        if self.screen == "lobby" or self.table is None:
            return "lobby", "Lobby. Choose a game and seats."
        public = self.table.view(None)
        ui_mod = self._ui_module()
        names = [s.name for s in self.table.seats]
        if self.seen < ui_mod.checkpoints(public):
            return f"result{self.seen}", ui_mod.explain_milestone(public, self.seen, names)
        if self.table.over:
            winners = [names[s] for s in public["result"]["winners"]]
            return "over", f"Game over. Winner: {', '.join(winners)}."
        phase = public.get("phase", "")
        who = self.viewer if self.viewer is not None else "gate"
        return (
            f"{public['version']}:{who}:{phase}",
            f"Round {public.get('round', '')}: {ui_mod.PHASE_TITLES.get(phase, phase)}.",
        )

    # -- helpers -----------------------------------------------------------------

    def _ui_module(self) -> ModuleType:
        assert self.table is not None
        return game_ui(self.table.game)

    def _ui(self) -> Ui:
        assert self.table is not None
        return Ui(
            names=[s.name for s in self.table.seats],
            kinds=[s.kind for s in self.table.seats],
            viewer=self.viewer,
            draft=self.draft,
            error=self.error,
            elapsed=self.table.elapsed(self.now()),
        )

    def _checkpoints(self) -> int:
        assert self.table is not None
        return int(self._ui_module().checkpoints(self.table.view(None)))

    def _gated(self) -> bool:
        """Several humans share this device: secret screens need a privacy gate."""
        assert self.table is not None
        return sum(s.kind == "human" for s in self.table.seats) > 1

    def _only_human(self) -> int:
        assert self.table is not None
        return next(i for i, s in enumerate(self.table.seats) if s.kind == "human")

    def _viewer_view(self) -> dict[str, Any] | None:
        if self.table is None or self.viewer is None or self.screen != "table":
            return None
        if self.seen < self._checkpoints():
            return None
        return self.table.view(self.viewer)


def _room_controller() -> type[RoomController]:
    """The room controller, imported on first use: the protocol stays out of start-up."""
    from .room_controller import RoomController

    return RoomController


def _default_form(spec: engine.GameSpec) -> LobbyForm:
    seats = [SeatDraft("You", "human")] + [
        SeatDraft(f"Bot {BOT_NAMES[i]}") for i in range(spec.min_players - 1)
    ]
    return LobbyForm(spec.id, seats, spec.normalise_options(None))


def _free_bot_name(seats: list[SeatDraft]) -> str:
    taken = {s.name for s in seats}
    return next(f"Bot {n}" for n in BOT_NAMES if f"Bot {n}" not in taken)


def _summary(table: Table | None) -> SavedGame | None:
    if table is None:
        return None
    view = table.view(None)
    return SavedGame(
        view["title"], view.get("round", 1), view.get("rounds"), [s.name for s in table.seats]
    )
