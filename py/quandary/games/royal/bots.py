"""Bots for Royal Dilemma: characters from the iterated prisoner's dilemma, and a planner.

Building is cooperating, invading is defecting. The characters follow the
classic strategies of Axelrod's tournaments, read from the public history of
rounds in their view (bots keep no memory between calls):

- ``builder``      always cooperates: builds its most valuable card.
- ``tit_for_tat``  builds, but invades whoever invaded it last round.
- ``forgiving``    tit for tat that lets a grudge go: it retaliates at most once
                   in a row, and forgives a third of the time (generous TFT).
- ``grudger``      builds until invaded once, then always invades that player.
- ``opportunist``  always defects: invades the rival least able to answer.
- ``heuristic``    (shown as "Clever") plays out every sensible choice against a
                   model of the table fitted to the history (see ``planner``).

Every bot captures the card worth most to it plus what the loss costs the
victim. Everything comes from ``engine.view`` output and the given ``Rng``.
"""

from __future__ import annotations

from quandary.bots import seat_of, sent
from quandary.engine import Move, Rng
from quandary.engine.typed import needed

from .cards import capture_gain, card_points, rank_of, seat_face, strength, target_cards
from .planner import plan_choice
from .view import CaptureMove, ChooseMove, DeclineMove, PassMove, RoyalRecord, RoyalView

View = RoyalView


def _played(view: View, move: ChooseMove | PassMove) -> Move:
    """The chosen ``move`` if the view offers it, else a pass."""
    return sent(move if move in view["legal_moves"] else {"type": "pass"})


def best_capture(view: View) -> CaptureMove | DeclineMove:
    """The capture with the largest swing (capturing always beats declining)."""
    capture = needed(view["capture"], "capture to choose")
    me, target = seat_of(view["seat"]), capture["step"]["target"]
    options = capture["options"]
    if not options:
        return {"type": "decline"}
    card = max(options, key=lambda c: (capture_gain(c, me, target), rank_of(c)))
    return {"type": "capture", "card": card}


def build_move(view: View) -> ChooseMove | PassMove:
    """Build the card worth most in play (own suit doubled); pass with an empty hand."""
    me = seat_of(view["seat"])
    if not view["hand"]:
        return {"type": "pass"}
    card = max(view["hand"], key=lambda c: (card_points(c, me), rank_of(c)))
    return {"type": "choose", "target": seat_face(me), "value": card}


def invade_move(view: View, target: int) -> ChooseMove | PassMove:
    """Invade ``target`` with the strongest value card against it."""
    me = seat_of(view["seat"])
    if not view["hand"]:
        return {"type": "pass"}
    card = max(view["hand"], key=lambda c: (strength(c, me, target)[0], -rank_of(c)))
    return {"type": "choose", "target": _target_card(view, target), "value": card}


def invaders_of(record: RoyalRecord, seat: int) -> list[int]:
    """Seats that invaded ``seat`` in a finished round (battles count: both aimed at it)."""
    out = []
    for choice_seat, choice in enumerate(record["choices"]):
        if choice is not None and choice["target"] == seat and choice_seat != seat:
            out.append(choice_seat)
    return out


def _target_card(view: View, target: int) -> str:
    return target_cards(seat_of(view["seat"]), view["players"])[target]


class _Character:
    """A strategy for the choosing phase; every character captures greedily."""

    name = "character"

    def choose(self, view: View, rng: Rng) -> Move | None:
        """The character's choice, or the best capture while resolving."""
        if not view["legal_moves"]:
            return None
        if view["phase"] == "capture":
            return sent(best_capture(view))
        return _played(view, self.decide(view, rng))

    def decide(self, view: View, rng: Rng) -> ChooseMove | PassMove:
        """What to play this round."""
        raise NotImplementedError


class BuilderBot(_Character):
    """Always cooperates."""

    name = "builder"

    def decide(self, view: View, rng: Rng) -> ChooseMove | PassMove:
        """Build, whatever the others did."""
        return build_move(view)


class TitForTatBot(_Character):
    """Cooperates first, then copies: invades whoever invaded it last round."""

    name = "tit_for_tat"

    def decide(self, view: View, rng: Rng) -> ChooseMove | PassMove:
        """Retaliate against last round's invader (the strongest scorer of them), else build."""
        if not view["history"]:
            return build_move(view)
        culprits = invaders_of(view["history"][-1], seat_of(view["seat"]))
        if not culprits:
            return build_move(view)
        return invade_move(view, max(culprits, key=lambda s: view["scores"][s]))


class ForgivingBot(_Character):
    """Generous tit for tat: punishes once, then offers peace; sometimes forgives at once."""

    name = "forgiving"
    mercy = 3

    def decide(self, view: View, rng: Rng) -> ChooseMove | PassMove:
        """Retaliate like tit for tat, but not two rounds running and not every time."""
        me = seat_of(view["seat"])
        if not view["history"]:
            return build_move(view)
        culprits = invaders_of(view["history"][-1], me)
        if not culprits:
            return build_move(view)
        target = max(culprits, key=lambda s: view["scores"][s])
        mine = view["history"][-1]["choices"][me]
        retaliated = mine is not None and mine["target"] == target
        if retaliated or rng.randbelow(self.mercy) == 0:
            return build_move(view)
        return invade_move(view, target)


class GrudgerBot(_Character):
    """Friedman's grim trigger: one invasion and it never builds for that player again."""

    name = "grudger"

    def decide(self, view: View, rng: Rng) -> ChooseMove | PassMove:
        """Invade the first player who ever invaded it; build until then."""
        me = seat_of(view["seat"])
        for record in view["history"]:
            culprits = invaders_of(record, me)
            if culprits:
                return invade_move(view, culprits[0])
        return build_move(view)


class OpportunistBot(_Character):
    """Always defects, against whoever looks least able to hit back."""

    name = "opportunist"

    def decide(self, view: View, rng: Rng) -> ChooseMove | PassMove:
        """Invade the rival with the fewest value cards in hand (ties: the richest realm)."""
        me = seat_of(view["seat"])
        rivals = [s for s in range(view["players"]) if s != me]
        weakest = min(rivals, key=lambda s: (view["hand_sizes"][s], -view["scores"][s], s))
        return invade_move(view, weakest)


class HeuristicBot:
    """The strongest all-round bot: simulates each sensible choice against a model of the table."""

    name = "heuristic"

    def __init__(self, samples: int = 24) -> None:
        self.samples = samples

    def choose(self, view: View, rng: Rng) -> Move | None:
        """The choice with the best average outcome over sampled rival choices."""
        if not view["legal_moves"]:
            return None
        if view["phase"] == "capture":
            return sent(best_capture(view))
        return _played(view, plan_choice(view, rng, self.samples))
