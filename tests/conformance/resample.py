"""Leak checks that trust no game: resample what a seat cannot know, its view must not move.

A game's own ``secrets(state, seat)`` list is only as good as the game: a view
that shows every hand passes it once ``secrets`` forgets the hands. Here, as in
OpenSpiel's information-state tests, the tests decide for themselves what a
seat may know. For each game a ``resample(state, seat, rng)`` written from the
rule texts and the state dataclasses (never from the game's ``secrets`` or
``view``) deals a different state that ``seat`` could not tell apart from the
real one: every card it cannot see is shuffled among the zones it cannot see
(other hands keep their sizes, decks their sizes, face-down stacks their
counts), every secret choice still unrevealed is chosen again among that
seat's alternatives, and the random generator gets a new state. ``seat=None``
is a spectator, who knows nothing private to any seat.

Then ``engine.view(resample(state, seat), seat)`` must equal
``engine.view(state, seat)``: whole views are compared, whatever their keys.
A resampler may keep fixed more than a seat strictly knows (the check is then
weaker, never wrong); it must never change what the seat does know.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from quandary import engine
from quandary.games.dilemmas.state import DilemmasState, Hand, Pile
from quandary.games.minister.state import MinisterState, Won
from quandary.games.randolph.state import Duel, RandolphState
from quandary.games.royal.cards import SUITS, rank_of, suit_of, value_deck
from quandary.games.royal.state import RoyalState, Step
from tests.fifth.state import PebblesState

T = TypeVar("T")
S = TypeVar("S")
View = Callable[[Any, int | None], dict[str, Any]]
RESAMPLES = 1
"""Resamples per viewer at a checked state: each is a fresh deal of everything hidden
(every unrevealed choice made again), so a leak of a hand or a choice
shows in the first one almost surely, and a leak of a single bit within a few of
the hundreds of states the suite samples."""


# -- shared helpers ---------------------------------------------------------------


def redeal(zones: Sequence[Sequence[T]], rng: random.Random) -> list[tuple[T, ...]]:
    """The items of ``zones`` shuffled together and dealt back, each zone keeping its size."""
    pool = [item for zone in zones for item in zone]
    rng.shuffle(pool)
    out, start = [], 0
    for zone in zones:
        out.append(tuple(pool[start : start + len(zone)]))
        start += len(zone)
    return out


def _new_rng(old: int, rng: random.Random) -> int:
    """Another generator state: what the seat cannot know about the game's future draws."""
    while (new := rng.getrandbits(64)) == old:
        pass
    return new


def _hidden_from(state: Any, seat: int | None) -> list[int]:
    """The seats whose private zones ``seat`` cannot see (all of them for a spectator)."""
    return [s for s in range(state.players) if s != seat]


def _rechoose(state: Any, seat: int, rng: random.Random) -> dict[str, Any]:
    """A legal alternative for ``seat``'s secret choice in ``state`` (its choice taken back).

    The alternatives come from the rules' move list, as a player of that seat
    would see it; which one the seat picked is exactly what others must not know.
    """
    options = engine.legal_moves(state, seat)
    assert options, f"seat {seat} had submitted, so it had a choice"
    return engine.moves.concrete(rng.choice(options), rng.randint)


# -- The Game of Dilemmas ------------------------------------------------------------
# Rules: each player holds positive, negative and (variant) one neutral card; the
# draw piles are face down; builds, lays, supplies and votes are secret until all
# are in. Public: laid cards, dilemmas on the table, discards (every card in them
# was revealed on the table), scores, super tokens, history, hand sizes and whether
# a player still holds their neutral card (using it reveals it).


def resample_dilemmas(state: DilemmasState, seat: int | None, rng: random.Random) -> DilemmasState:
    """Other hands and the draw piles redealt per kind; others' pending moves chosen anew."""
    others = _hidden_from(state, seat)
    hands = list(state.hands)
    positive = redeal([hands[o].positive for o in others] + [state.positive.draw], rng)
    negative = redeal([hands[o].negative for o in others] + [state.negative.draw], rng)
    held = [o for o in others if hands[o].neutral is not None]
    neutral = redeal([(hands[o].neutral,) for o in held] + [state.neutral.draw], rng)
    neutral_of = {o: zone[0] for o, zone in zip(held, neutral, strict=False)}
    for i, o in enumerate(others):
        hands[o] = Hand(positive[i], negative[i], neutral_of.get(o))
    out = replace(
        state,
        hands=tuple(hands),
        positive=Pile(positive[-1], state.positive.discard),
        negative=Pile(negative[-1], state.negative.discard),
        neutral=Pile(neutral[-1], state.neutral.discard),
        rng=_new_rng(state.rng, rng),
    )
    return _rechoose_pending(out, others, rng)


def _rechoose_pending(state: Any, others: list[int], rng: random.Random) -> Any:
    """Every other seat's submitted, unrevealed move (``pending``) chosen again."""
    pending = list(state.pending)
    for o in others:
        if pending[o] is not None:
            cleared = replace(state, pending=(*pending[:o], None, *pending[o + 1 :]))
            pending[o] = _rechoose(cleared, o, rng)
    return replace(state, pending=tuple(pending))


# -- Maybe Minister --------------------------------------------------------------------
# Rules: hands are secret (their sizes are not), the decree deck and the vote deck
# are face down, votes stored on a won card are face down (its owner knows them,
# others see how many), the votes the actor has drawn but not stored are the
# actor's, and a cast vote is secret until the reveal. Public: the proposal, laws
# and the votes moved onto them, won cards and their sides, the reveal, the
# discard piles (kept as they are: a conservative choice), abstains and bonuses.


def resample_minister(state: MinisterState, seat: int | None, rng: random.Random) -> MinisterState:
    """Other hands with the deck, and every unseen vote card, redealt; others' votes recast."""
    others = _hidden_from(state, seat)
    decrees = redeal([state.hands[o] for o in others] + [state.deck], rng)
    hands = list(state.hands)
    for o, hand in zip(others, decrees, strict=False):
        hands[o] = hand
    stacks = [(o, i) for o in others for i in range(len(state.won[o]))]
    zones = [state.won[o][i].votes for o, i in stacks] + [state.vote_deck]
    drawn_hidden = state.actor != seat
    if drawn_hidden:
        zones.append(state.drawn)
    votes = redeal(zones, rng)
    won = [list(cards) for cards in state.won]
    for (o, i), stack in zip(stacks, votes, strict=False):
        w = won[o][i]
        won[o][i] = Won(w.card, w.green, stack)
    out = replace(
        state,
        hands=tuple(hands),
        deck=decrees[-1],
        won=tuple(tuple(cards) for cards in won),
        vote_deck=votes[len(stacks)],
        drawn=votes[-1] if drawn_hidden else state.drawn,
        rng=_new_rng(state.rng, rng),
    )
    ballots = list(out.ballots)
    for o in others:
        if ballots[o] is not None:
            cleared = replace(out, ballots=(*ballots[:o], None, *ballots[o + 1 :]))
            # The vote alone is secret: special powers (also legal now) are public, and
            # so are the votes a power drew mid-vote, which its user stores before
            # anyone else may move (the stored votes one may cast are the same).
            votes_only = replace(cleared, options={**cleared.options, "advanced": False}, drawn=())
            ballots[o] = _rechoose(votes_only, o, rng)["vote"]
    return replace(out, ballots=tuple(ballots))


# -- Dilemma (Alex Randolph) -----------------------------------------------------------
# Rules: every card is seen when placed or thrown; hands, won piles and lives are
# public. Secret: a duellist's choice until both have chosen, and the generator
# that decides where thrown cards land.


def resample_randolph(state: RandolphState, seat: int | None, rng: random.Random) -> RandolphState:
    """The other duellist's unrevealed choice flipped where the rules allow; a new generator."""
    out = replace(state, rng=_new_rng(state.rng, rng))
    if state.duel is None:
        return out
    duellists = (state.provocateur, state.duel.opponent)
    choices = list(state.duel.choices)
    for i, who in enumerate(duellists):
        if who == seat or choices[i] is None:
            continue
        # Without a life block only peace may be chosen: then there is nothing to hide.
        alternatives = ["peace", "conflict"] if state.lives[who] > 0 else ["peace"]
        others = [c for c in alternatives if c != choices[i]]
        choices[i] = rng.choice(others) if others else choices[i]
    duel = Duel(state.duel.opponent, state.duel.card, (choices[0], choices[1]))
    return replace(out, duel=duel)


# -- Royal Dilemma ---------------------------------------------------------------------
# Rules: value cards in hand are secret (hand sizes are not), the deck is face down,
# a choice is secret until all are in, and cards a realm with nothing in play
# surrenders from hand are known only to the two seats involved. Public: realms,
# the discard pile, revealed choices and every step. A value card once revealed
# (played in a choice, or surrendered to or by this seat) is known to be where it
# went, so it stays in its hand; only never-seen cards are redealt.


def resample_royal(state: RoyalState, seat: int | None, rng: random.Random) -> RoyalState:
    """Others' unseen value cards redealt with the deck; others' pending choices made anew."""
    others = _hidden_from(state, seat)
    seen = _royal_seen(state, seat)
    unseen = [tuple(c for c in state.hands[o] if c not in seen) for o in others]
    dealt = redeal([*unseen, state.deck], rng)
    hands = list(state.hands)
    for o, new in zip(others, dealt, strict=False):
        kept = tuple(c for c in state.hands[o] if c in seen)
        hands[o] = tuple(sorted(kept + new, key=lambda c: (SUITS.index(suit_of(c)), rank_of(c))))
    out = replace(state, hands=tuple(hands), deck=dealt[-1], rng=_new_rng(state.rng, rng))
    return _rechoose_pending(_resurrendered(out, seat, rng), others, rng)


def _resurrendered(state: RoyalState, seat: int | None, rng: random.Random) -> RoyalState:
    """Every surrender ``seat`` took no part in, recorded with other cards (as many)."""
    cards = sorted(value_deck())

    def other(step: Step) -> Step:
        if not step.surrendered or seat in (step.seat, step.target):
            return step
        return replace(step, surrendered=tuple(rng.sample(cards, len(step.surrendered))))

    history = tuple(replace(r, steps=tuple(map(other, r.steps))) for r in state.history)
    capture = state.capture and replace(state.capture, step=other(state.capture.step))
    return replace(state, history=history, steps=tuple(map(other, state.steps)), capture=capture)


def _royal_seen(state: RoyalState, seat: int | None) -> set[str]:
    """Value cards ``seat`` has seen leave or enter a hand: revealed choices, its surrenders."""
    rounds = [(r.choices, r.steps) for r in state.history] + [(state.choices, state.steps)]
    if state.capture is not None:
        rounds.append(((), (state.capture.step,)))
    seen: set[str] = set()
    for choices, steps in rounds:
        seen |= {c.card for c in choices if c is not None}
        for step in steps:
            seen.add(step.card)
            if step.rival_card:
                seen.add(step.rival_card)
            if seat is not None and seat in (step.seat, step.target):
                seen |= set(step.surrendered)
    return seen


# -- Pebbles (the test-only game, tests/fifth) ---------------------------------------
# Rules: hands are secret (their sizes are not) and held in order, number then
# letter; the bag is face down; a pick is secret until every pick is in, and it
# stays in its hand until then. Public: every revealed pick (discarded at once),
# who scored, the scores.


def resample_pebbles(state: PebblesState, seat: int | None, rng: random.Random) -> PebblesState:
    """Other hands redealt with the bag; others' unrevealed picks made anew from the new hands."""
    others = _hidden_from(state, seat)
    dealt = redeal([state.hands[o] for o in others] + [state.bag], rng)
    hands = list(state.hands)
    picks = list(state.picks)
    for o, hand in zip(others, dealt, strict=False):
        hands[o] = tuple(sorted(hand, key=lambda p: (int(p[1:-1]), p[-1])))
        if picks[o] is not None:
            picks[o] = rng.choice(hands[o])
    return replace(
        state, hands=tuple(hands), bag=dealt[-1], picks=tuple(picks), rng=_new_rng(state.rng, rng)
    )


RESAMPLERS: dict[str, Callable[[Any, int | None, random.Random], Any]] = {
    "dilemmas": resample_dilemmas,
    "minister": resample_minister,
    "randolph": resample_randolph,
    "royal": resample_royal,
    "pebbles": resample_pebbles,
}


def resample(state: Any, seat: int | None, rng: random.Random) -> Any:
    """A state ``seat`` cannot tell from ``state``: same public table, hidden parts redealt.

    The cards are conserved (same multiset in every zone kind), so the game's own
    functions can read the result like any state.
    """
    out = RESAMPLERS[state.game](state, seat, rng)
    game = engine.game_of(state)
    assert Counter(game.cards(out)) == Counter(game.cards(state)), "a resample lost a card"
    assert out != state, "a resample must change at least the generator"
    return out


# -- the check -------------------------------------------------------------------------


def first_difference(a: Any, b: Any, path: str = "view") -> str | None:
    """Where two JSON values first differ, as a readable path, or None if equal."""
    if a == b:
        return None
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"{path}[{key!r}] only on one side"
            found = first_difference(a[key], b[key], f"{path}[{key!r}]")
            if found:
                return found
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
    return f"{path}: {str(a)[:80]} != {str(b)[:80]}"


def resample_leaks(
    state: Any,
    seat: int | None,
    rng: random.Random,
    tries: int = RESAMPLES,
    view: View = engine.view,
) -> list[str]:
    """How ``seat``'s view changed when what it cannot know was resampled (empty: no leak).

    ``view`` is ``engine.view`` in the conformance suite; the room tests pass the
    host's table view, so both check what actually leaves the authority.
    """
    honest = view(state, seat)
    failures = []
    for _ in range(tries):
        moved = first_difference(honest, view(resample(state, seat, rng), seat))
        if moved:
            failures.append(f"{state.game} v{state.version} seat {seat}: {moved}")
    return failures


def check_resampled_views(state: Any, rng: random.Random, tries: int = RESAMPLES) -> None:
    """Every seat's and the spectator's view is blind to what that viewer cannot know."""
    failures = [
        failure
        for seat in [None, *range(state.players)]
        for failure in resample_leaks(state, seat, rng, tries)
    ]
    assert not failures, "a view depends on what its seat cannot know:\n" + "\n".join(failures[:5])
