"""Whole games of every kind over the room protocol, audited without trusting the game.

A host (seat 0), two guests (seats 1 and 2), a bot (seat 3) and a spectator
guest play each game to its end on the in-memory network; guests pick random
legal moves from their own views, and Dilemma's reaction windows run on a clock
the test moves. Two audits use the tests' own resamplers
(``tests/conformance/resample.py``), never the game's ``secrets``:

- at the moment the host sends a message, the view the recipient will hold
  after it must equal what the host would show that seat for resampled states
  (everything the recipient cannot know redealt), and the message's text must
  hold no string of the state that the recipient's views never show;
- after every step, each guest's reconstructed view must equal that too.
"""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import pytest

from quandary import engine
from quandary.engine import GameError
from quandary.net.host import RoomHost
from quandary.table import Table
from tests.conformance.plants import every_hand, pending_duel_for_spectators
from tests.conformance.resample import first_difference, resample

from .memnet import Network

GAMES = [g.spec.id for g in engine.all_games()]
SEATS = 4
"""Every game seats four: host, two guests and a bot."""
STEP_LIMIT = 6000


def strings(data: Any) -> set[str]:
    """Every string value (not key) inside JSON data."""
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return set().union(*map(strings, data.values())) if data else set()
    if isinstance(data, list | tuple):
        return set().union(*map(strings, data)) if data else set()
    return set()


class Audit:
    """Watches every message the host sends and checks it against resampled states."""

    def __init__(self, host: RoomHost, rng: random.Random, tries: int = 1) -> None:
        self.host, self.rng, self.tries = host, rng, tries
        self.failures: list[str] = []
        self.shadow: dict[str, tuple[int, dict[str, Any]]] = {}
        self._cache: dict[tuple[int, int | None], tuple[list[dict[str, Any]], set[str]]] = {}
        self._cache_of: Any = None
        send = host.send_text

        def audited(peer: str, text: str) -> None:
            self.message(peer, text)
            send(peer, text)

        host.send_text = audited

    def expected(self, seat: int | None) -> tuple[list[dict[str, Any]], set[str]]:
        """The host's views for ``seat`` of resampled states, and the strings it never sees.

        A string of the state is never seen if it is missing from the view of the
        real state or of any resample: what the seat knows is in all of them.
        """
        table = self.host.table
        assert table is not None
        state = table.state
        if self._cache_of is not state:
            self._cache_of, self._cache = state, {}
        key = (state.version, seat)
        if key not in self._cache:
            views = [
                Table(table.record, table.seats, resample(state, seat, self.rng)).view(seat)
                for _ in range(self.tries)
            ]
            known = strings(table.view(seat)).intersection(*map(strings, views))
            self._cache[key] = (views, strings(engine.to_json(state)) - known)
        return self._cache[key]

    def message(self, peer: str, text: str) -> None:
        """Check one message as it leaves the host, while its state is the host's state."""
        host = self.host
        member = next((m for m in host.members.values() if m.peer == peer), None)
        if host.table is None or member is None:
            return
        msg = json.loads(text)
        views, unseen = self.expected(member.seat)
        held = strings({k: v for k, v in msg.items() if k != "t"}) & unseen
        if held:
            self.fail(f"a {msg['t']} to seat {member.seat} held {sorted(held)[:3]}")
        if msg["t"] == "snapshot":
            self.shadow[peer] = (msg["version"], msg["view"])
        elif msg["t"] == "update" and self.shadow.get(peer, (None,))[0] == msg["base"]:
            old = self.shadow[peer][1]
            new = {k: v for k, v in old.items() if k not in msg["drop"]} | msg["set"]
            new |= {k: new[k][m["skip"] :] + m["lines"] for k, m in msg["add"].items()}
            self.shadow[peer] = (msg["version"], new)
        else:
            return
        self.compare(self.shadow[peer][1], member.seat, views, f"a {msg['t']}")

    def compare(
        self, held: dict[str, Any], seat: int | None, views: list[dict[str, Any]], what: str
    ) -> None:
        """``held`` must be what the host would show ``seat`` whatever it cannot know."""
        for view in views:
            moved = first_difference(view, held)
            if moved:
                self.fail(f"{what} for seat {seat} differs from a resampled state: {moved}")

    def check_guest(self, guest: Any, seat: int | None) -> None:
        """A guest's reconstructed view, after the network went quiet."""
        views, _ = self.expected(seat)
        self.compare(guest.view, seat, views, "the guest's view")

    def fail(self, text: str) -> None:
        assert self.host.table is not None
        self.failures.append(
            f"{self.host.table.state.game} v{self.host.table.state.version}: {text}"
        )


def play_room(game_id: str, seed: int) -> tuple[RoomHost, Audit]:
    """One whole game over the room protocol, audited at every step."""
    rng = random.Random(seed)
    clock = [0.0]
    net = Network()
    # The table's clock jumps as the test says; each delivery also takes a moment.
    host = RoomHost(
        net.sender("H", net.key.private),
        net.make_id,
        lambda: seed,
        "Hana",
        now=lambda: clock[0] + net.clock,
    )
    net.connect("H", host)
    audit = Audit(host, random.Random(-seed))
    host.configure(game=game_id)
    host.set_seat_count(SEATS)
    host.set_seat_kind(3, "bot", "random")
    guests = {1: net.add_guest("A", "Anna"), 2: net.add_guest("B", "Ben")}
    lou = net.add_guest("L", "Lou")
    net.settle()
    for seat, guest in guests.items():
        guest.sit(seat)
    net.settle()
    host.start()
    spec = engine.get(game_id).spec
    for _ in range(STEP_LIMIT):
        net.settle()
        for seat, guest in [*guests.items(), (None, lou)]:
            audit.check_guest(guest, seat)
        assert host.table is not None
        if host.table.over:
            return host, audit
        actors = [(0, host.view_for(host.me))] + [(s, g.view) for s, g in guests.items()]
        choices = [
            (seat, m)
            for seat, view in actors
            for m in view["legal_moves"]
            if m["type"] not in spec.authority_moves
        ]
        wake = host.next_wakeup()
        if choices and (wake is None or rng.random() < 0.5):
            seat, template = rng.choice(choices)
            move = engine.moves.concrete(template, rng.randint)
            if seat == 0:
                # A throw can come too late for the window: the clock had moved on.
                with contextlib.suppress(GameError):
                    host.submit(move)
            else:
                guests[seat].submit(move)
            continue
        assert wake is not None, "nobody can act and no clock runs"
        clock[0] = min(wake, clock[0] + rng.randint(100, 1500))
        host.advance()
    pytest.fail(f"{game_id} did not end within {STEP_LIMIT} steps")


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("game_id", GAMES)
def test_a_whole_room_game_tells_each_guest_only_what_it_may_know(game_id: str, seed: int) -> None:
    host, audit = play_room(game_id, seed)
    assert audit.failures == []
    assert host.leaks == 0
    assert host.table is not None and len(host.table.record.moves) > 5


def _every_hand_in_royal(monkeypatch: pytest.MonkeyPatch) -> str:
    return every_hand(monkeypatch, "royal")


_pending_duel_for_spectators = pending_duel_for_spectators


@pytest.mark.parametrize("plant", [_every_hand_in_royal, _pending_duel_for_spectators])
def test_a_planted_room_leak_is_caught_though_the_host_trusts_the_game(
    plant: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host's own check trusts ``secrets`` and lets every message out; the audit does not."""
    host, audit = play_room(plant(monkeypatch), seed=0)
    assert host.leaks == 0, "the host's check trusted the game"
    assert any("differs from a resampled state" in f for f in audit.failures)
    assert any(" held " in f for f in audit.failures), "the hidden strings were in the text"
