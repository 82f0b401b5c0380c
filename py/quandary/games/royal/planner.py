"""The Clever bot's planning: sampled rival choices, a quick resolver, an average outcome.

The bot cannot see the others' hands or choices, so it imagines a few dozen
rounds: each rival builds, passes or invades with the odds its history shows
(a rival who answered past invasions in kind is expected to again, and a
rival who was just invaded is expected to answer), playing a strong card from
the cards the bot has not seen. Each sensible choice of the bot's own is
resolved against the same imagined rounds, and the choice with the best
average margin over the leading rival wins. Cards kept in hand count for a
fraction of their value while later rounds remain (they can still be built),
and for nothing in the last round, when invading costs nothing to keep.
"""

from __future__ import annotations

from itertools import pairwise

from quandary.bots import seat_of
from quandary.engine import Rng

from .cards import capture_gain, card_points, rank_of, strength, target_cards, value_deck
from .view import ChooseMove, PassMove, RoyalRecord, RoyalView

Choice = tuple[int, str] | None
"""(target seat, value card), or None for a pass."""

HAND_WEIGHT = 0.35
"""What a card in hand is worth, as a share of its face value, while rounds remain."""
SURRENDER_VALUE = 6.0
"""The average face value of a card surrendered from an unseen hand."""
STRONG_PICKS = 8
"""A rival's card is the best of this many unseen cards (or of its hand size, if fewer):
players aim their strongest cards."""


def plan_choice(view: RoyalView, rng: Rng, samples: int) -> ChooseMove | PassMove:
    """The choice with the best average margin over sampled rounds."""
    me, players = seat_of(view["seat"]), view["players"]
    last = view["deck"] < sum(view["next_draw"])
    weight = 0.0 if last else HAND_WEIGHT
    unseen = _unseen(view)
    odds = [_odds(view, r) if r != me else [] for r in range(players)]
    scenarios = [_scenario(view, odds, unseen, rng) for _ in range(samples)]
    best: tuple[float, ChooseMove | PassMove] | None = None
    for choice in _candidates(view):
        total = sum(_outcome(view, choice, s, weight) for s in scenarios)
        if best is None or total > best[0] + 1e-9:
            best = (total, _as_move(view, choice))
    assert best is not None
    return best[1]


def _unseen(view: RoyalView) -> list[str]:
    """Value cards that may be in a rival's hand: neither mine, in play, nor discarded."""
    known = set(view["hand"]) | {c for realm in view["realms"] for c in realm}
    for record in view["history"]:
        for step in record["steps"]:
            if step["kind"] == "battle":
                if step["winner"] != step["seat"]:
                    known.add(step["card"])
                if step["winner"] != step["target"] and step["rival_card"] is not None:
                    known.add(step["rival_card"])
    return [c for c in value_deck() if c not in known]


Odds = list[tuple[float, int | None]]
"""How likely a rival is to pass (None) or aim at each seat."""


def _odds(view: RoyalView, rival: int) -> Odds:
    """How likely ``rival`` is to pass (None) or aim at each seat (itself: building)."""
    me, players = seat_of(view["seat"]), view["players"]
    counts = [1.0 if t == rival else 0.6 for t in range(players)]
    passes = 0.2
    history = view["history"]
    for record in history:
        choice = record["choices"][rival]
        if choice is None:
            passes += 1
        else:
            counts[choice["target"]] += 1
    total = sum(counts) + passes
    odds: Odds = [(passes / total, None)]
    odds += [(c / total, t) for t, c in enumerate(counts)]
    if history and rival in _my_targets(history[-1], me):
        answer = _retaliation_rate(history, me, rival)
        odds = [(p * (1 - answer), t) for p, t in odds]
        odds = [(p + (answer if t == me else 0.0), t) for p, t in odds]
    return odds


def _my_targets(record: RoyalRecord, me: int) -> set[int]:
    mine = record["choices"][me]
    return {mine["target"]} if mine is not None and mine["target"] != me else set()


def _retaliation_rate(history: list[RoyalRecord], me: int, rival: int) -> float:
    """How often ``rival`` invaded me the round after I invaded it (prior: one in two)."""
    hits, chances = 1.0, 2.0
    for before, after in pairwise(history):
        if rival in _my_targets(before, me):
            chances += 1
            answer = after["choices"][rival]
            hits += answer is not None and answer["target"] == me
    return hits / chances


def _scenario(view: RoyalView, odds: list[Odds], unseen: list[str], rng: Rng) -> list[Choice]:
    """One imagined set of rival choices (the bot's own slot left empty)."""
    out: list[Choice] = []
    for rival, rival_odds in enumerate(odds):
        if rival == view["seat"] or view["hand_sizes"][rival] == 0 or not unseen:
            out.append(None)
            continue
        roll, target = rng.random(), None
        for p, t in rival_odds:
            roll -= p
            target = t
            if roll < 0:
                break
        if target is None:
            out.append(None)
            continue
        picks = [rng.choice(unseen) for _ in range(min(STRONG_PICKS, view["hand_sizes"][rival]))]
        if target == rival:
            card = max(picks, key=lambda c: card_points(c, rival))
        else:
            card = max(picks, key=lambda c: strength(c, rival, target)[0])
        out.append((target, card))
    return out


def _candidates(view: RoyalView) -> list[Choice]:
    """Pass; build a few cards; invade each rival with the cards that matter."""
    me, hand = seat_of(view["seat"]), view["hand"]
    out: list[Choice] = [None]
    if not hand:
        return out
    builds = sorted(set(hand), key=lambda c: (-card_points(c, me), rank_of(c)))
    out += [(me, c) for c in dict.fromkeys(builds[:3] + builds[-1:])]
    for rival in range(view["players"]):
        if rival == me:
            continue
        power = {c: strength(c, me, rival)[0] for c in hand}
        strongest = max(hand, key=lambda c: (power[c], -rank_of(c)))
        picks = [strongest]
        for card in view["realms"][rival]:
            reach = [c for c in hand if power[c] >= rank_of(card)]
            if reach:
                picks.append(min(reach, key=lambda c: (rank_of(c), -power[c])))
        out += [(rival, c) for c in dict.fromkeys(picks)]
    return out


def _outcome(view: RoyalView, mine: Choice, scenario: list[Choice], weight: float) -> float:
    """My margin over the leading rival after resolving one imagined round."""
    me = seat_of(view["seat"])
    choices = list(scenario)
    choices[me] = mine
    realms, hands = resolve(view["realms"], view["hand_sizes"], choices)
    points = [sum(card_points(c, s) for c in realm) for s, realm in enumerate(realms)]
    values = [p + weight * h for p, h in zip(points, hands, strict=True)]
    mine_value = values[me]
    rivals = [v for s, v in enumerate(values) if s != me]
    return mine_value - (max(rivals) + sum(rivals) / len(rivals)) / 2


def resolve(
    realms_in: list[list[str]], hand_sizes: list[int], choices: list[Choice]
) -> tuple[list[list[str]], list[float]]:
    """A quick resolution of one round: realms after, and each hand's change in value.

    The same order as the rules: builders, battles, invasions strongest first;
    captures are greedy and a surrendered unseen card is worth its average.
    """
    realms = [list(r) for r in realms_in]
    hands = [0.0] * len(realms)
    sizes = list(hand_sizes)
    invasions: list[tuple[int, int, int, int]] = []
    for seat, choice in enumerate(choices):
        if choice is None:
            continue
        target, card = choice
        if target == seat:
            realms[seat].append(card)
            hands[seat] -= rank_of(card)
            sizes[seat] -= 1
            continue
        answer = choices[target]
        power = strength(card, seat, target)[0]
        if answer is not None and answer[0] == seat:
            if seat > target:
                continue
            rival = strength(answer[1], target, seat)[0]
            if power == rival:
                hands[seat] -= rank_of(card)
                hands[target] -= rank_of(answer[1])
                sizes[seat] -= 1
                sizes[target] -= 1
                continue
            winner, loser = (seat, target) if power > rival else (target, seat)
            lost = card if loser == seat else answer[1]
            hands[loser] -= rank_of(lost)
            sizes[loser] -= 1
            invasions.append((-max(power, rival) - 100, winner, loser, max(power, rival)))
        else:
            invasions.append((-power, seat, target, power))
    for _, seat, target, power in sorted(invasions):
        if realms[target]:
            reach = [c for c in realms[target] if rank_of(c) <= power]
            if reach:
                card = max(reach, key=lambda c: capture_gain(c, seat, target))
                realms[target].remove(card)
                realms[seat].append(card)
        else:
            given = min(power, sizes[target])
            sizes[target] -= given
            sizes[seat] += given
            hands[target] -= given * SURRENDER_VALUE
            hands[seat] += given * SURRENDER_VALUE
    return realms, hands


def _as_move(view: RoyalView, choice: Choice) -> ChooseMove | PassMove:
    if choice is None:
        return {"type": "pass"}
    target, card = choice
    return {
        "type": "choose",
        "target": target_cards(seat_of(view["seat"]), view["players"])[target],
        "value": card,
    }
