"""The phases after the pick: collect, move votes (Undecided Voters), and the shop.

Collect goes round the table from the proposer. Each player first gives up
stored votes for negative support (never the last one), may trade won resource
cards for votes (whatever room is left), then draws: their support, plus the
trades, plus any law's bonus, but never more than their cards have room for,
and at least one when they hold none. Drawn votes are then stored on cards
with room: one by one, or all at once where the table suggests.

Move votes (Undecided Voters) also goes round once: one vote onto an enacted
law (an ABSTAIN vote too, counting for neither side), two equal votes onto a
red card (YES turns it green, NO removes it), or pass. No move may take a player's last stored vote.

The shop (Advanced Politics) opens for the proposer at the start and at the end
of their turn: pay whole won cards for a shop law's reward (a minimal set of
cards showing the price's icons), or discard a special resource for its power.
Then the round of powers: every holder of a special resource, round the table
from the proposer, until a full round passes with none used.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations

from quandary.engine import Move

from . import board, laws
from .laws import Effects
from .material import CARDS, VOTES, WILDCARD, Power, Reward, power_amount
from .state import MinisterState, Won, draw_decrees, draw_votes, log, replace
from .view_types import Collected, MovedCard, MovedVote, SeatActed, Shopped, Special, Traded

RESOURCE_KINDS = ("resource", "special")


def _log(state: MinisterState, kind: str, data: Mapping[str, object]) -> MinisterState:
    return log(state, kind, data)


# -- storing drawn votes -----------------------------------------------------------


def store(state: MinisterState, vote: str, card: str) -> MinisterState:
    """The actor stores one drawn vote on one of their cards."""
    seat = state.actor
    cards = tuple(
        Won(w.card, w.green, (*w.votes, vote)) if w.card == card else w for w in state.won[seat]
    )
    state = board.with_won(state, seat, cards)
    return replace(state, drawn=tuple(v for v in state.drawn if v != vote))


def store_moves(state: MinisterState) -> list[Move]:
    """Every (drawn vote, card with room) placement, and all the drawn votes at once
    where ``suggested_storage`` puts them (one vote too: the suggestion then names its
    card, so a newcomer need not weigh the cards to store it).

    The one move for all is a suggestion the player may take in one click; each
    vote may still go on any card with room, one at a time, as the rules let them
    choose. A placement for every vote at once is not listed in full: their number
    grows as cards to the power of votes.
    """
    room = board.room(state, state.actor)
    out: list[Move] = [{"type": "store", "vote": v, "card": c} for v in state.drawn for c in room]
    placed = suggested_storage(state)
    if state.drawn and len(placed) == len(state.drawn):
        votes, cards = [v for v, _ in placed], [c for _, c in placed]
        out.append({"type": "store_all", "votes": votes, "cards": cards})
    return out


def suggested_storage(state: MinisterState) -> list[tuple[str, str]]:
    """Where the actor's drawn votes go if they take the suggestion, in drawn order.

    The safest cards first: support cards, which are never traded (trading a
    resource discards the votes on it); green before red (a red card may be
    removed with the votes on it, under Undecided Voters); then the cards with
    the most room, so the votes sit on few cards. Votes that would not fit get
    no place (the list is then shorter than the votes drawn).
    """
    room = board.room(state, state.actor)
    green = {w.card: w.green for w in state.won[state.actor]}
    order = sorted(room, key=lambda c: (CARDS[c].kind != "support", not green[c], -room[c]))
    slots = [card for card in order for _ in range(room[card])]
    return list(zip(state.drawn, slots, strict=False))


def store_all(state: MinisterState, votes: list[str], cards: list[str]) -> MinisterState:
    """The actor stores each drawn vote on the card beside it."""
    for vote, card in zip(votes, cards, strict=True):
        state = store(state, vote, card)
    return state


def auto_store(state: MinisterState) -> MinisterState:
    """Store drawn votes when there is only one place for them (or drop what cannot fit)."""
    room = board.room(state, state.actor)
    if len(room) > 1:
        return state
    for vote in state.drawn:
        room = board.room(state, state.actor)
        if room:
            state = store(state, vote, next(iter(room)))
        else:
            state = replace(
                state,
                drawn=tuple(v for v in state.drawn if v != vote),
                vote_discard=(*state.vote_discard, vote),
            )
    return state


# -- collect --------------------------------------------------------------------------


def enter_collect(state: MinisterState) -> MinisterState:
    """Collect starts with the proposer and goes round the table."""
    queue = board.round_from(state, state.proposer)
    return _begin_collect(replace(state, phase="collect", queue=queue), queue[0])


def _begin_collect(state: MinisterState, seat: int) -> MinisterState:
    short = max(0, -board.support(state, seat))
    owed = min(short, max(0, len(board.stored(state, seat)) - 1))
    return replace(state, actor=seat, owed=owed, traded=0, drawn=())


def _pending(state: MinisterState, fx: Effects) -> int:
    """Votes the collecting actor will draw if they stop trading now (before the room cap)."""
    seat = state.actor
    extra = 0
    if state.reveal is not None and fx.abstain_collect:
        ballots = state.reveal.ballots
        mine = ballots[seat]
        if mine is not None and VOTES[mine].kind == "abstain":
            extra = fx.abstain_collect
    return (
        max(0, board.support(state, seat))
        + state.traded * fx.trade_votes
        + fx.collect_bonus
        + extra
    )


def tradeable(state: MinisterState) -> list[str]:
    """Won resources the actor may trade: every one, whatever room is left.

    Storage caps what is drawn (``finish_collect``), not whether a resource may be
    discarded: with room for one vote the trade draws one, with none it draws
    none but still rids the actor of the card. The starting support card never
    leaves the table and stores at least one vote, so it always holds a vote or
    has room for one: no trade can leave the actor unable to end with a vote.
    """
    return [w.card for w in state.won[state.actor] if CARDS[w.card].kind in RESOURCE_KINDS]


def collect_moves(state: MinisterState) -> list[Move]:
    """Give up votes owed, else trade or finish collecting."""
    if state.owed:
        return [{"type": "discard_vote", "vote": v} for v in board.stored(state, state.actor)]
    trades = tradeable(state)
    if not trades:
        return []
    return [{"type": "trade", "card": c} for c in trades] + [{"type": "collect"}]


def discard_vote(state: MinisterState, vote: str) -> MinisterState:
    """Negative support: one stored vote goes to the discard pile."""
    seat = state.actor
    state = board.with_won(state, seat, board.without_votes(state.won[seat], {vote}))
    state = replace(state, owed=state.owed - 1, vote_discard=(*state.vote_discard, vote))
    return _log(state, "gave_up_vote", SeatActed(seat=seat))


def remove_card(state: MinisterState, seat: int, card: str) -> MinisterState:
    """A won card leaves the table for the discard pile; its stored votes are lost."""
    gone = board.won_card(state, seat, card)
    assert gone is not None
    state = board.with_won(state, seat, tuple(w for w in state.won[seat] if w.card != card))
    return replace(
        state,
        discard=(*state.discard, card),
        vote_discard=state.vote_discard + gone.votes,
    )


def trade(state: MinisterState, card: str) -> MinisterState:
    """Discard a won resource for votes (drawn when the actor finishes collecting)."""
    seat = state.actor
    state = replace(remove_card(state, seat, card), traded=state.traded + 1)
    return _log(state, "traded", Traded(seat=seat, card=card))


def finish_collect(state: MinisterState) -> MinisterState:
    """Draw what the actor collects, capped by room, at least one if they hold none."""
    seat = state.actor
    fx = board.effects(state)
    room = sum(board.room(state, seat, fx).values())
    count = min(_pending(state, fx), room)
    if not board.stored(state, seat) and count == 0 and room:
        count = 1
    state = draw_votes(replace(state, queue=state.queue[1:]), count)
    return _log(state, "collected", Collected(seat=seat, votes=len(state.drawn)))


# -- move votes (Undecided Voters) ------------------------------------------------------


def enter_move(state: MinisterState) -> MinisterState:
    """The move-votes round, from the proposer in seat order."""
    queue = board.round_from(state, state.proposer)
    return replace(state, phase="move", queue=queue, actor=queue[0])


def move_moves(state: MinisterState) -> list[Move]:
    """One vote onto a law, two equal votes onto a red card, or pass."""
    seat = state.actor
    mine = board.stored(state, seat)
    out: list[Move] = []
    if len(mine) >= 2:
        # An ABSTAIN vote may go onto a law too (RULINGS §3): it counts for neither side.
        out += [
            {"type": "move_law", "vote": v, "law": law.card} for v in mine for law in state.laws
        ]
    if len(mine) >= 3:
        pairs = [
            (a, b)
            for a, b in combinations(mine, 2)
            if VOTES[a].kind == VOTES[b].kind and VOTES[a].kind != "abstain"
        ]
        for owner, cards in enumerate(state.won):
            left = len(board.stored(state, owner))
            for w in cards:
                if w.green:
                    continue
                for a, b in pairs:
                    keep = left - len(w.votes) if VOTES[a].kind == "no" else left
                    if owner == seat:
                        keep -= 2 - sum(v in w.votes for v in (a, b))
                    if keep >= 1:
                        out.append({"type": "move_card", "votes": [a, b], "card": w.card})
    if not out:
        return []
    return [*out, {"type": "pass"}]


def move_to_law(state: MinisterState, vote: str, law: str) -> MinisterState:
    """One stored vote goes face up onto an enacted law."""
    seat = state.actor
    state = board.with_won(state, seat, board.without_votes(state.won[seat], {vote}))
    enacted = tuple(replace(e, votes=(*e.votes, vote)) if e.card == law else e for e in state.laws)
    state = replace(state, laws=enacted, queue=state.queue[1:])
    kind, number = VOTES[vote].kind, VOTES[vote].number
    return _log(state, "moved_vote", MovedVote(seat=seat, law=law, kind=kind, number=number))


def move_to_card(state: MinisterState, votes: list[str], card: str) -> MinisterState:
    """Two YES votes turn a red card green; two NO votes remove it."""
    seat = state.actor
    state = board.with_won(state, seat, board.without_votes(state.won[seat], set(votes)))
    state = replace(state, vote_discard=state.vote_discard + tuple(votes), queue=state.queue[1:])
    owner = board.owner(state, card)
    assert owner is not None
    kind = VOTES[votes[0]].kind
    if kind == "yes":
        state = board.with_won(
            state,
            owner,
            tuple(Won(w.card, True, w.votes) if w.card == card else w for w in state.won[owner]),
        )
    else:
        state = remove_card(state, owner, card)
    return _log(state, "moved_card", MovedCard(seat=seat, card=card, owner=owner, kind=kind))


def pass_move(state: MinisterState) -> MinisterState:
    """No vote move this round (or: done in the shop)."""
    return replace(state, queue=state.queue[1:])


# -- the shop (Advanced Politics) ----------------------------------------------------------


def _keeps_a_vote(state: MinisterState, seat: int, cards: set[str]) -> bool:
    lost = sum(len(w.votes) for w in state.won[seat] if w.card in cards)
    return len(board.stored(state, seat)) - lost >= 1


def _room_after(state: MinisterState, seat: int, cards: set[str]) -> int:
    """Free storage left once ``cards`` are gone, less the drawn votes still to store."""
    room = board.room(state, seat)
    free = sum(free for card, free in room.items() if card not in cards)
    return free - (len(state.drawn) if seat == state.actor else 0)


def covers(paid: Sequence[Won], cost: Sequence[str]) -> bool:
    """Whether won cards, green side up, show every icon of a shop law's price.

    Each card pays every icon of the price it shows, so one card showing both
    icons of a two-icon price pays it alone; a wildcard pays any one icon, and
    each icon printed on a card pays once. Red sides pay nothing.

    >>> covers([Won("R01", True, ())], ["money", "money"])
    False
    """
    slots: list[tuple[int, str]] = []
    for i, w in enumerate(paid):
        if w.green:
            slots += [(i, icon) for icon in CARDS[w.card].green]
    return _assign(list(cost), slots)


def _assign(cost: list[str], slots: list[tuple[int, str]]) -> bool:
    """Whether each icon of ``cost`` gets a printed icon of its own (prices are 1-2 icons)."""
    if not cost:
        return True
    icon, rest = cost[0], cost[1:]
    return any(
        shown in (icon, WILDCARD) and _assign(rest, slots[:k] + slots[k + 1 :])
        for k, (_, shown) in enumerate(slots)
    )


def _payments(state: MinisterState, cost: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Every set of whole won cards that pays ``cost`` with no card to spare.

    A card may not join a payment its other cards already cover: the ruling
    makes a payment minimal, so no card is thrown away for nothing.
    """
    seat = state.actor
    cards = [w for w in state.won[seat] if CARDS[w.card].kind in RESOURCE_KINDS and w.green]
    found: list[tuple[str, ...]] = []
    for size in range(1, len(cost) + 1):
        for group in combinations(cards, size):
            if not covers(group, cost):
                continue
            if size > 1 and any(covers(group[:k] + group[k + 1 :], cost) for k in range(size)):
                continue
            found.append(tuple(sorted(w.card for w in group)))
    return sorted(p for p in found if _keeps_a_vote(state, seat, set(p)))


def _flip_targets(state: MinisterState, seat: int, spent: set[str]) -> list[str]:
    return [w.card for w in state.won[seat] if not w.green and w.card not in spent]


def _reward_ok(state: MinisterState, reward: Reward, spent: set[str]) -> bool:
    kind = reward["kind"]
    if kind == "votes":
        return _room_after(state, state.actor, spent) > 0
    if kind == "decrees":
        return bool(state.deck) and len(state.hands[state.actor]) < laws.HAND_LIMIT
    return True


def shop_moves(state: MinisterState) -> list[Move]:
    """Shop laws the proposer can pay for, special resources they can use, and done."""
    seat = state.actor
    out: list[Move] = []
    for law_id in board.effects(state).shops:
        cost, reward = laws.shop(law_id)
        for pay in _payments(state, cost):
            spent = set(pay)
            if not _reward_ok(state, reward, spent):
                continue
            targets: list[str | None] = [None]
            if reward["kind"] == "flip":
                targets = list(_flip_targets(state, seat, spent))
            out += [{"type": "shop", "law": law_id, "pay": list(pay), "target": t} for t in targets]
    out += special_moves(state, seat)
    if not out:
        return []
    return [*out, {"type": "done"}]


def special_moves(state: MinisterState, seat: int) -> list[Move]:
    """Every special resource ``seat`` can discard for its power now, with its targets.

    Special resources are not tied to the shop (RULINGS §3): the caller offers
    these whenever the game waits for a move of ``seat``.
    """
    out: list[Move] = []
    for w in state.won[seat]:
        card = CARDS[w.card]
        if card.power is None or not _keeps_a_vote(state, seat, {w.card}):
            continue
        out += [
            {"type": "special", "card": w.card, "target": t}
            for t in _power_targets(state, card.power, w.card, seat)
        ]
    return out


def icon_count(state: MinisterState, seat: int, icon: str) -> int:
    """Icons on ``seat``'s base cards (special resources are ignored, as the rules say).

    A wildcard counts as whichever icon helps its owner most: on a green side,
    as ``icon`` itself; on a red side (a removal), as some other icon.
    """
    total = 0
    for w in state.won[seat]:
        card = CARDS[w.card]
        if card.kind == "special":
            continue
        shown = card.icons(w.green)
        total += shown.count(icon) + shown.count(WILDCARD) if w.green else -shown.count(icon)
    return max(0, total)


def _power_targets(state: MinisterState, power: Power, own: str, seat: int) -> list[str | None]:
    kind = power["type"]
    if kind in ("draw_votes", "votes_per_icon"):
        if _room_after(state, seat, {own}) <= 0:
            return []
        if power["type"] == "votes_per_icon" and icon_count(state, seat, power["icon"]) == 0:
            return []
        return [None]
    if kind == "draw_decrees":
        fits = len(state.hands[seat]) < laws.HAND_LIMIT
        return [None] if state.deck and fits else []
    if kind == "flip_own":
        return list(_flip_targets(state, seat, {own}))
    if kind == "flip_other":
        return [
            w.card
            for other, cards in enumerate(state.won)
            if other != seat
            for w in cards
            if w.green and CARDS[w.card].kind == "resource"
        ]
    return [None]


def _reward(state: MinisterState, kind: str, amount: int, target: str | None) -> MinisterState:
    seat = state.actor
    if kind == "votes":
        return draw_votes(state, min(amount, _room_after(state, seat, set())))
    if kind == "points":
        bonus = list(state.bonus)
        bonus[seat] += amount
        return replace(state, bonus=tuple(bonus))
    if kind == "decrees":
        # Hands stop at the hand limit, so a proposal's choices stay few enough to list.
        return draw_decrees(state, seat, min(amount, laws.HAND_LIMIT - len(state.hands[seat])))
    assert target is not None
    owner = board.owner(state, target)
    assert owner is not None
    green = kind == "flip"
    cards = tuple(Won(w.card, green, w.votes) if w.card == target else w for w in state.won[owner])
    return board.with_won(state, owner, cards)


def use_shop(state: MinisterState, law: str, pay: list[str], target: str | None) -> MinisterState:
    """Pay whole cards to a shop law and take its reward."""
    seat = state.actor
    for card in pay:
        state = remove_card(state, seat, card)
    _, reward = laws.shop(law)
    state = _reward(state, reward["kind"], reward["amount"], target)
    return _log(state, "shopped", Shopped(seat=seat, law=law, paid=pay, target=target))


def use_special(state: MinisterState, card: str, target: str | None) -> MinisterState:
    """The actor discards a special resource for its power.

    Whoever uses one is the actor for that moment (``rules`` makes them so in the
    vote, where many wait at once), so the votes it draws are theirs to store.
    """
    seat = state.actor
    power = CARDS[card].power
    assert power is not None
    state = remove_card(state, seat, card)
    if power["type"] == "votes_per_icon":
        state = _reward(state, "votes", icon_count(state, seat, power["icon"]), None)
    else:
        reward = {
            "draw_votes": "votes",
            "draw_decrees": "decrees",
            "bonus_points": "points",
            "flip_own": "flip",
            "flip_other": "unflip",
        }[power["type"]]
        state = _reward(state, reward, power_amount(power, 1), target)
    if state.owed:
        # Votes lost with the discarded card lower what negative support can still
        # take: never the last stored vote.
        owed = min(state.owed, max(0, len(board.stored(state, seat)) - 1))
        state = replace(state, owed=owed)
    if state.phase == "powers":
        # A power used reopens the round: a full round must pass with none used.
        state = replace(state, queue=board.round_from(state, seat))
    return _log(state, "special", Special(seat=seat, card=card, target=target))


# -- settling ---------------------------------------------------------------------------------


def settle(state: MinisterState) -> tuple[MinisterState, bool]:
    """One automatic step of an upkeep phase; ``True`` once the turn's upkeep is over."""
    if state.drawn:
        return auto_store(state), False
    phase = state.phase
    if phase == "collect":
        if not state.queue:
            if state.options.get("undecided"):
                return enter_move(state), False
            return _enter_shop_end(state)
        if state.queue[0] != state.actor:
            return _begin_collect(state, state.queue[0]), False
        if not collect_moves(state):
            return finish_collect(state), False
        return state, False
    if phase == "move":
        if not state.queue:
            return _enter_shop_end(state)
        if state.queue[0] != state.actor:
            return replace(state, actor=state.queue[0]), False
        if not move_moves(state):
            return pass_move(state), False
        return state, False
    if phase == "powers":
        if not state.queue:
            return state, True
        if state.queue[0] != state.actor:
            return replace(state, actor=state.queue[0]), False
        if not special_moves(state, state.actor):
            return pass_move(state), False
        return state, False
    if not state.queue:
        if phase == "shop_start":
            return replace(state, phase="propose", actor=state.proposer), False
        return enter_powers(state), False
    if not shop_moves(state):
        return replace(state, queue=()), False
    return state, False


def enter_powers(state: MinisterState) -> MinisterState:
    """The end of the turn's round of special powers, before the 25-point check.

    Every holder gets the chance round the table from the proposer until a full
    round passes with no power used (RULINGS §3). The proposer has just had
    theirs in the shop and ended it, so the round starts with the next seat; a
    power used anywhere starts a full round again (``use_special``).
    """
    queue = board.round_from(state, state.proposer)[1:]
    return replace(state, phase="powers", queue=queue, actor=state.proposer)


def powers_moves(state: MinisterState) -> list[Move]:
    """In the round of powers: the actor's specials, or pass (``done``)."""
    out = special_moves(state, state.actor)
    return [*out, {"type": "done"}] if out else []


def _enter_shop_end(state: MinisterState) -> tuple[MinisterState, bool]:
    if not state.options.get("advanced"):
        return state, True
    return replace(state, phase="shop_end", queue=(state.proposer,), actor=state.proposer), False


def open_shop_start(state: MinisterState) -> MinisterState:
    """The proposer's chance to shop before proposing."""
    return replace(state, phase="shop_start", queue=(state.proposer,), actor=state.proposer)
