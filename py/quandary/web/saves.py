"""Games in progress on this device: one stored entry per game, never one slot for all.

Each local game (hot-seat or against bots) is kept under its own key,
``quandary.game.<id>``, so saving or deleting one game never rewrites
another's text, and two tabs playing different games cannot overwrite each
other. There is no index that could fall out of step with the entries: the
list is the keys themselves.

An entry carries a summary (which game, who plays, the round, when it was last
played) beside the table, so the lobby lists twenty games without replaying
twenty records. The record is replayed and checked only when a game is
continued: a Maybe Minister game near its end takes a noticeable fraction of a
second to replay in the browser. An entry that cannot be read stays listed
with the reason until the player deletes it; it never hides the others.

Rooms keep their own records (``quandary.room.<id>``): this shelf never reads them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from quandary import engine
from quandary.engine import BadSetup, CorruptState, RoundLimit, read_header
from quandary.table import Table

from .storage import Storage

PREFIX = "quandary.game."
LEGACY_KEY = "quandary.save"
"""The one save slot of earlier versions; its game moves into the list on first load."""
ENTRY_FORMAT = 1
CAPACITY = 20
"""The most games in progress a device keeps. At the cap a new game is refused with
a sentence (delete one first), never made room for by dropping the oldest."""


@dataclass(frozen=True)
class SavedGame:
    """A game in progress as the lobby lists it."""

    id: str
    title: str
    names: tuple[str, ...]
    round: int
    round_limit: RoundLimit | None
    played: float | None
    """When it was last played, in seconds since the epoch; None for a game saved
    before the list kept the time."""


@dataclass(frozen=True)
class DamagedSave:
    """An entry that cannot be continued, and why, in a sentence a player can read."""

    id: str
    reason: str


Entry = SavedGame | DamagedSave


def key(save_id: str) -> str:
    """The storage key of a saved game."""
    return PREFIX + save_id


class Shelf:
    """The saved local games in a ``Storage``."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    def ids(self) -> list[str]:
        """Every saved game's id, readable or not."""
        return sorted(k[len(PREFIX) :] for k in _keys(self.storage) if k.startswith(PREFIX))

    def entries(self) -> list[Entry]:
        """Every saved game, the most recently played first, damaged ones last."""
        found = [_entry(i, self.storage.get(key(i))) for i in self.ids()]
        readable = [e for e in found if isinstance(e, SavedGame)]
        readable.sort(key=lambda e: (-(e.played if e.played is not None else -math.inf), e.id))
        return [*readable, *(e for e in found if isinstance(e, DamagedSave))]

    def load(self, save_id: str) -> tuple[Table, int]:
        """The saved table and how many of its results were stepped through.

        ``CorruptState`` with a readable reason if the entry is gone or damaged:
        its moves are replayed, so a save whose state disagrees with them is refused.
        """
        return _table(_parse(self.storage.get(key(save_id))))

    def put(self, save_id: str, table: Table, seen: int, played: float | None) -> None:
        """Save ``table`` under ``save_id``; raises when the storage refuses (it is full)."""
        view = table.view(None)
        header = read_header(view)
        summary = {
            "game": table.game,
            "names": [s.name for s in table.seats],
            "round": header["round"],
            "round_limit": header["round_limit"],
            "played": played,
        }
        entry = {"format": ENTRY_FORMAT, "summary": summary, "seen": seen, "table": table.to_json()}
        self.storage.set(key(save_id), json.dumps(entry))

    def remove(self, save_id: str) -> None:
        """Forget a saved game."""
        self.storage.remove(key(save_id))

    def new_id(self, make_id: Callable[[], str]) -> str:
        """An id no saved game has: ``make_id``'s, with a number added if it is taken."""
        base = make_id() or "game"
        candidate, number = base, 1
        while self.storage.get(key(candidate)) is not None:
            number += 1
            candidate = f"{base}-{number}"
        return candidate

    def migrate(self, make_id: Callable[[], str]) -> None:
        """Move the old single slot's game into the list, so nothing a player had is lost.

        A readable game becomes an ordinary entry (its time unknown); an unreadable
        one is copied as it is and listed as damaged. The old slot is cleared only
        once the copy is stored: with a full storage it waits for the next load.
        """
        raw = self.storage.get(LEGACY_KEY)
        if raw is None:
            return
        save_id = self.new_id(make_id)
        try:
            try:
                table, seen = _table(_parse(raw))
            except CorruptState:
                self.storage.set(key(save_id), raw)  # listed as damaged, with the reason
            else:
                self.put(save_id, table, seen, None)
        except Exception:  # noqa: BLE001 - quota errors differ by browser; the slot stays
            return
        self.storage.remove(LEGACY_KEY)


def _keys(storage: Storage) -> Iterable[str]:
    try:
        return list(storage.keys())
    except Exception:  # noqa: BLE001 - a browser with storage disabled lists nothing
        return []


def _parse(raw: str | None) -> dict[str, Any]:
    """An entry's JSON object; ``CorruptState`` if there is none."""
    if raw is None:
        raise CorruptState("The saved game is no longer on this device.")
    try:
        data = json.loads(raw)
    except ValueError:
        raise CorruptState("The saved game is not valid JSON.") from None
    if not isinstance(data, dict):
        raise CorruptState("The saved game is not a game.")
    return data


def _table(data: dict[str, Any]) -> tuple[Table, int]:
    """The table in an entry (this version's or the old slot's shape), fully checked."""
    table = Table.from_json(data.get("table"))
    seen = data.get("seen", 0)
    return table, seen if type(seen) is int and seen >= 0 else 0


def _entry(save_id: str, raw: str | None) -> Entry:
    """What the lobby lists for one stored text: a summary, or why it is damaged."""
    try:
        data = _parse(raw)
        if "format" not in data and "table" in data:
            # A damaged copy of the old single slot: replaying it gives the reason.
            table, _ = _table(data)
            return _summary_of(save_id, table)
        if data.get("format") != ENTRY_FORMAT:
            raise CorruptState("The saved game is from an unknown version of Quandary.")
        return _summary(save_id, data.get("summary"))
    except CorruptState as exc:
        return DamagedSave(save_id, exc.message)


def _summary_of(save_id: str, table: Table) -> SavedGame:
    header = read_header(table.view(None))
    names = tuple(s.name for s in table.seats)
    title = engine.spec_of(table.game).title
    return SavedGame(save_id, title, names, header["round"], header["round_limit"], None)


def _summary(save_id: str, data: Any) -> SavedGame:
    """A stored summary, every field checked (it is shown before the game is replayed)."""
    damaged = CorruptState("The saved game is damaged: its summary cannot be read.")
    if not isinstance(data, dict):
        raise damaged
    game = data.get("game")
    if not isinstance(game, str):
        raise damaged
    try:
        title = engine.spec_of(game).title
    except BadSetup:
        raise CorruptState("The saved game is of a game this version does not know.") from None
    names, number, limit, played = (
        data.get("names"),
        data.get("round"),
        data.get("round_limit"),
        data.get("played"),
    )
    if (
        not isinstance(names, list)
        or not names
        or not all(isinstance(n, str) for n in names)
        or type(number) is not int
        or not _is_limit(limit)
        or not (played is None or (type(played) in (int, float) and math.isfinite(played)))
    ):
        raise damaged
    return SavedGame(save_id, title, tuple(names), number, limit, played)


def _is_limit(value: Any) -> bool:
    return value is None or (
        isinstance(value, dict)
        and set(value) == {"count", "exact"}
        and type(value["count"]) is int
        and type(value["exact"]) is bool
    )
