"""A table: one game in progress with its seats, the authority for local play.

This is the transport-agnostic seam: moves enter through ``submit`` (from a click
on this device today, from a remote peer's intent in a room later) and leave as
per-seat ``view``s. Bots act through the same door, at once or after a human-like
moment (``speed``: the device's setting, not part of the game). A table saves itself as a
record plus the state; loading replays the record and refuses a save whose
state disagrees with it, so a damaged save is reported instead of played.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypedDict

from quandary import engine
from quandary.bots import bot_rng, make_bot
from quandary.engine import (
    Clock,
    CorruptState,
    GameError,
    IllegalMove,
    MalformedMove,
    Move,
    Record,
    Rng,
)
from quandary.engine.spec import Json

if TYPE_CHECKING:
    from quandary.undo import Verdict

SeatKind = Literal["human", "bot"]
BotSpeed = Literal["relaxed", "normal", "instant"]
BOT_SPEEDS: dict[BotSpeed, tuple[int, int]] = {
    "relaxed": (2000, 3000),
    "normal": (800, 1500),
    "instant": (0, 0),
}
"""How long (ms, least and most) a bot takes over a move that is not a timed throw.

A bot that answers at once makes the moments of a game pass unseen: a screen
swaps for the next before anyone saw whose choice it waited for. A human-like
moment, varied per decision, lets people see the table play."""
SAVE_FORMAT = 1
KEPT_STATES = 16
"""States people moved from that a table keeps for undo; older ones are replayed."""
LATENCY_CAP_MS = 150
"""The most a remote thrower's release time is moved back for its network delay
(static/rules/dilemma.html, 'Rulings'): enough to cancel an ordinary connection's delay, too little
for a slow link to buy an advantage over the host."""
TOO_LATE = (
    "Too late: the challenge you aimed at was over before your throw arrived,"
    " so your card stays in your hand."
)
TOO_EARLY = "Wait for “throw!”: the window opens when the countdown ends."


class SeatJson(TypedDict):
    """A seat as a save keeps it."""

    name: str
    kind: SeatKind
    level: str
    covered: bool


class TableJson(TypedDict):
    """A table as a save (and a room's saved form) keeps it: ``Table.to_json``.

    A backup's header (``to_json(history=False)``) and a room's save leave ``state`` out."""

    format: int
    seats: list[SeatJson]
    record: dict[str, Json]
    state: NotRequired[dict[str, Json]]


@dataclass(frozen=True)
class Seat:
    """Who sits in a seat: a human on this device, or a bot of some level.

    A human seat is ``covered`` while a bot plays it for its absent player (a
    room's guest who left): the bot of ``level`` acts for it, through the same
    view, until the player is back.
    """

    name: str
    kind: SeatKind
    level: str = "heuristic"
    covered: bool = False

    @property
    def shown_kind(self) -> str:
        """What the seat is, as views tell it: human, bot, or covered (a bot for now)."""
        return "covered" if self.covered else self.kind


class Table:
    """Holds the current state and the record of accepted moves."""

    def __init__(self, record: Record, seats: list[Seat], state: Any | None = None) -> None:
        self.record = record
        self.seats = list(seats)
        self.state = state if state is not None else record.replay()
        self._views_of: Any = None
        self._views: dict[int | None, dict[str, Any]] = {}
        # Timed windows: when the open one started on the caller's clock, bots'
        # timed moves waiting for their moment, and the version each bot last saw.
        self._window: int | None = None
        self._origin = 0.0
        self._planned: dict[int, tuple[int, Move]] = {}
        self._asked: dict[int, int] = {}
        # Bots taking their moment outside timed windows: when each one's move is due
        # (caller's clock). Not state: a reload recomputes it from the bot speed.
        self.speed: BotSpeed = "instant"
        self._thinking: dict[int, float] = {}
        # Undo (quandary/undo.py): the states people moved from, by how many moves
        # came before (a reload replays the record instead), and the last verdict.
        self._before: dict[int, Any] = {}
        self._verdict: tuple[Record | None, Verdict | None] = (None, None)

    @classmethod
    def new(
        cls, game_id: str, seats: list[Seat], options: dict[str, Any] | None, seed: int
    ) -> Table:
        """Set up a fresh game (``BadSetup`` if the seats or options do not fit)."""
        state = engine.setup(game_id, len(seats), options, seed)
        record = Record(
            game_id, len(seats), engine.game_of(state).spec.normalise_options(options), seed
        )
        return cls(record, seats, state)

    @property
    def game(self) -> str:
        """The game's id."""
        return self.record.game

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return engine.result(self.state) is not None

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see, with seat names added for display.

        Views are built once per state and seat: a screen draw and a room broadcast
        ask for the same view several times. Callers must not modify the result.
        """
        if self._views_of is not self.state:
            self._views_of, self._views = self.state, {}
        if seat not in self._views:
            out = engine.view(self.state, seat)
            out["names"] = [s.name for s in self.seats]
            out["kinds"] = [s.shown_kind for s in self.seats]
            self._views[seat] = out
        return self._views[seat]

    def humans_to_act(self) -> list[int]:
        """Human seats that the game is waiting for and that have a move, in seat order."""
        game = engine.game_of(self.state)
        return [
            s
            for s in game.waiting_for(self.state)
            if self.seats[s].kind == "human"
            and not self.seats[s].covered
            and engine.legal_moves(self.state, s)
        ]

    def submit(self, seat: int, move: Move, now: float = 0.0, delay: float = 0.0) -> None:
        """Apply ``seat``'s move, or raise its ``GameError`` leaving everything unchanged.

        A timed move (a throw) gets its ``at`` from this table's clock: ``now`` on
        the caller's clock, moved back by the sender's one-way network ``delay``
        (capped at ``LATENCY_CAP_MS``). Whatever time the move claimed is replaced.
        """
        spec = engine.game_of(self.state).spec
        kind = move.get("type") if isinstance(move, dict) else None
        if kind in spec.authority_moves:
            # Before the time stamp below: ``engine.apply`` refuses it too, in the
            # same words, but a clock's move must not even get this table's time.
            raise IllegalMove(engine.CLOCK_ONLY)
        if kind in spec.timed_moves:
            move = self._stamp(move, now, delay)
        before, count = self.state, len(self.record.moves)
        self._apply(seat, move)
        self._before[count] = before
        for old in sorted(self._before)[:-KEPT_STATES]:
            del self._before[old]

    def _stamp(self, move: Move, now: float, delay: float) -> Move:
        """A timed move with this table's time, if it is for the window open now.

        The sender may name the ``window`` it aimed at (the page does, from the
        moment a card is picked up): a throw released as one challenge closed must
        never land on the next one, so a move for another window is refused. The
        name is checked and dropped (the record's order says which window it was).
        During the countdown before a window opens, nothing may be thrown yet.
        """
        clock = engine.clock(self.state)
        aimed = move.get("window")
        if aimed is not None:
            if isinstance(aimed, bool) or not isinstance(aimed, int):
                raise MalformedMove("A throw names its window by a whole number.")
            if clock is None or aimed != clock.window:
                raise IllegalMove(TOO_LATE)
            move = {k: v for k, v in move.items() if k != "window"}
        elapsed = self.elapsed(now)
        if elapsed < 0:
            raise IllegalMove(TOO_EARLY)
        return move | {"at": max(0, elapsed - round(min(delay, LATENCY_CAP_MS)))}

    def _apply(self, seat: int, move: Move) -> None:
        self.state = engine.apply(self.state, seat, move)
        self.record = self.record.with_move(seat, move)

    def play_bots(self, limit: int = 10_000, now: float | None = None) -> int:
        """Let every bot that can act do so, until none can; returns how many moved.

        A timed window is left to ``advance``: there, a bot acts when its moment comes.
        With a bot ``speed`` other than instant and a ``now``, a bot first takes its
        moment to think (``thinking``); only the bots whose moment is over move.
        """
        moved = 0
        progress = True
        while progress and moved < limit and engine.clock(self.state) is None:
            progress = False
            for seat in self._bot_seats():
                if now is not None and not self._done_thinking(seat, now):
                    continue
                move = self._bot_move(seat)
                if move is None:
                    continue
                self._apply(seat, move)
                self._thinking.pop(seat, None)
                moved += 1
                progress = True
        return moved

    def _done_thinking(self, seat: int, now: float) -> bool:
        """Whether the bot in ``seat`` may move at ``now``; starts its moment if it has a move."""
        if self.speed == "instant":
            return True
        if not engine.legal_moves(self.state, seat):
            self._thinking.pop(seat, None)
            return False
        if seat not in self._thinking:
            self._thinking[seat] = now + self.think_time(seat)
        return self._thinking[seat] <= now

    def think_time(self, seat: int) -> int:
        """The moment (ms) the bot in ``seat`` takes over its move now, at this ``speed``.

        Fixed by the table's seed, the seat and the state's version, so a game plays
        the same at the same speed, and varied so bots do not tick like a clock.
        """
        low, high = BOT_SPEEDS[self.speed]
        if high <= low:
            return low
        rng = Rng.from_seed(self.record.seed).fork(7_919 + seat * 1_000_003 + self.state.version)
        return rng.randint(low, high)

    def thinking(self) -> list[int]:
        """Bot seats taking their moment over a move, in seat order."""
        return sorted(self._thinking)

    # -- undo ------------------------------------------------------------------------

    def undo_verdict(self) -> Verdict | None:
        """Whether the one person at this table may take back their last move now
        (``quandary/undo.py``); None when it is not one person against bots.

        Made once per record: it replays the span since that move in several worlds.
        Only a table on this device asks: a room's authority never offers undo.
        """
        from quandary import undo  # the first screen needs none of it

        seat = undo.person([s.shown_kind for s in self.seats])
        if seat is None:
            return None
        last, known = self._verdict
        if last is not self.record:
            levels = [s.level for s in self.seats]
            kept = (last, known) if last is not None and known is not None else None
            known = undo.verdict(self.record, self.state, seat, levels, self.state_at, kept)
            self._verdict = (self.record, known)
        return known

    def state_at(self, count: int) -> Any:
        """The state after the record's first ``count`` moves: kept from play, or replayed."""
        kept = self._before.get(count)
        if kept is not None:
            return kept
        return replace(self.record, moves=self.record.moves[:count]).replay()

    def rewind(self, count: int) -> None:
        """Go back to the state after the record's first ``count`` moves, as if the
        later ones had never been played: they leave the record, so a save, its replay
        and the log agree. Bots' moments and plans start again from there.
        """
        if not 0 <= count <= len(self.record.moves):
            raise IndexError(f"The record has no move {count} to go back to.")
        self.state = self.state_at(count)
        self.record = replace(self.record, moves=self.record.moves[:count])
        self._before = {n: s for n, s in self._before.items() if n < count}
        self._views_of, self._window = None, None
        self._planned.clear()
        self._asked.clear()
        self._thinking.clear()

    def _bot_seats(self) -> list[int]:
        return [seat for seat, who in enumerate(self.seats) if who.kind == "bot" or who.covered]

    def cover(self, seat: int, level: str) -> None:
        """Let a bot of ``level`` play human ``seat`` until ``uncover``; call ``advance`` next."""
        who = self.seats[seat]
        if who.kind == "human" and not who.covered:
            self.seats[seat] = replace(who, covered=True, level=level)
            self._views_of = None  # views name the seat's kind

    def uncover(self, seat: int) -> None:
        """Give ``seat`` back to its player: the bot's plans for it are dropped at once."""
        who = self.seats[seat]
        if who.covered:
            self.seats[seat] = replace(who, covered=False)
            self._planned.pop(seat, None)
            self._asked.pop(seat, None)
            self._thinking.pop(seat, None)
            self._views_of = None

    def _bot_move(self, seat: int) -> Move | None:
        """What the bot in ``seat`` does now, if anything; it sees only its seat's view."""
        view = engine.view(self.state, seat)
        if not view["legal_moves"]:
            return None
        bot = make_bot(self.game, self.seats[seat].level)
        return bot.choose(view, bot_rng(self.record.seed, seat, self.state.version))

    # -- timed windows -----------------------------------------------------------

    def elapsed(self, now: float) -> int:
        """Milliseconds since the open timed window opened (0 when none is open).

        Negative during the countdown before it opens (``Clock.lead``).
        """
        clock = engine.clock(self.state)
        if clock is None:
            return 0
        self._track(clock, now)
        since = round(now - self._origin)
        return since if since < 0 else max(clock.floor, since)

    def window_now(self, now: float) -> dict[str, int] | None:
        """The open timed window and how far into it the table is at ``now`` (ms), to
        be kept with the table by whoever may have to carry it on (``resume_window``)."""
        clock = engine.clock(self.state)
        if clock is None:
            return None
        return {"window": clock.window, "elapsed": self.elapsed(now)}

    def resume_window(self, kept: Any, now: float) -> None:
        """Count the open window on from where ``window_now`` left it, not from its last
        recorded play: a room's new host gives its players the time they had left.
        Anything that is not the open window's own record changes nothing."""
        clock = engine.clock(self.state)
        if clock is None or not isinstance(kept, dict) or kept.get("window") != clock.window:
            return
        elapsed = kept.get("elapsed")
        if type(elapsed) is not int or not -60_000 <= elapsed <= 3_600_000:
            return
        self._window, self._origin = clock.window, now - elapsed
        self._planned.clear()
        self._asked.clear()
        self._thinking.clear()

    def _track(self, clock: Clock, now: float) -> None:
        """Start counting a newly seen window: after its countdown, unless play in
        it was already recorded (an authority reloaded mid-window counts on)."""
        if self._window != clock.window:
            lead = clock.lead if clock.floor == 0 else 0
            self._window, self._origin = clock.window, now - clock.floor + lead
            self._planned.clear()
            self._asked.clear()
            self._thinking.clear()  # in a window bots keep their own time (``_plan_bots``)

    def advance(self, now: float) -> int:
        """Let time run to ``now`` (the caller's clock, in ms); returns how many moves.

        Bots' planned timed moves are made at their planned moment, earliest first;
        a window whose deadline has passed is closed at its deadline; then bots act
        as usual. Tests and simulations jump from one ``next_wakeup`` to the next.
        """
        moved = self.play_bots(now=now)
        while (clock := engine.clock(self.state)) is not None:
            elapsed = self.elapsed(now)
            self._plan_bots(elapsed)
            due = [(at, s) for s, (at, _) in self._planned.items() if at <= elapsed]
            if due:
                seat = min(due)[1]
                _, move = self._planned.pop(seat)
                try:
                    self._apply(seat, move)
                except GameError:
                    continue  # the window closed or the card went: the bot just missed
            elif elapsed >= clock.deadline:
                self._close(clock)
            else:
                break
            moved += 1 + self.play_bots(now=now)
        return moved

    def _close(self, clock: Clock) -> None:
        """End the window at its deadline: the clock's move, kept under the clock's seat."""
        move = clock.due | {"at": clock.deadline}
        self.state = engine.apply_authority(self.state, move)
        self.record = self.record.with_move(clock.seat, move)

    def _plan_bots(self, elapsed: int) -> None:
        """Ask each bot once per state what it will do in the window, and when."""
        spec = engine.game_of(self.state).spec
        for seat in self._bot_seats():
            if seat in self._planned or self._asked.get(seat) == self.state.version:
                continue
            self._asked[seat] = self.state.version
            move = self._bot_move(seat)
            if move is None:
                continue
            if move["type"] in spec.timed_moves:
                at = max(int(move.get("at", 0)), elapsed)
                self._planned[seat] = (at, move | {"at": at})
            else:
                self._planned[seat] = (elapsed, move)

    def next_wakeup(self) -> float | None:
        """When (on the caller's clock) ``advance`` next has something to do, if ever."""
        clock = engine.clock(self.state)
        if clock is None:
            return min(self._thinking.values(), default=None)
        if self._window != clock.window:
            return None
        times = [at for at, _ in self._planned.values()] + [clock.deadline]
        return self._origin + min(times)

    def to_json(self, history: bool = True, state: bool = True) -> TableJson:
        """Everything needed to resume: seats, record and state.

        Without ``history``, the record's game, players, options and seed only, and no
        state: what a room's backup keeps of the table before it deals a world of its
        own (``net.succession.world_room``), spared encoding every move to drop them.
        Without ``state``, the record whole and no state: ``from_json`` replays the
        record anyway, and a room's host saves its room before it sends each move, so
        the state, most of the save late in a game, was written on every move only to
        be checked against that replay on a reload."""
        seats: list[SeatJson] = [
            {"name": s.name, "kind": s.kind, "level": s.level, "covered": s.covered}
            for s in self.seats
        ]
        if not history:
            r = self.record
            header = Record(r.game, r.players, r.options, r.seed)
            return {"format": SAVE_FORMAT, "seats": seats, "record": header.to_json()}
        saved: TableJson = {"format": SAVE_FORMAT, "seats": seats, "record": self.record.to_json()}
        if state:
            saved["state"] = engine.to_json(self.state)
        return saved

    @classmethod
    def from_json(cls, data: Any) -> Table:
        """A table from ``to_json`` output; ``CorruptState`` if anything disagrees (a
        saved state must be where the record's moves lead; without one, that is the state)."""
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise CorruptState("The saved game is from an unknown version of Quandary.")
        seats = _seats(data.get("seats"))
        record = Record.from_json(data.get("record"))
        if len(seats) != record.players:
            raise CorruptState("The saved game is damaged: its seats do not match.")
        try:
            replayed = record.replay()
        except GameError as exc:
            raise CorruptState(f"The saved game is damaged: {exc.message}") from None
        if "state" not in data:
            return cls(record, seats, replayed)
        state = engine.from_json(_with_added_fields(data.get("state"), replayed))
        if replayed != state:
            raise CorruptState("The saved game is damaged: its moves do not lead to its state.")
        return cls(record, seats, state)


def _with_added_fields(saved: Any, replayed: Any) -> Any:
    """A saved state with the fields an earlier Quandary did not keep, from the replay.

    Only the fields the game declares as added since (``GameSpec.added_fields``,
    such as a score history) are taken from the replayed moves; everything else
    must still match them, field for field.
    """
    if not isinstance(saved, dict):
        return saved
    added = engine.game_of(replayed).spec.added_fields.difference(saved)
    if not added:
        return saved
    fresh = engine.to_json(replayed)
    return {**saved, **{k: fresh[k] for k in added if k in fresh}}


def _seats(data: Any) -> list[Seat]:
    if not isinstance(data, list) or not data:
        raise CorruptState("The saved game is damaged: it has no seats.")
    seats = []
    for s in data:
        if (
            not isinstance(s, dict)
            or not isinstance(s.get("name"), str)
            or s.get("kind") not in ("human", "bot")
            or not isinstance(s.get("level"), str)
            or not isinstance(s.get("covered", False), bool)
        ):
            raise CorruptState("The saved game is damaged: a seat is unreadable.")
        seats.append(Seat(s["name"], s["kind"], s["level"], s.get("covered", False)))
    return seats
