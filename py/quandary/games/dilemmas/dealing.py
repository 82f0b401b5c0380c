"""Dealing again in The Game of Dilemmas, when a room's host leaves (RULINGS §5).

What is hidden: each player's hand (its positive and negative cards and, with
the Neutral cards variant, its one neutral card), the three draw piles, and
every choice submitted in the current step (a build, a lay, a supply or a
ballot) until the last seat submits and all are revealed together.

What is public: every card that reaches the table (laid coop cards, dilemmas,
and so the discard piles, which hold only revealed cards), how many cards of
each kind every hand holds (everyone starts with four and four and draws back
exactly the kinds the table shows were used), whether a player still holds a
neutral card (using it shows it), and who has submitted.

So the only knowledge a seat has of a card outside its own hand is public:
no card passes face down from one player to another (a coop card is laid face
up before its neighbour completes it from their own hand), and a revealed card
that was shuffled back from a discard pile into a draw pile may since have
reached any hand unseen. Every card a kept seat has not seen is therefore in
the same situation, and dealing again pools, per kind, the draw piles with the
hands of the seats not kept. A submitted choice moves no card (cards leave a
hand only when all choices are revealed), so taking one back leaves the hand as
it is and the choice is made again from the newly dealt hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from quandary.engine import CorruptState, Rng, legal_moves, moves
from quandary.engine.spec import Chooser, Json, Move

from .cards import KINDS, Card, Kind
from .own_cards import deck
from .state import DilemmasState, Hand, Pile

Zones = list[tuple[str, ...]]
"""Several places cards of one kind can be, each in its own order."""

_PART_KEYS = frozenset(("seat", "positive", "negative", "neutral", "pending"))


def redeal(state: DilemmasState, keep: frozenset[int], rng: Rng, choose: Chooser) -> DilemmasState:
    """The table dealt again for the seats in ``keep`` (``Game.redeal``).

    Per kind, the hands of the other seats and the draw pile are pooled, sorted
    (so the deal cannot depend on where the cards really were), shuffled and
    dealt back in the same numbers; discards and the table stay. Each other
    seat's submitted choice is then made again from its new hand.
    """
    others = [s for s in range(state.players) if s not in keep]
    hands = list(state.hands)
    piles = _piles(state)
    for kind in KINDS:
        seats = [s for s in others if _zone(hands[s], kind)]
        zones = [_zone(hands[s], kind) for s in seats] + [piles[kind].draw]
        *dealt, draw = _deal(zones, rng)
        for s, cards in zip(seats, dealt, strict=True):
            hands[s] = _with(hands[s], kind, cards)
        piles[kind] = Pile(draw, piles[kind].discard)
    pending = [None if s in others else p for s, p in enumerate(state.pending)]
    out = _table(state, hands, piles, pending, rng.next64())
    for s in others:
        if state.pending[s] is None:
            continue
        # Seats not yet chosen again show no choice: their real ones are not to be read.
        cleared = replace(out, pending=tuple(pending))
        picked = choose(cleared, s)
        if not _can_choose(cleared, s, picked):
            raise CorruptState(f"Seat {s} cannot submit {picked!r} with the hand dealt to it.")
        pending[s] = _copy_move(picked)
    return replace(out, pending=tuple(pending))


def hidden(state: DilemmasState, seat: int) -> Json:
    """``seat``'s hand in its own order (its view shows that order) and its submitted choice.

    The part names its seat, which is public: any hand of the same sizes could be
    any hidden seat's, so without it one seat's part (of two seats one person
    holds, say) could be told as another's and pass every other check, and two
    seats whose parts were equal would commit to the same text.
    """
    hand = state.hands[seat]
    move = state.pending[seat]
    return {
        "seat": seat,
        "positive": list(hand.positive),
        "negative": list(hand.negative),
        "neutral": hand.neutral,
        "pending": None if move is None else _copy_move(move),
    }


def reinstate(state: DilemmasState, parts: Mapping[int, Json]) -> DilemmasState:
    """Each seat in ``parts`` holding exactly what its owner says (``Game.reinstate``).

    A told card must be a hidden one: in a told seat's own hand, another seat's
    hand or a draw pile, never on the table or in a discard pile. The cards a
    told seat held and no longer holds fill the places its told cards came
    from, so every hand and pile keeps its size. A told choice must be there
    exactly when the table shows the seat has submitted, and be one it could
    submit with the told hand.
    """
    seats = sorted(parts)
    known = deck(state.options)
    told = {s: _checked_part(s, parts[s], known) for s in seats}
    hands = list(state.hands)
    piles = _piles(state)
    for kind in KINDS:
        wanted = {s: _zone(told[s][0], kind) for s in seats}
        _check_sizes(state, wanted, kind)
        rest = [s for s in range(state.players) if s not in parts]
        zones = [_zone(hands[s], kind) for s in rest] + [piles[kind].draw]
        own = [_zone(hands[s], kind) for s in seats]
        *placed, draw = _take(wanted, own, zones, kind)
        for s in seats:
            hands[s] = _with(hands[s], kind, wanted[s])
        for s, cards in zip(rest, placed, strict=True):
            hands[s] = _with(hands[s], kind, cards)
        piles[kind] = Pile(draw, piles[kind].discard)
    pending = list(state.pending)
    for s in seats:
        pending[s] = None
    out = _table(state, hands, piles, pending, state.rng)
    for s in seats:
        move = told[s][1]
        if (move is None) != (state.pending[s] is None):
            done = "has submitted" if state.pending[s] is not None else "has not submitted"
            raise CorruptState(f"The table shows seat {s} {done}, but its part says otherwise.")
        if move is not None:
            if not _can_choose(out, s, move):
                raise CorruptState(f"Seat {s} could not have submitted {move!r} now.")
            pending[s] = _copy_move(move)
    return replace(out, pending=tuple(pending))


# -- dealing -----------------------------------------------------------------------


def _deal(zones: Sequence[tuple[str, ...]], rng: Rng) -> Zones:
    """The cards of ``zones`` in a fixed order, shuffled, and cut back to the zones' sizes."""
    pool = rng.shuffled(sorted(c for zone in zones for c in zone))
    out, start = [], 0
    for zone in zones:
        out.append(tuple(pool[start : start + len(zone)]))
        start += len(zone)
    return out


def _take(
    wanted: Mapping[int, tuple[str, ...]],
    own: Sequence[tuple[str, ...]],
    zones: Sequence[tuple[str, ...]],
    kind: Kind,
) -> Zones:
    """``zones`` after the told seats take their ``wanted`` cards of one kind from them.

    The cards the told seats held before (``own``) and do not keep take the
    places, in order, of the wanted cards found in ``zones``.
    """
    named = [c for cards in wanted.values() for c in cards]
    if len(set(named)) != len(named):
        raise CorruptState(f"The same {kind} card is named twice in the hidden parts.")
    reachable = {c for zone in (*own, *zones) for c in zone}
    for seat, cards in wanted.items():
        for card in cards:
            if card not in reachable:
                raise CorruptState(f"Seat {seat} cannot hold {card}: it is not a hidden card.")
    taken = set(named)
    freed = iter([c for zone in own for c in zone if c not in taken])
    return [tuple(next(freed) if c in taken else c for c in zone) for zone in zones]


# -- checking a told part ----------------------------------------------------------


def _checked_part(seat: int, part: Json, deck: Mapping[str, Card]) -> tuple[Hand, Move | None]:
    """A told part as a hand and a choice, once it is shaped like one and names real cards."""
    if not isinstance(part, dict) or set(part) != _PART_KEYS:
        raise CorruptState(f"Seat {seat}'s hidden part is not a hand and a choice.")
    if part["seat"] != seat or isinstance(part["seat"], bool):
        raise CorruptState(f"The part told for seat {seat} is seat {part['seat']!r}'s.")
    hand: list[tuple[str, ...]] = []
    for kind in ("positive", "negative"):
        cards = part[kind]
        if not isinstance(cards, list) or not all(_is_card(c, kind, deck) for c in cards):
            raise CorruptState(f"Seat {seat}'s {kind} cards are not all {kind} cards.")
        hand.append(tuple(cards))
    neutral = part["neutral"]
    if neutral is not None and not _is_card(neutral, "neutral", deck):
        raise CorruptState(f"Seat {seat}'s neutral card is not a neutral card.")
    move = part["pending"]
    if move is not None and not isinstance(move, dict):
        raise CorruptState(f"Seat {seat}'s submitted choice is not a move.")
    return Hand(hand[0], hand[1], neutral), move


def _check_sizes(state: DilemmasState, wanted: Mapping[int, tuple[str, ...]], kind: Kind) -> None:
    """Each told hand holds as many cards of ``kind`` as the table shows its seat holding."""
    for seat, cards in wanted.items():
        held = len(_zone(state.hands[seat], kind))
        if len(cards) != held:
            raise CorruptState(
                f"Seat {seat} holds {held} {kind} card(s), but its part names {len(cards)}."
            )


def _is_card(card: Any, kind: Kind, cards: Mapping[str, Card]) -> bool:
    return isinstance(card, str) and card in cards and cards[card].kind == kind


def _can_choose(state: DilemmasState, seat: int, move: Any) -> bool:
    """Whether ``seat`` may submit ``move`` in ``state`` (its own choice taken back)."""
    return isinstance(move, dict) and moves.allowed(legal_moves(state, seat), move)


def _copy_move(move: Move) -> Move:
    """A move as the rules store it: plain JSON, its lists not shared with the caller."""
    return {k: list(v) if isinstance(v, list) else v for k, v in move.items()}


# -- zones of a hand and of the table ---------------------------------------------------


def _zone(hand: Hand, kind: Kind) -> tuple[str, ...]:
    """A hand's cards of one kind; the neutral card is a zone of at most one."""
    if kind == "positive":
        return hand.positive
    if kind == "negative":
        return hand.negative
    return () if hand.neutral is None else (hand.neutral,)


def _with(hand: Hand, kind: Kind, cards: tuple[str, ...]) -> Hand:
    """``hand`` with its cards of ``kind`` replaced by ``cards`` (as many as before)."""
    if kind == "positive":
        return replace(hand, positive=cards)
    if kind == "negative":
        return replace(hand, negative=cards)
    return replace(hand, neutral=cards[0] if cards else None)


def _piles(state: DilemmasState) -> dict[Kind, Pile]:
    return {"positive": state.positive, "negative": state.negative, "neutral": state.neutral}


def _table(
    state: DilemmasState,
    hands: Sequence[Hand],
    piles: Mapping[Kind, Pile],
    pending: Sequence[Any],
    rng: int,
) -> DilemmasState:
    """``state`` with new hands, piles, submissions and generator; the rest as it was."""
    return replace(
        state,
        hands=tuple(hands),
        positive=piles["positive"],
        negative=piles["negative"],
        neutral=piles["neutral"],
        pending=tuple(pending),
        rng=rng,
    )
