"""Bots for The Game of Dilemmas: a heuristic player that decides from its view alone.

The round is won by the most divisive dilemma, and its creators score its YES
votes, so a good player does two things: build dilemmas that split the table
(appeal about equal to harm) and, above all, vote so that its own dilemma ends
up the closest call while the others do not. Votes are simultaneous, so the
bot cannot know the other ballots; it samples them from a model of the table
and picks the ballot with the best expected outcome.

The model is fitted to what the view shows: how strongly past tallies followed
the cards' weights (a table of careful voters follows them, a table of random
clickers does not) and how eagerly super tokens were spent. Everything comes
from ``engine.view`` output and the given ``Rng``; the bot keeps no memory
between calls, so the same view and the same generator give the same move.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate
from typing import Any

from quandary.engine import Move, Rng

from . import scoring

_TOKEN_WEIGHT = {
    scoring.YES: (1, 0),
    scoring.NO: (0, 1),
    scoring.SUPER_YES: (scoring.SUPER_WEIGHT, 0),
    scoring.SUPER_NO: (0, scoring.SUPER_WEIGHT),
}
_PLAIN = {
    scoring.YES: scoring.YES,
    scoring.SUPER_YES: scoring.YES,
    scoring.NO: scoring.NO,
    scoring.SUPER_NO: scoring.NO,
}

# Sensitivities tried when fitting how closely the table votes by the cards'
# weights, with a prior that expects mildly weight-driven (human) voters.
_BETAS = (0.0, 0.15, 0.3, 0.5, 0.8, 1.2)
_BETA_PRIOR = (0.10, 0.15, 0.25, 0.25, 0.15, 0.10)
# Prior for the chance that a held super token is spent in a given round:
# pseudo-counts (spent, held) before any round has been seen.
_SUPER_PRIOR = (1.0, 3.0)
# Evaluations (candidate ballot x sampled table) per vote decision; keeps a
# decision near 5 ms in CPython, well under the 50 ms Pyodide budget.
_BUDGET = 2400
_MIN_SAMPLES = 24
_MAX_SAMPLES = 96
# How many of the best plain ballots get their super-token variants tried.
_SUPER_SHORTLIST = 3
_HARM_MEAN = 3.0
"""Mean appeal or harm of an unseen card (the packs' weights run 1-5 evenly)."""


class HeuristicBot:
    """Builds divisive dilemmas and votes by Monte Carlo over a fitted model of the table."""

    name = "heuristic"

    def __init__(
        self, budget: int = _BUDGET, round_sd: float = 1.6, super_value: float = 0.8
    ) -> None:
        """Tuning knobs, kept as arguments so the benchmark can compare settings.

        ``round_sd`` is the assumed spread of one player's points per round (it
        turns a lead into a chance of winning); ``super_value`` is what an unspent
        super token is worth in later rounds, so one is only spent for more.
        """
        self.budget = budget
        self.round_sd = round_sd
        self.super_value = super_value

    def choose(self, view: dict[str, Any], rng: Rng) -> Move:
        """One of ``view["legal_moves"]``, the very dict, picked by the phase's heuristic."""
        legal: list[Move] = view["legal_moves"]
        if not legal:
            raise ValueError("The bot was asked to move but has no legal move.")
        if len(legal) == 1:
            return legal[0]
        phase = view.get("phase")
        if phase == "vote":
            return legal[self._vote(view, legal, rng)]
        model = _Model.fit(view)
        if phase == "build":
            return legal[_best(legal, rng, lambda m: _build_score(view, m, model))]
        if phase == "lay":
            return legal[_best(legal, rng, lambda m: _lay_score(view, m))]
        if phase == "supply":
            return legal[_best(legal, rng, lambda m: _supply_score(view, m, model))]
        return rng.choice(legal)

    # -- voting ------------------------------------------------------------------

    def _vote(self, view: dict[str, Any], legal: list[Move], rng: Rng) -> int:
        """The index of the legal ballot with the best sampled outcome."""
        me: int = view["seat"]
        dilemmas: list[dict[str, Any]] = view["dilemmas"]
        count = len(dilemmas)
        must = view["round"] >= view["rounds"]
        model = _Model.fit(view)
        yes_chance = [model.yes_chance(d) for d in dilemmas]

        groups: dict[tuple[str, ...], list[int]] = {}
        for index, move in enumerate(legal):
            plain = tuple(_PLAIN[t] for t in move["votes"])
            groups.setdefault(plain, []).append(index)
        shortlist = min(_SUPER_SHORTLIST, len(groups))
        supers = max(len(v) for v in groups.values())
        evaluations = len(groups) + shortlist * supers
        samples = max(_MIN_SAMPLES, min(_MAX_SAMPLES, self.budget // max(1, evaluations)))
        table = _sample_table(view, model, yes_chance, samples, rng, must)
        judge = _Judge(view, self.round_sd, self.super_value)

        held = view["supervotes"][me]
        plain_scores = {
            plain: judge.mean(table, plain, _kept(plain, held)) for plain in groups
        }
        ranked = sorted(groups, key=lambda p: -plain_scores[p])
        best_index, best_score = -1, -math.inf
        for rank, plain in enumerate(ranked):
            if rank >= shortlist:
                break
            for index in groups[plain]:
                votes = tuple(legal[index]["votes"])
                if votes == plain:
                    score = plain_scores[plain]
                else:
                    score = judge.mean(table, votes, _kept(votes, held))
                if score > best_score + 1e-12:
                    best_index, best_score = index, score
        return best_index if best_index >= 0 else rng.randbelow(len(legal))
        del count


class _Model:
    """How the other players are expected to vote, fitted to the public history."""

    __slots__ = ("beta", "super_rate")

    def __init__(self, beta: float, super_rate: float) -> None:
        self.beta = beta
        self.super_rate = super_rate

    @classmethod
    def fit(cls, view: dict[str, Any]) -> _Model:
        """The most likely weight sensitivity and super-spending rate given past rounds.

        Past tallies show how YES followed each dilemma's appeal minus harm, so a
        table that ignores the cards is soon recognised and modelled as such.
        """
        history: list[dict[str, Any]] = view.get("history") or []
        players: int = view["players"]
        loglik = [math.log(p) for p in _BETA_PRIOR]
        spent, exposed = _SUPER_PRIOR
        held = 2 * players if view.get("options", {}).get("supervotes") else 0
        for past in history:
            tokens = 0
            for dilemma, (yes, no) in zip(past["dilemmas"], past["tallies"], strict=False):
                tokens += yes + no
                lean = _lean(dilemma)
                for k, beta in enumerate(_BETAS):
                    p = _sigmoid(beta * lean)
                    loglik[k] += yes * math.log(p) + no * math.log(1.0 - p)
            used = max(0, (tokens - players * len(past["dilemmas"])) // (scoring.SUPER_WEIGHT - 1))
            if held:
                spent += used
                exposed += held
                held = max(0, held - used)
        best = max(range(len(_BETAS)), key=lambda k: loglik[k])
        return cls(_BETAS[best], spent / (spent + exposed))

    def yes_chance(self, dilemma: dict[str, Any]) -> float:
        """The chance that one other player puts a YES on ``dilemma``."""
        return _sigmoid(self.beta * _lean(dilemma))


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def _lean(dilemma: dict[str, Any]) -> float:
    """Appeal minus harm plus the neutral card's shift: above zero leans YES."""
    shift = dilemma["neutral"]["weight"] if dilemma.get("neutral") else 0
    return float(dilemma["positive"]["weight"] - dilemma["negative"]["weight"] + shift)


def _kept(votes: Sequence[str], held: dict[str, bool]) -> int:
    """Super tokens still held after casting ``votes``."""
    return int(held["yes"] and scoring.SUPER_YES not in votes) + int(
        held["no"] and scoring.SUPER_NO not in votes
    )


def _sample_table(
    view: dict[str, Any],
    model: _Model,
    yes_chance: list[float],
    samples: int,
    rng: Rng,
    must: bool,
) -> list[tuple[list[int], list[int]]]:
    """``samples`` draws of the others' summed (YES, NO) weight on every dilemma.

    Each other player draws a whole legal ballot (so token limits and forced
    super tokens hold), weighted by how well it fits the model's YES chances.
    """
    me: int = view["seat"]
    count = len(view["dilemmas"])
    pools: dict[tuple[bool, bool], tuple[list[float], list[tuple[list[int], list[int]]]]] = {}
    seats = []
    for seat, held in enumerate(view["supervotes"]):
        if seat == me:
            continue
        key = (bool(held["yes"]), bool(held["no"]))
        if key not in pools:
            options = scoring.ballots(count, key[0], key[1], must)
            pools[key] = _pool(options, yes_chance, model.super_rate, count)
        seats.append(pools[key])
    table = []
    for _ in range(samples):
        yes = [0] * count
        no = [0] * count
        for cumulative, contributions in seats:
            pick = bisect_right(cumulative, rng.random() * cumulative[-1])
            add_yes, add_no = contributions[min(pick, len(contributions) - 1)]
            yes = [a + b for a, b in zip(yes, add_yes, strict=True)]
            no = [a + b for a, b in zip(no, add_no, strict=True)]
        table.append((yes, no))
    return table


def _pool(
    options: Sequence[Sequence[str]], yes_chance: list[float], super_rate: float, count: int
) -> tuple[list[float], list[tuple[list[int], list[int]]]]:
    """Cumulative weights and vote contributions of one player's legal ballots."""
    spots = max(1, (count + 1) // 2)
    rate = min(0.95, max(0.01, super_rate))
    factor = rate / (spots * (1.0 - rate))
    weights = []
    contributions = []
    for ballot in options:
        w = 1.0
        for p, token in zip(yes_chance, ballot, strict=True):
            if token == scoring.YES:
                w *= p
            elif token == scoring.NO:
                w *= 1.0 - p
            elif token == scoring.SUPER_YES:
                w *= 2.0 * p * p * factor
            else:
                w *= 2.0 * (1.0 - p) * (1.0 - p) * factor
        weights.append(w)
        contributions.append(
            ([_TOKEN_WEIGHT[t][0] for t in ballot], [_TOKEN_WEIGHT[t][1] for t in ballot])
        )
    return list(accumulate(weights)), contributions


class _Judge:
    """Scores one of the bot's ballots against sampled tables by its chance to win the game."""

    def __init__(self, view: dict[str, Any], round_sd: float, super_value: float) -> None:
        self.me: int = view["seat"]
        self.scores: list[int] = list(view["scores"])
        self.creators: list[list[int]] = [list(d["creators"]) for d in view["dilemmas"]]
        self.left = max(0, view["rounds"] - view["round"])
        self.spread = round_sd * math.sqrt(2.0 * self.left) if self.left else 0.0
        self.super_value = super_value if self.left else 0.0
        self.memo: dict[tuple[int, tuple[int, ...]], float] = {}

    def mean(self, table: list[tuple[list[int], list[int]]], votes: Sequence[str], kept: int) -> float:
        """The average outcome value of casting ``votes`` over every sampled table."""
        mine_yes = [_TOKEN_WEIGHT[t][0] for t in votes]
        mine_no = [_TOKEN_WEIGHT[t][1] for t in votes]
        memo = self.memo
        total = 0.0
        for others_yes, others_no in table:
            yes = [a + b for a, b in zip(others_yes, mine_yes, strict=True)]
            no = [a + b for a, b in zip(others_no, mine_no, strict=True)]
            key = (kept, _winning_yes(yes, no))
            value = memo.get(key)
            if value is None:
                value = memo[key] = self._value(key[1], kept)
            total += value
        return total / len(table)

    def _value(self, winning: tuple[int, ...], kept: int) -> float:
        """Win chance after a round where dilemma ``i`` scores ``winning[i]`` (-1: lost)."""
        final = list(self.scores)
        for i, yes in enumerate(winning):
            if yes >= 0:
                for seat, gained in scoring.split_points(yes, self.creators[i]).items():
                    final[seat] += gained
        mine = final[self.me] + self.super_value * kept
        if not self.left:
            top = max(final)
            if final[self.me] < top:
                return 0.0
            return 1.0 / sum(1 for s in final if s == top)
        chance = 1.0
        for seat, theirs in enumerate(final):
            if seat != self.me:
                chance *= 0.5 * (1.0 + math.erf((mine - theirs) / (self.spread * math.sqrt(2.0))))
        return chance


def _winning_yes(yes: list[int], no: list[int]) -> tuple[int, ...]:
    """Per dilemma, its YES count if it wins the round, else -1 (the rules' tie-breaks)."""
    diffs = [a - b if a >= b else b - a for a, b in zip(yes, no, strict=True)]
    best = min(diffs)
    most_no = max(n for d, n in zip(diffs, no, strict=True) if d == best)
    return tuple(
        y if d == best and n == most_no else -1 for y, n, d in zip(yes, no, diffs, strict=True)
    )


# -- building, laying and supplying ---------------------------------------------


def _best(legal: list[Move], rng: Rng, score: Any) -> int:
    """Index of the best-scoring move; equal scores are broken by the bot's generator."""
    order = rng.shuffled(range(len(legal)))
    return max(order, key=lambda i: score(legal[i]))


def _neutral_cost(view: dict[str, Any]) -> float:
    """What spending the single neutral card costs: nothing in the last round."""
    return 0.0 if view["round"] >= view["rounds"] else 1.0


def _build_score(view: dict[str, Any], move: Move, model: _Model) -> float:
    """Prefer a dilemma that splits the table and a hand left with options."""
    hand = view["hand"]
    weight = {c["id"]: c["weight"] for k in ("positive", "negative") for c in hand[k]}
    lean = weight[move["positive"]] - weight[move["negative"]]
    if move["neutral"] is not None:
        lean += hand["neutral"]["weight"]
    score = -abs(lean)
    if move["neutral"] is not None:
        score -= _neutral_cost(view)
    # Keep the rest of the hand pairable: the cards left should be able to
    # make a close call next round too.
    rest_pos = [c["weight"] for c in hand["positive"] if c["id"] != move["positive"]]
    rest_neg = [c["weight"] for c in hand["negative"] if c["id"] != move["negative"]]
    if view["round"] < view["rounds"] and rest_pos and rest_neg:
        closest = min(abs(p - n) for p in rest_pos for n in rest_neg)
        score -= 0.25 * closest
    del model
    return score


def _lay_score(view: dict[str, Any], move: Move) -> float:
    """Lay a card that an average card of the other kind turns into a close call."""
    hand = view["hand"]
    card = next(c for k in ("positive", "negative") for c in hand[k] if c["id"] == move["card"])
    return -abs(card["weight"] - _HARM_MEAN) + 0.1 * len(hand[card["kind"]])


def _supply_score(view: dict[str, Any], move: Move, model: _Model) -> float:
    """Complete the neighbour's card into the closest call we can make."""
    laid = view["laid"][view["supply_target"]]
    hand = view["hand"]
    card = next(c for k in ("positive", "negative") for c in hand[k] if c["id"] == move["card"])
    if card["kind"] == "positive":
        lean = card["weight"] - (laid["weight"] if laid else _HARM_MEAN)
    else:
        lean = (laid["weight"] if laid else _HARM_MEAN) - card["weight"]
    score = -abs(lean + (hand["neutral"]["weight"] if move["neutral"] else 0))
    if move["neutral"] is not None:
        score -= _neutral_cost(view)
    del model
    return score
