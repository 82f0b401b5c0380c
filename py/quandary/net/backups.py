"""The host's side of succession: backups on the heirs, and the mandates that name the
heirs' keys (what a successor carries on from is described in ``net/succession.py``).

After every change the host leaves every seated guest (an heir) a backup: one
world nobody has seen, with each heir's salted commitment to its hidden part,
and, to each heir alone, its own part and salt. Nothing in it is secret from
its holder, so no group of guests learns anything by pooling theirs. Each heir's
backup goes in the same message as its view of the change (``backed``; just before
it, on the same ordered connection, if the two are too long for one message), so
an heir never sees a move it does not hold the backup of; the views do not
wait for the heirs to say so (a round trip on every move), and a host that dies
between one heir and the next leaves some a move behind the others, which the
successor settles (``HeirRole._gathered``, net/heir.py). The world leaves the
game's log out: each heir is sent the events its last backup did not hold
(``Deliveries.backup_log``), and rebuilds the whole (``RoomGuest._keep``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from quandary.engine import dealing

from .saved import RoomJson
from .succession import Heir, mandate_text, pack, world_room
from .wire import BackupNews, LogNews

Outgoing = tuple[str, BackupNews, int]
"""(connection, message, seat): a backup to send through the host's door out."""


class Backups:
    """What the host backs up, and the mandates its heirs show."""

    def __init__(self, make_id: Callable[[], str], new_seed: Callable[[], int]) -> None:
        self.make_id, self.new_seed = make_id, new_seed
        self.on = False
        """Whether the room is backed up on the seated guests' devices after each change
        (once the transport is open)."""
        self.chain: list[tuple[str, str]] = []
        """The mandates that make this host's key the room's (empty for the first host,
        whose key is the link's): each signed by the host before, naming its heirs."""
        self.certify: Callable[[str], None] | None = None
        """Asks the transport to sign a mandate with this host's key (answered by
        ``certified``): a device that never saw the succession can check a successor."""
        self.serial = 0
        self._moment: Any = None
        self._mandate: str | None = None
        self._certified: tuple[str, str] | None = None
        self._making = False

    def certified(self, text: str, signature: str) -> bool:
        """The transport signed a mandate (``certify``): backups carry it from now on.

        True if it is news to the heirs: signed after the backups that asked for it
        went out (the page's transport answers later), so the next one is due even if
        nothing else changed. Signed at once (while ``make`` runs), those backups
        carry it already."""
        if text != self._mandate or self._certified == (text, signature):
            return False
        self._certified = (text, signature)
        if self._making:
            return False
        self._moment = None
        return True

    def _ask_mandate(self, mandate: str) -> None:
        """Have the transport sign ``mandate`` if it is new (answered by ``certified``)."""
        if mandate == self._mandate:
            return
        self._mandate = mandate
        if self.certify is not None:
            self._making = True
            try:
                self.certify(mandate)
            finally:
                self._making = False

    def mandate_chain(self) -> list[list[str]]:
        """The mandates from the room's key to this host's heirs, for the heirs to show."""
        own = [list(self._certified)] if self._certified is not None else []
        return [list(m) for m in self.chain] + own

    def make(
        self,
        state: Any,
        covered: tuple[bool, ...],
        heirs: list[Heir],
        seats: dict[str, int],
        room: Callable[[], RoomJson],
        epoch: int,
        named: list[tuple[str, str]],
        log_of: Callable[[str, int, Any], LogNews],
    ) -> list[Outgoing]:
        """The backups of this moment, if it changed (a move, a seat covered, the heirs).

        ``seats``: each heir's seat; ``room``: the room as the host saves it, its
        table's moves and state left out (made only when a backup is due);
        ``named``: every seated player's device key, for the mandate
        (``mandate_text``), asked for as soon as it changes, heirs here or not;
        ``log_of(peer, serial, state)``: the game's log for that heir's backup, which
        its world leaves out (``Deliveries.backup_log``).
        """
        if not self.on:
            return []
        self._ask_mandate(mandate_text(epoch, named))
        moment = (state.version, covered, tuple(heirs))
        if not heirs or moment == self._moment:
            return []
        self._moment = moment
        self.serial += 1
        parts = {
            member: (seats[member], dealing.hidden(state, seats[member]), self.make_id())
            for member, _, _ in heirs
        }
        world = world_room(room(), state, self.new_seed())
        world["commitments"] = {
            str(seat): dealing.commitment(salt, part) for seat, part, salt in parts.values()
        }
        packed = pack(world)
        chain = self.mandate_chain()
        listed = [list(h) for h in heirs]
        out: list[Outgoing] = []
        for member, peer, _ in heirs:
            seat, part, salt = parts[member]
            msg: BackupNews = {
                "t": "backup",
                "serial": self.serial,
                "epoch": epoch,
                "version": state.version,
                "heirs": listed,
                "room": packed,
                "part": part,
                "salt": salt,
                "chain": chain,
                "log": log_of(peer, self.serial, state),
            }
            out.append((peer, msg, seat))
        return out
