"""The Game of Dilemmas (Pandaqi), for 3-6 players over five rounds.

Phases of a round, all simultaneous and secret until everyone has submitted:
  build  every player combines a positive and a negative card (plus, with the
         Neutral cards variant, optionally their one neutral card);
  vote   every player places one YES or NO token (or a super token) on every
         dilemma, their own included; then the most controversial dilemma wins.
With the Coop variant ``build`` is replaced by ``lay`` (each lays one card) and
``supply`` (each completes a neighbour's card with the missing kind).
Hidden: hands, draw piles, and every submitted choice until its reveal.
Rulings: static/rules/the-game-of-dilemmas.html, 'Rulings'.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from quandary.engine import BadSetup, Event, MalformedMove, Progress, Result, Rng, Story, moves
from quandary.engine.spec import Chooser, Json, Move

from . import dealing, scoring
from .cards import KINDS, Card, card_json
from .own_cards import chosen_cards, deck, shortfall, shortfall_text
from .spec import ROUNDS, SPEC
from .state import Dilemma, DilemmasState, Hand, Pile, RoundResult
from .view import DilemmaStory, DilemmaView, RoundView

_FIELDS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "build": {"positive": str, "negative": str, "neutral": (str, type(None))},
    "lay": {"card": str},
    "supply": {"card": str, "neutral": (str, type(None))},
    "vote": {"votes": list},
}


class Dilemmas:
    """The Game of Dilemmas as an engine ``Game``."""

    spec = SPEC
    state_type = DilemmasState

    # -- setup ---------------------------------------------------------------

    def setup(self, players: int, options: dict[str, Any], rng: Rng) -> DilemmasState:
        """Shuffle the chosen packs and deal four positive and four negative cards each.

        Packs too small for a whole game of fresh cards are refused
        (``own_cards.shortfall``): the setup screen says so before anyone starts.
        """
        missing = shortfall(players, options)
        if missing:
            raise BadSetup(shortfall_text(players, missing))
        chosen = chosen_cards(options)
        piles = {kind: rng.shuffled([c.id for c in chosen if c.kind == kind]) for kind in KINDS}
        hands = []
        for _ in range(players):
            pos = tuple(piles["positive"].pop() for _ in range(4))
            neg = tuple(piles["negative"].pop() for _ in range(4))
            neu = piles["neutral"].pop() if options["neutral"] else None
            hands.append(Hand(pos, neg, neu))
        supers = tuple(bool(options["supervotes"]) for _ in range(players))
        return DilemmasState(
            game=SPEC.id,
            version=0,
            rng=rng.state,
            players=players,
            options=options,
            round=1,
            phase="lay" if options["coop"] else "build",
            hands=tuple(hands),
            scores=(0,) * players,
            super_yes=supers,
            super_no=supers,
            positive=Pile(tuple(piles["positive"]), ()),
            negative=Pile(tuple(piles["negative"]), ()),
            neutral=Pile(tuple(piles["neutral"]), ()),
            pending=(None,) * players,
            laid=(None,) * players,
            dilemmas=(),
            history=(),
            log=(Event("round_started", {"round": 1}),),
        )

    # -- what may be done ------------------------------------------------------

    def waiting_for(self, state: DilemmasState) -> list[int]:
        """Seats that have not yet submitted in the current phase."""
        if state.phase == "over":
            return []
        return [s for s in range(state.players) if state.pending[s] is None]

    def legal_moves(self, state: DilemmasState, seat: int) -> list[Move]:
        """Every build, lay, supply or vote ``seat`` may submit now."""
        if state.phase == "over" or state.pending[seat] is not None:
            return []
        hand = state.hands[seat]
        neutrals: list[str | None] = [None]
        if state.options["neutral"] and hand.neutral is not None:
            neutrals.append(hand.neutral)
        if state.phase == "build":
            return [
                {"type": "build", "positive": p, "negative": n, "neutral": u}
                for p in hand.positive
                for n in hand.negative
                for u in neutrals
            ]
        if state.phase == "lay":
            return [{"type": "lay", "card": c} for c in hand.positive + hand.negative]
        if state.phase == "supply":
            target = supply_target(state, seat)
            laid = state.laid[target]
            kind = (
                hand.negative
                if laid is not None and deck(state.options)[laid].kind == "positive"
                else hand.positive
            )
            return [{"type": "supply", "card": c, "neutral": u} for c in kind for u in neutrals]
        must = state.round == ROUNDS
        return [
            {"type": "vote", "votes": list(b)}
            for b in scoring.ballots(
                len(state.dilemmas), state.super_yes[seat], state.super_no[seat], must
            )
        ]

    def check_shape(self, move: Move) -> None:
        """A move must have a known type and exactly that type's fields."""
        moves.check_fields(move, _FIELDS, SPEC.title)
        if move["type"] == "vote" and any(t not in scoring.TOKENS for t in move["votes"]):
            raise MalformedMove("A vote is a list of yes, no, super_yes or super_no tokens.")

    def explain_illegal(self, state: DilemmasState, seat: int, move: Move) -> str:
        """Why a well-formed move is refused, in the player's terms."""
        if move["type"] != state.phase:
            return f"Now is the time to {_PHASE_VERB[state.phase]}, not to {move['type']}."
        hand = state.hands[seat]
        held = set(hand.positive + hand.negative) | {hand.neutral}
        cards = [v for k, v in move.items() if k in ("positive", "negative", "card", "neutral")]
        if any(c is not None and c not in held for c in cards):
            return "That card is not in your hand."
        if move.get("neutral") is not None and not state.options["neutral"]:
            return "Neutral cards are not in play in this game."
        if move["type"] == "build":
            return "A dilemma is one positive card and one negative card from your hand."
        if move["type"] == "lay":
            return "Lay one positive or one negative card from your hand."
        if move["type"] == "supply":
            return "Supply the missing kind of card for your neighbour's laid card."
        return _explain_vote(state, seat, move["votes"])

    # -- what happens ------------------------------------------------------------

    def transition(self, state: DilemmasState, seat: int, move: Move) -> DilemmasState:
        """Record a submission; when the last seat submits, reveal and resolve the phase."""
        pending = list(state.pending)
        pending[seat] = move
        phase_name = state.phase
        state = replace(
            state,
            pending=tuple(pending),
            log=(*state.log, Event("submitted", {"seat": seat, "phase": phase_name})),
        )
        if any(p is None for p in pending):
            return state
        resolve = {
            "build": _resolve_build,
            "lay": _resolve_lay,
            "supply": _resolve_supply,
            "vote": _resolve_vote,
        }[phase_name]
        return resolve(state)

    # -- what each seat sees -----------------------------------------------------

    def progress(self, state: DilemmasState) -> Progress:
        """Always exactly five rounds: "round 2 of 5"."""
        return Progress(state.phase, state.round, ROUNDS, True, tuple(state.scores))

    def view(self, state: DilemmasState, seat: int | None) -> dict[str, Any]:
        """Public table plus, for a seat, its own hand and its own pending choice."""
        cards = deck(state.options)
        out: dict[str, Any] = {
            "title": SPEC.title,
            "options": _options_json(state.options),
            "submitted": [p is not None for p in state.pending],
            "supervotes": [
                {"yes": y, "no": n} for y, n in zip(state.super_yes, state.super_no, strict=True)
            ],
            "tokens": scoring.tokens_per_kind(state.players),
            "laid": [card_json(c, cards) if c else None for c in state.laid],
            "dilemmas": [_dilemma_json(d, cards) for d in state.dilemmas],
            "history": [_result_json(r, cards) for r in state.history],
        }
        if state.phase == "supply" and seat is not None:
            out["supply_target"] = supply_target(state, seat)
        if seat is not None:
            hand = state.hands[seat]
            out["hand"] = {
                "positive": [card_json(c, cards) for c in hand.positive],
                "negative": [card_json(c, cards) for c in hand.negative],
                "neutral": card_json(hand.neutral, cards) if hand.neutral else None,
            }
            out["my_submission"] = state.pending[seat]
        return out

    def result(self, state: DilemmasState) -> Result[Story] | None:
        """Final scores and every seat with the top score (a tie is a shared win)."""
        if state.phase != "over":
            return None
        return moves.final_result(list(state.scores))

    def score_history(self, state: DilemmasState) -> list[list[int]]:
        """Every seat's score after each round, from the round results."""
        totals, out = [0] * state.players, []
        for record in state.history:
            totals = [t + p for t, p in zip(totals, record.points, strict=True)]
            out.append(totals)
        return out

    def story(self, state: DilemmasState) -> DilemmaStory:
        """The round from which the (first) winner was never behind, and what it won then.

        ``rounds`` and ``alone`` (``moves.lead_story``) let the end screen tell a
        lead kept for rounds from one taken in the last round, and a sole lead
        from a shared top; ``tied`` says the round's win was shared by dilemmas
        equally controversial.
        """
        history = self.score_history(state)
        winner = max(range(state.players), key=lambda s: (state.scores[s], -s))
        lead = moves.lead_story(history, winner)
        number = lead["round"]
        record = state.history[number - 1] if number else None
        gained = record.points[winner] if record else 0
        tied = record is not None and len(record.winners) > 1
        return {**lead, "kind": "dilemma", "points": gained, "tied": tied}

    # -- audits used by the conformance suite ------------------------------------

    def cards(self, state: DilemmasState) -> list[str]:
        """Every card in every zone: piles, hands, laid cards and the table."""
        out: list[str] = []
        for pile in (state.positive, state.negative, state.neutral):
            out += pile.draw + pile.discard
        for hand in state.hands:
            out += hand.positive + hand.negative + ((hand.neutral,) if hand.neutral else ())
        out += [c for c in state.laid if c]
        for d in state.dilemmas:
            out += d.card_ids()
        return out

    def secrets(self, state: DilemmasState, seat: int | None) -> set[str]:
        """Other hands, the draw piles and the generator state: never in this seat's view.

        A card once shown in a past round may since have been reshuffled into a pile
        or a hand; that it exists is public, so only never-shown cards count.
        """
        hidden = {str(state.rng)}
        for other, hand in enumerate(state.hands):
            if other != seat:
                hidden |= set(hand.positive + hand.negative)
                hidden |= {hand.neutral} if hand.neutral else set()
        for pile in (state.positive, state.negative, state.neutral):
            hidden |= set(pile.draw)
        hidden -= {c for r in state.history for d in r.dilemmas for c in d.card_ids()}
        cards = deck(state.options)
        return hidden | {cards[c].text for c in hidden if c in cards}

    # -- dealing again when a room's host leaves (engine.dealing) --------------------

    def redeal(
        self, state: DilemmasState, keep: frozenset[int], rng: Rng, choose: Chooser
    ) -> DilemmasState:
        """Hands of the seats not kept and the draw piles dealt again per kind; their
        submitted choices made again (``dealing.redeal``)."""
        return dealing.redeal(state, keep, rng, choose)

    def hidden(self, state: DilemmasState, seat: int) -> Json:
        """``seat``'s hand and its submitted, unrevealed choice (``dealing.hidden``)."""
        return dealing.hidden(state, seat)

    def reinstate(self, state: DilemmasState, parts: Mapping[int, Json]) -> DilemmasState:
        """Each told seat's hand and choice put back, if it could hold them
        (``dealing.reinstate``)."""
        return dealing.reinstate(state, parts)


_PHASE_VERB = {
    "build": "build a dilemma",
    "lay": "lay a card",
    "supply": "supply a card",
    "vote": "vote",
    "over": "see the final scores",
}


def supply_target(state: DilemmasState, seat: int) -> int:
    """Whose laid card ``seat`` completes in coop.

    Odd rounds: your right neighbour (the previous seat); even rounds: your left
    neighbour (the next seat), as static/rules/the-game-of-dilemmas.html,
    'Rulings', settles.
    """
    step = -1 if state.round % 2 == 1 else 1
    return (seat + step) % state.players


def _explain_vote(state: DilemmasState, seat: int, votes: list[str]) -> str:
    count = len(state.dilemmas)
    limit = scoring.tokens_per_kind(count)
    if len(votes) != count:
        return f"Place exactly one token on each of the {count} dilemmas."
    yes = sum(t in (scoring.YES, scoring.SUPER_YES) for t in votes)
    if yes > limit or count - yes > limit:
        return f"You hold {limit} YES and {limit} NO tokens; this uses {yes} YES."
    for token, have, name in (
        (scoring.SUPER_YES, state.super_yes, "SUPER ACCEPT"),
        (scoring.SUPER_NO, state.super_no, "SUPER REJECT"),
    ):
        used = votes.count(token)
        if used > int(have[seat]):
            return f"You have no {name} left to place."
        if state.round == ROUNDS and have[seat] and not used:
            return f"This is the last round: you must use your {name} now."
    return "That vote is not allowed."


def _take(pile: Pile, rng: Rng) -> tuple[str | None, Pile]:
    """Draw the top card, reshuffling the discards into a new pile when it is empty."""
    if not pile.draw:
        if not pile.discard:
            return None, pile
        pile = Pile(tuple(rng.shuffled(pile.discard)), ())
    return pile.draw[-1], Pile(pile.draw[:-1], pile.discard)


def _remove(hand: Hand, cards: list[str]) -> Hand:
    gone = set(cards)
    return Hand(
        tuple(c for c in hand.positive if c not in gone),
        tuple(c for c in hand.negative if c not in gone),
        None if hand.neutral in gone else hand.neutral,
    )


def _resolve_build(state: DilemmasState) -> DilemmasState:
    dilemmas = tuple(
        Dilemma(m["positive"], m["negative"], m["neutral"], (seat,))
        for seat, m in enumerate(state.pending)
    )
    hands = tuple(_remove(h, d.card_ids()) for h, d in zip(state.hands, dilemmas, strict=True))
    return _start_vote(state, hands, dilemmas)


def _resolve_lay(state: DilemmasState) -> DilemmasState:
    laid = tuple(m["card"] for m in state.pending)
    hands = tuple(_remove(h, [c]) for h, c in zip(state.hands, laid, strict=True))
    return replace(
        state,
        phase="supply",
        hands=hands,
        laid=laid,
        pending=(None,) * state.players,
        log=(*state.log, Event("cards_laid", {"cards": list(laid)})),
    )


def _resolve_supply(state: DilemmasState) -> DilemmasState:
    parts: dict[int, Dilemma] = {}
    hands = list(state.hands)
    cards = deck(state.options)
    for supplier, move in enumerate(state.pending):
        target = supply_target(state, supplier)
        laid = state.laid[target]
        assert laid is not None
        pair = sorted([laid, move["card"]], key=lambda c: cards[c].kind != "positive")
        parts[target] = Dilemma(pair[0], pair[1], move["neutral"], (target, supplier), laid)
        hands[supplier] = _remove(hands[supplier], [move["card"], move["neutral"]])
    dilemmas = tuple(parts[s] for s in range(state.players))
    return _start_vote(replace(state, laid=(None,) * state.players), tuple(hands), dilemmas)


def _start_vote(
    state: DilemmasState, hands: tuple[Hand, ...], dilemmas: tuple[Dilemma, ...]
) -> DilemmasState:
    shown = [_dilemma_json(d, deck(state.options)) for d in dilemmas]
    return replace(
        state,
        phase="vote",
        hands=hands,
        dilemmas=dilemmas,
        pending=(None,) * state.players,
        log=(*state.log, Event("dilemmas_revealed", {"round": state.round, "dilemmas": shown})),
    )


def _resolve_vote(state: DilemmasState) -> DilemmasState:
    ballots = [m["votes"] for m in state.pending]
    tallies = scoring.tally(ballots, len(state.dilemmas))
    winners = scoring.round_winners(tallies)
    points = [0] * state.players
    for i in winners:
        for seat, gained in scoring.split_points(tallies[i][0], state.dilemmas[i].creators).items():
            points[seat] += gained
    result = RoundResult(state.round, state.dilemmas, tuple(tallies), tuple(winners), tuple(points))
    scores = tuple(s + p for s, p in zip(state.scores, points, strict=True))
    used_yes = tuple(
        a and scoring.SUPER_YES not in b for a, b in zip(state.super_yes, ballots, strict=True)
    )
    used_no = tuple(
        a and scoring.SUPER_NO not in b for a, b in zip(state.super_no, ballots, strict=True)
    )
    log = [*state.log, Event("votes_revealed", _result_json(result, deck(state.options)))]
    state = replace(
        state, scores=scores, super_yes=used_yes, super_no=used_no, history=(*state.history, result)
    )
    state = _discard_table(state)
    if state.round == ROUNDS:
        log.append(Event("game_over", moves.standings(list(scores))))
        return replace(state, phase="over", pending=(None,) * state.players, log=tuple(log))
    state = _draw_back(state)
    log.append(Event("round_started", {"round": state.round + 1}))
    return replace(
        state,
        round=state.round + 1,
        phase="lay" if state.options["coop"] else "build",
        pending=(None,) * state.players,
        log=tuple(log),
    )


def _discard_table(state: DilemmasState) -> DilemmasState:
    piles = {"positive": state.positive, "negative": state.negative, "neutral": state.neutral}
    cards = deck(state.options)
    for d in state.dilemmas:
        for c in d.card_ids():
            kind = cards[c].kind
            piles[kind] = Pile(piles[kind].draw, (*piles[kind].discard, c))
    return replace(
        state,
        dilemmas=(),
        positive=piles["positive"],
        negative=piles["negative"],
        neutral=piles["neutral"],
    )


def _draw_back(state: DilemmasState) -> DilemmasState:
    """Each player draws back the kinds of the cards they used this round."""
    rng = Rng(state.rng)
    piles = {"positive": state.positive, "negative": state.negative}
    hands = list(state.hands)
    for seat, hand in enumerate(hands):
        drawn: dict[str, list[str]] = {"positive": [], "negative": []}
        for kind in _used_kinds(state, seat):
            card, piles[kind] = _take(piles[kind], rng)
            if card is not None:
                drawn[kind].append(card)
        hands[seat] = Hand(
            hand.positive + tuple(drawn["positive"]),
            hand.negative + tuple(drawn["negative"]),
            hand.neutral,
        )
    return replace(
        state,
        hands=tuple(hands),
        rng=rng.state,
        positive=piles["positive"],
        negative=piles["negative"],
    )


def _used_kinds(state: DilemmasState, seat: int) -> list[str]:
    if not state.options["coop"]:
        return ["positive", "negative"]
    dilemmas = state.history[-1].dilemmas
    laid = dilemmas[seat].laid
    target = dilemmas[supply_target(state, seat)].laid
    assert laid is not None and target is not None
    cards = deck(state.options)
    supplied = "negative" if cards[target].kind == "positive" else "positive"
    return [cards[laid].kind, supplied]


def _options_json(options: dict[str, Any]) -> dict[str, Any]:
    """The options as every view shows them: the own packs by name and size only.

    Their cards reach a view when they are dealt, like any card; all of their
    text in every view would show the cards still hidden in the piles, and
    could make a snapshot longer than a room's messages may be.
    """
    own = options.get("own")
    if not own:
        return options
    packs = [
        {"name": p["name"], "positive": len(p["positive"]), "negative": len(p["negative"])}
        for p in own["packs"]
    ]
    return {**options, "own": {"use": own["use"], "packs": packs}}


def _dilemma_json(d: Dilemma, cards: Mapping[str, Card]) -> DilemmaView:
    return {
        "positive": card_json(d.positive, cards),
        "negative": card_json(d.negative, cards),
        "neutral": card_json(d.neutral, cards) if d.neutral else None,
        "creators": list(d.creators),
    }


def _result_json(r: RoundResult, cards: Mapping[str, Card]) -> RoundView:
    return {
        "round": r.round,
        "dilemmas": [_dilemma_json(d, cards) for d in r.dilemmas],
        "tallies": [list(t) for t in r.tallies],
        "winners": list(r.winners),
        "points": list(r.points),
    }
