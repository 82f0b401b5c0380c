"""A seat passes to a bot when its player is gone for a while, and back when they return.

Whole games of every kind over the in-memory network: a guest's connection
closes at a random step (any phase, Dilemma's throw windows and duels
included), the host is offered a bot for that seat after the room's waiting
time (sooner on the player's own turn), a bot takes the seat by itself after the
longer limit, and the game goes on to its end. A guest who comes back with
their link gets the seat back at once, with their hand and the log of what the
bot did.
"""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest

from quandary import engine
from quandary.engine import BadSetup, GameError
from quandary.net.guest import RoomGuest
from quandary.net.host import PATIENCE, TURN_SHARE, RoomHost

from .memnet import Network

GAMES = [g.spec.id for g in engine.all_games()]
OFFER, AUTO = PATIENCE["normal"]
STEP_LIMIT = 6000
LEAVE_WITHIN = {"royal": 2}
"""Steps before a guest leaves, at most (Royal Dilemma's games are short); else 20."""


class Room:
    """A host (seat 0), guests Anna (seat 1) and Ben (seat 2) and a bot (seat 3)."""

    def __init__(self, game_id: str, seed: int) -> None:
        self.rng = random.Random(seed)
        self.net = Network()
        self.time = 0.0
        self.host = RoomHost(
            self.net.sender("H", self.net.key.private),
            self.net.make_id,
            lambda: seed,
            "Hana",
            now=lambda: self.time + self.net.clock,
        )
        self.net.connect("H", self.host)
        self.host.configure(game=game_id)
        self.host.set_seat_count(4)
        self.host.set_seat_kind(3, "bot", "random")
        self.guests: dict[int, RoomGuest] = {
            1: self.net.add_guest("A", "Anna"),
            2: self.net.add_guest("B", "Ben"),
        }
        self.net.settle()
        for seat, guest in self.guests.items():
            guest.sit(seat)
        self.net.settle()
        self.host.start()
        self.net.settle()
        self.spec = engine.get(game_id).spec

    @property
    def table(self) -> Any:
        assert self.host.table is not None
        return self.host.table

    def step(self) -> None:
        """One random move by someone present, or the clock moving on."""
        self.net.settle()
        actors = [(0, self.host.view_for(self.host.me))] + [
            (s, g.view) for s, g in self.guests.items() if g.view is not None
        ]
        choices = [
            (seat, m)
            for seat, view in actors
            for m in (view or {}).get("legal_moves", [])
            if m["type"] not in self.spec.authority_moves
        ]
        wake = self.host.next_wakeup()
        if choices and (wake is None or self.rng.random() < 0.5):
            seat, template = self.rng.choice(choices)
            move = engine.moves.concrete(template, self.rng.randint)
            if seat == 0:
                with contextlib.suppress(GameError):  # a throw after its window closed
                    self.host.submit(move)
            else:
                self.guests[seat].submit(move)
        elif wake is not None:
            self.time = max(self.time, min(wake, self.time + self.rng.randint(100, 1500)))
            self.host.advance()
        else:
            # Nobody here can act and no clock runs: only the absent seat could.
            version = self.table.state.version
            self.wait(AUTO)
            if self.table.state.version == version:
                pytest.fail("the table waits forever for an absent player")
        self.net.settle()

    def wait(self, ms: float) -> None:
        """Time passes with the host's timer beating (every two seconds)."""
        end = self.time + ms
        while self.time < end:
            self.time = min(end, self.time + 2000)
            self.host.tick()
            self.host.advance()
            self.net.settle()

    def leave(self, seat: int) -> str:
        """The guest in ``seat`` closes the tab; returns its token for a later return."""
        guest = self.guests.pop(seat)
        token = guest.token
        assert token is not None
        self.net.disconnect(guest.peer_id)  # type: ignore[attr-defined]
        return token

    def come_back(self, seat: int, token: str, peer: str) -> RoomGuest:
        guest = self.net.add_guest(peer, "Anna", token)
        self.net.settle()
        self.guests[seat] = guest
        return guest

    def play(self, until: Any = lambda: False) -> None:
        for _ in range(STEP_LIMIT):
            if self.table.over or until():
                return
            self.step()
        pytest.fail(f"{self.spec.id} did not end within {STEP_LIMIT} steps")


def _into_the_game(room: Room, steps: int) -> None:
    """Play ``steps`` random steps (fewer if the game ends first)."""
    for _ in range(steps):
        if room.table.over:
            return
        room.step()


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("game_id", GAMES)
def test_a_guest_who_leaves_is_played_by_a_bot_and_the_game_ends(game_id: str, seed: int) -> None:
    room = Room(game_id, seed)
    _into_the_game(room, room.rng.randint(0, LEAVE_WITHIN.get(game_id, 20)))
    if room.table.over:
        pytest.skip("this seed's game ended before the guest could leave")
    room.leave(1)
    assert room.host.absent() == []
    room.wait(OFFER)
    assert room.host.absent() == [1], "after the waiting time the host is offered a bot"
    room.wait(AUTO - OFFER)
    assert room.table.seats[1].covered, "after the longer limit a bot takes the seat itself"
    assert room.host.view_for(room.host.me)["kinds"][1] == "covered"
    assert room.guests[2].view["kinds"][1] == "covered", "every device shows it"
    room.play()
    assert room.table.over
    assert room.host.leaks == 0 and room.host.errors == 0


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("game_id", GAMES)
def test_a_guest_who_comes_back_gets_the_seat_and_hand_back(game_id: str, seed: int) -> None:
    room = Room(game_id, seed)
    _into_the_game(room, room.rng.randint(0, LEAVE_WITHIN.get(game_id, 20)))
    if room.table.over:
        pytest.skip("this seed's game ended before the guest could leave")
    token = room.leave(1)
    room.wait(OFFER)
    room.host.cover(1)  # the host takes the offer
    moves_before = len(room.table.record.moves)
    room.play(until=lambda: len(room.table.record.moves) >= moves_before + 6)
    bot_moves = [m for m in room.table.record.moves[moves_before:] if m[0] == 1]
    anna = room.come_back(1, token, "A2")
    assert not room.table.seats[1].covered, "the seat is hers again at once"
    assert room.host.absent() == []
    if room.table.over:
        return
    view = anna.view
    assert view is not None and view["seat"] == 1 and view["kinds"][1] == "human"
    assert view == room.table.view(1), "she sees her own hand and the table as it is"
    if bot_moves:
        assert view["log"], "what the bot did is in the log"
    room.play()
    assert room.table.over
    assert room.host.leaks == 0 and room.host.errors == 0


def test_the_offer_comes_sooner_on_the_absent_players_own_turn() -> None:
    room = Room("dilemmas", 1)
    waiting = engine.game_of(room.table.state).waiting_for(room.table.state)
    assert 1 in waiting, "everyone builds at the start of The Game of Dilemmas"
    room.leave(1)
    room.wait(OFFER // TURN_SHARE - 2000)
    assert room.host.absent() == []
    room.wait(2000)
    assert room.host.absent() == [1]


def test_nobody_present_can_be_covered_and_the_waiting_time_is_a_setting() -> None:
    room = Room("royal", 2)
    with pytest.raises(BadSetup, match="That player is here"):
        room.host.cover(1)
    room.host.set_patience("short")
    room.leave(2)
    room.wait(PATIENCE["short"][1])
    assert room.table.seats[2].covered
    with pytest.raises(BadSetup, match="no waiting time"):
        room.host.set_patience("forever")


def test_a_covered_seat_survives_a_host_reload() -> None:
    room = Room("minister", 3)
    room.leave(2)
    room.wait(AUTO)
    assert room.table.seats[2].covered
    saved = room.host.to_json()
    reborn = RoomHost(
        room.net.sender("H2", room.net.key.private),
        room.net.make_id,
        lambda: 3,
        "Hana",
        now=lambda: room.time,
    )
    reborn.restore(saved)
    assert reborn.table is not None and reborn.table.seats[2].covered
    assert reborn.patience == "normal"


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
def test_a_bot_takes_over_in_every_phase_of_every_game(game_id: str, phase: str) -> None:
    """The same game as the reference, with Anna gone the moment ``phase`` begins."""
    room = Room(game_id, 0)
    while room.table.view(None)["phase"] != phase:
        room.step()
    room.leave(1)
    room.wait(AUTO)
    assert room.table.seats[1].covered
    room.play()
    assert room.table.over and room.host.errors == 0 and room.host.leaks == 0
