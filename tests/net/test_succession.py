"""The host's role passes on: a sealed backup on the guests, one successor, the game goes on.

Whole rooms over the in-memory network with the transport's real cryptography
(AES-GCM and Shamir's 2-of-n sharing, see ``memnet.seal``): the host backs the
room up on the seated guests after every change, vanishes at a random step, and
after the room's waiting time the guests agree on one successor, which opens
the backup with a second guest's share, signs with the room's key and carries
the game to its end. No single guest can open a backup; a guest who is not the
successor, or asks while the host is here, gets no share; a first host who
comes back finds it was succeeded and sits down as a guest.
"""

from __future__ import annotations

import contextlib
import json
import random
from dataclasses import replace
from typing import Any

import pytest
from cryptography.exceptions import InvalidTag
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from quandary import engine
from quandary.engine import GameError
from quandary.net.guest import RoomGuest
from quandary.net.host import ACK_WAIT_MS, RoomHost
from quandary.net.succession import SUCCESSION_MS, Unseal, read_backup, take_over

from .memnet import Network, unseal

GAMES = [g.spec.id for g in engine.all_games()]
WAIT = SUCCESSION_MS["normal"]
STEP_LIMIT = 6000


class Room:
    """Host Hana (seat 0) and guests Anna, Ben, Cleo (seats 1-3), in that order of arrival."""

    def __init__(self, game_id: str, seed: int, guests: int = 3) -> None:
        self.rng = random.Random(seed)
        self.net = Network(sealing=True)
        self.host: RoomHost = self.net.add_host()
        self.host.configure(game=game_id)
        spec = engine.get(game_id).spec
        self.host.set_seat_count(max(spec.min_players, guests + 1))
        for seat in range(guests + 1, len(self.host.plan)):
            self.host.set_seat_kind(seat, "bot", "random")
        self.host_peer = "H"
        self.guests: dict[str, RoomGuest] = {}
        for i, (peer, name) in enumerate(
            [("A", "Anna"), ("B", "Ben"), ("C", "Cleo"), ("D", "Dan")]
        ):
            if i < guests:
                self.guests[peer] = self.net.add_guest(peer, name)
                self.net.settle()
                self.guests[peer].sit(i + 1)
                self.net.settle()
        self.host.start()
        self.net.settle()
        self.spec = spec
        self.opened = 0
        """The serial of the backup the last successor opened."""
        self.refused = 0
        """Shares that did not open a backup (a hostile heir's garbage)."""

    @property
    def table(self) -> Any:
        assert self.host.table is not None
        return self.host.table

    def seat_of(self, peer: str) -> int:
        if peer == self.host_peer:
            seat = self.host.members[self.host.me].seat
        else:
            seat = self.host.members[self.guests[peer].member or ""].seat
        assert seat is not None
        return seat

    def step(self) -> None:
        """One random legal move by someone here, or the table's clock moving on."""
        self.net.settle()
        actors: list[tuple[str, dict[str, Any] | None]] = [
            (self.host_peer, self.host.view_for(self.host.me))
        ]
        actors += [(p, g.view) for p, g in self.guests.items()]
        choices = [
            (peer, m)
            for peer, view in actors
            for m in (view or {}).get("legal_moves", [])
            if m["type"] not in self.spec.authority_moves
        ]
        wake = self.host.next_wakeup()
        if choices and (wake is None or self.rng.random() < 0.5):
            peer, template = self.rng.choice(choices)
            move = engine.moves.concrete(template, self.rng.randint)
            if peer == self.host_peer:
                with contextlib.suppress(GameError):
                    self.host.submit(move)
            else:
                self.guests[peer].submit(move)
        elif wake is not None:
            self.net.clock = max(self.net.clock, min(wake, self.net.clock + 800))
            self.host.advance()
        else:
            self.beat(30)
        self.net.settle()

    def beat(self, times: int = 1) -> None:
        """The two-second timer on every device present."""
        for _ in range(times):
            self.net.clock += 2000
            if self.host_peer in self.net.nodes:
                self.host.tick()
                self.host.advance()
            for guest in self.guests.values():
                guest.beat()
            self.net.settle()

    def vanish(self) -> None:
        """The host's tab closes for good."""
        self.net.disconnect(self.host_peer)

    def succeed(self) -> str:
        """Beat until a guest holds two shares; it opens the backup and becomes the host."""
        for _ in range(WAIT // 2000 + 10):
            ready = [(p, g) for p, g in self.guests.items() if g.unseal is not None]
            assert len(ready) <= 1, "two successors"
            if ready:
                peer, guest = ready[0]
                assert guest.unseal is not None
                try:
                    opened = unseal(guest.unseal)
                    break
                except (InvalidTag, ValueError):
                    self.refused += 1
                    guest.unseal_failed()  # as the page does when the backup will not open
            self.beat()
        else:
            pytest.fail("no guest could take the host's place")
        assert guest.unseal is not None and guest.member is not None
        self.opened = guest.unseal.backup.serial
        new = RoomHost(
            self.net.sender(peer), self.net.make_id, lambda: 99, guest.name, self.net.now
        )
        new.seal = self.net.sealer(peer)
        self.net.signers[peer] = self.net.key.private  # the transport signs from now on
        self.net.nodes[peer] = new
        # As the page's controller does (web/room_controller.py, ``backup_opened``).
        take_over(new, opened, guest.member, set(guest.peers), guest.ran_on(guest.unseal.backup))
        del self.guests[peer]
        self.host, self.host_peer = new, peer
        self.net.settle()
        return peer

    def play(self) -> None:
        for _ in range(STEP_LIMIT):
            if self.table.over:
                return
            self.step()
        pytest.fail(f"{self.spec.id} did not end within {STEP_LIMIT} steps")


def _into(room: Room, steps: int) -> None:
    for _ in range(steps):
        if room.table.over:
            return
        room.step()


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("game_id", GAMES)
def test_the_host_vanishes_and_the_longest_here_carries_the_game_to_its_end(
    game_id: str, seed: int
) -> None:
    room = Room(game_id, seed)
    _into(room, room.rng.randint(1, 4 if game_id == "royal" else 25))
    if room.table.over:
        pytest.skip("the game ended before the host left")
    before = room.table.record.moves
    first_host = room.host.me
    old_seat = room.seat_of("H")
    room.vanish()
    successor = room.succeed()
    assert successor == "A", "Anna came first: she carries on"
    moves = room.table.record.moves
    assert moves[: len(before)] == before, "nothing of the game is lost"
    assert all(seat == old_seat for seat, _ in moves[len(before) :]), "only its bot moved since"
    assert room.host.epoch == 1
    room.beat()
    assert room.table.seats[old_seat].covered, "a bot plays for the host who left"
    assert room.host.members[first_host].peer is None
    for guest in room.guests.values():
        assert guest.host == "A" and guest.status == "joined"
        assert guest.view is not None and guest.view["version"] == room.table.state.version
    room.play()
    assert room.host.leaks == 0 and room.host.errors == 0


def _kind(text: str) -> str:
    """The type of a message the host signed."""
    return str(json.loads(json.loads(text)["m"])["t"])


def test_no_guest_hears_of_a_move_before_every_heir_keeps_its_backup() -> None:
    """After a move only the backups leave; what the move changed waits until every heir
    says it keeps its backup. A host whose tab dies after one heir got its backup has
    told nobody of the move, and the others carry on from the backup they share."""
    room = Room("dilemmas", 1)
    before = room.table.state.version
    serial = room.host._serial
    moves = room.host.view_for(room.host.me)["legal_moves"]
    room.host.submit(engine.moves.concrete(moves[0], room.rng.randint))
    queued = sorted(
        (dst, json.loads(json.loads(text)["m"])["t"]) for _, dst, text in room.net.queue
    )
    assert queued == [("A", "backup"), ("B", "backup"), ("C", "backup")]
    # Anna's backup arrives and her word that she keeps it reaches the host: still
    # nothing is told, as Ben and Cleo do not have theirs yet.
    room.net.deliver(0)
    room.net.deliver(next(i for i, (src, _, _) in enumerate(room.net.queue) if src == "A"))
    told = [_kind(text) for src, _, text in room.net.queue if src == "H"]
    assert "update" not in told and "snapshot" not in told, told
    room.vanish()
    assert all(g.version == before for g in room.guests.values())
    assert room.succeed() == "A"
    assert room.opened == serial, "the successor opened the newest backup all three share"
    room.play()
    assert room.host.errors == 0


def test_once_every_heir_keeps_the_backup_the_move_is_told_to_everyone() -> None:
    room = Room("dilemmas", 1)
    moves = room.host.view_for(room.host.me)["legal_moves"]
    room.host.submit(engine.moves.concrete(moves[0], room.rng.randint))
    room.net.settle()
    version = room.table.state.version
    assert all(g.version == version for g in room.guests.values())


def test_an_heir_that_never_answers_holds_the_move_back_only_for_a_moment() -> None:
    """A heir whose connection is dead but not yet closed: after ``ACK_WAIT_MS`` the
    others are told anyway, at the host's next wake-up."""
    room = Room("dilemmas", 1)
    moves = room.host.view_for(room.host.me)["legal_moves"]
    room.host.submit(engine.moves.concrete(moves[0], room.rng.randint))
    room.net.queue = [m for m in room.net.queue if m[1] != "C"]  # Cleo's backup is lost
    room.net.settle()
    version = room.table.state.version
    assert room.guests["A"].version != version
    wake = room.host.next_wakeup()
    assert wake is not None and wake - room.net.clock <= ACK_WAIT_MS
    room.net.clock = wake
    room.host.advance()
    room.net.settle()
    assert room.guests["A"].version == version and room.guests["B"].version == version


def test_no_single_guest_can_open_a_backup_and_it_holds_no_plain_secret() -> None:
    room = Room("minister", 2)
    _into(room, 8)
    anna, ben = room.guests["A"], room.guests["B"]
    mine = anna.backups[-1]
    with pytest.raises((InvalidTag, ValueError)):
        unseal(Unseal(mine, (mine.share, mine.share)))
    theirs = next(b for b in ben.backups if b.serial == mine.serial)
    room_data, key, epoch = read_backup(unseal(Unseal(mine, (mine.share, theirs.share))))
    assert key == room.net.key.pkcs8 and epoch == 0 and room_data["me"] == room.host.me
    # The backups the guests received hold no secret of the game in plain text.
    game = engine.game_of(room.table.state)
    secrets = set(game.secrets(room.table.state, None))
    for peer in room.guests:
        text = "\n".join(m for m in room.net.received.get(peer, []) if '"t":"backup"' in m)
        assert secrets and text and not [s for s in secrets if json.dumps(s) in text]


def test_no_share_for_a_claim_while_the_host_is_here_or_from_the_wrong_guest() -> None:
    room = Room("royal", 3)
    ben, anna = room.guests["B"], room.guests["A"]
    serial, epoch = ben.backups[-1].serial, ben.backups[-1].epoch
    claim = json.dumps({"t": "claim", "serial": serial, "epoch": epoch})

    def shares(peer: str) -> list[str]:
        return [m for m in room.net.received.get(peer, []) if '"t":"share"' in m]

    # The host is here: nobody answers, not even the rightful successor.
    room.net.sender("A")("B", claim)
    room.net.settle()
    assert shares("A") == []
    # The host is gone and everyone waited, but Cleo is not the successor: no share for her.
    room.vanish()
    room.beat(WAIT // 2000 + 1)
    room.net.sender("C")("B", claim)
    room.net.sender("C")("A", claim)
    room.net.settle()
    assert shares("C") == []
    assert anna.unseal is not None, "Anna, the rightful successor, got Ben's or Cleo's share"
    # A malformed or oversized message from a guest changes nothing and breaks nothing.
    for junk in ("{", '{"t":"share","serial":1,"share":""}', "x" * 70_000, '{"t":"claim"}'):
        room.net.sender("C")("B", junk)
    room.net.settle()
    assert room.succeed() == "A"


def test_without_two_seated_guests_there_is_no_backup_to_steal() -> None:
    room = Room("royal", 4, guests=1)
    assert room.guests["A"].backups == []
    assert not any('"backup"' in m for m in room.net.received.get("A", []))


def test_a_successor_who_leaves_passes_the_role_on_again() -> None:
    room = Room("dilemmas", 5, guests=4)
    _into(room, 10)
    room.vanish()
    assert room.succeed() == "A"
    _into(room, 5)
    room.vanish()
    assert room.succeed() == "B"
    assert room.host.epoch == 2
    room.play()


def test_heirs_that_cannot_reach_each_other_say_so_and_carry_on_once_they_can() -> None:
    """The host leaves while Anna's and Ben's devices cannot reach each other: no one can
    open the backup, and each device says what it waits for instead of a bare pause.
    Once they connect, Anna (first in line) takes the game on and nothing is lost."""
    room = Room("dilemmas", 8, guests=2)
    _into(room, 8)
    acknowledged = room.table.record.moves
    anna, ben = room.guests["A"], room.guests["B"]
    before = anna.handover()
    assert before is None, "no handover while the host is here"
    room.net.cut("A", "B")
    room.vanish()
    room.beat()
    told = anna.handover()
    assert told is not None and told.successor == anna.member and not told.waited
    room.beat(WAIT // 2000 + 20)
    assert anna.unseal is None and ben.unseal is None, "a backup opened with one share"
    for guest, other in ((anna, ben), (ben, anna)):
        told = guest.handover()
        assert told is not None and told.waited and not told.partners
        assert told.successor == guest.member and told.heirs == (other.member,)
    room.net.mend("A", "B")
    assert room.succeed() == "A"
    assert room.table.record.moves[: len(acknowledged)] == acknowledged
    room.play()


def test_a_first_host_who_comes_back_is_told_and_sits_down_as_a_guest() -> None:
    room = Room("randolph", 6)
    _into(room, 12)
    first = room.host
    token = first.members[first.me].token
    old_seat = room.seat_of("H")
    room.vanish()
    room.succeed()
    room.beat()
    # The first host's page reloads with its saved room and the same key.
    returning = RoomHost(
        room.net.sender("H2", room.net.key.private),
        room.net.make_id,
        lambda: 5,
        "Hana",
        room.net.now,
    )
    returning.restore(first.to_json())
    room.net.connect("H2", returning)
    room.net.settle()
    assert returning.superseded, "the successor's newer epoch tells it"
    for guest in room.guests.values():
        assert guest.host == "A" and "H2" in guest.stale
    # It sits down again as a guest with its own seat token: its seat comes back.
    room.net.nodes.pop("H2")
    room.net.signers.pop("H2")
    room.net.disconnect("H2")
    back = room.net.add_guest("H3", "Hana", token)
    room.guests["H3"] = back
    room.net.settle()
    assert back.view is not None and back.view["seat"] == old_seat
    assert not room.table.seats[old_seat].covered


def test_dilemmas_window_goes_on_under_the_successor_with_the_time_it_had_left() -> None:
    """Dilemma's throw window, the host heard of for a while after its last backup and
    then gone: the successor's window goes on from where it was when the host was last
    heard of, neither from its last play nor from a new countdown."""
    room = Room("randolph", 3)
    while engine.clock(room.table.state) is None:
        room.step()
    clock = engine.clock(room.table.state)
    assert clock is not None
    room.net.clock += clock.lead + 4000  # 4 s into the window, nothing thrown yet
    room.host.tick()  # its heartbeat still reaches every guest
    room.net.settle()
    left = clock.deadline - room.table.elapsed(room.net.clock)
    assert 0 < left < clock.deadline - 3000
    room.vanish()
    room.succeed()
    assert engine.clock(room.table.state) == clock, "the same window is open"
    resumed = clock.deadline - room.table.elapsed(room.net.clock)
    # Give or take the in-memory network's delivery steps (20 ms each) on either side.
    assert abs(resumed - left) <= 250, (left, resumed)


def _phases(game_id: str) -> list[str]:
    """Every phase a reference game (seed 0) goes through, in order of first sight."""
    room = Room(game_id, 0)
    seen: list[str] = []
    for _ in range(STEP_LIMIT):
        phase = room.table.view(None)["phase"]
        if phase not in seen:
            seen.append(phase)
        if room.table.over:
            return seen
        room.step()
    raise AssertionError(f"{game_id} did not end")


PHASES = [(g, p) for g in GAMES for p in _phases(g) if p not in ("over", "end")]


@pytest.mark.parametrize(("game_id", "phase"), PHASES)
def test_the_host_vanishes_in_every_phase_of_every_game_and_the_game_ends(
    game_id: str, phase: str
) -> None:
    """The reference game, the host gone the moment ``phase`` begins (throws and duels too)."""
    room = Room(game_id, 0)
    while room.table.view(None)["phase"] != phase:
        room.step()
    acknowledged = room.table.record.moves
    room.vanish()
    room.succeed()
    assert room.table.record.moves[: len(acknowledged)] == acknowledged
    room.play()
    assert room.table.over and room.host.errors == 0 and room.host.leaks == 0


class Turmoil(RuleBasedStateMachine):
    """Moves, guests leaving and coming back, the host vanishing (sometimes while two
    guests cannot reach each other), time passing, mixed.

    Every host in turn (the first, then successors) must keep every move it ever
    acknowledged, and every guest here converges on the current host's version.
    """

    def __init__(self) -> None:
        super().__init__()
        self.room = Room("randolph", 11, guests=4)
        self.acknowledged: tuple[Any, ...] = ()
        self.away: dict[str, tuple[str, str]] = {}
        """Guests who left: peer → (name, token), for a return under a new connection."""
        self.returns = 0

    @rule(steps=st.integers(1, 6))
    def play(self, steps: int) -> None:
        _into(self.room, steps)

    @precondition(lambda self: len(self.room.guests) > 2)
    @rule(data=st.data())
    def a_guest_leaves(self, data: st.DataObject) -> None:
        peer = data.draw(st.sampled_from(sorted(self.room.guests)))
        guest = self.room.guests.pop(peer)
        assert guest.token is not None
        self.away[peer] = (guest.name, guest.token)
        self.room.net.disconnect(peer)
        self.room.net.settle()

    @precondition(lambda self: bool(self.away))
    @rule(data=st.data())
    def a_guest_comes_back(self, data: st.DataObject) -> None:
        peer = data.draw(st.sampled_from(sorted(self.away)))
        name, token = self.away.pop(peer)
        self.returns += 1
        again = f"{peer}{self.returns}"
        self.room.guests[again] = self.room.net.add_guest(again, name, token)
        self.room.net.settle()

    @precondition(lambda self: len(self.room.guests) >= 2)
    @rule()
    def the_host_vanishes(self) -> None:
        self.room.vanish()
        self.room.succeed()

    @precondition(lambda self: len(self.room.guests) >= 2)
    @rule(data=st.data())
    def the_host_vanishes_while_two_guests_cannot_reach_each_other(
        self, data: st.DataObject
    ) -> None:
        pair = st.lists(st.sampled_from(sorted(self.room.guests)), min_size=2, max_size=2)
        a, b = data.draw(pair.filter(lambda p: p[0] != p[1]))
        self.room.net.cut(a, b)
        self.room.vanish()
        self.room.beat(WAIT // 2000 + 3)
        ready = [p for p, g in self.room.guests.items() if g.unseal is not None]
        assert len(ready) <= 1, "two successors"
        self.room.net.mend(a, b)
        self.room.succeed()

    @rule(beats=st.integers(1, 5))
    def time_passes(self, beats: int) -> None:
        self.room.beat(beats)

    @invariant()
    def nothing_acknowledged_is_lost(self) -> None:
        moves = self.room.table.record.moves
        assert moves[: len(self.acknowledged)] == self.acknowledged
        self.acknowledged = moves

    @invariant()
    def everyone_here_converges(self) -> None:
        self.room.beat()
        version = self.room.table.state.version
        for peer, guest in self.room.guests.items():
            assert guest.host == self.room.host_peer, peer
            assert guest.view is not None and guest.view["version"] == version, peer
        assert self.room.host.leaks == 0 and self.room.host.errors == 0


Turmoil.TestCase.settings = settings(max_examples=12, stateful_step_count=25, deadline=None)
TestTurmoil = Turmoil.TestCase


def test_a_guest_with_the_key_cannot_depose_a_host_that_is_still_here() -> None:
    """A seated guest signs ``host`` and ``tick`` messages of a newer epoch with the
    room's key, to every device: the host stays, the others keep following it."""
    room = Room("royal", 3)
    _into(room, 4)
    room.net.signers["A"] = room.net.key.private  # the key, however it was got
    send = room.net.sender("A")
    for peer in ("H", "B", "C"):
        send(peer, json.dumps({"t": "host", "epoch": 7}))
        send(peer, json.dumps({"t": "tick", "version": 0, "at": 0, "epoch": 7}))
    room.net.settle()
    room.beat(2)
    assert not room.host.superseded
    for peer in ("B", "C"):
        guest = room.guests[peer]
        assert guest.host == "H" and guest.epoch == 0 and guest.status == "joined"
        assert "H" not in guest.stale
    room.net.signers.pop("A")
    before = room.table.state.version
    _into(room, 6)
    assert room.table.over or room.table.state.version > before, "the game goes on"


def test_an_heir_that_sends_a_garbage_share_delays_the_succession_but_cannot_stop_it() -> None:
    """Ben answers the successor's claim first, with a share that opens nothing: it is
    refused, Cleo's share is taken at the next beat and the game goes on."""
    room = Room("minister", 8)
    _into(room, 10)
    ben = room.guests["B"]
    ben.backups = [replace(b, share=b.share[:4] + "AAAA" + b.share[8:]) for b in ben.backups]
    room.vanish()
    room.succeed()
    assert room.refused >= 1, "the garbage share was tried"
    assert room.host_peer == "A"
    room.play()


def test_an_heir_that_never_answers_is_not_waited_for_again_until_it_does() -> None:
    """Cleo never says she keeps a backup: the first move waits ``ACK_WAIT_MS`` for her,
    the next ones are told at once; once she answers again she is waited for again."""
    room = Room("dilemmas", 1)
    cleo = room.guests["C"]
    keeps = cleo._keep
    cleo._keep = lambda msg: None  # type: ignore[method-assign]  # a hostile heir's page
    room.host.submit(
        engine.moves.concrete(room.host.view_for(room.host.me)["legal_moves"][0], room.rng.randint)
    )
    room.net.settle()
    wake = room.host.next_wakeup()
    assert wake is not None
    room.net.clock = wake
    room.host.advance()
    room.net.settle()
    for _ in range(4):
        mover = next((p, g) for p, g in room.guests.items() if g.view and g.view["legal_moves"])
        mover[1].submit(engine.moves.concrete(mover[1].view["legal_moves"][0], room.rng.randint))
        room.net.settle()
        version = room.table.state.version
        assert room.guests["A"].version == version, "told at once, without waiting for Cleo"
    cleo._keep = keeps  # type: ignore[method-assign]
    room.beat()
    mover = next((p, g) for p, g in room.guests.items() if g.view and g.view["legal_moves"])
    mover[1].submit(engine.moves.concrete(mover[1].view["legal_moves"][0], room.rng.randint))
    room.net.settle()
    assert room.host._held is None and room.host._slow == set()
