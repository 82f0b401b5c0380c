"""The host's side of succession: backups on the heirs, their word that they keep them,
and the mandates that name the heirs' keys (what a successor carries on from is
described in ``net/succession.py``).

After every change the host leaves every seated guest (an heir) a backup: one
world nobody has seen, with each heir's salted commitment to its hidden part,
and, to each heir alone, its own part and salt. Nothing in it is secret from
its holder, so no group of guests learns anything by pooling theirs. Views of a
change wait until every heir says it keeps that backup (``holding``), so no
guest hears of a move a successor could not carry on from.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from quandary.engine import dealing

from .succession import Heir, mandate_text, pack, world_room

ACK_WAIT_MS = 1500
"""How long views wait for heirs to say they keep a backup before going anyway: an
heir that does not answer in that time is slow or gone (a round trip is usually
well under 100 ms)."""

LATE_ACK_MS = 400
"""An heir that says it keeps a backup later than this after it was sent is not
waited for at the next moves (until it answers one in time): an heir that always
answers just before ``ACK_WAIT_MS`` runs out would otherwise slow every move."""

Outgoing = tuple[str, dict[str, Any], int]
"""(connection, message, seat): a backup to send through the host's door out."""


class Backups:
    """What the host backs up, and whether views wait for it."""

    def __init__(
        self, now: Callable[[], float], make_id: Callable[[], str], new_seed: Callable[[], int]
    ) -> None:
        self.now, self.make_id, self.new_seed = now, make_id, new_seed
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
        self.held: tuple[int, float, tuple[str, ...]] | None = None
        """(serial, since, heirs' connections) while views wait for the heirs to say they
        keep that backup; None when nothing is held back."""
        self.slow: set[str] = set()
        """Heirs that let a backup's wait run out: no move waits for them again until
        they say they keep the newest backup, so one silent heir cannot slow every move."""
        self._kept: dict[str, int] = {}
        """The newest backup serial each connection said it keeps."""
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
        room: Callable[[], dict[str, Any]],
        epoch: int,
    ) -> list[Outgoing]:
        """The backups of this moment, if it changed (a move, a seat covered, the heirs).

        ``seats``: each heir's seat; ``room``: the room as the host saves it (made
        only when a backup is due).
        """
        moment = (state.version, covered, tuple(heirs))
        if not self.on or not heirs or moment == self._moment:
            return []
        self._moment = moment
        self.serial += 1
        waited = tuple(peer for _, peer, _ in heirs if peer not in self.slow)
        self.held = (self.serial, self.now(), waited) if waited else None
        parts = {
            member: (seats[member], dealing.hidden(state, seats[member]), self.make_id())
            for member, _, _ in heirs
        }
        world = world_room(room(), state, self.new_seed())
        world["commitments"] = {
            str(seat): dealing.commitment(salt, part) for seat, part, salt in parts.values()
        }
        packed = pack(world)
        mandate = mandate_text(epoch, heirs)
        if mandate != self._mandate:
            self._mandate = mandate
            if self.certify is not None:
                self._making = True
                try:
                    self.certify(mandate)
                finally:
                    self._making = False
        chain = self.mandate_chain()
        listed = [list(h) for h in heirs]
        out: list[Outgoing] = []
        for member, peer, _ in heirs:
            seat, part, salt = parts[member]
            msg = {
                "t": "backup",
                "serial": self.serial,
                "epoch": epoch,
                "version": state.version,
                "heirs": listed,
                "room": packed,
                "part": part,
                "salt": salt,
                "chain": chain,
            }
            out.append((peer, msg, seat))
        return out

    def keeps(self, peer: str, serial: int) -> bool:
        """A guest holds a backup; True if views held back may go now (``holding``)."""
        if serial > self.serial:
            return False  # a serial never sent: nothing is released on its word
        self._kept[peer] = max(serial, self._kept.get(peer, 0))
        late = self.held is not None and self.now() - self.held[1] > LATE_ACK_MS
        if serial == self.serial and not late:
            self.slow.discard(peer)
        elif serial == self.serial:
            self.slow.add(peer)  # kept, but late: the next moves do not wait for it
        return self.held is not None

    def holding(self, peers: set[str]) -> bool:
        """Whether views still wait for the backup of the newest change.

        Every heir still connected (in ``peers``) must have said it keeps it, or
        ``ACK_WAIT_MS`` have passed: an heir that is slow or gone is not waited for
        longer, nor for the next backups until it answers. Releases the hold when not.
        """
        if self.held is None:
            return False
        serial, since, heirs = self.held
        waiting = [p for p in heirs if p in peers and self._kept.get(p, 0) < serial]
        if waiting and self.now() - since < ACK_WAIT_MS:
            return True
        self.slow.update(waiting)
        self.held = None
        return False

    def wake(self) -> float | None:
        """When a hold runs out, if views are held."""
        return self.held[1] + ACK_WAIT_MS if self.held is not None else None

    def forget(self, peer: str) -> None:
        """A connection closed: it is no longer waited for."""
        self.slow.discard(peer)
