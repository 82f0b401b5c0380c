"""Pebbles, for 2-4 players: a bag of numbered pebbles and one secret pick a round.

The bag holds 24 pebbles, three of each number from 1 to 8. It is shuffled and
every player is dealt a hand of three. Each round every player picks a pebble
from their hand in secret (phase ``pick``, simultaneous); when all have picked,
the picks are revealed together. The highest number that only one player threw
scores its value for that player (a number thrown twice cancels out, and then
the next highest unique number scores; if none is unique nobody scores). The
picked pebbles are discarded and everyone draws one from the bag. The game ends
after the agreed number of rounds (three or five), or earlier when the bag
cannot give everyone a pebble; the highest score wins, ties shared.
Hidden: the hands, the bag, and a pick until every pick is in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from quandary.engine import CorruptState, Event, LeadStory, Progress, Result, Rng, Story, moves
from quandary.engine.spec import Chooser, Json, Move

from .spec import HAND, SPEC, bag, number, rounds_at
from .state import PebblesState, Round
from .view import own_view, round_json

_FIELDS: dict[str, dict[str, type]] = {"pick": {"pebble": str}}
_ORDER = {pebble: i for i, pebble in enumerate(bag())}
"""The bag's fixed order: how a hand is held and how a pool is laid out to shuffle."""


def in_order(pebbles: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Pebbles in the bag's fixed order, so a hand never tells the order it was dealt in."""
    return tuple(sorted(pebbles, key=_ORDER.__getitem__))


def scorer(picks: tuple[str, ...]) -> tuple[int | None, int]:
    """Who scores a round and how much: the highest number only one seat threw.

    >>> scorer(("p8a", "p8b", "p3a"))
    (2, 3)
    >>> scorer(("p5a", "p5b"))
    (None, 0)
    """
    counts = Counter(number(p) for p in picks)
    unique = [n for n, c in counts.items() if c == 1]
    if not unique:
        return None, 0
    best = max(unique)
    return next(s for s, p in enumerate(picks) if number(p) == best), best


def last_round(players: int, options: Mapping[str, Any]) -> int:
    """The last round at this table: the agreed count, or fewer if the bag runs out first."""
    return rounds_at(players, int(options["rounds"]))


class Pebbles:
    """Pebbles as an engine ``Game``."""

    spec = SPEC
    state_type = PebblesState

    def setup(self, players: int, options: dict[str, Any], rng: Rng) -> PebblesState:
        """Shuffle the bag and deal every player a hand of three."""
        shuffled = rng.shuffled(bag())
        hands = tuple(in_order(shuffled[HAND * s : HAND * (s + 1)]) for s in range(players))
        return PebblesState(
            game=SPEC.id,
            version=0,
            rng=rng.state,
            players=players,
            options=options,
            round=1,
            phase="pick",
            hands=hands,
            bag=tuple(shuffled[HAND * players :]),
            discard=(),
            picks=(None,) * players,
            scores=(0,) * players,
            history=(),
            log=(Event("game_started", {"rounds": last_round(players, options)}),),
        )

    # -- what may be done ----------------------------------------------------------

    def waiting_for(self, state: PebblesState) -> list[int]:
        """The seats that have not picked yet this round."""
        if state.phase != "pick":
            return []
        return [s for s in range(state.players) if state.picks[s] is None]

    def legal_moves(self, state: PebblesState, seat: int) -> list[Move]:
        """One pick for every pebble in the hand, until the seat has picked."""
        if seat not in self.waiting_for(state):
            return []
        return [{"type": "pick", "pebble": p} for p in state.hands[seat]]

    def check_shape(self, move: Move) -> None:
        """A pick names one pebble, as text."""
        moves.check_fields(move, _FIELDS, SPEC.title)

    def explain_illegal(self, state: PebblesState, seat: int, move: Move) -> str:
        """Why a well-formed pick is refused."""
        if state.phase == "over":
            return "The game is over: there is nothing left to pick."
        if state.picks[seat] is not None:
            return "You have already picked a pebble this round: wait for the others."
        return f"You do not hold the pebble {move['pebble']!r}: pick one from your hand."

    # -- what happens ---------------------------------------------------------------

    def transition(self, state: PebblesState, seat: int, move: Move) -> PebblesState:
        """A pick waits for the others; the last one reveals them and ends the round."""
        picks = list(state.picks)
        picks[seat] = move["pebble"]
        state = replace(
            state,
            picks=tuple(picks),
            log=(*state.log, Event("submitted", {"seat": seat, "round": state.round})),
        )
        if any(p is None for p in picks):
            return state
        return self._reveal(state)

    def _reveal(self, state: PebblesState) -> PebblesState:
        """Every pick shown, the round scored, the picks discarded; draw, or the game ends."""
        picks = tuple(p for p in state.picks if p is not None)
        winner, points = scorer(picks)
        scores = list(state.scores)
        if winner is not None:
            scores[winner] += points
        done = Round(state.round, picks, winner, points)
        hands = [tuple(p for p in hand if p != picks[s]) for s, hand in enumerate(state.hands)]
        log = [Event("round_over", round_json(done))]
        out = replace(
            state,
            picks=(None,) * state.players,
            scores=tuple(scores),
            discard=(*state.discard, *picks),
            history=(*state.history, done),
        )
        if state.round >= last_round(state.players, state.options):
            log.append(Event("game_over", moves.standings(scores)))
            return replace(out, hands=tuple(hands), phase="over", log=(*state.log, *log))
        drawn = state.bag[: state.players]
        hands = [in_order((*hand, drawn[s])) for s, hand in enumerate(hands)]
        return replace(
            out,
            hands=tuple(hands),
            bag=state.bag[state.players :],
            round=state.round + 1,
            log=(*state.log, *log),
        )

    # -- what each seat sees ----------------------------------------------------------

    def progress(self, state: PebblesState) -> Progress:
        """The round of an exactly known number of rounds ("round 2 of 3")."""
        last = last_round(state.players, state.options)
        return Progress(state.phase, state.round, last, True, state.scores)

    def view(self, state: PebblesState, seat: int | None) -> dict[str, Any]:
        """The table as ``seat`` may see it: counts, revealed rounds, its own hand and pick."""
        return dict(own_view(state, seat))

    def result(self, state: PebblesState) -> Result[Story] | None:
        """Final scores and every seat with the top score."""
        if state.phase != "over":
            return None
        return moves.final_result(list(state.scores))

    def score_history(self, state: PebblesState) -> list[list[int]]:
        """Every seat's score after each round."""
        scores = [0] * state.players
        out = []
        for done in state.history:
            if done.winner is not None:
                scores[done.winner] += done.points
            out.append(list(scores))
        return out

    def story(self, state: PebblesState) -> LeadStory:
        """The (first) winner's lead: from which round they were never behind."""
        winner = max(range(state.players), key=lambda s: (state.scores[s], -s))
        return {"kind": "lead", **moves.lead_story(self.score_history(state), winner)}

    # -- audits used by the conformance suite -----------------------------------------

    def cards(self, state: PebblesState) -> list[str]:
        """Every pebble: the bag, the discard and every hand (a pick stays in its hand)."""
        return [*state.bag, *state.discard, *(p for hand in state.hands for p in hand)]

    def secrets(self, state: PebblesState, seat: int | None) -> set[str]:
        """The generator, the bag and every other hand: never in this seat's view."""
        hidden = {str(state.rng), *state.bag}
        for other, hand in enumerate(state.hands):
            if other != seat:
                hidden |= set(hand)
        return hidden

    # -- dealing again when a room's host leaves ----------------------------------------

    def redeal(
        self, state: PebblesState, keep: frozenset[int], rng: Rng, choose: Chooser
    ) -> PebblesState:
        """The hands of the seats not kept pooled with the bag and dealt anew, their
        picks made again. No pebble in a hand was ever seen by another seat (a
        revealed pick is discarded at once), so every one of them is pooled."""
        others = [s for s in range(state.players) if s not in keep]
        pool = [p for s in others for p in state.hands[s]] + list(state.bag)
        dealt = rng.shuffled(in_order(pool))
        hands = list(state.hands)
        for seat in others:
            count = len(state.hands[seat])
            hands[seat], dealt = in_order(dealt[:count]), dealt[count:]
        picks = list(state.picks)
        again = [s for s in others if picks[s] is not None]
        for seat in again:
            picks[seat] = None
        out = replace(state, hands=tuple(hands), bag=tuple(dealt), rng=rng.next64())
        cleared = replace(out, picks=tuple(picks))
        for seat in again:
            picks[seat] = choose(cleared, seat)["pebble"]
        return replace(out, picks=tuple(picks))

    def hidden(self, state: PebblesState, seat: int) -> Json:
        """The seat's hand and its pick this round: all that only it knows."""
        return {"hand": list(state.hands[seat]), "pick": state.picks[seat]}

    def reinstate(self, state: PebblesState, parts: Mapping[int, Json]) -> PebblesState:
        """Told hands and picks put back; each pebble a told hand takes from another
        hand or the bag is swapped with one the teller's world hand held instead."""
        hands = [list(h) for h in state.hands]
        bag_now = list(state.bag)
        picks = list(state.picks)
        told = {seat: [str(p) for p in part["hand"]] for seat, part in parts.items()}
        for seat, hand in told.items():
            if len(hand) != len(hands[seat]) or len(set(hand)) != len(hand):
                raise CorruptState(f"Seat {seat} tells a hand that cannot be its own.")
        wanted = [p for hand in told.values() for p in hand]
        if len(set(wanted)) != len(wanted):
            raise CorruptState("Two seats tell the same pebble in their hands.")
        freed = [p for seat in told for p in hands[seat] if p not in wanted]
        zones = [hands[s] for s in range(state.players) if s not in told] + [bag_now]
        for pebble in (p for p in wanted if not any(p in hands[s] for s in told)):
            zone = next((z for z in zones if pebble in z), None)
            if zone is None:
                raise CorruptState(f"The pebble {pebble!r} is not there to be held.")
            zone[zone.index(pebble)] = freed.pop(0)
        for seat, hand in told.items():
            hands[seat] = list(hand)
            pick = parts[seat]["pick"]
            if (pick is None) != (state.picks[seat] is None):
                raise CorruptState(
                    f"The table shows whether seat {seat} has picked; its part differs."
                )
            if pick is not None and pick not in hand:
                raise CorruptState(f"Seat {seat} tells a pick it cannot have made.")
            picks[seat] = pick
        return replace(
            state,
            hands=tuple(in_order(h) for h in hands),
            bag=tuple(bag_now),
            picks=tuple(picks),
        )
