"""Dilemma by Alex Randolph, for 3-5 players: provoke, throw, duel.

A round:
  challenge  the agent provocateur (holder of the stumbling block) places a card;
  react      a timed reaction window: the others may throw cards at it; each
             throw is a gesture the throw model turns into a landing; the
             table's clock closes the window (``close``, an authority move);
  duel       the provocateur and the owner of the duelling card secretly choose
             peace or conflict; both choices are revealed together.
Then the stumbling block passes to the next seat holding cards. The game ends
when at most one player holds cards; won cards score their values.
Hidden: only a duellist's choice until both have chosen, and the generator.
Rulings: static/rules/dilemma.html, 'Rulings'.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from quandary.engine import (
    Clock,
    CorruptState,
    Event,
    MalformedMove,
    Progress,
    Result,
    Rng,
    Story,
    moves,
)
from quandary.engine.spec import Chooser, Json, Move

from . import arena, duel, throw
from .spec import SPEC
from .state import Card, RandolphState, Throw, Window, starting_lives
from .view import (
    Closing,
    RandolphStory,
    SecondWindow,
    Settled,
    WindowClosed,
    landed_json,
    table_view,
)

_FIELDS: dict[str, dict[str, type]] = {
    "challenge": {"card": int},
    "throw": {"card": int, "aim": int, "power": int, "spin": int, "at": int},
    "close": {"at": int},
    "duel": {"choice": str},
}


class Randolph:
    """Dilemma (Alex Randolph) as an engine ``Game``."""

    spec = SPEC
    state_type = RandolphState

    def setup(self, players: int, options: dict[str, Any], rng: Rng) -> RandolphState:
        """Everyone holds 1-10 and their life blocks; seat 0 holds the stumbling block."""
        return RandolphState(
            game=SPEC.id,
            version=0,
            rng=rng.state,
            players=players,
            options=options,
            round=1,
            phase="challenge",
            provocateur=0,
            hands=tuple(tuple(range(1, 11)) for _ in range(players)),
            lives=(starting_lives(players),) * players,
            won=((),) * players,
            removed=(),
            challenge=None,
            two_left=False,
            window=None,
            windows_opened=0,
            arena=(),
            duel=None,
            history=(),
            log=(Event("round_started", {"round": 1, "provocateur": 0}),),
        )

    # -- what may be done ------------------------------------------------------

    def waiting_for(self, state: RandolphState) -> list[int]:
        """The provocateur to challenge, the seats that may still throw, or the duellists."""
        if state.phase == "challenge":
            return [state.provocateur]
        if state.phase == "react":
            return [s for s in range(state.players) if _throws(state, s)]
        if state.phase == "duel":
            return duel.undecided(state)
        return []

    def legal_moves(self, state: RandolphState, seat: int) -> list[Move]:
        """Every move ``seat`` may make now; a throw is a template with ranges.

        The close at the deadline is listed for the provocateur (the clock's seat)
        so that the engine can check the clock's move; no seat ever sees it.
        """
        if state.phase == "challenge" and seat == state.provocateur:
            return [{"type": "challenge", "card": v} for v in state.hands[seat]]
        if state.phase == "react":
            if seat == state.provocateur:
                return [{"type": "close", "at": _deadline(state)}]
            return _throws(state, seat)
        if state.phase == "duel":
            return duel.choices_for(state, seat)
        return []

    def check_shape(self, move: Move) -> None:
        """A move must have a known type, exactly its fields, and whole numbers."""
        moves.check_fields(move, _FIELDS, SPEC.title)
        if move["type"] == "duel" and move["choice"] not in ("peace", "conflict"):
            raise MalformedMove("A duel choice is either peace or conflict.")

    def explain_illegal(self, state: RandolphState, seat: int, move: Move) -> str:
        """Why a well-formed move is refused, in the rulebook's words."""
        kind = move["type"]
        if state.phase == "challenge":
            if kind != "challenge":
                return "First the agent provocateur places a challenge card."
            return f"You do not hold a {move['card']}."
        if state.phase == "duel":
            if kind != "duel":
                return "Now is the duel: choose peace or conflict."
            return "You have no life block left, so you can only choose peace."
        if seat == state.provocateur:
            if kind == "throw":
                return "The agent provocateur places the challenge card and does not throw."
            if kind == "close":
                return f"The reaction window stays open until {_deadline(state)} ms."
            return "The others are reacting to your challenge now."
        if kind != "throw":
            return "The reaction window is open: throw a card or let it pass."
        return _explain_throw(state, seat, move)

    # -- what happens ------------------------------------------------------------

    def transition(self, state: RandolphState, seat: int, move: Move) -> RandolphState:
        """Place the challenge card, land a throw, close the window or record a duel choice."""
        if move["type"] == "challenge":
            return _place_challenge(state, move["card"])
        if move["type"] == "throw":
            return _throw(state, seat, move)
        if move["type"] == "close":
            return _close(state, move["at"])
        return duel.choose(state, seat, move["choice"])

    def clock(self, state: RandolphState) -> Clock | None:
        """The open reaction window, which the table's clock closes at its deadline."""
        if state.phase != "react" or state.window is None:
            return None
        throws = _open_throws(state)
        return Clock(
            window=state.window.id,
            deadline=arena.deadline(throws, _timing(state)),
            floor=arena.floor(throws),
            seat=state.provocateur,
            due={"type": "close"},
            lead=_timing(state).lead,
        )

    # -- what each seat sees -----------------------------------------------------

    def progress(self, state: RandolphState) -> Progress:
        """No bound on rounds worth telling: play goes on while two players hold cards."""
        scores = tuple(duel.scores(state))
        return Progress(state.phase, state.round, None, False, scores)

    def view(self, state: RandolphState, seat: int | None) -> dict[str, Any]:
        """The whole table: in this game every card is seen, only duel choices wait."""
        return dict(table_view(state, SPEC.title, _timing(state)))

    def result(self, state: RandolphState) -> Result[Story] | None:
        """Final scores and every seat with the top score (a tie is a shared win)."""
        if state.phase != "over":
            return None
        return moves.final_result(duel.scores(state))

    def score_history(self, state: RandolphState) -> list[list[int]]:
        """Every seat's score after each challenge: won cards are never lost again."""
        totals, out = [0] * state.players, []
        for record in state.history:
            totals = [t + sum(g) for t, g in zip(totals, record.gains, strict=True)]
            out.append(totals)
        return out

    def story(self, state: RandolphState) -> RandolphStory:
        """The last duel the (first) winner won, or the challenge from which they led."""
        scores = duel.scores(state)
        winner = max(range(state.players), key=lambda s: (scores[s], -s))
        for record in reversed(state.history):
            if record.reason == "duel" and record.winner == winner and record.opponent is not None:
                rival = record.opponent if winner == record.provocateur else record.provocateur
                points = sum(record.gains[winner])
                return {
                    "kind": "duel",
                    "seat": winner,
                    "round": record.round,
                    "rival": rival,
                    "points": points,
                }
        return {"kind": "lead", **moves.lead_story(self.score_history(state), winner)}

    # -- audits used by the conformance suite ------------------------------------

    def cards(self, state: RandolphState) -> list[str]:
        """Every card: hands, the challenge card, cards resting in the arena, won, removed."""
        out = [Card(s, v).id for s, hand in enumerate(state.hands) for v in hand]
        if state.challenge is not None:
            out.append(Card(state.provocateur, state.challenge).id)
        out += [Card(t.seat, t.card).id for t in state.arena if t.status in ("pending", "duelling")]
        out += [c.id for pile in state.won for c in pile]
        out += [c.id for c in state.removed]
        return out

    def secrets(self, state: RandolphState, seat: int | None) -> set[str]:
        """The generator state (it would tell how the next throw lands).

        A pending duel choice is a word ("peace") that past rounds show openly, so
        it cannot be listed as a string here; instead the view never holds
        ``Duel.choices`` before both are in (the suite's secret-submission check
        and ``test_a_duel_choice_stays_secret`` watch that).
        """
        return {str(state.rng)}

    def redeal(
        self, state: RandolphState, keep: frozenset[int], rng: Rng, choose: Chooser
    ) -> RandolphState:
        """Every card is public here: only an unrevealed duel choice and the generator.

        A duellist outside ``keep`` who has chosen chooses again; the throws to
        come land by a new generator.
        """
        out = replace(state, rng=rng.next64())
        if state.duel is None:
            return out
        choices = list(state.duel.choices)
        for i, who in enumerate(duel.duellists(state)):
            if who in keep or choices[i] is None:
                continue
            choices[i] = None
            cleared = replace(out, duel=replace(state.duel, choices=(choices[0], choices[1])))
            picked = choose(cleared, who)
            if picked not in duel.choices_for(cleared, who):
                raise CorruptState(f"Seat {who} cannot choose {picked!r} in this duel.")
            choices[i] = picked["choice"]
        return replace(out, duel=replace(state.duel, choices=(choices[0], choices[1])))

    def hidden(self, state: RandolphState, seat: int) -> Json:
        """A duellist's choice while the other has not chosen (else nothing)."""
        return {"choice": _choice_of(state, seat)}

    def reinstate(self, state: RandolphState, parts: Mapping[int, Json]) -> RandolphState:
        """Each duellist's choice as its owner says; it must be one it could make."""
        if state.duel is None:
            if any(part["choice"] is not None for part in parts.values()):
                raise CorruptState("There is no duel to have chosen in.")
            return state
        choices = list(state.duel.choices)
        for i, who in enumerate(duel.duellists(state)):
            if who not in parts:
                continue
            told = parts[who]["choice"]
            if (told is None) != (choices[i] is None):
                raise CorruptState(f"Seat {who} tells a choice the table does not show.")
            if told is not None:
                choices[i] = None
                cleared = replace(state, duel=replace(state.duel, choices=(choices[0], choices[1])))
                if {"type": "duel", "choice": told} not in duel.choices_for(cleared, who):
                    raise CorruptState(f"Seat {who} could not have chosen {told!r}.")
                choices[i] = told
        others = set(parts) - set(duel.duellists(state))
        if any(parts[o]["choice"] is not None for o in others):
            raise CorruptState("A seat outside the duel says it chose in it.")
        return replace(state, duel=replace(state.duel, choices=(choices[0], choices[1])))


def _choice_of(state: RandolphState, seat: int) -> str | None:
    """``seat``'s duel choice, if it is a duellist and has made one."""
    if state.duel is None or seat not in duel.duellists(state):
        return None
    return state.duel.choices[duel.duellists(state).index(seat)]


def _timing(state: RandolphState) -> arena.Timing:
    return arena.TIMINGS[state.options["window"]]


def _window_number(state: RandolphState) -> int:
    return 2 if state.window is not None and state.window.second else 1


def _open_throws(state: RandolphState) -> tuple[Throw, ...]:
    return arena.current(state.arena, _window_number(state))


def _deadline(state: RandolphState) -> int:
    return arena.deadline(_open_throws(state), _timing(state))


def _throws(state: RandolphState, seat: int) -> list[Move]:
    """A throw template per card ``seat`` holds, while it may still release one."""
    if state.phase != "react" or seat == state.provocateur or not state.hands[seat]:
        return []
    throws = _open_throws(state)
    low = arena.earliest_release(throws, seat)
    high = arena.release_limit(throws, _timing(state))
    if low > high:
        return []
    return [
        {
            "type": "throw",
            "card": v,
            "aim": {"min": -throw.AIM_LIMIT, "max": throw.AIM_LIMIT},
            "power": {"min": 0, "max": throw.POWER_MAX},
            "spin": {"min": -throw.SPIN_LIMIT, "max": throw.SPIN_LIMIT},
            "at": {"min": low, "max": high},
        }
        for v in state.hands[seat]
    ]


def _explain_throw(state: RandolphState, seat: int, move: Move) -> str:
    if move["card"] not in state.hands[seat]:
        return f"You do not hold a {move['card']} to throw."
    if abs(move["aim"]) > throw.AIM_LIMIT:
        return f"Aim between -{throw.AIM_LIMIT} and {throw.AIM_LIMIT} degrees."
    if not 0 <= move["power"] <= throw.POWER_MAX:
        return f"The power of a throw is from 0 to {throw.POWER_MAX}."
    if abs(move["spin"]) > throw.SPIN_LIMIT:
        return f"Spin is from -{throw.SPIN_LIMIT} to {throw.SPIN_LIMIT}."
    throws = _open_throws(state)
    if move["at"] > arena.release_limit(throws, _timing(state)):
        return "Too late: the reaction window had closed before that throw."
    if move["at"] < 0:
        return "A card cannot be thrown before the challenge card is placed."
    return f"Hands are not that fast: leave {arena.MIN_GAP} ms between two of your throws."


def _brief(t: Throw) -> Settled:
    """A settled throw in a log event: the arena in the view has the rest."""
    return {"seat": t.seat, "card": t.card, "status": t.status, "reason": t.reason}


def _place_challenge(state: RandolphState, card: int) -> RandolphState:
    p = state.provocateur
    hands = list(state.hands)
    hands[p] = tuple(v for v in hands[p] if v != card)
    return replace(
        state,
        phase="react",
        hands=tuple(hands),
        challenge=card,
        window=Window(state.windows_opened + 1, False, state.round),
        windows_opened=state.windows_opened + 1,
        log=(
            *state.log,
            Event("challenge_placed", {"round": state.round, "seat": p, "card": card}),
        ),
    )


def _throw(state: RandolphState, seat: int, move: Move) -> RandolphState:
    """Land a thrown card: the throw model decides where, from the gesture and the rng."""
    rng = Rng(state.rng)
    aim, power, spin, at = move["aim"], move["power"], move["spin"], move["at"]
    flight = throw.land(aim, power, spin, seat, state.players, rng)
    thrown = Throw(
        seat=seat,
        card=move["card"],
        window=_window_number(state),
        at=at,
        flight=flight.flight,
        landing=flight.landing,
        x=flight.x,
        y=flight.y,
        rotation=flight.rotation,
        status="pending",
        reason=None,
    )
    hands = list(state.hands)
    hands[seat] = tuple(v for v in hands[seat] if v != move["card"])
    ordered = arena.landing_order((*state.arena, thrown), state.provocateur, state.players)
    event = Event("card_landed", {"round": state.round, **landed_json(thrown)})
    return replace(state, rng=rng.state, hands=tuple(hands), arena=ordered, log=(*state.log, event))


def _close(state: RandolphState, at: int) -> RandolphState:
    """Settle the window: a duel, a second window once, or the provocateur keeps the card."""
    window, challenge = state.window, state.challenge
    assert window is not None and challenge is not None
    number = _window_number(state)
    settled = arena.settle(_open_throws(state), challenge, state.two_left)
    hands = [list(h) for h in state.hands]
    removed = list(state.removed)
    for t in settled:
        if t.status == "returned":
            hands[t.seat].append(t.card)
        elif t.status in ("removed", "invalid"):
            removed.append(Card(t.seat, t.card))
    kept = tuple(t for t in state.arena if t.window != number)
    state = replace(
        state,
        hands=tuple(tuple(sorted(h)) for h in hands),
        removed=tuple(removed),
        arena=kept + settled,
    )
    winner = next((t for t in settled if t.status == "duelling"), None)
    outcome: Closing
    if winner is not None:
        outcome = "duel"
    elif settled and number == 1:
        outcome = "second_window"
    else:
        outcome = "kept"
    closed: WindowClosed = {
        "round": state.round,
        "window": window.id,
        "second": window.second,
        "at": at,
        "outcome": outcome,
        "duelling": _brief(winner) if winner is not None else None,
        "settled": [_brief(t) for t in settled],
    }
    log = (*state.log, Event("window_closed", closed))
    if winner is not None:
        return replace(
            state,
            phase="duel",
            window=None,
            duel=duel.start(winner.seat, winner.card),
            log=log,
        )
    if outcome == "second_window":
        opened = Window(state.windows_opened + 1, True, state.round)
        second: SecondWindow = {
            "round": state.round,
            "window": opened.id,
            "deadline": _timing(state).cap,
        }
        return replace(
            state,
            window=opened,
            windows_opened=opened.id,
            log=(*log, Event("second_window", second)),
        )
    return duel.keep(replace(state, window=None, log=log))
