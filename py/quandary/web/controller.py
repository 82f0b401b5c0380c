"""The app as a pure state machine: actions in, HTML and effects out. No ``js`` here.

``app.py`` forwards each click or field change as ``dispatch(action, data)``,
writes ``render()`` into the page and carries out ``take_effects()``. The
lobby, the games in progress (``saves.py``) and the way into rooms live here; a
table in progress is a ``TableController`` whatever holds its authority (this
device, or a room). Where the app is (a place, and the practice or a replay over
it) is one ``Mode`` value (``mode.py``), changed only by the ``_enter_*`` and
``_*_overlay`` transitions.
Keeping this layer pure lets CPython tests drive whole games through the same
code the browser runs, privacy screens, saves and rooms included.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, assert_never

from quandary import catalog, engine
from quandary.bots import BOT_NAMES
from quandary.engine import BadSetup, CorruptState
from quandary.net.link import (
    BadLink,
    RoomLink,
    Turn,
    WrongSecret,
    is_room_fragment,
    parse_fragment,
)
from quandary.table import BOT_SPEEDS, BotSpeed, Seat, Table
from quandary.text import clean_name

from .actions import (
    TABLE_ACTIONS,
    Action,
    CloseRoom,
    CopyText,
    DownloadText,
    Effect,
    MakeHostKey,
    MakeReplayLink,
    OpenRoom,
    SetHash,
    UnknownAction,
)
from .authority import LocalAuthority
from .html import EMPTY, Markup, attrs, markup
from .mode import (
    AtTable,
    InLobby,
    InRoom,
    Mode,
    Overlay,
    PendingGame,
    Practising,
    Watching,
)
from .own_packs import GAME as OWN_GAME
from .own_packs import OWN_ACTIONS, OWN_FIELDS, PackDesk
from .render.lobby import LobbyForm, SeatDraft, TurnDraft, chosen, render_lobby
from .render.table import TO_LOBBY
from .saves import CAPACITY, DamagedSave, Entry, Shelf
from .storage import Storage
from .table_controller import MoveAhead, TableController

if TYPE_CHECKING:
    from quandary.replay import GameRecord

    from .practice import Practice
    from .replay_screen import ReplayScreen
    from .room_controller import RoomController

PRACTISED_KEY = "quandary.practised.randolph"
"""Set once a player on this device has practised Dilemma's throw (or skipped it)."""
FINISHED_KEY = "quandary.finished.{}"
"""Set once a game of this kind (by its id) was played to its end on this device:
from then on its setup starts at the usual pace, no longer a first game's."""

ROOM_EXITS = frozenset({Action.LEAVE_ROOM, Action.CREATE_ROOM})
REPLAY_ACTIONS = frozenset(
    {
        Action.REPLAY_STEP,
        Action.REPLAY_SEAT,
        Action.REPLAY_CLOSE,
        Action.REPLAY_LINK,
        Action.DOWNLOAD_RECORD,
        Action.LEAVE,
        Action.LOBBY,
    }
)
"""What the replay screen answers while it lies over the screen it was opened from."""
RECORD_ACTIONS = frozenset({Action.WATCH_REPLAY, Action.DOWNLOAD_RECORD, Action.OPEN_RECORD})
"""What reaches a finished game's record, or opens one, from an end screen or the lobby."""


class Controller:
    """Lobby, table, saves and rooms for one device."""

    def __init__(
        self,
        storage: Storage,
        new_seed: Callable[[], int],
        make_id: Callable[[], str] = lambda: "",
        page: str = "http://127.0.0.1/",
        relays: tuple[str, ...] = (),
        now: Callable[[], float] = lambda: 0.0,
        clock: Callable[[], float] = lambda: 0.0,
        speed: BotSpeed = "instant",
    ) -> None:
        """``now`` times a table's timed windows (milliseconds, any origin); ``clock``
        dates the saved games (seconds since the epoch, so it survives a reload).
        ``speed`` is how long bots take over a move until the device chooses another
        (the page says normal; tests keep them instant)."""
        self.storage = storage
        self.now = now
        self.clock = clock
        self.new_seed = new_seed
        self.make_id = make_id
        self.page = page
        self.relays = relays
        self._mode = Mode()
        """Where the app is; only the transitions below (``_enter_lobby`` and the like)
        change it, so no screen is ever half left."""
        self.effects: list[Effect] = []
        self.specs = engine.specs()
        self.form = _default_form(self.specs[0], storage)
        self.shelf = Shelf(storage)
        self.shelf.migrate(make_id)
        self.saves: list[Entry] = self.shelf.entries()
        self.notice: str | None = None
        self._last_key = ""
        self.turn = _load_turn(storage)
        self.speed = _load_speed(storage, speed)
        self.record_error: str | None = None
        """Why the record the lobby was asked to open cannot be shown."""
        self.desk: PackDesk | None = None
        """The Game of Dilemmas' own card packs, read when its setup is first shown."""

    # -- what tests and the page read ------------------------------------------------

    @property
    def mode(self) -> Mode:
        """Where the app is: its place, and the overlay over it if any."""
        return self._mode

    @property
    def room(self) -> RoomController | None:
        """The room this device is in, if it is in one (even under an overlay)."""
        place = self._mode.place
        return place.room if isinstance(place, InRoom) else None

    @property
    def local(self) -> TableController | None:
        """The game played on this device, if it sits at one (even under an overlay)."""
        place = self._mode.place
        return place.table if isinstance(place, AtTable) else None

    @property
    def local_id(self) -> str:
        """The saved game the local table is kept as ("" with no local table)."""
        place = self._mode.place
        return place.save_id if isinstance(place, AtTable) else ""

    @property
    def practice(self) -> Practice | None:
        """Dilemma's practice arena, if it is over the place."""
        overlay = self._mode.overlay
        return overlay.practice if isinstance(overlay, Practising) else None

    @property
    def replay(self) -> ReplayScreen | None:
        """The finished game being watched again, if it is over the place."""
        overlay = self._mode.overlay
        return overlay.replay if isinstance(overlay, Watching) else None

    @property
    def table(self) -> Table | None:
        """The local game on the table, if one is being played."""
        if self.local is None:
            return None
        authority = self.local.authority
        assert isinstance(authority, LocalAuthority)
        return authority.table

    @property
    def viewer(self) -> int | None:
        """Whose cards the local table shows (None: nobody's, behind a privacy screen)."""
        return self.local.viewer if self.local is not None else None

    @property
    def screen(self) -> str:
        """Which screen is up: "practice", "replay", "room", "table" or "lobby"."""
        match self._mode.shown:
            case Practising():
                return "practice"
            case Watching():
                return "replay"
            case InRoom():
                return "room"
            case AtTable():
                return "table"
            case InLobby():
                return "lobby"
            case elsewhere:
                assert_never(elsewhere)

    @property
    def game_shown(self) -> str | None:
        """The game whose table is on the screen (a room's once it started, the
        practice throw's), or None in a lobby: the page loads its stylesheet."""
        match self._mode.shown:
            case Practising():
                from .practice import GAME  # imported already: there is a practice

                return GAME
            case Watching(replay):
                return replay.record.game
            case InRoom(room):
                return room.game_shown
            case AtTable():
                table = self.table
                return table.game if table is not None else None
            case InLobby():
                return None
            case elsewhere:
                assert_never(elsewhere)

    @property
    def error(self) -> str | None:
        """The local table's last refusal, if it is showing one."""
        return self.local.error if self.local is not None else None

    @property
    def seen(self) -> int:
        """How many of the local table's results the players stepped through."""
        return self.local.seen if self.local is not None else 0

    def take_effects(self) -> list[Effect]:
        """What the page must do now (open a room, change the address…), in order."""
        effects = self.effects
        match self._mode.place:
            case InRoom(room):
                effects += room.effects + room.table.effects
                room.effects, room.table.effects = [], []
            case AtTable(local):
                effects += local.effects
                local.effects = []
            case InLobby():
                pass
            case elsewhere:
                assert_never(elsewhere)
        self.effects = []
        return effects

    # -- where the app is: the only ways its mode changes ----------------------------

    def _enter_lobby(self) -> None:
        """Leave the place for the lobby, keeping any overlay: a local game is saved
        first (it waits among the games in progress), a room is closed."""
        match self._mode.place:
            case AtTable():
                self._save()
            case InRoom():
                self.effects.append(CloseRoom())
            case InLobby():
                pass
            case elsewhere:
                assert_never(elsewhere)
        self._mode = Mode(InLobby(), self._mode.overlay)
        # Read again: another tab may have saved or deleted games meanwhile.
        self.saves = self.shelf.entries()

    def _enter_local(self, table: TableController, save_id: str) -> None:
        """Sit down at a local game, kept as the saved game ``save_id``; the place left
        is left properly (saved or closed), never kept beside it."""
        if not isinstance(self._mode.place, InLobby):
            self._enter_lobby()
        self._mode = Mode(AtTable(table, save_id), self._mode.overlay)

    def _enter_room(self, link: RoomLink, signing_key: str | None = None) -> None:
        """Leave any open room or local game, then open ``link``'s: as its new host (with
        the key that proves it) or as whoever this device was there before. An overlay
        stays over it, as it stayed over the place it was opened from."""
        self._enter_lobby()
        room = _room_controller()(
            self.storage,
            self.new_seed,
            self.make_id,
            link,
            self.page,
            self._player_name(),
            signing_key=signing_key,
            now=self.now,
            speed=self.speed,
        )
        self._mode = Mode(InRoom(room), self._mode.overlay)
        self.effects.append(OpenRoom(link, room.signing_key, room.trusted_keys()))

    def _open_overlay(self, overlay: Overlay) -> None:
        """Show ``overlay`` over the place, in place of any other overlay."""
        self._mode = Mode(self._mode.place, overlay)

    def _close_overlay(self) -> Overlay | None:
        """Show the place again; returns the overlay that hid it, if any."""
        closed = self._mode.overlay
        self._mode = Mode(self._mode.place)
        return closed

    # -- saves -----------------------------------------------------------------------

    def _save(self) -> None:
        """Keep the local game as it is now; a finished game whose results were all seen
        is forgotten."""
        place, table = self._mode.place, self.table
        if not isinstance(place, AtTable) or table is None:
            return
        local = place.table
        if table.over:
            with contextlib.suppress(Exception):  # a full storage: a first game's pace again
                self.storage.set(FINISHED_KEY.format(table.game), "1")
        if table.over and local.seen >= local.checkpoints():
            self.shelf.remove(place.save_id)
            return
        try:
            self.shelf.put(place.save_id, table, local.seen, self.clock())
        except Exception:  # noqa: BLE001 - quota errors differ by browser
            local.error = (
                "This device's storage is full, so the game is not saved. Play on, or"
                " delete a game in progress in the lobby to make room."
            )

    # -- actions ---------------------------------------------------------------------

    def dispatch(self, name: str, data: dict[str, str]) -> bool:
        """Handle one action; returns whether the screen must be drawn again.

        ``UnknownAction`` if no part of the app handles ``name``: a renderer bug.
        """
        action = Action.parse(name)
        # An overlay answers everything while it hides the place, a room's too.
        match self._mode.overlay:
            case Practising() as practising:
                return self._practise(practising, action, data)
            case Watching(replay):
                return self._watch(replay, action, data)
            case None:
                pass
            case other:
                assert_never(other)
        if action == Action.PRACTICE:
            return self._open_practice()
        if action in RECORD_ACTIONS:
            return self._record_action(action, data)
        place = self._mode.place
        if isinstance(place, InRoom) and action not in ROOM_EXITS:
            place.room.act(action, data)
            return True
        if action in TABLE_ACTIONS:
            if not isinstance(place, AtTable):
                return False
            place.table.act(action, data)
            self._save()
            return True
        handlers: dict[Action, Callable[[dict[str, str]], bool | None]] = {
            Action.FIELD: self._field,
            Action.CHOOSE_GAME: self._choose_game,
            Action.START: self._start,
            Action.CONTINUE: self._continue,
            Action.DELETE_SAVE: self._delete,
            Action.DELETE_CANCEL: self._delete_cancel,
            Action.DELETE_CONFIRM: self._delete_confirm,
            Action.LEAVE: self._leave,
            Action.LOBBY: self._lobby,
            Action.CREATE_ROOM: self._create_room,
            Action.LEAVE_ROOM: self._leave_room,
        }
        if action in OWN_ACTIONS:
            download = self._desk().act(action, data)
            if download is not None:
                self.effects.append(download)
            return True
        handler = handlers.get(action)
        if handler is None:
            raise UnknownAction(f"{action.value!r} only works in a room.")
        return handler(data) is not False

    def _field(self, data: dict[str, str]) -> bool:
        field, value = data.get("field", ""), data.get("value", "")
        form = self.form
        if field in OWN_FIELDS:
            return self._desk().change(field, data)
        if field == "seat-name":
            form.seats[int(data["seat"])].name = value[:20]
            return False
        if field == "bot-speed":
            self.speed = _known_speed(value, self.speed)
            self._keep_speed()
            return True
        if field in TURN_FIELDS:
            setattr(self.turn, TURN_FIELDS[field], value.strip()[:300])
            self.storage.set(TURN_KEY, json.dumps(vars(self.turn)))
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
            values = [v for v in chosen(form.options, data["key"]) if v != data["value"]]
            if data.get("checked") == "true":
                values.append(data["value"])
            form.options[data["key"]] = values
        form.error = None
        return True

    def _choose_game(self, data: dict[str, str]) -> None:
        spec = next((s for s in self.specs if s.id == data.get("game")), None)
        if spec is not None and spec.id != self.form.game:
            self.form = _default_form(spec, self.storage)

    def _start(self, data: dict[str, str]) -> None:
        """A new game, kept beside the games in progress (never in place of one)."""
        if len(self.shelf.ids()) >= CAPACITY:
            self.form.error = (
                f"This device keeps {CAPACITY} games in progress: delete one of them"
                " to start another."
            )
            return
        seats = self._seats_from_form()
        if seats is not None:
            try:
                table = Table.new(self.form.game, seats, self._options(), self.new_seed())
            except BadSetup as exc:
                self.form.error = exc.message
                return
            save_id = self.shelf.new_id(self.make_id)
            if catalog.entry(table.game).practice_first and self.storage.get(PRACTISED_KEY) is None:
                from .practice import Practice  # on first use: start-up pays for the lobby only

                self._open_overlay(Practising(Practice("first-game"), PendingGame(table, save_id)))
                return
            self._begin(table, 0, save_id)

    def _open_practice(self) -> bool:
        """The practice arena on request: from the lobby, or over a game in progress
        (local or a room's), which goes on meanwhile."""
        from .practice import Practice  # on first use: start-up pays for the lobby only

        playing = not isinstance(self._mode.place, InLobby)
        self._open_overlay(Practising(Practice("game" if playing else "lobby")))
        return True

    def _practise(self, practising: Practising, action: Action, data: dict[str, str]) -> bool:
        """The practice screen: throw again and again, then go on (or leave)."""
        pending = practising.pending
        if action == Action.GESTURE:
            practising.practice.throw(data)
        elif action == Action.PRACTICE_DONE:
            # A full storage only means the practice is offered again next time.
            with contextlib.suppress(Exception):
                self.storage.set(PRACTISED_KEY, "1")
            self._close_overlay()
            if pending is not None:
                self._begin(pending.table, 0, pending.save_id)
        elif action in (Action.LEAVE, Action.LOBBY) and pending is not None:
            self._close_overlay()  # the new game is given up: it was never saved
        else:
            return False
        return True

    # -- replays and game records ----------------------------------------------------

    def _finished_record(self) -> str | None:
        """The record of the finished game on this device's screen, if it has one: the
        local table's, the room's this device hosts, or the one a room's host sent."""
        match self._mode.place:
            case InRoom(room):
                return room.table.authority.record()
            case AtTable(local):
                return local.authority.record()
            case InLobby():
                return None
            case elsewhere:
                assert_never(elsewhere)

    def _record_action(self, action: Action, data: dict[str, str]) -> bool:
        """Watch or download a finished game's record, or open one from a file."""
        if action == Action.OPEN_RECORD:
            self.open_record(data.get("text", ""))
            return True
        text = self._finished_record()
        if text is None:
            return False
        from quandary import replay  # on first use: start-up pays for the lobby only

        if action == Action.DOWNLOAD_RECORD:
            name = replay.file_name(replay.game_named(text))
            self.effects.append(DownloadText(name, text))
            return False
        try:
            self._show_record(replay.parse(text))
        except replay.BadRecord:
            return False  # a guest's record is checked before it is offered: not reached
        return True

    def open_record(self, text: str) -> None:
        """Show the record in ``text`` (a file, a replay link), or say in the lobby why not.

        A damaged, foreign or future record changes nothing but the sentence.
        """
        from quandary import replay

        try:
            record = replay.parse(text)
        except replay.BadRecord as exc:
            self.record_error = exc.message
            return
        # A room goes on under the replay; a local game waits among the games in
        # progress. A first game waiting for the practice is begun, not lost.
        overlay = self._close_overlay()
        if isinstance(overlay, Practising) and overlay.pending is not None:
            self._begin(overlay.pending.table, 0, overlay.pending.save_id)
        if isinstance(self._mode.place, AtTable):
            self._enter_lobby()
        self._show_record(record)

    def record_link_failed(self, reason: str) -> None:
        """A replay link that could not be read (the page could not inflate it)."""
        self.record_error = reason
        self.effects.append(SetHash(self.room.link.fragment() if self.room else ""))

    def _show_record(self, record: GameRecord) -> None:
        from .replay_screen import ReplayScreen

        self.record_error = None
        self._open_overlay(Watching(ReplayScreen(record)))

    def _watch(self, replay: ReplayScreen, action: Action, data: dict[str, str]) -> bool:
        """The replay screen's controls; anything else waits until it is closed."""
        if action not in REPLAY_ACTIONS:
            return False
        if action == Action.REPLAY_STEP:
            replay.go(data.get("to", ""))
        elif action == Action.REPLAY_SEAT:
            replay.show_seat(data.get("seat", ""))
        elif action == Action.DOWNLOAD_RECORD:
            from quandary.replay import file_name

            self.effects.append(DownloadText(file_name(replay.record.game), replay.text()))
            return False
        elif action == Action.REPLAY_LINK:
            if replay.link is not None:
                self.effects.append(CopyText(replay.link, "replay-link-field"))
            else:
                self.effects.append(MakeReplayLink(replay.text()))
            return replay.link is not None
        else:
            self._close_overlay()
            # A replay link's fragment goes; a room's link comes back to the address.
            self.effects.append(SetHash(self.room.link.fragment() if self.room else ""))
        return True

    def replay_link_made(self, url: str, reason: str) -> None:
        """The page made the replay link (or says why it could not): show it, copied."""
        replay = self.replay
        if replay is None:
            return
        if url:
            replay.link, replay.link_error = url, None
            self.effects.append(CopyText(url, "replay-link-field"))
        else:
            replay.link_error = reason or "This browser could not make a replay link."

    def _keep_speed(self) -> None:
        """Remember the bot speed on this device (the local table follows it at once)."""
        with contextlib.suppress(Exception):  # a full storage only forgets the choice
            self.storage.set(SPEED_KEY, self.speed)
        if self.table is not None:
            self.table.speed = self.speed

    def _begin(self, table: Table, seen: int, save_id: str) -> None:
        """Sit down at ``table``, kept as the saved game ``save_id`` from now on."""
        table.speed = self.speed
        table.advance(self.now())
        authority = LocalAuthority(table, self.now, self.new_seed)
        self._enter_local(TableController(authority, TO_LOBBY, seen), save_id)
        self.form.error, self.form.confirm_delete = None, None
        self._save()

    def _seats_from_form(self) -> list[Seat] | None:
        form = self.form
        names = [clean_name(s.name) or f"Player {i + 1}" for i, s in enumerate(form.seats)]
        humans = sum(s.kind == "human" for s in form.seats)
        spec = engine.spec_of(form.game)
        if len({n.casefold() for n in names}) != len(names):
            form.error = "Every seat needs a different name."
        elif not humans:
            form.error = "Seat at least one human on this device."
        elif spec.timed_moves and humans > 1:
            # Throwing is a race: two people cannot race on one screen.
            form.error = (
                f"{spec.title} is played one person per device:"
                " make the other seats bots, or create a room and send your friends the link."
            )
        else:
            try:
                spec.normalise_options(self._options())
                return [
                    Seat(n, "human" if s.kind == "human" else "bot", s.level)
                    for n, s in zip(names, form.seats, strict=True)
                ]
            except BadSetup as exc:
                form.error = exc.message
        return None

    # -- The Game of Dilemmas' own card packs -----------------------------------------

    def _desk(self) -> PackDesk:
        """The own packs, read from the storage on first use."""
        if self.desk is None:
            self.desk = PackDesk(self.storage)
        return self.desk

    def _options(self) -> dict[str, Any]:
        """The form's options with the own packs chosen, for the game that has them."""
        if self.form.game != OWN_GAME:
            return self.form.options
        self.form.options["own"] = self._desk().option()
        return self.form.options

    def _setup_extras(self) -> None:
        """The own packs' part of the setup, and whether Start can start."""
        form = self.form
        if form.game != OWN_GAME:
            form.extra, form.blocked = EMPTY, None
            return
        from .render.own_cards import own_section, start_blocked

        form.extra = own_section(self._desk())
        form.blocked = start_blocked(engine.spec_of(form.game), len(form.seats), self._options())

    def _continue(self, data: dict[str, str]) -> None:
        """Sit down at a saved game again; a damaged one is marked so, with the reason."""
        save_id = data.get("save", "")
        if not any(e.id == save_id for e in self.saves):
            return
        try:
            table, seen = self.shelf.load(save_id)
        except CorruptState as exc:
            damaged = DamagedSave(save_id, exc.message)
            self.saves = [damaged if e.id == save_id else e for e in self.saves]
            return
        self._begin(table, seen, save_id)

    def _delete(self, data: dict[str, str]) -> None:
        """The first press on Delete only asks: the next must confirm."""
        save_id = data.get("save", "")
        if any(e.id == save_id for e in self.saves):
            self.form.confirm_delete = save_id

    def _delete_cancel(self, data: dict[str, str]) -> None:
        self.form.confirm_delete = None

    def _delete_confirm(self, data: dict[str, str]) -> None:
        save_id = data.get("save", "")
        if save_id and save_id == self.form.confirm_delete:
            self.shelf.remove(save_id)
            self.saves = [e for e in self.saves if e.id != save_id]
        self.form.confirm_delete = None

    def _leave(self, data: dict[str, str]) -> None:
        """Save and leave: the game waits in the lobby's games in progress."""
        self._enter_lobby()

    def _lobby(self, data: dict[str, str]) -> None:
        """Back to the lobby from the end screen (a finished game is not offered again)."""
        self._enter_lobby()

    # -- the clock (games with a timed window) --------------------------------------

    def on_clock(self) -> bool:
        """Time passed: let the table act on it; returns whether the screen must change."""
        match self._mode.place:
            case InRoom(room):
                return room.on_clock()
            case AtTable(local):
                if not local.authority.advance():
                    return False
                local.follow()
                self._save()
                return True
            case InLobby():
                return False
            case elsewhere:
                assert_never(elsewhere)

    def next_wakeup(self) -> float | None:
        """When (on ``now``'s clock) ``on_clock`` next has work, if ever."""
        match self._mode.place:
            case InRoom(room):
                return room.next_wakeup()
            case AtTable(local):
                return local.authority.next_wakeup()
            case InLobby():
                return None
            case elsewhere:
                assert_never(elsewhere)

    # -- rooms -----------------------------------------------------------------------

    def open_fragment(self, fragment: str) -> None:
        """Enter the room a link's fragment names (or explain why the link is broken)."""
        if not is_room_fragment(fragment):
            return
        try:
            link = parse_fragment(fragment)
        except WrongSecret as exc:
            self.form.notices.append(exc.message)
            self.effects.append(SetHash(""))
            return
        except BadLink as exc:
            self.form.notices.append(f"{exc.message} You can create a new room instead.")
            self.effects.append(SetHash(""))
            return
        if self.room is not None and self.room.link == link:
            return
        self._enter_room(link)

    def _create_room(self, data: dict[str, str]) -> bool:
        """A new room needs its host's key first: the page makes it (``host_key_made``)."""
        self.effects.append(MakeHostKey())
        return False

    def host_key_made(self, public: str, private: str) -> None:
        """The new room's key pair is ready: open the room as its host."""
        try:
            turn = Turn.parse(self.turn.urls, self.turn.username, self.turn.credential)
        except BadLink as exc:
            self.form.notices.append(f"The room was not created: {exc.message}")
            return
        link = RoomLink.create(self.make_id(), public, self.relays, turn)
        self.effects.append(SetHash(link.fragment()))
        self._enter_room(link, signing_key=private)

    def room_not_created(self, reason: str) -> None:
        """The page could not make the new room's key: say so in the lobby."""
        self.form.notices.append(reason)

    def _leave_room(self, data: dict[str, str]) -> None:
        self._enter_lobby()
        self.effects.append(SetHash(""))

    def _player_name(self) -> str:
        human = next((s.name for s in self.form.seats if s.kind == "human"), "")
        return human if human and human != "You" else "Player"

    # -- drawing ---------------------------------------------------------------------

    def render(self) -> Markup:
        """The current screen as HTML."""
        match self._mode.shown:
            case Practising(practice):
                return practice.render()
            case Watching(replay):
                return replay.render()
            case InRoom(room):
                return room.render()
            case AtTable(local):
                return _render_local(local)
            case InLobby():
                self._setup_extras()
                return render_lobby(
                    self.specs,
                    self.form,
                    self.saves,
                    self.clock(),
                    self.turn,
                    self.speed,
                    self.record_error,
                )
            case elsewhere:
                assert_never(elsewhere)

    def ahead(self) -> MoveAhead | None:
        """What the page needs to send a move itself at the click, on the screen shown
        (a room's guest: ``RoomController.ahead``); None elsewhere."""
        match self._mode.shown:
            case InRoom(room):
                return room.ahead()
            case _:
                return None

    def awaited(self) -> bool:
        """Whether a game on the screen waits for a person at this device (the practice
        throw waits for nobody; a replay leaves the game under it waiting)."""
        if isinstance(self._mode.overlay, Practising):
            return False
        match self._mode.place:
            case InRoom(room):
                return room.table.awaited()
            case AtTable(local):
                return local.awaited()
            case InLobby():
                return False
            case elsewhere:
                assert_never(elsewhere)

    def announcement(self) -> str | None:
        """A sentence for the screen reader when the screen changed meaningfully."""
        key, text = self._screen_key()
        if key == self._last_key:
            return None
        self._last_key = key
        return text

    def _screen_key(self) -> tuple[str, str]:
        match self._mode.shown:
            case Practising(practice):
                tries = len(practice.tries)
                return f"practice:{tries}", "Practice a throw at Dilemma's arena."
            case Watching(replay):
                return replay.screen_key()
            case InRoom(room):
                return room.screen_key()
            case AtTable(local):
                return local.screen_key()
            case InLobby():
                return "lobby", "Lobby. Choose a game and seats."
            case elsewhere:
                assert_never(elsewhere)


def _render_local(local: TableController) -> Markup:
    """A local game's table, with its title and the ways to undo or to leave."""
    view = local.authority.view(None)
    assert view is not None
    title = str(view.get("title", ""))
    # A finished game is not saved to come back to: its end screen has the ways on.
    leave = EMPTY if view.get("result") else SAVE_AND_LEAVE
    return (
        markup(
            '<section class="table"{}>'
            '<div class="table-head">'
            '<p class="game-title">{}</p><div class="table-tools">{}{}</div></div>',
            attrs(aria_label=title),
            title,
            local.undo_control(),
            leave,
        )
        + local.render()
        + Markup("</section>")
    )


SAVE_AND_LEAVE = Markup(
    '<button type="button" class="quiet" data-action="leave" id="leave">Save and leave</button>'
)


def _room_controller() -> type[RoomController]:
    """The room controller, imported on first use: the protocol stays out of start-up."""
    from .room_controller import RoomController

    return RoomController


def _default_form(spec: engine.GameSpec, storage: Storage) -> LobbyForm:
    """You and bots, with the defaults; a first game of its kind on this device at a
    newcomer's settings (``Option.newcomer``)."""
    seats = [SeatDraft("You", "human")] + [
        SeatDraft(f"Bot {BOT_NAMES[i]}") for i in range(spec.min_players - 1)
    ]
    options = spec.normalise_options(None)
    if storage.get(FINISHED_KEY.format(spec.id)) is None:
        options |= {o.key: o.newcomer for o in spec.options if o.newcomer is not None}
    return LobbyForm(spec.id, seats, options)


def _free_bot_name(seats: list[SeatDraft]) -> str:
    taken = {s.name for s in seats}
    return next(f"Bot {n}" for n in BOT_NAMES if f"Bot {n}" not in taken)


SPEED_KEY = "quandary:bot-speed"


def _load_speed(storage: Storage, default: BotSpeed) -> BotSpeed:
    """The bot speed this device chose, or ``default`` (also for an unreadable one)."""
    return _known_speed(storage.get(SPEED_KEY), default)


def _known_speed(text: str | None, otherwise: BotSpeed) -> BotSpeed:
    """``text`` as a bot speed, or ``otherwise`` when it names none."""
    return next((speed for speed in BOT_SPEEDS if speed == text), otherwise)


TURN_KEY = "quandary:turn"
TURN_FIELDS = {"turn-urls": "urls", "turn-user": "username", "turn-pass": "credential"}


def _load_turn(storage: Storage) -> TurnDraft:
    """The TURN settings this device keeps for the rooms it creates (empty if unreadable)."""
    try:
        data = json.loads(storage.get(TURN_KEY) or "{}")
        return TurnDraft(**{k: str(v)[:300] for k, v in data.items() if k in vars(TurnDraft())})
    except (ValueError, TypeError, AttributeError):
        return TurnDraft()
