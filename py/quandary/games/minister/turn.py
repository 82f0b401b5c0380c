"""A turn of Maybe Minister: propose, vote, reveal, pick, then the upkeep phases.

The order of one turn (static/rules/maybe-minister.html, 'Rulings'):
  shop_start  Advanced Politics: the proposer may use shop laws and special resources;
  propose     the proposer lays 2-5 cards from hand;
  vote        everyone casts one stored vote in secret, revealed together;
  pick        voters take the non-law cards one at a time in vote-number order;
  collect     everyone, from the proposer round the table, collects and stores votes;
  move        Undecided Voters: everyone may make one vote move;
  shop_end    Advanced Politics again;
  powers      Advanced Politics: round the table from the proposer, every holder may
              discard special resources until a full round passes with none used;
              then the proposer refills an empty hand and the 25-point check comes.
Special resources may also be used whenever the game waits for their holder's
move, in any phase (``rules.legal_moves``).

``settle`` walks past every step in which nobody has a real choice (no shop law
usable, a single card left to take, a collect with nothing to decide), so each
move a player makes is a decision. The phases after the pick live in
``upkeep.py``.
"""

from __future__ import annotations

from itertools import combinations

from quandary.engine import moves

from . import board, upkeep
from .laws import Effects
from .material import CARDS, VOTES
from .state import (
    TARGET,
    Enacted,
    MinisterState,
    Reveal,
    Won,
    draw_decrees,
    log,
    replace,
)
from .view_types import Proposed, PublicReveal, RevealSummary, Took, TurnStarted

"""Events the state keeps: the table shows the last few, and a state that grew
with every move would make every save and every room snapshot slower as play
goes on (the reveal itself is kept whole in ``MinisterState.reveal``)."""


# -- the turn's frame -----------------------------------------------------------


def start_turn(state: MinisterState, proposer: int) -> MinisterState:
    """Hand the turn to ``proposer`` or the next seat that still holds cards."""
    for seat in board.round_from(state, proposer):
        if state.hands[seat]:
            state = replace(state, proposer=seat, actor=seat, queue=(), proposal=())
            state = log(state, "turn_started", TurnStarted(turn=state.turn, proposer=seat))
            if state.options.get("advanced"):
                return upkeep.open_shop_start(state)
            return replace(state, phase="propose")
    return game_over(state)


def end_turn(state: MinisterState) -> MinisterState:
    """Refill an empty hand, end the game if it is over, else pass the turn on.

    Only the scores at this moment count: a score that touched the target during
    the turn and fell back (a law disabled by votes moved onto it) ends nothing.
    """
    p = state.proposer
    if not state.hands[p]:
        state = draw_decrees(state, p, board.effects(state).hand_size)
    scores = tuple(board.scores(state))
    state = replace(state, turn_scores=(*state.turn_scores, scores))
    if max(scores) >= TARGET or (not state.deck and not any(state.hands)):
        return game_over(state)
    return start_turn(replace(state, turn=state.turn + 1), board.next_seat(state, p))


def game_over(state: MinisterState) -> MinisterState:
    """The final scores; every seat with the top score wins."""
    final = moves.standings(board.scores(state))
    state = replace(state, phase="over", queue=(), drawn=(), proposal=())
    return log(state, "game_over", final)


# -- propose --------------------------------------------------------------------


def proposal_sizes(hand: int, fx: Effects) -> list[int]:
    """Allowed proposal sizes: 2-5 cards, never leaving exactly one card in hand."""
    top = min(fx.proposal_max, hand)
    sizes = [k for k in range(fx.proposal_min, top + 1) if hand - k != 1]
    if not sizes and hand:
        sizes = [hand] if hand <= fx.proposal_max else [top - 1] if top > 1 else [hand]
    return sizes


def proposals(state: MinisterState) -> list[tuple[str, ...]]:
    """Every proposal the proposer may lay, each in hand order."""
    hand = state.hands[state.proposer]
    out: list[tuple[str, ...]] = []
    for size in proposal_sizes(len(hand), board.effects(state)):
        out += list(combinations(hand, size))
    return out


def propose(state: MinisterState, cards: list[str]) -> MinisterState:
    """Lay the proposal on the table and open the vote."""
    p = state.proposer
    hands = list(state.hands)
    hands[p] = tuple(c for c in hands[p] if c not in cards)
    state = replace(
        state,
        hands=tuple(hands),
        proposal=tuple(cards),
        phase="vote",
        ballots=(None,) * state.players,
    )
    state = log(state, "proposed", Proposed(seat=p, cards=list(cards)))
    return state if voters(state) else reveal(state)


# -- vote and reveal ----------------------------------------------------------------


def votable(state: MinisterState, seat: int) -> list[str]:
    """The stored votes ``seat`` may cast on this proposal."""
    mine = board.stored(state, seat)
    if seat == state.proposer and not board.effects(state).proposer_may_abstain:
        plain = [v for v in mine if VOTES[v].kind != "abstain"]
        return plain or mine
    return mine


def cast(state: MinisterState, seat: int, vote: str) -> MinisterState:
    """Record a secret vote; the last one reveals them all."""
    ballots = list(state.ballots)
    ballots[seat] = vote
    state = replace(state, ballots=tuple(ballots))
    if any(ballots[s] is None for s in voters(state)):
        return state
    return reveal(state)


def counted_kind(vote: str, fx: Effects) -> str:
    """How a vote counts: an abstain vote may count as YES or NO under a law."""
    kind = VOTES[vote].kind
    if kind == "abstain" and fx.abstain_counts_as:
        return fx.abstain_counts_as
    return kind


def voters(state: MinisterState) -> list[int]:
    """Seats that can vote: everyone with a stored vote.

    Votes moved onto laws (Undecided Voters) never come back, so the vote supply
    can run dry; a player who then has no vote sits the vote out.
    """
    return [s for s in range(state.players) if any(w.votes for w in state.won[s])]


def tally(state: MinisterState, fx: Effects) -> tuple[int, int, bool, tuple[int, ...]]:
    """YES and NO totals, whether the proposal passes, and the picking order."""
    ballots = {s: b for s, b in enumerate(state.ballots) if b is not None}
    kinds = {s: counted_kind(b, fx) for s, b in ballots.items()}
    weight = {s: fx.proposer_weight if s == state.proposer else 1 for s in ballots}
    yes = sum(weight[s] for s, k in kinds.items() if k == "yes")
    no = sum(weight[s] for s, k in kinds.items() if k == "no")
    abstained = sum(k == "abstain" for k in kinds.values())
    accepted = yes > no or (yes == no and fx.tie_passes)
    if yes == no and abstained and fx.abstain_tie_rejects:
        accepted = False
    if fx.abstain_quorum and 2 * abstained > len(kinds):
        accepted = False
    low_first = accepted != fx.reverse_order
    by_number = sorted(ballots, key=lambda s: VOTES[ballots[s]].number, reverse=not low_first)
    plain = [s for s in by_number if kinds[s] != "abstain"]
    silent = [s for s in by_number if kinds[s] == "abstain"]
    if fx.abstain_takes == "first":
        order = silent + plain
    elif fx.abstain_takes == "last":
        order = plain + silent
    else:
        order = plain
    if fx.proposer_first and state.proposer in order:
        order.remove(state.proposer)
        order.insert(0, state.proposer)
    return yes, no, accepted, tuple(order)


def reveal(state: MinisterState) -> MinisterState:
    """Show every vote, enact or discard the laws, and set the picking order."""
    fx = board.effects(state)
    yes, no, accepted, order = tally(state, fx)
    ballots = state.ballots
    cast = [b for b in ballots if b is not None]
    refunded = {b for b in cast if fx.abstain_refund and VOTES[b].kind == "abstain"}
    spent = [b for b in cast if b not in refunded]
    won = tuple(board.without_votes(cards, set(spent)) for cards in state.won)
    abstains = tuple(
        n + (b is not None and VOTES[b].kind == "abstain")
        for n, b in zip(state.abstains, ballots, strict=True)
    )
    law_cards = tuple(c for c in state.proposal if CARDS[c].kind == "law")
    rest = tuple(c for c in state.proposal if CARDS[c].kind != "law")
    laws = state.laws + tuple(Enacted(c, ()) for c in law_cards) if accepted else state.laws
    discard = state.discard if accepted else state.discard + law_cards
    record = Reveal(
        state.turn,
        state.proposer,
        state.proposal,
        ballots,
        yes,
        no,
        accepted,
        order,
        law_cards if accepted else (),
    )
    if not order:
        discard += rest
        rest = ()
    state = replace(
        state,
        won=won,
        abstains=abstains,
        laws=laws,
        discard=discard,
        vote_discard=state.vote_discard + tuple(spent),
        proposal=rest,
        reveal=record,
        reveals=state.reveals + 1,
        ballots=(None,) * state.players,
        picks=order,
        pick_at=0,
        phase="pick",
        actor=order[0] if order else state.proposer,
    )
    summary = RevealSummary(
        turn=record.turn, yes=record.yes, no=record.no, accepted=accepted, order=list(order)
    )
    state = log(state, "revealed", summary)
    return settle(state)


def reveal_json(r: Reveal) -> PublicReveal:
    """A reveal as public JSON: votes by number and kind (never by card id)."""
    return {
        "turn": r.turn,
        "proposer": r.proposer,
        "proposal": list(r.proposal),
        "votes": [
            {"number": VOTES[b].number, "kind": VOTES[b].kind} if b is not None else None
            for b in r.ballots
        ],
        "yes": r.yes,
        "no": r.no,
        "accepted": r.accepted,
        "order": list(r.order),
        "enacted": list(r.enacted),
    }


# -- pick -----------------------------------------------------------------------------


def take(state: MinisterState, card: str) -> MinisterState:
    """The picker lays ``card`` before them, green side up if accepted, else red."""
    seat = state.actor
    assert state.reveal is not None
    green = state.reveal.accepted
    state = board.with_won(state, seat, (*state.won[seat], Won(card, green, ())))
    state = replace(state, proposal=tuple(c for c in state.proposal if c != card))
    state = log(state, "took", Took(seat=seat, card=card, green=green))
    nxt = state.pick_at + 1
    return replace(state, pick_at=nxt, actor=state.picks[nxt % len(state.picks)])


# -- settling: skip every step with no choice in it -------------------------------------


def settle(state: MinisterState) -> MinisterState:
    """Advance through steps where nobody has a decision to make."""
    while True:
        before = state
        if state.drawn and state.phase in ("propose", "vote", "pick"):
            # A special power drew votes: they are stored before play goes on.
            state = upkeep.auto_store(state)
            if state.drawn:
                return state
        if state is not before:
            continue
        if state.phase == "pick":
            if len(state.proposal) == 1:
                state = take(state, state.proposal[0])
            elif not state.proposal:
                state = upkeep.enter_collect(state)
        elif state.phase in ("collect", "move", "shop_start", "shop_end", "powers"):
            state, finished = upkeep.settle(state)
            if finished:
                state = end_turn(state)
        if state is before:
            return state
