"""Dealing Royal Dilemma again: a room's heir gets a possible world, a successor rebuilds.

What is hidden here is the value cards in hands (their number is public), the
order of the deck, and a choice submitted but not yet revealed (``pending``).
Realms, the discard pile, the cards lying on the table and every revealed
choice are public. So dealing again (RULINGS §5) moves only hand cards and the
deck, and makes only pending choices again.

Which hand cards a seat has *seen*: a value card played in a choice is seen
by everyone from then on, and wherever it went afterwards the table followed
it (into a realm, to the discard pile, or back to the invader's hand); a card
surrendered from hand is seen by the two seats it passed between, and only by
them (the others see how many). Everything else in a hand came from the deck
unseen, and only its owner knows it. A seen card stays exactly where it is;
every other card of a seat not kept is pooled with the deck, put in the deck's
own fixed order (so that the pool's membership is all that matters, never
where a card really lay), shuffled and dealt back in the same numbers: each
hand keeps as many unseen cards as it had, the deck keeps its size.

The record of a surrender keeps its cards only where a kept seat was one of
the two: elsewhere each card becomes ``UNSEEN`` (the count stays public), so a
world handed to an heir does not tell which cards passed between two others.
A seat's own part tells the surrenders it took part in, and putting parts back
writes them into the record again.

Putting owners' parts back (``reinstate``) follows every card the table saw
move: its last recorded holder, by a revealed choice or a surrender, is where
it must be; a seat telling its part must hold all of those that are its own
and none that the table saw go to someone else. The rest of a told hand is
taken from wherever the world had dealt it, and what it displaces goes there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace

from quandary.engine import CorruptState, Rng
from quandary.engine.spec import Chooser, Json, Move

from .cards import card_name, value_deck
from .state import Choice, RoyalState, Step

Legal = Callable[[RoyalState, int], list[Move]]
"""The rules' own list of a seat's moves: what a secret choice may be."""

UNSEEN = "?"
"""A surrendered card in the record that no seat kept has seen: only the count stays."""

_ORDER = {card: i for i, card in enumerate(value_deck())}
"""Suit, then rank: the order of the deck before shuffling and of a fanned hand."""


def in_order(cards: Iterable[str]) -> tuple[str, ...]:
    """Value cards in the fixed order: how a hand is held and how a pool is laid out."""
    return tuple(sorted(cards, key=_ORDER.__getitem__))


def redeal(
    state: RoyalState, keep: frozenset[int], rng: Rng, choose: Chooser, legal: Legal
) -> RoyalState:
    """The cards no seat in ``keep`` has seen dealt anew; others' pending choices made again.

    Nothing but the membership of the pool reaches the shuffle: the pool is
    laid out in the fixed order first, and seats are served in seat order, each
    as many cards as it held unseen (a number the kept seats can work out).
    """
    seen = seen_by(state, keep)
    others = [s for s in range(state.players) if s not in keep]
    pool = [c for s in others for c in state.hands[s] if c not in seen] + list(state.deck)
    dealt = rng.shuffled(in_order(pool))
    hands = list(state.hands)
    for seat in others:
        stays = [c for c in state.hands[seat] if c in seen]
        count = len(state.hands[seat]) - len(stays)
        hands[seat], dealt = in_order(stays + dealt[:count]), dealt[count:]
    out = replace(state, hands=tuple(hands), deck=tuple(dealt), rng=rng.next64())
    return _choose_again(_redacted(out, keep), others, choose, legal)


def _redacted(state: RoyalState, keep: frozenset[int]) -> RoyalState:
    """The record with every surrender no seat in ``keep`` took part in made ``UNSEEN``."""

    def told(_: int, __: int, step: Step) -> Step:
        if not step.surrendered or step.seat in keep or step.target in keep:
            return step
        return replace(step, surrendered=(UNSEEN,) * len(step.surrendered))

    return _with_steps(state, told)


def _with_steps(state: RoyalState, change: Callable[[int, int, Step], Step]) -> RoyalState:
    """``state`` with ``change(round, index, step)`` applied to every step of the record,
    numbered as ``_rounds`` numbers them (the current round last, its capture last)."""
    history = tuple(
        replace(record, steps=tuple(change(r, i, s) for i, s in enumerate(record.steps)))
        for r, record in enumerate(state.history)
    )
    now = len(state.history)
    steps = tuple(change(now, i, s) for i, s in enumerate(state.steps))
    capture = state.capture
    if capture is not None:
        capture = replace(capture, step=change(now, len(state.steps), capture.step))
    return replace(state, history=history, steps=steps, capture=capture)


def _choose_again(
    state: RoyalState, others: list[int], choose: Chooser, legal: Legal
) -> RoyalState:
    """Every pending choice of a seat not kept taken back, then made again in seat order.

    All of them are taken back before the first is made again, so the chooser
    never sees a real choice of a seat it is choosing for or after.
    """
    pending = list(state.pending)
    again = [s for s in others if pending[s] is not None]
    for seat in again:
        pending[seat] = None
    for seat in again:
        cleared = replace(state, pending=tuple(pending))
        move = choose(cleared, seat)
        if move not in legal(cleared, seat):
            raise CorruptState(f"Seat {seat} cannot choose {move!r} again here.")
        pending[seat] = dict(move)
    return replace(state, pending=tuple(pending))


def hidden(state: RoyalState, seat: int) -> Json:
    """``seat``'s hand in the fixed order, its pending choice (None if it has not
    chosen) and the surrenders it took part in: [round, step, cards] in the record."""
    choice = state.pending[seat]
    return {
        "hand": list(in_order(state.hands[seat])),
        "choice": None if choice is None else dict(choice),
        "surrenders": [
            [r, i, list(step.surrendered)]
            for r, (_, steps) in enumerate(_rounds(state))
            for i, step in enumerate(steps)
            if step.surrendered
            and seat in (step.seat, step.target)
            and UNSEEN not in step.surrendered
        ],
    }


def _surrenders_told(state: RoyalState, parts: Mapping[int, Json]) -> RoyalState:
    """The record with each told surrender's cards written back where it was ``UNSEEN``.

    ``CorruptState`` for a surrender the seat took no part in, a wrong count, or
    cards other than the record already shows.
    """
    known: dict[tuple[int, int], tuple[str, ...]] = {}
    rounds = _rounds(state)
    for seat in sorted(parts):
        told = parts[seat].get("surrenders") if isinstance(parts[seat], dict) else None
        if not isinstance(told, list):
            raise CorruptState(f"Seat {seat}'s hidden part must tell its surrenders.")
        for entry in told:
            if not (isinstance(entry, list) and len(entry) == 3 and isinstance(entry[2], list)):
                raise CorruptState(f"Seat {seat} tells a surrender in the wrong shape.")
            r, i, cards = entry
            ok = isinstance(r, int) and isinstance(i, int) and 0 <= r < len(rounds)
            step = rounds[r][1][i] if ok and 0 <= i < len(rounds[r][1]) else None
            if step is None or seat not in (step.seat, step.target):
                raise CorruptState(f"Seat {seat} tells a surrender it took no part in.")
            fits = len(cards) == len(step.surrendered) and all(c in _ORDER for c in cards)
            shown = UNSEEN in step.surrendered or tuple(cards) == step.surrendered
            if not fits or not shown or known.get((r, i), tuple(cards)) != tuple(cards):
                raise CorruptState(f"Seat {seat} tells a surrender the record does not show.")
            known[(r, i)] = tuple(cards)

    def written(r: int, i: int, step: Step) -> Step:
        return replace(step, surrendered=known[(r, i)]) if (r, i) in known else step

    return _with_steps(state, written)


def reinstate(state: RoyalState, parts: Mapping[int, Json], legal: Legal) -> RoyalState:
    """Each seat in ``parts`` holding its told hand and choice; every card the table saw
    move back with its last holder; the rest where the world dealt it.

    ``CorruptState`` when a part cannot be the seat's: a wrong count, a card that
    is in play, discarded or claimed twice, a card the table saw go elsewhere, a
    card the table saw come to the seat missing, or a choice that the table
    does not show or the seat could not have made.
    """
    state = _surrenders_told(state, parts)
    told = {seat: _told_hand(state, seat, parts[seat]) for seat in sorted(parts)}
    holders = last_holders(state)
    movable = set(state.deck).union(*state.hands)
    wanted: dict[str, int] = {}
    for seat, hand in told.items():
        for card in hand:
            name = card_name(card)
            if card not in movable:
                raise CorruptState(f"Seat {seat} says it holds the {name}, in play or discarded.")
            if card in wanted:
                raise CorruptState(
                    f"Seats {wanted[card]} and {seat} both say they hold the {name}."
                )
            if holders.get(card, seat) != seat:
                raise CorruptState(
                    f"Seat {seat} says it holds the {name}; the table saw it go to seat"
                    f" {holders[card]}."
                )
            wanted[card] = seat
    for card, holder in sorted(holders.items(), key=lambda item: _ORDER[item[0]]):
        if card not in movable:
            continue
        if holder in told and card not in told[holder]:
            raise CorruptState(
                f"The table recorded the {card_name(card)} going to seat {holder},"
                " whose part does not hold it."
            )
        wanted.setdefault(card, holder)
    hands, deck = _placed(state, told, wanted)
    return _choices_told(replace(state, hands=hands, deck=deck), parts, legal)


def _told_hand(state: RoyalState, seat: int, part: Json) -> tuple[str, ...]:
    """A told hand checked for shape, cards, order and the public count."""
    if not isinstance(part, dict) or set(part) != {"hand", "choice", "surrenders"}:
        raise CorruptState(
            f"Seat {seat}'s hidden part must tell its hand, its choice and its surrenders."
        )
    hand = part["hand"]
    if not isinstance(hand, list) or not all(isinstance(c, str) and c in _ORDER for c in hand):
        raise CorruptState(f"Seat {seat}'s hand must be a list of value cards.")
    if len(set(hand)) != len(hand):
        raise CorruptState(f"Seat {seat} names a card twice in its hand.")
    shown = len(state.hands[seat])
    if len(hand) != shown:
        raise CorruptState(f"Seat {seat} says it holds {len(hand)} cards; the table shows {shown}.")
    if tuple(hand) != in_order(hand):
        raise CorruptState(f"Seat {seat}'s hand is not told in suit and rank order.")
    return tuple(hand)


def _placed(
    state: RoyalState, told: Mapping[int, tuple[str, ...]], wanted: Mapping[str, int]
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """Hands and deck with every wanted card at its seat; displaced cards fill the gaps.

    A displaced card is one a told hand no longer holds, or one a hand of a seat
    not told must give up to make room for a card it is known to hold. They fill,
    in the fixed order, first the hands left short (in seat order), then the
    places in the deck that wanted cards left (in deck order).
    """
    pool: list[str] = []
    hands = list(state.hands)
    for seat, hand in told.items():
        pool += [c for c in state.hands[seat] if c not in wanted]
        hands[seat] = hand
    for seat, hand in enumerate(state.hands):
        if seat in told:
            continue
        incoming = [c for c, holder in wanted.items() if holder == seat and c not in hand]
        staying = [c for c in hand if wanted.get(c, seat) == seat]
        free = [c for c in in_order(staying) if c not in wanted]
        excess = len(staying) + len(incoming) - len(hand)
        if excess > len(free):
            raise CorruptState(f"Seat {seat} would have to hold more cards than it has.")
        if excess > 0:
            pool += free[-excess:]
            staying = [c for c in staying if c not in free[-excess:]]
        hands[seat] = tuple(staying + incoming)
    pool = list(in_order(pool))
    vacant = [i for i, card in enumerate(state.deck) if card in wanted]
    gaps = {s: len(state.hands[s]) - len(hands[s]) for s in range(state.players) if s not in told}
    if len(pool) != sum(gaps.values()) + len(vacant):
        raise CorruptState("The told hands do not fit the cards on the table.")
    for seat, gap in gaps.items():
        hands[seat], pool = in_order(hands[seat] + tuple(pool[:gap])), pool[gap:]
    deck = list(state.deck)
    for i, card in zip(vacant, pool, strict=True):
        deck[i] = card
    return tuple(hands), tuple(deck)


def _choices_told(state: RoyalState, parts: Mapping[int, Json], legal: Legal) -> RoyalState:
    """Each told seat's pending choice, which must be there exactly when the table shows one."""
    pending = list(state.pending)
    for seat in sorted(parts):
        choice = parts[seat]["choice"]
        if choice is not None and not isinstance(choice, dict):
            raise CorruptState(f"Seat {seat}'s choice must be a move or nothing.")
        if (choice is None) != (pending[seat] is None):
            shown = "a choice" if pending[seat] is not None else "no choice"
            raise CorruptState(f"Seat {seat} tells otherwise, but the table shows {shown} from it.")
        if choice is None:
            continue
        pending[seat] = None
        cleared = replace(state, pending=tuple(pending))
        if choice not in legal(cleared, seat):
            raise CorruptState(f"Seat {seat} could not have chosen {choice!r} with that hand.")
        pending[seat] = dict(choice)
    return replace(state, pending=tuple(pending))


def _rounds(state: RoyalState) -> list[tuple[tuple[Choice | None, ...], tuple[Step, ...]]]:
    """Every round's revealed choices and resolved steps, in order, the current one last."""
    current = state.steps if state.capture is None else (*state.steps, state.capture.step)
    return [(r.choices, r.steps) for r in state.history] + [(state.choices, current)]


def seen_by(state: RoyalState, seats: frozenset[int]) -> set[str]:
    """Value cards at least one of ``seats`` has seen: every revealed choice, and the
    cards surrendered from hand to or by one of them."""
    seen: set[str] = set()
    for choices, steps in _rounds(state):
        seen |= {c.card for c in choices if c is not None}
        for step in steps:
            if step.seat in seats or step.target in seats:
                seen |= set(step.surrendered)
    return seen


def last_holders(state: RoyalState) -> dict[str, int]:
    """The seat the table last saw take each card it saw move: the player who played
    it (an invader's card comes back to its hand) or the invader it was surrendered to.

    For a card still in a hand, that seat holds it: nothing moves a card between
    hands unseen by the table's record.
    """
    holders: dict[str, int] = {}
    for choices, steps in _rounds(state):
        for seat, choice in enumerate(choices):
            if choice is not None:
                holders[choice.card] = seat
        for step in steps:
            for card in step.surrendered:
                if card != UNSEEN:
                    holders[card] = step.seat
    return holders
