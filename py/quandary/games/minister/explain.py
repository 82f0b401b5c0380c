"""Why a move is refused: one readable sentence per way a move can be wrong.

The engine only asks here after the move failed the legal set, so these
functions look for the most useful reason, not for whether the move is legal.
"""

from __future__ import annotations

from quandary.engine import Move

from . import board, laws, turn, upkeep
from .material import CARDS, VOTES
from .state import MinisterState


def _name(card_id: str) -> str:
    return CARDS[card_id].name if card_id in CARDS else repr(card_id)


def _propose(state: MinisterState, seat: int, move: Move) -> str:
    hand = state.hands[seat]
    cards = move["cards"]
    if any(c not in hand for c in cards):
        return "Those cards are not all in your hand."
    if len(set(cards)) != len(cards):
        return "A card can be in a proposal only once."
    sizes = turn.proposal_sizes(len(hand), board.effects(state))
    if len(cards) not in sizes:
        allowed = " or ".join(str(s) for s in sizes)
        return (
            f"A proposal from your hand of {len(hand)} must hold {allowed} cards"
            " (never leave exactly one card in hand)."
        )
    return "List the proposal's cards in the order they are in your hand."


def _vote(state: MinisterState, seat: int, move: Move) -> str:
    if move["vote"] not in board.stored(state, seat):
        return "That vote is not stored on your cards: pick one of your own stored votes."
    return "The proposer may not abstain on their own proposal."


def _store(state: MinisterState, seat: int, move: Move) -> str:
    if move["vote"] not in state.drawn:
        return "That vote is not one you have drawn and still have to store."
    w = board.won_card(state, seat, move["card"])
    if w is None:
        return "You can only store votes on cards you have won."
    cap = board.effects(state).capacity(CARDS[w.card])
    return f"{_name(w.card)} is full: it stores at most {cap} vote(s)."


def _trade(state: MinisterState, seat: int, move: Move) -> str:
    if state.owed:
        return f"First give up {state.owed} stored vote(s) for your negative support."
    if move["type"] == "collect":
        return "There is nothing to decide about collecting now."
    w = board.won_card(state, seat, move["card"])
    if w is None or CARDS[w.card].kind not in upkeep.RESOURCE_KINDS:
        return "You can only trade resource cards you have won."
    return "That card cannot be traded now."


def _move_votes(state: MinisterState, seat: int, move: Move) -> str:
    mine = board.stored(state, seat)
    votes = [move["vote"]] if move["type"] == "move_law" else move["votes"]
    if any(v not in mine for v in votes):
        return "Those votes are not stored on your cards."
    if move["type"] == "move_law":
        if all(law.card != move["law"] for law in state.laws):
            return "Votes can only go onto an enacted law."
        return "You cannot move your last stored vote."
    if len(votes) != 2 or VOTES[votes[0]].kind != VOTES[votes[-1]].kind:
        return "Play exactly two YES votes or two NO votes onto a card."
    if board.owner(state, move["card"]) is None:
        return "Votes can only go onto a card someone has won."
    return "Only a red card can be turned or removed, and nobody may lose their last vote."


def _shop(state: MinisterState, seat: int, move: Move) -> str:
    if move["type"] == "shop":
        if move["law"] not in board.effects(state).shops:
            return "That is not an active shop law."
        return _payment(state, seat, move["law"], move["pay"])
    w = board.won_card(state, seat, move["card"])
    if w is None or CARDS[w.card].power is None:
        return "That is not a special resource of yours."
    return "That power cannot be used like that now."


def _payment(state: MinisterState, seat: int, law: str, pay: list[str]) -> str:
    cost, _ = laws.shop(law)
    paid = [board.won_card(state, seat, c) for c in pay]
    cards = [w for w in paid if w is not None]
    price = " and ".join(cost)
    if len(cards) != len(pay) or not upkeep.covers(cards, cost):
        return f"Pay with whole won cards, green side up, showing {price}."
    for k, spare in enumerate(cards):
        if upkeep.covers(cards[:k] + cards[k + 1 :], cost):
            return (
                f"The other cards already pay {price}: {_name(spare.card)} would be"
                " discarded for nothing, so it may not be added."
            )
    return "Paying that would leave you with no stored vote, or the reward cannot be had now."


def explain(state: MinisterState, seat: int, move: Move) -> str:
    """The reason for the phase's move types."""
    kind = move["type"]
    if kind == "propose":
        return _propose(state, seat, move)
    if kind == "vote":
        if state.ballots[seat] is not None:
            return "You have already voted on this proposal."
        return _vote(state, seat, move)
    if kind == "take":
        return "That card is not in the proposal."
    if kind == "store":
        return _store(state, seat, move)
    if kind == "store_all":
        return (
            "Those are not the places suggested for your new votes: store them as"
            " suggested, or one vote at a time on any card with room."
        )
    if kind == "discard_vote":
        return "That vote is not stored on your cards."
    if kind in ("trade", "collect"):
        return _trade(state, seat, move)
    if kind in ("move_law", "move_card"):
        return _move_votes(state, seat, move)
    if kind in ("shop", "special"):
        return _shop(state, seat, move)
    return "That move is not allowed now."
