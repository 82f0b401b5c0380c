"""Whether this device is still the room's host, when another device speaks as one.

A successor takes a room over only where its host was silent for the room's whole
waiting time (net/succession.py). When the old host's page comes back from a long
reload, two devices speak as the host: one of them must step down, and never the
one its players still answer. The host (``net/host.py``) asks ``Standing`` at each
greeting from another host and keeps it told of its beats and company.
"""

from __future__ import annotations

from collections.abc import Iterable

from .members import LOCAL, Member
from .wire import HostMessage

ALONE_BEATS = 4
"""Timer beats a reloaded host must spend with no seated player connected before it
believes a successor known only by its mandates (``Standing.yields_to``)."""


def company(members: Iterable[Member], me: str) -> bool:
    """A seated player other than the host's own, who had not waited it out before
    greeting it, is connected to it now."""
    return any(
        m.seat is not None and m.id != me and m.peer not in (None, LOCAL) and not m.waited
        for m in members
    )


class Standing:
    """A host's hold on its room: since when it was restored, and since when alone."""

    def __init__(self) -> None:
        self.restored_at: int | None = None
        """The beat this host was restored from its save at (None: it never was)."""
        self.company_at = 0
        """The last beat a seated player was connected to this host (or it was restored):
        a player who came back and then left for a successor does not keep it company."""
        self.superseded = False
        """Another device holding the room's key took over while this one was away."""
        self.successor_key: str | None = None
        """The key of the successor this host stepped down for, if it was one known by
        its mandates: the host's page follows it as a guest."""

    def restored(self, beat: int) -> None:
        """The host came back from its save at ``beat``: everyone is away for now."""
        self.restored_at = self.company_at = beat

    def beat(self, beat: int, kept_company: bool) -> None:
        """A timer beat: note whether a seated player answers the host (``company``)."""
        if kept_company:
            self.company_at = beat

    def yields_to(
        self,
        msg: HostMessage,
        epoch: int,
        silent_for: float,
        wait: float,
        certified: str | None,
        beat: int,
        kept_company: bool,
    ) -> bool:
        """Whether another host's ``msg`` makes this one (of ``epoch``) step down.

        ``silent_for`` is how long the other device was silent to this host as a
        guest, ``wait`` the room's waiting time. A claim from a connection this host
        heard from within that time changes nothing. A device known only by its
        mandates (``certified``: its key) could be any heir, so it is believed only
        by a host that reloaded and has since been alone (no ``company``) for
        ``ALONE_BEATS``, as happens when its players all follow a successor. A player
        whose device had waited out this host before greeting it again counts as no
        company: it was free to follow the successor, and may have sat down here
        only because the old host's greeting reached it first. While a player who
        never lost this host answers it, no claim, however well signed, deposes it.
        """
        if not (msg["t"] == "host" or msg["t"] == "tick") or msg["epoch"] <= epoch:
            return False
        if silent_for < wait:
            return False
        if certified is not None:
            if not (msg["t"] == "host" and len(msg["chain"]) == msg["epoch"]):
                return False
            alone = self.restored_at is not None and not kept_company
            if not (alone and beat - self.company_at >= ALONE_BEATS):
                return False
        self.superseded = True
        self.successor_key = certified
        return True
