"""Maybe Minister (Pandaqi), for 3-6 players: laws are proposed, voted and obeyed.

Each turn one player proposes 2-5 cards from hand; everyone casts one stored
vote in secret; the reveal decides (a tie passes) and sets the picking order by
vote number; the voters take the proposal's non-law cards green side up
(accepted) or red side up (rejected), and enacted laws join the law area, where
they rewrite the scoring and the rules. Then everyone collects new votes and
stores them on their cards. The game ends at the end of a turn if someone then
has 25 points or more; the highest score wins.

Expansions (options): Wildcard, Abstain Attacks, Undecided Voters, Advanced
Politics. Phases and their order: ``turn.py``; collect, move votes and shop:
``upkeep.py``; the law engine: ``laws.py``; views and secrets: ``views.py``.
Hidden: hands, deck orders, stored votes (face down), votes until the reveal.
Rulings: static/rules/maybe-minister.html, 'Rulings'.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from quandary.engine import Event, MalformedMove, Progress, Result, Rng, Story, moves
from quandary.engine.spec import Chooser, Json, Move

from . import board, dealing, turn, upkeep, views
from .material import CARDS, VOTES, decree_cards, starting_supports, vote_cards
from .spec import SPEC
from .state import HAND_SIZE, LOG_KEPT, TARGET, MinisterState, Won, replace
from .view_types import MinisterStory

_STR = (str,)
_FIELDS: dict[str, dict[str, tuple[type, ...]]] = {
    "propose": {"cards": (list,)},
    "vote": {"vote": _STR},
    "take": {"card": _STR},
    "discard_vote": {"vote": _STR},
    "trade": {"card": _STR},
    "collect": {},
    "store": {"vote": _STR, "card": _STR},
    "store_all": {"votes": (list,), "cards": (list,)},
    "move_law": {"vote": _STR, "law": _STR},
    "move_card": {"votes": (list,), "card": _STR},
    "pass": {},
    "shop": {"law": _STR, "pay": (list,), "target": (str, type(None))},
    "special": {"card": _STR, "target": (str, type(None))},
    "done": {},
}
_PHASE_MOVES = {
    "shop_start": {"shop", "special", "done"},
    "propose": {"propose", "special"},
    "vote": {"vote", "special"},
    "pick": {"take", "special"},
    "collect": {"discard_vote", "trade", "collect", "special"},
    "move": {"move_law", "move_card", "pass", "special"},
    "shop_end": {"shop", "special", "done"},
    "powers": {"special", "done"},
    "over": set(),
}
_SHOPS = ("shop_start", "shop_end", "powers")
"""Phases whose own moves already include the special powers."""
_PHASE_VERB = {
    "shop_start": "use the shop or carry on",
    "propose": "make a proposal",
    "vote": "vote",
    "pick": "take cards from the proposal",
    "collect": "collect votes",
    "move": "move votes",
    "shop_end": "use the shop or end the turn",
    "powers": "use a special resource or let the turn end",
    "over": "see the final scores",
}


class Minister:
    """Maybe Minister as an engine ``Game``."""

    spec = SPEC
    state_type = MinisterState

    def setup(self, players: int, options: dict[str, Any], rng: Rng) -> MinisterState:
        """Give everyone a starting Support card with 2 votes and deal 5 decree cards."""
        starters = tuple(rng.shuffled(starting_supports())[:players])
        deck = rng.shuffled([c for c in decree_cards(options) if c not in starters])
        hands = tuple(tuple(deck.pop() for _ in range(HAND_SIZE)) for _ in range(players))
        votes = rng.shuffled(vote_cards(options))
        won = tuple((Won(starters[s], True, (votes.pop(), votes.pop())),) for s in range(players))
        state = MinisterState(
            game=SPEC.id,
            version=0,
            rng=rng.state,
            players=players,
            options=options,
            turn=1,
            phase="propose",
            proposer=0,
            actor=0,
            queue=(),
            hands=hands,
            deck=tuple(deck),
            discard=(),
            laws=(),
            won=won,
            starters=starters,
            vote_deck=tuple(votes),
            vote_discard=(),
            drawn=(),
            owed=0,
            traded=0,
            proposal=(),
            ballots=(None,) * players,
            reveal=None,
            reveals=0,
            picks=(),
            pick_at=0,
            abstains=(0,) * players,
            bonus=(0,) * players,
            log=(),
        )
        return turn.settle(turn.start_turn(state, 0))

    # -- what may be done ------------------------------------------------------

    def waiting_for(self, state: MinisterState) -> list[int]:
        """The voters still to vote, or the one seat whose step it is."""
        if state.phase == "over":
            return []
        if state.phase == "vote" and not state.drawn:
            return [s for s in turn.voters(state) if state.ballots[s] is None]
        return [state.actor]

    def legal_moves(self, state: MinisterState, seat: int) -> list[Move]:
        """Every move ``seat`` may make now.

        Advanced Politics: whenever the game waits for a move of a seat holding a
        special resource, discarding it for its power is one more move (RULINGS
        §3). A step with nothing else to decide is never held up for it: the
        round of powers at the end of every turn gives every holder a chance.
        """
        moves = self._phase_moves(state, seat)
        if moves and state.options.get("advanced") and state.phase not in _SHOPS:
            moves += upkeep.special_moves(state, seat)
        return moves

    def _phase_moves(self, state: MinisterState, seat: int) -> list[Move]:
        phase = state.phase
        if phase == "over":
            return []
        if phase == "vote" and not state.drawn:
            if state.ballots[seat] is not None:
                return []
            return [{"type": "vote", "vote": v} for v in turn.votable(state, seat)]
        if seat != state.actor:
            return []
        if state.drawn:
            return upkeep.store_moves(state)
        if phase == "propose":
            return [{"type": "propose", "cards": list(p)} for p in turn.proposals(state)]
        if phase == "pick":
            return [{"type": "take", "card": c} for c in state.proposal]
        if phase == "collect":
            return upkeep.collect_moves(state)
        if phase == "move":
            return upkeep.move_moves(state)
        if phase == "powers":
            return upkeep.powers_moves(state)
        return upkeep.shop_moves(state)

    def check_shape(self, move: Move) -> None:
        """A move must have a known type and exactly that type's fields."""
        moves.check_fields(move, _FIELDS, SPEC.title)
        for key, value in move.items():
            if isinstance(value, list) and not all(isinstance(v, str) for v in value):
                raise MalformedMove(f"The field {key!r} must list card ids.")

    def explain_illegal(self, state: MinisterState, seat: int, move: Move) -> str:
        """Why a well-formed move is refused, in the player's terms."""
        from .explain import explain

        kind = move["type"]
        if state.drawn and seat == state.actor and kind not in ("store", "store_all", "special"):
            return "First store the votes you drew on your cards."
        if kind not in _PHASE_MOVES[state.phase] and kind not in ("store", "store_all"):
            return (
                f"Now is the time to {_PHASE_VERB[state.phase]}, not to {kind.replace('_', ' ')}."
            )
        return explain(state, seat, move)

    # -- what happens ------------------------------------------------------------

    def transition(self, state: MinisterState, seat: int, move: Move) -> MinisterState:
        """Apply a legal move, then walk past every step that needs no decision."""
        before = board.score_sheets(state)
        kind = move["type"]
        if kind == "vote":
            after = turn.cast(state, seat, move["vote"])
        else:
            if kind == "special" and state.phase == "vote":
                # Many wait in the vote: the one using a power acts (and stores) now.
                state = replace(state, actor=seat)
            after = _ACTIONS[kind](state, move)
            after = turn.settle(after) if after.phase != "over" else after
        return _with_score_changes(before, after)

    # -- what each seat sees -----------------------------------------------------

    def progress(self, state: MinisterState) -> Progress:
        """The turn counts as the round; there is no bound on turns."""
        return views.progress(state)

    def view(self, state: MinisterState, seat: int | None) -> dict[str, Any]:
        """Public table plus, for a seat, its hand, its stored votes and its own vote."""
        return cast(dict[str, Any], views.view(state, seat))

    def result(self, state: MinisterState) -> Result[Story] | None:
        """Final scores and every seat with the top score (a tie is a shared win)."""
        if state.phase != "over":
            return None
        points = board.scores(state)
        return moves.final_result(points)

    def score_history(self, state: MinisterState) -> list[list[int]]:
        """Every seat's score at the end of each turn."""
        return [list(scores) for scores in state.turn_scores]

    def story(self, state: MinisterState) -> MinisterStory:
        """The (first) winner's final score, the last turn and the newest law in force."""
        scores = board.scores(state)
        winner = max(range(state.players), key=lambda s: (scores[s], -s))
        law = state.laws[-1].card if state.laws else None
        level = [s for s in range(state.players) if s != winner and scores[s] == scores[winner]]
        return {
            "kind": "target" if scores[winner] >= TARGET else "deck",
            "seat": winner,
            "round": state.turn,
            "points": scores[winner],
            "law": law,
            "level": level,
        }

    # -- audits used by the conformance suite ------------------------------------

    def cards(self, state: MinisterState) -> list[str]:
        """Every decree and vote card in every zone."""
        out = list(state.deck + state.discard + state.proposal)
        for hand in state.hands:
            out += hand
        for law in state.laws:
            out += [law.card, *law.votes]
        for cards in state.won:
            for w in cards:
                out += [w.card, *w.votes]
        out += state.vote_deck + state.vote_discard + state.drawn
        return out

    def secrets(self, state: MinisterState, seat: int | None) -> set[str]:
        """Strings that must never appear in ``seat``'s view."""
        return views.secrets(state, seat)

    # -- dealing again when a room's host leaves (RULINGS §5) ---------------------

    def redeal(
        self, state: MinisterState, keep: frozenset[int], rng: Rng, choose: Chooser
    ) -> MinisterState:
        """What ``keep`` has not seen dealt anew (``dealing.py``); other secret votes recast."""
        return dealing.redeal(state, keep, rng, choose)

    def hidden(self, state: MinisterState, seat: int) -> Json:
        """``seat``'s hand, stored and drawn votes, and its vote not yet revealed."""
        return dealing.hidden(state, seat)

    def reinstate(self, state: MinisterState, parts: Mapping[int, Json]) -> MinisterState:
        """Each told seat holding its part; what that displaces goes where the cards came from."""
        return dealing.reinstate(state, parts)


def _actions() -> dict[str, Any]:
    return {
        "propose": lambda s, m: turn.propose(s, m["cards"]),
        "take": lambda s, m: turn.take(s, m["card"]),
        "discard_vote": lambda s, m: upkeep.discard_vote(s, m["vote"]),
        "trade": lambda s, m: upkeep.trade(s, m["card"]),
        "collect": lambda s, m: upkeep.finish_collect(s),
        "store": lambda s, m: upkeep.store(s, m["vote"], m["card"]),
        "store_all": lambda s, m: upkeep.store_all(s, m["votes"], m["cards"]),
        "move_law": lambda s, m: upkeep.move_to_law(s, m["vote"], m["law"]),
        "move_card": lambda s, m: upkeep.move_to_card(s, m["votes"], m["card"]),
        "pass": lambda s, m: upkeep.pass_move(s),
        "shop": lambda s, m: upkeep.use_shop(s, m["law"], m["pay"], m["target"]),
        "special": lambda s, m: upkeep.use_special(s, m["card"], m["target"]),
        "done": lambda s, m: upkeep.pass_move(s) if s.phase == "powers" else replace(s, queue=()),
    }


_ACTIONS = _actions()


def _with_score_changes(before: tuple[board.Sheet, ...], state: MinisterState) -> MinisterState:
    """Log a "score_changed" event for every seat whose score moved, naming the laws.

    The events go before the game's end, if this move ended it, so the log tells
    why the scores are what they are before it names the winner.
    """
    changes = board.score_changes(before, state)
    if not changes:
        return state
    events = [Event("score_changed", change) for change in changes]
    log = list(state.log)
    end = len(log) - 1 if log and log[-1].kind == "game_over" else len(log)
    log[end:end] = events
    # The events trimmed off the front are counted, as ``state.log`` counts them, so
    # a reader of the log knows where the kept events start.
    dropped = max(0, len(log) - LOG_KEPT)
    return replace(state, log=tuple(log[dropped:]), log_start=state.log_start + dropped)


__all__ = ["CARDS", "SPEC", "VOTES", "Minister"]
