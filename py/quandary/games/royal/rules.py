"""Royal Dilemma, for 2-4 players: an iterated prisoner's dilemma with royal strength.

Seats are the Ace of Spades, the Jack of Clubs, the Queen of Hearts and the
King of Diamonds. A round: everyone draws value cards, then in secret plays a
target card and a value card, or passes (stage ``choose``, simultaneous).
All choices are revealed together and the round resolves step by step in
``resolution``: builders, battles, invasions. When an invader may capture one
of several cards, only that player acts (stage ``capture``). The game ends when
the deck cannot cover a round's draw; cards in play score, own suit doubled.
Hidden: the value cards in hand, the deck's order, unrevealed choices, and the
cards a realm with nothing in play surrenders (known to the two seats only).
Rulings: static/rules/royal-dilemma.html, 'Rulings'.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from quandary.engine import Event, Progress, Result, Rng, Story, moves
from quandary.engine.spec import Chooser, Json, Move

from . import dealing, resolution
from .cards import (
    FACES,
    SUITS,
    card_name,
    rank_of,
    seat_face,
    seat_title,
    target_cards,
    value_deck,
)
from .spec import SPEC
from .state import RoyalState
from .view import RoyalStory

_FIELDS: dict[str, dict[str, type]] = {
    "choose": {"target": str, "value": str},
    "pass": {},
    "capture": {"card": str},
    "decline": {},
}


class Royal:
    """Royal Dilemma as an engine ``Game``."""

    spec = SPEC
    state_type = RoyalState

    # -- setup ---------------------------------------------------------------

    def setup(self, players: int, options: dict[str, Any], rng: Rng) -> RoyalState:
        """Shuffle the 36 value cards, put one into play for each seat, deal round 1."""
        deck = rng.shuffled(value_deck())
        realms = tuple((deck.pop(),) for _ in range(players))
        state = RoyalState(
            game=SPEC.id,
            version=0,
            rng=rng.state,
            players=players,
            options=options,
            round=0,
            stage="choose",
            hands=((),) * players,
            realms=realms,
            deck=tuple(deck),
            discard=(),
            pending=(None,) * players,
            draws=(0,) * players,
            choices=(None,) * players,
            table=(None,) * players,
            queue=(),
            steps=(),
            capture=None,
            history=(),
            log=(Event("game_started", {"realms": [list(r) for r in realms]}),),
        )
        return resolution.start_round(state, 1)

    # -- what may be done ------------------------------------------------------

    def waiting_for(self, state: RoyalState) -> list[int]:
        """Seats still to choose, or the invader who must pick a capture."""
        if state.stage == "choose":
            return [s for s in range(state.players) if state.pending[s] is None]
        if state.stage == "capture" and state.capture is not None:
            return [state.capture.step.seat]
        return []

    def legal_moves(self, state: RoyalState, seat: int) -> list[Move]:
        """Pass or every target card with every value card; or every capture plus declining."""
        if seat not in self.waiting_for(state):
            return []
        if state.stage == "capture":
            assert state.capture is not None
            options = [{"type": "capture", "card": c} for c in state.capture.options]
            return [*options, {"type": "decline"}]
        offered: list[Move] = [{"type": "pass"}]
        for target in target_cards(seat, state.players):
            offered += [{"type": "choose", "target": target, "value": v} for v in state.hands[seat]]
        return offered

    def check_shape(self, move: Move) -> None:
        """A move must have a known type and exactly that type's fields."""
        moves.check_fields(move, _FIELDS, SPEC.title)

    def explain_illegal(self, state: RoyalState, seat: int, move: Move) -> str:
        """Why a well-formed move is refused, in the rulebook's words."""
        kind = move["type"]
        if state.stage == "capture":
            if kind in ("choose", "pass"):
                return "The round is resolving: choose what to capture, or capture nothing."
            return _explain_capture(state, move["card"])
        if kind in ("capture", "decline"):
            return "Nobody is invading yet: choose a target card and a value card, or pass."
        target, value = move["target"], move["value"]
        if target not in target_cards(seat, state.players):
            return f"You do not hold the target card {_named(target)}."
        if value not in _VALUES:
            return f"{_named(value)} is not a value card: play a numbered card from your hand."
        return f"You do not hold the {_named(value)}."

    # -- what happens ------------------------------------------------------------

    def transition(self, state: RoyalState, seat: int, move: Move) -> RoyalState:
        """A secret choice waits for the others; the last one reveals and resolves the round."""
        if move["type"] == "capture":
            return resolution.capture(state, move["card"])
        if move["type"] == "decline":
            return resolution.capture(state, None)
        pending = list(state.pending)
        pending[seat] = dict(move)
        state = replace(
            state,
            pending=tuple(pending),
            log=(*state.log, Event("submitted", {"seat": seat, "round": state.round})),
        )
        if any(p is None for p in pending):
            return state
        return resolution.reveal(state)

    # -- what each seat sees -----------------------------------------------------

    def progress(self, state: RoyalState) -> Progress:
        """At most as many rounds as the deck can still cover: "at most 6 rounds".

        The bound is exact once the deck cannot cover even this round's draw again
        (draws never shrink): then this round is certainly the last, "round 2 of 2".
        """
        need = resolution.draw_need(state.realms, state.players)
        scores = resolution.scores(state.realms)
        most = _most_rounds(state, need)
        return Progress(state.stage, state.round, most, most == state.round, scores)

    def view(self, state: RoyalState, seat: int | None) -> dict[str, Any]:
        """The table as ``seat`` may see it: realms, counts, revealed steps, its own hand."""
        need = resolution.draw_need(state.realms, state.players)
        out: dict[str, Any] = {
            "title": SPEC.title,
            "faces": [seat_face(s) for s in range(state.players)],
            "realms": [list(r) for r in state.realms],
            "hand_sizes": [len(h) for h in state.hands],
            "deck": len(state.deck),
            "discard": len(state.discard),
            "draws": list(state.draws),
            "next_draw": list(need),
            "submitted": [p is not None for p in state.pending],
            "choices": resolution.choices_json(state.choices),
            "table": list(state.table),
            "steps": [resolution.step_json(s, seat) for s in state.steps],
            "capture": _capture_json(state, seat),
            "history": [_record_json(r, seat) for r in state.history],
        }
        if seat is not None:
            out["hand"] = list(state.hands[seat])
            out["targets"] = list(target_cards(seat, state.players))
            out["my_choice"] = state.pending[seat]
        return out

    def result(self, state: RoyalState) -> Result[Story] | None:
        """Final scores and every seat with the top score (a tie is a shared win)."""
        if state.stage != "over":
            return None
        return moves.final_result(list(resolution.scores(state.realms)))

    def score_history(self, state: RoyalState) -> list[list[int]]:
        """Every seat's score after each round, as each round's record keeps it."""
        return [list(record.scores) for record in state.history]

    def story(self, state: RoyalState) -> RoyalStory:
        """The (first) winner's last capture, or the round from which they led."""
        scores = resolution.scores(state.realms)
        winner = max(range(state.players), key=lambda s: (scores[s], -s))
        for record in reversed(state.history):
            for step in reversed(record.steps):
                if step.seat == winner and step.captured is not None:
                    return {
                        "kind": "capture",
                        "seat": winner,
                        "round": record.round,
                        "card": step.captured,
                        "from": step.target,
                    }
        return {"kind": "lead", **moves.lead_story(self.score_history(state), winner)}

    # -- audits used by the conformance suite ------------------------------------

    def cards(self, state: RoyalState) -> list[str]:
        """Every card in every zone: deck, discard, hands, realms, the table, target cards."""
        out = list(state.deck) + list(state.discard)
        for seat in range(state.players):
            out += state.hands[seat] + state.realms[seat]
            out += target_cards(seat, state.players)
        out += [c for c in state.table if c is not None]
        return out

    def secrets(self, state: RoyalState, seat: int | None) -> set[str]:
        """Other hands, the deck and the generator: never in this seat's view.

        A value card revealed in a choice is public from then on, wherever it
        went; a surrendered card is known to the two seats it passed between.
        """
        hidden = {str(state.rng)} | set(state.deck)
        for other, hand in enumerate(state.hands):
            if other != seat:
                hidden |= set(hand)
        rounds = [(r.choices, r.steps) for r in state.history] + [(state.choices, state.steps)]
        for choices, steps in rounds:
            hidden -= {c.card for c in choices if c is not None}
            for step in steps:
                if seat in (step.seat, step.target):
                    hidden -= set(step.surrendered)
        return hidden

    # -- dealing again when a room's host leaves (RULINGS §5) ---------------------

    def redeal(
        self, state: RoyalState, keep: frozenset[int], rng: Rng, choose: Chooser
    ) -> RoyalState:
        """Unseen hand cards of the seats not kept, with the deck, dealt anew; their
        pending choices made again (``dealing.redeal`` says what counts as seen)."""
        return dealing.redeal(state, keep, rng, choose, self.legal_moves)

    def hidden(self, state: RoyalState, seat: int) -> Json:
        """The seat's hand and its pending choice: all that only it knows."""
        return dealing.hidden(state, seat)

    def reinstate(self, state: RoyalState, parts: Mapping[int, Json]) -> RoyalState:
        """Told hands and choices put back; cards the table saw move stay with their holder."""
        return dealing.reinstate(state, parts, self.legal_moves)


_VALUES = frozenset(value_deck())
"""Every value card id, for telling a face card or a misspelt id from a card."""


def _named(card: str) -> str:
    """A card id as words, or quoted when it is no card at all."""
    head, suit = card[:-1], card[-1:]
    if suit in SUITS and (head in FACES or card in _VALUES):
        return card_name(card)
    return repr(card)


def _explain_capture(state: RoyalState, card: str) -> str:
    pending = state.capture
    assert pending is not None
    step = pending.step
    owner = seat_title(step.target)
    if card not in state.realms[step.target]:
        return f"The {owner} does not control the {_named(card)}: capture a card in that realm."
    return (
        f"The {card_name(card)} is worth {rank_of(card)}, more than your strength of"
        f" {step.strength}."
    )


def _capture_json(state: RoyalState, seat: int | None) -> dict[str, Any] | None:
    if state.capture is None:
        return None
    return {
        "step": resolution.step_json(state.capture.step, seat),
        "options": list(state.capture.options),
    }


def _record_json(record: Any, seat: int | None) -> dict[str, Any]:
    return {
        "round": record.round,
        "draws": list(record.draws),
        "choices": resolution.choices_json(record.choices),
        "steps": [resolution.step_json(s, seat) for s in record.steps],
        "scores": list(record.scores),
    }


def _most_rounds(state: RoyalState, need: tuple[int, ...]) -> int:
    """The last round the deck could possibly cover: draws never shrink, the deck never grows.

    The bound is taken from this round's own draw, not from the cards now in
    play, so it holds still while the round resolves (captures and builds only
    make the next draw bigger, which the next round's bound then shows).
    """
    if state.stage == "over":
        return state.round
    drawn = sum(state.draws) or sum(need)
    return state.round + len(state.deck) // max(1, drawn)
