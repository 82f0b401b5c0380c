"""How a round of Royal Dilemma resolves, one step at a time.

Once every choice is revealed the round runs in the order
static/rules/royal-dilemma.html sets: (1) builders put their value card into
play; (2) pairs who targeted each
other battle, in seat order; (3) the remaining invasions, strongest first, ties
in seat order from the Ace. An invasion whose invader may capture one of
several cards stops the round until that player picks (the ``capture``
phase); everything else resolves at once. Each step is recorded as a ``Step``
and announced as an event, so the table can retell the round.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from quandary.engine import Event, Rng, moves

from .cards import SUITS, card_points, rank_of, strength, suit_of, target_seat
from .state import Capture, Choice, Planned, RoundRecord, RoyalState, Step
from .view import RoyalChoice, RoyalEnding, RoyalStep

Shortfall = tuple[int, int]
"""The deck's count and the draw it could not cover, when that ended a game."""


def scores(realms: tuple[tuple[str, ...], ...]) -> tuple[int, ...]:
    """Each seat's points: the face values in its realm, its own suit doubled.

    >>> scores((("7S", "3H"), ("4H",)))  # the Ace's Spades count double for the Ace
    (17, 4)
    """
    return tuple(sum(card_points(c, seat) for c in realm) for seat, realm in enumerate(realms))


def draw_need(realms: tuple[tuple[str, ...], ...], players: int) -> tuple[int, ...]:
    """What each seat draws at the start of a round.

    Every card in play counts once for everyone, and each card in play of a
    seat's own suit once more for that seat, whoever controls it.

    >>> draw_need((("7S",), ("4H",)), 2)  # one Spade in play: the Ace draws one more
    (3, 2)
    """
    in_play = [c for realm in realms for c in realm]
    own = [sum(suit_of(c) == SUITS[s] for c in in_play) for s in range(players)]
    return tuple(len(in_play) + n for n in own)


def plan(choices: tuple[Choice | None, ...]) -> tuple[Planned, ...]:
    """Battles in seat order, then invasions strongest first (ties: seat order)."""
    battles: list[Planned] = []
    invasions: list[tuple[int, int, Planned]] = []
    for seat, choice in enumerate(choices):
        if choice is None or choice.target == seat:
            continue
        answer = choices[choice.target]
        if answer is not None and answer.target == seat:
            if seat < choice.target:
                battles.append(Planned("battle", seat, choice.target))
            continue
        power, _ = strength(choice.card, seat, choice.target)
        invasions.append((-power, seat, Planned("invasion", seat, choice.target)))
    return tuple(battles) + tuple(p for _, _, p in sorted(invasions, key=lambda t: t[:2]))


def reveal(state: RoyalState) -> RoyalState:
    """Turn every pending choice face up, let builders build, and start resolving."""
    choices: list[Choice | None] = []
    for move in state.pending:
        if move["type"] == "pass":
            choices.append(None)
        else:
            target = target_seat(move["target"])
            choices.append(Choice(move["target"], target, move["value"]))
    hands = [list(h) for h in state.hands]
    realms = [list(r) for r in state.realms]
    table: list[str | None] = [None] * state.players
    steps: list[Step] = []
    for seat, choice in enumerate(choices):
        if choice is None:
            continue
        hands[seat].remove(choice.card)
        if choice.target == seat:
            realms[seat].append(choice.card)
            steps.append(Step("build", seat, seat, choice.card))
        else:
            table[seat] = choice.card
    revealed = tuple(choices)
    events = [Event("choices_revealed", {"round": state.round, "choices": choices_json(revealed)})]
    events += [Event("step", step_json(s, None)) for s in steps]
    state = replace(
        state,
        hands=tuple(tuple(h) for h in hands),
        realms=tuple(tuple(r) for r in realms),
        pending=(None,) * state.players,
        choices=revealed,
        table=tuple(table),
        queue=plan(revealed),
        steps=tuple(steps),
        log=(*state.log, *events),
    )
    return advance(state)


def advance(state: RoyalState) -> RoyalState:
    """Resolve queued battles and invasions until one needs a capture choice or none is left."""
    while state.queue and state.capture is None:
        planned, state = state.queue[0], replace(state, queue=state.queue[1:])
        if planned.kind == "battle":
            state = _battle(state, planned.seat, planned.other)
        else:
            card = state.table[planned.seat]
            assert card is not None
            power, doubled = strength(card, planned.seat, planned.other)
            step = Step("invasion", planned.seat, planned.other, card, power, doubled)
            state = _invade(state, step)
    if state.capture is not None:
        return state
    return finish_round(state)


def capture(state: RoyalState, card: str | None) -> RoyalState:
    """The waiting invader captures ``card`` (None: captures nothing); the round goes on."""
    pending = state.capture
    assert pending is not None
    step = replace(pending.step, captured=card)
    realms = [list(r) for r in state.realms]
    if card is not None:
        realms[step.target].remove(card)
        realms[step.seat].append(card)
    state = replace(state, stage="choose", realms=tuple(tuple(r) for r in realms), capture=None)
    return advance(_close_invasion(state, step))


def _battle(state: RoyalState, first: int, second: int) -> RoyalState:
    card_a, card_b = state.table[first], state.table[second]
    assert card_a is not None and card_b is not None
    power_a, doubled_a = strength(card_a, first, second)
    power_b, doubled_b = strength(card_b, second, first)
    winner = first if power_a > power_b else second if power_b > power_a else None
    step = Step(
        "battle",
        first,
        second,
        card_a,
        power_a,
        doubled_a,
        rival_card=card_b,
        rival_strength=power_b,
        rival_doubled=doubled_b,
        winner=winner,
    )
    table = list(state.table)
    if winner is None:
        discarded: tuple[str, ...] = (card_a, card_b)
        table[first] = table[second] = None
    else:
        loser = second if winner == first else first
        discarded = (card_b if winner == first else card_a,)
        table[loser] = None
    state = _record(replace(state, table=tuple(table), discard=state.discard + discarded), step)
    if winner is None:
        return state
    loser = second if winner == first else first
    card = card_a if winner == first else card_b
    power = power_a if winner == first else power_b
    doubled = doubled_a if winner == first else doubled_b
    return _invade(state, Step("invasion", winner, loser, card, power, doubled, after_battle=True))


def _invade(state: RoyalState, step: Step) -> RoyalState:
    """An invasion: capture from the target's realm, or take from an empty realm's hand."""
    realm = state.realms[step.target]
    if not realm:
        return _close_invasion(*_surrender(state, step))
    options = tuple(sorted((c for c in realm if rank_of(c) <= step.strength), key=_order))
    step = replace(step, could_capture=options)
    if not options:
        return _close_invasion(state, step)
    return replace(state, stage="capture", capture=Capture(step, options))


def _surrender(state: RoyalState, step: Step) -> tuple[RoyalState, Step]:
    """The target has nothing in play: it hands over value cards chosen at random."""
    rng = Rng(state.rng)
    hand = list(state.hands[step.target])
    count = min(step.strength, len(hand))
    given = tuple(sorted(rng.shuffled(hand)[:count], key=_order))
    hands = list(state.hands)
    hands[step.target] = tuple(c for c in hand if c not in given)
    hands[step.seat] = tuple(sorted(hands[step.seat] + given, key=_order))
    return replace(state, hands=tuple(hands), rng=rng.state), replace(
        step, surrendered=given, from_hand=True
    )


def _close_invasion(state: RoyalState, step: Step) -> RoyalState:
    """Record the invasion and give the invader its value card back."""
    hands = list(state.hands)
    hands[step.seat] = tuple(sorted((*hands[step.seat], step.card), key=_order))
    table = list(state.table)
    table[step.seat] = None
    return _record(replace(state, hands=tuple(hands), table=tuple(table)), step)


def _record(state: RoyalState, step: Step) -> RoyalState:
    return replace(
        state,
        steps=(*state.steps, step),
        log=(*state.log, Event("step", step_json(step, None))),
    )


def finish_round(state: RoyalState) -> RoyalState:
    """File the round in the history and start the next one (or end the game)."""
    record = RoundRecord(state.round, state.draws, state.choices, state.steps, scores(state.realms))
    state = replace(
        state,
        history=(*state.history, record),
        choices=(None,) * state.players,
        table=(None,) * state.players,
        queue=(),
        steps=(),
        capture=None,
    )
    return start_round(state, state.round + 1)


def start_round(state: RoyalState, number: int) -> RoyalState:
    """Deal a round's draw, or end the game when the deck cannot cover it.

    Discards are never reshuffled (static/rules/royal-dilemma.html), so the deck only shrinks.
    """
    need = draw_need(state.realms, state.players)
    if sum(need) > len(state.deck):
        return game_over(state, "deck", (len(state.deck), sum(need)))
    deck = list(state.deck)
    hands = []
    for seat, hand in enumerate(state.hands):
        drawn = [deck.pop() for _ in range(need[seat])]
        hands.append(tuple(sorted((*hand, *drawn), key=_order)))
    if not any(hands) and not any(state.realms):
        return game_over(state, "empty")
    return replace(
        state,
        round=number,
        stage="choose",
        hands=tuple(hands),
        deck=tuple(deck),
        draws=need,
        pending=(None,) * state.players,
        log=(*state.log, Event("round_started", {"round": number, "draws": list(need)})),
    )


def game_over(
    state: RoyalState, reason: Literal["deck", "empty"], shortfall: Shortfall | None = None
) -> RoyalState:
    """The end: nothing more is drawn; the cards in play score.

    ``shortfall`` (the deck's count and the draw it could not cover) lets the
    log say why in numbers, so nobody wonders why a game stopped so soon.
    """
    final = moves.standings(list(scores(state.realms)))
    ending: RoyalEnding = {"scores": final["scores"], "winners": final["winners"]}
    ending["reason"], ending["round"] = reason, state.round
    if shortfall is not None:
        ending["deck"], ending["need"] = shortfall
    event = Event("game_over", ending)
    return replace(
        state,
        stage="over",
        pending=(None,) * state.players,
        draws=(0,) * state.players,
        log=(*state.log, event),
    )


def choices_json(choices: tuple[Choice | None, ...]) -> list[RoyalChoice | None]:
    """Revealed choices as JSON (public once revealed)."""
    return [
        None if c is None else {"target_card": c.target_card, "target": c.target, "card": c.card}
        for c in choices
    ]


def step_json(step: Step, viewer: int | None) -> RoyalStep:
    """A step as JSON for ``viewer``: surrendered cards only for the two seats involved."""
    involved = viewer is not None and viewer in (step.seat, step.target)
    # A record a room's successor could not rebuild ("?": the cards passed between
    # two players who were both gone) tells even them only how many.
    involved = involved and "?" not in step.surrendered
    return {
        "kind": step.kind,
        "seat": step.seat,
        "target": step.target,
        "card": step.card,
        "strength": step.strength,
        "doubled": step.doubled,
        "rival_card": step.rival_card,
        "rival_strength": step.rival_strength,
        "rival_doubled": step.rival_doubled,
        "winner": step.winner,
        "after_battle": step.after_battle,
        "could_capture": list(step.could_capture),
        "captured": step.captured,
        "surrendered": list(step.surrendered) if involved else None,
        "surrendered_count": len(step.surrendered),
        "from_hand": step.from_hand,
    }


def _order(card: str) -> tuple[int, int]:
    """Hands and lists sort by suit, then rank: the way a player fans their cards."""
    return (SUITS.index(suit_of(card)), rank_of(card))
