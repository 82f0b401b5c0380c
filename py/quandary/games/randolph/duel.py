"""The duel and the end of a round: who gets which cards, who loses a life.

Both duellists choose peace or conflict in secret; the choices are revealed
together when the second one is in:

- peace / peace: each takes the other's card as winnings;
- conflict / peace: the conflict chooser takes both cards and loses a life;
- conflict / conflict: both cards leave the game and both lose a life.

Without a life block left only peace may be chosen. An unanswered challenge
(or one with no valid card after the second window) is kept by the agent
provocateur. Then the stumbling block passes to the next seat that still holds
cards; when at most one seat holds cards the game is over.
"""

from __future__ import annotations

from dataclasses import replace

from quandary.engine import Event, moves
from quandary.engine.spec import Move

from .state import Card, Choice, Duel, Outcome, RandolphState, RoundResult
from .view import DuelRevealed, result_json


def start(opponent: int, card: int) -> Duel:
    """A duel against the owner of the duelling card; nobody has chosen yet."""
    return Duel(opponent=opponent, card=card, choices=(None, None))


def duellists(state: RandolphState) -> tuple[int, int]:
    """(provocateur, opponent) of the duel in progress."""
    assert state.duel is not None
    return state.provocateur, state.duel.opponent


def undecided(state: RandolphState) -> list[int]:
    """Duellists who have not chosen yet, in seat order."""
    if state.duel is None:
        return []
    pairs = zip(duellists(state), state.duel.choices, strict=True)
    return sorted(s for s, choice in pairs if choice is None)


def choices_for(state: RandolphState, seat: int) -> list[Move]:
    """Peace always; conflict only with a life block left."""
    if seat not in undecided(state):
        return []
    options: list[Move] = [{"type": "duel", "choice": "peace"}]
    if state.lives[seat] > 0:
        options.append({"type": "duel", "choice": "conflict"})
    return options


def choose(state: RandolphState, seat: int, choice: Choice) -> RandolphState:
    """Record one duellist's secret choice; resolve the duel when both are in."""
    assert state.duel is not None
    index = duellists(state).index(seat)
    choices = list(state.duel.choices)
    choices[index] = choice
    state = replace(
        state,
        duel=replace(state.duel, choices=(choices[0], choices[1])),
        log=(*state.log, Event("duel_chosen", {"round": state.round, "seat": seat})),
    )
    if None in choices:
        return state
    return _resolve(state)


def _resolve(state: RandolphState) -> RandolphState:
    assert state.duel is not None and state.challenge is not None
    p, o = duellists(state)
    mine, theirs = state.duel.choices
    assert mine is not None and theirs is not None
    challenge = Card(p, state.challenge)
    duelling = Card(o, state.duel.card)
    won = [list(pile) for pile in state.won]
    lives = list(state.lives)
    removed = list(state.removed)
    winner: int | None = None
    outcome: Outcome
    if mine == theirs == "peace":
        outcome = "peace"
        won[p].append(duelling)
        won[o].append(challenge)
    elif mine == theirs == "conflict":
        outcome = "both_conflict"
        removed += [challenge, duelling]
        lives[p] -= 1
        lives[o] -= 1
    else:
        outcome = "conflict_won"
        winner = p if mine == "conflict" else o
        won[winner] += [challenge, duelling]
        lives[winner] -= 1
    lost = tuple(a - b for a, b in zip(state.lives, lives, strict=True))
    result = _result(state, outcome, winner, won, lost, "duel")
    revealed: DuelRevealed = {
        "round": state.round,
        "seats": [p, o],
        "challenge": state.challenge,
        "card": state.duel.card,
        "choices": [mine, theirs],
        "outcome": outcome,
        "winner": winner,
        "gains": [list(g) for g in result.gains],
        "lives_lost": list(lost),
    }
    state = replace(
        state,
        won=tuple(tuple(pile) for pile in won),
        lives=tuple(lives),
        removed=tuple(removed),
        log=(*state.log, Event("duel_revealed", revealed)),
    )
    return _next_round(state, result)


def keep(state: RandolphState) -> RandolphState:
    """The provocateur keeps an unanswered challenge card as winnings."""
    assert state.challenge is not None
    p = state.provocateur
    won = [list(pile) for pile in state.won]
    won[p].append(Card(p, state.challenge))
    reason = "no_valid_card" if state.arena else "unanswered"
    result = _result(state, "kept", p, won, (0,) * state.players, reason)
    state = replace(state, won=tuple(tuple(pile) for pile in won))
    return _next_round(state, result)


def _result(
    state: RandolphState,
    outcome: Outcome,
    winner: int | None,
    won: list[list[Card]],
    lost: tuple[int, ...],
    reason: str,
) -> RoundResult:
    assert state.challenge is not None
    before = [len(pile) for pile in state.won]
    gains = tuple(tuple(c.value for c in won[s][before[s] :]) for s in range(state.players))
    return RoundResult(
        round=state.round,
        provocateur=state.provocateur,
        challenge=state.challenge,
        throws=state.arena,
        second_window=_second_window_opened(state),
        opponent=state.duel.opponent if state.duel is not None else None,
        card=state.duel.card if state.duel is not None else None,
        choices=tuple(c for c in state.duel.choices if c is not None) if state.duel else (),
        outcome=outcome,
        winner=winner,
        gains=gains,
        lives_lost=lost,
        reason=reason,
    )


def _second_window_opened(state: RandolphState) -> bool:
    """Whether cards were thrown in the first window without a duelling card."""
    first = [t for t in state.arena if t.window == 1]
    return bool(first) and all(t.status != "duelling" for t in first)


def scores(state: RandolphState) -> list[int]:
    """Each seat's points: the values of the cards it has won."""
    return [sum(c.value for c in pile) for pile in state.won]


def _next_round(state: RandolphState, result: RoundResult) -> RandolphState:
    """Clear the arena, pass the stumbling block on, or end the game."""
    log = [*state.log, Event("round_over", result_json(result, with_arena=False))]
    state = replace(
        state,
        challenge=None,
        window=None,
        arena=(),
        duel=None,
        history=(*state.history, result),
    )
    holders = state.holders()
    if len(holders) <= 1:
        log.append(Event("game_over", moves.standings(scores(state))))
        return replace(state, phase="over", log=tuple(log))
    after = [s for s in holders if s > state.provocateur]
    provocateur = after[0] if after else holders[0]
    log.append(Event("round_started", {"round": state.round + 1, "provocateur": provocateur}))
    return replace(
        state,
        round=state.round + 1,
        phase="challenge",
        provocateur=provocateur,
        two_left=len(holders) == 2,
        log=tuple(log),
    )
