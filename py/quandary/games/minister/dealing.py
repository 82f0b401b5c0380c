"""Dealing Maybe Minister again for a room's heir or successor (RULINGS §5).

Hidden in this game, and from whom:

- decree cards: each hand (its owner alone) and the decree deck (nobody);
- vote cards: the votes stored face down on a seat's won cards (its owner
  alone: others see how many lie on each card), the votes the actor has drawn
  and not yet stored (the actor alone) and the vote deck (nobody);
- a vote cast and not yet revealed (``ballots``; its caster alone). It is one
  of the caster's stored votes, which stays on its card until the reveal.

Everything else is public and never moves: the proposal, laws and the votes on
them, won cards and their sides, both discard piles (every card in them was
shown on the table when it went there), the last reveal.

No decree or vote card ever passes from one seat's hidden zone to another's:
a card leaves a hand or a stack only face up (proposal, discard, law). So
what a seat has seen of the hidden zones is exactly its own zones, and the
cards no seat in ``keep`` has seen are the hidden zones of every other seat
plus the decks. (A vote deck rebuilt from the discard pile, or an ABSTAIN vote
refunded to its card, was shown once; the state does not record that history,
so those cards are pooled too: dealing them elsewhere hides more, never less.)

A deal must depend on nothing the kept seats cannot know, or the worlds of
several heirs pooled together would tell them what they must not learn. So a
pool is sorted before it is shuffled (only its membership counts, never where
its cards lay), zones are filled in a fixed order from public sizes, and every
other seat's secret vote is taken back before any is made again.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from quandary.engine import CorruptState, Rng
from quandary.engine.spec import Chooser, Json

from . import turn
from .state import MinisterState, Won, replace

Stack = tuple[int, int]
"""One face-down vote stack: (seat, index of the won card it lies on)."""


# -- dealing again ------------------------------------------------------------------


def redeal(state: MinisterState, keep: frozenset[int], rng: Rng, choose: Chooser) -> MinisterState:
    """Every card unseen by ``keep`` dealt anew per kind; other seats' secret votes made again."""
    others = [s for s in range(state.players) if s not in keep]
    hands = list(state.hands)
    decrees = _deal([state.hands[o] for o in others] + [state.deck], rng)
    for o, hand in zip(others, decrees, strict=False):
        hands[o] = hand

    stacks = _stacks(state, others)
    drawn_hidden = state.actor not in keep
    zones = [state.won[o][i].votes for o, i in stacks] + [state.vote_deck]
    if drawn_hidden:
        zones.append(state.drawn)
    votes = _deal(zones, rng)
    ballots = tuple(None if s in others else b for s, b in enumerate(state.ballots))
    out = replace(
        state,
        hands=tuple(hands),
        deck=decrees[-1],
        won=_restacked(state, stacks, votes),
        vote_deck=votes[len(stacks)],
        drawn=votes[-1] if drawn_hidden else state.drawn,
        ballots=ballots,
        rng=rng.next64(),
    )
    for o in others:
        if state.ballots[o] is not None:
            out = _vote_again(out, o, choose)
    return out


def _deal(zones: Sequence[Sequence[str]], rng: Rng) -> list[tuple[str, ...]]:
    """The zones' cards, sorted then shuffled, dealt back zone by zone in the same sizes.

    Sorting first makes the deal a function of which cards are pooled and of
    ``rng`` alone, never of the order they lay in.
    """
    pool = iter(rng.shuffled(sorted(card for zone in zones for card in zone)))
    return [tuple(next(pool) for _ in zone) for zone in zones]


def _stacks(state: MinisterState, seats: Sequence[int]) -> list[Stack]:
    """Every face-down stack of ``seats``, in seat order then the order the cards were won."""
    return [(s, i) for s in seats for i in range(len(state.won[s]))]


def _restacked(
    state: MinisterState, stacks: Sequence[Stack], votes: Sequence[tuple[str, ...]]
) -> tuple[tuple[Won, ...], ...]:
    """The won cards with the given stacks holding the given votes (the rest unchanged)."""
    won = [list(cards) for cards in state.won]
    for (seat, i), stack in zip(stacks, votes, strict=False):
        w = won[seat][i]
        won[seat][i] = Won(w.card, w.green, stack)
    return tuple(tuple(cards) for cards in won)


def _vote_again(state: MinisterState, seat: int, choose: Chooser) -> MinisterState:
    """``seat`` (its vote taken back) votes again as ``choose`` says, stored as ``cast`` would.

    Not through ``turn.cast``: the seats still to vote are the same as before,
    so this never completes the vote, and a reveal must not happen here.
    """
    # The secret being chosen again is the vote alone: a special power used is
    # public and stays used, so the chooser is shown the vote without the powers.
    votes_only = replace(state, options={**state.options, "advanced": False})
    picked = choose(votes_only, seat)
    if picked.get("type") != "vote" or picked.get("vote") not in turn.votable(state, seat):
        raise CorruptState(f"Seat {seat} cannot vote {picked!r} on this proposal.")
    return _with_ballot(state, seat, picked["vote"])


def _with_ballot(state: MinisterState, seat: int, vote: str | None) -> MinisterState:
    ballots = list(state.ballots)
    ballots[seat] = vote
    return replace(state, ballots=tuple(ballots))


# -- a seat's own hidden part ---------------------------------------------------------


def hidden(state: MinisterState, seat: int) -> Json:
    """``seat``'s hand, its stored votes by won card, its drawn votes and its unrevealed vote.

    Lists keep the order the owner sees them in, so putting a part back shows the
    owner the very table it saw.
    """
    return {
        "hand": list(state.hands[seat]),
        "stored": {w.card: list(w.votes) for w in state.won[seat]},
        "drawn": list(state.drawn) if state.actor == seat else [],
        "ballot": state.ballots[seat],
    }


# -- putting parts back ----------------------------------------------------------------


def reinstate(state: MinisterState, parts: Mapping[int, Json]) -> MinisterState:
    """Each seat in ``parts`` holding exactly its part; displaced cards fill the places left.

    A part's cards come from the hidden zones of every told seat (they are all
    being replaced) and of every other seat and the decks; what those zones held
    and no part claims goes, in a fixed order, where the claimed cards were.
    """
    told = sorted(parts)
    told_parts = [_shape(state, s, parts[s]) for s in told]
    out = _reinstate_decrees(state, told, [p["hand"] for p in told_parts])
    out = _reinstate_votes(out, told, told_parts)
    return _reinstate_ballots(state, out, told, [p["ballot"] for p in told_parts])


def _shape(state: MinisterState, seat: int, part: Json) -> dict[str, Any]:
    """``part`` checked against what the table shows of ``seat``: keys, types and sizes."""
    if not isinstance(part, dict) or set(part) != {"hand", "stored", "drawn", "ballot"}:
        raise CorruptState(f"Seat {seat}'s hidden part is not shaped like one.")
    hand, stored, drawn, ballot = part["hand"], part["stored"], part["drawn"], part["ballot"]
    if not _card_list(hand) or len(hand) != len(state.hands[seat]):
        raise CorruptState(f"Seat {seat} holds {len(state.hands[seat])} decree cards, not as told.")
    won = state.won[seat]
    if not isinstance(stored, dict) or set(stored) != {w.card for w in won}:
        raise CorruptState(f"Seat {seat}'s stored votes do not lie on the cards it has won.")
    for w in won:
        if not _card_list(stored[w.card]) or len(stored[w.card]) != len(w.votes):
            raise CorruptState(f"Seat {seat} has {len(w.votes)} votes on {w.card}, not as told.")
    shown = len(state.drawn) if state.actor == seat else 0
    if not _card_list(drawn) or len(drawn) != shown:
        raise CorruptState(f"Seat {seat} has {shown} drawn votes to store, not as told.")
    if ballot is not None and not isinstance(ballot, str):
        raise CorruptState(f"Seat {seat}'s vote is not a vote card.")
    return part


def _card_list(value: Json) -> bool:
    return isinstance(value, list) and all(isinstance(c, str) for c in value)


def _reinstate_decrees(
    state: MinisterState, told: Sequence[int], hands: Sequence[list[str]]
) -> MinisterState:
    """The told hands put back, the decree cards they displace dealt where those came from."""
    others = [s for s in range(state.players) if s not in told]
    free = [state.hands[o] for o in others] + [state.deck]
    filled = _swap_in([state.hands[s] for s in told], hands, free, "decree card")
    new = list(state.hands)
    for s, hand in zip(told, hands, strict=True):
        new[s] = tuple(hand)
    for o, zone in zip(others, filled, strict=False):
        new[o] = zone
    return replace(state, hands=tuple(new), deck=filled[-1])


def _reinstate_votes(
    state: MinisterState, told: Sequence[int], parts: Sequence[dict[str, Any]]
) -> MinisterState:
    """The told stacks and drawn votes put back, the votes they displace where those came from."""
    others = [s for s in range(state.players) if s not in told]
    part_of = dict(zip(told, parts, strict=True))
    mine = _stacks(state, told)
    wanted = [list(part_of[s]["stored"][state.won[s][i].card]) for s, i in mine]
    theirs = _stacks(state, others)
    held = [state.won[s][i].votes for s, i in mine]
    free = [state.won[s][i].votes for s, i in theirs] + [state.vote_deck]
    actor_told = state.actor in told
    if actor_told:
        held.append(state.drawn)
        wanted.append(list(part_of[state.actor]["drawn"]))
    else:
        free.append(state.drawn)
    filled = _swap_in(held, wanted, free, "vote card")
    out = replace(
        state,
        won=_restacked(state, [*mine, *theirs], [*map(tuple, wanted[: len(mine)]), *filled]),
        vote_deck=filled[len(theirs)],
        drawn=tuple(wanted[-1]) if actor_told else filled[-1],
    )
    return out


def _swap_in(
    held: Sequence[Sequence[str]],
    wanted: Sequence[Sequence[str]],
    free: Sequence[Sequence[str]],
    kind: str,
) -> list[tuple[str, ...]]:
    """The ``free`` zones after the told zones (``held``, to hold ``wanted``) took their cards.

    A wanted card must lie in a told zone or a free one; each one taken from a
    free zone leaves its place to a card the told zones held and nobody wants,
    in the order those were held (sizes match, as every told zone keeps its size).
    """
    claimed = [card for zone in wanted for card in zone]
    if len(set(claimed)) != len(claimed):
        raise CorruptState(f"Two hidden parts claim the same {kind}.")
    wants = set(claimed)
    available = {card for zones in (held, free) for zone in zones for card in zone}
    if not wants <= available:
        raise CorruptState(f"A hidden part names a {kind} that is not there to be held.")
    spare = iter([card for zone in held for card in zone if card not in wants])
    return [tuple(next(spare) if card in wants else card for card in zone) for zone in free]


def _reinstate_ballots(
    before: MinisterState, state: MinisterState, told: Sequence[int], ballots: Sequence[str | None]
) -> MinisterState:
    """The told votes put back, each one its seat could cast; others' votes kept on their cards.

    A seat that was not told keeps its vote if it still lies on its cards; if a
    part took that card, the vote passes to the card dealt into its place (or,
    if the seat could not cast that one, to the first it could), so the table
    stays one that play can go on from. A successor deals again right after,
    which makes such a seat's vote again anyway.
    """
    for seat, ballot in zip(told, ballots, strict=True):
        if (ballot is None) != (before.ballots[seat] is None):
            raise CorruptState(f"Seat {seat} tells a vote the table does not show.")
    out = replace(
        state, ballots=tuple(None if s in told else b for s, b in enumerate(before.ballots))
    )
    for seat, ballot in zip(told, ballots, strict=True):
        if ballot is not None and ballot not in turn.votable(out, seat):
            raise CorruptState(f"Seat {seat} could not have cast {ballot!r}.")
    for seat, ballot in zip(told, ballots, strict=True):
        out = _with_ballot(out, seat, ballot)
    for seat in range(state.players):
        if seat not in told and before.ballots[seat] is not None:
            out = _with_ballot(out, seat, _kept_ballot(before, out, seat))
    return out


def _kept_ballot(before: MinisterState, state: MinisterState, seat: int) -> str:
    """An untold seat's vote after the parts were put back (see ``_reinstate_ballots``)."""
    ballot = before.ballots[seat]
    castable = turn.votable(replace(state, ballots=_cleared(state, seat)), seat)
    if ballot is not None and ballot in castable:
        return ballot
    for old, new in zip(_votes_of(before, seat), _votes_of(state, seat), strict=True):
        if old == ballot and new in castable:
            return new
    return castable[0]


def _cleared(state: MinisterState, seat: int) -> tuple[str | None, ...]:
    return tuple(None if s == seat else b for s, b in enumerate(state.ballots))


def _votes_of(state: MinisterState, seat: int) -> Iterator[str]:
    """``seat``'s stored votes, card by card, in place order."""
    for w in state.won[seat]:
        yield from w.votes
