"""Bots for The Game of Dilemmas: a heuristic player that decides from its view alone.

The round is won by the most divisive dilemma, and its creators score its YES
votes, so a good player does two things: build dilemmas that split the table
(appeal about equal to harm) and, above all, vote so that its own dilemma ends
up the closest call while the others do not. Votes are simultaneous, so the
bot cannot know the other ballots; it weighs every ballot it may cast against
the distribution of the others' votes under a model of the table (exact when
the table is small, sampled otherwise) and casts the one with the best
expected share of the game's win, not merely the most points this round.

The model is fitted to what the view shows: how strongly past tallies followed
the cards' weights (a table of careful voters follows them, a table of random
clickers does not) and how eagerly super tokens were spent. Everything comes
from ``engine.view`` output and the given ``Rng``; the bot keeps no memory
between calls, so the same view and the same generator give the same move.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Callable, Sequence
from itertools import accumulate
from operator import add
from typing import TypeVar

from quandary.bots import seat_of, sent
from quandary.engine import Move, Rng

from . import scoring
from .view import (
    BuildMove,
    DilemmasMove,
    DilemmasView,
    DilemmaView,
    LayMove,
    Supervotes,
    SupplyMove,
    VoteMove,
    hand_cards,
)

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

_BETAS = (0.0, 0.15, 0.3, 0.5, 0.8, 1.2)
"""Sensitivities to the cards' weights that the model of the table weighs."""
_BETA_PRIOR = (0.5, 0.1, 0.1, 0.1, 0.1, 0.1)
"""Before any tally is seen: even odds that the table ignores the cards' weights
(careless players, random bots) or follows them (people asking themselves
"would I say yes?"); the tallies soon tell which."""
_SUPER_PRIOR = (1.0, 4.0)
"""Pseudo-counts (tokens spent, tokens held through a round) before any round is seen."""
_BUDGET = 8_000
"""Work per vote decision, in dilemma x ballot x table steps: about 5 ms in CPython,
so a decision stays well under the 50 ms Pyodide allows."""
_SHARE_WORK = 15_000
"""Work for valuing outcomes, in outcome x future x rival steps."""
_MIN_SAMPLES = 24
_MAX_SAMPLES = 400
_EXACT_WORK = 6000
"""Most row x ballot steps spent building the exact distribution of the others' votes."""
_JOINT_CAP = 60
"""Most distinct point patterns kept to model one future round."""
_FUTURE_SAMPLES = 128
_MIN_FUTURES = 32
"""Sampled futures when two or more rounds are left (fewer when outcomes are many)."""
_DIRECT = 40
"""Up to this many legal ballots are all tried; beyond it, plain patterns go first."""
_SUPER_SHORTLIST = 3
"""How many of the best plain ballots get their super-token variants tried."""
_REJECT_MARGIN = 0.02
"""How much more of a win a SUPER REJECT on the bot's own dilemma must bring than a plain NO."""
_HARM_MEAN = 3.0
"""Mean appeal or harm of an unseen card (the packs' weights run 1-5 evenly)."""


class HeuristicBot:
    """Builds divisive dilemmas and votes by Monte Carlo over a fitted model of the table."""

    name = "heuristic"

    def __init__(self, budget: int = _BUDGET, super_bonus: float = 0.05) -> None:
        """Tuning knobs, kept as arguments so the benchmark can compare settings.

        ``budget`` bounds the work per vote (dilemmas x ballots x tables tried);
        ``super_bonus`` is the share of a win that an unspent super token is
        worth before the last round, so one is only spent for a bigger gain.
        """
        self.budget = budget
        self.super_bonus = super_bonus
        self.last_judge: _Judge | None = None
        """The judge of the latest vote, kept only so tests can ask why a ballot won."""

    def choose(self, view: DilemmasView, rng: Rng) -> Move:
        """One of ``view["legal_moves"]``, the very dict, picked by the phase's heuristic."""
        legal = view["legal_moves"]
        if not legal:
            raise ValueError("The bot was asked to move but has no legal move.")
        phase = view["phase"]
        # Each phase offers moves of its own type only, so each filter below keeps
        # every legal move, in order: it only tells mypy which type they are.
        move: DilemmasMove
        if len(legal) == 1:
            move = legal[0]
        elif phase == "vote":
            ballots = [m for m in legal if m["type"] == "vote"]
            move = ballots[self._vote(view, ballots, rng)]
        elif phase == "build":
            builds = [m for m in legal if m["type"] == "build"]
            move = builds[_best(builds, rng, lambda m: _build_score(view, m))]
        elif phase == "lay":
            lays = [m for m in legal if m["type"] == "lay"]
            move = lays[_best(lays, rng, lambda m: _lay_score(view, m))]
        elif phase == "supply":
            supplies = [m for m in legal if m["type"] == "supply"]
            move = supplies[_best(supplies, rng, lambda m: _supply_score(view, m))]
        else:
            move = rng.choice(legal)
        return sent(move)  # the very dict the view offered

    # -- voting ------------------------------------------------------------------

    def _vote(self, view: DilemmasView, legal: list[VoteMove], rng: Rng) -> int:
        """The index of the legal ballot with the best expected share of the win.

        Ballots are tried against the other players' summed votes, computed
        exactly when the table is small enough and sampled otherwise. With many
        ballots (super tokens multiply them) the plain YES/NO patterns are ranked
        first and only the best few get their super-token variants tried.
        """
        me = seat_of(view["seat"])
        must = _rounds_left(view) == 0
        model = _Model.fit(view)
        chances = [model.yes_chance(d) for d in view["dilemmas"]]
        votes = [tuple(m["votes"]) for m in legal]
        groups: dict[tuple[str, ...], list[int]] = {}
        for index, ballot in enumerate(votes):
            groups.setdefault(tuple(_PLAIN[t] for t in ballot), []).append(index)
        direct = len(legal) <= _DIRECT
        shortlist = min(_SUPER_SHORTLIST, len(groups))
        if direct:
            evaluations = len(legal)
        else:
            evaluations = len(groups) + shortlist * max(len(v) for v in groups.values())
        rows = _others(view, model, chances, must, self.budget // (evaluations * len(chances)), rng)
        judge = _Judge(view, rows, self.super_bonus)
        held = view["supervotes"][me]
        self.last_judge = judge

        first = votes if direct else list(groups)
        found = [judge.outcomes(ballot) for ballot in first]
        judge.learn_future(found, rng)
        scores = [judge.mean(f, _kept(b, held)) for b, f in zip(first, found, strict=True)]
        # Equal values (a symmetric table) are broken by the generator, so the
        # bot's ballot is not predictable from its cards alone.
        order = rng.shuffled(range(len(first)))
        if direct:
            allowed = [i for i in order if not judge.wasted_reject(votes[i], scores[i], held)]
            return max(allowed or order, key=lambda i: scores[i])
        ranked = sorted(order, key=lambda i: -scores[i])[:shortlist]
        best_index, best_score = -1, -math.inf
        for rank in ranked:
            for index in groups[first[rank]]:
                if votes[index] == first[rank]:
                    score = scores[rank]
                else:
                    score = judge.mean(judge.outcomes(votes[index]), _kept(votes[index], held))
                if score > best_score and not judge.wasted_reject(votes[index], score, held):
                    best_index, best_score = index, score
        return best_index if best_index >= 0 else groups[first[ranked[0]]][0]


class _Model:
    """How the other players are expected to vote, fitted to the public history.

    ``betas`` pairs each tried sensitivity to the cards' weights with its
    posterior probability; ``super_rate`` is the chance that a held super token
    is spent in a round.
    """

    __slots__ = ("betas", "super_rate")

    def __init__(self, betas: list[tuple[float, float]], super_rate: float) -> None:
        self.betas = betas
        self.super_rate = super_rate

    @classmethod
    def fit(cls, view: DilemmasView) -> _Model:
        """Weigh the sensitivities and the super-spending rate by the past rounds.

        Past tallies show how YES followed each dilemma's appeal minus harm, so a
        table that ignores the cards is soon recognised and modelled as such.
        The tallies' total weight shows how many super tokens were spent.
        """
        players = view["players"]
        loglik = [math.log(p) for p in _BETA_PRIOR]
        spent, exposed = _SUPER_PRIOR
        held = 2 * players if view["options"]["supervotes"] else 0
        for past in view["history"]:
            tokens = 0
            for dilemma, (yes, no) in zip(past["dilemmas"], past["tallies"], strict=True):
                tokens += yes + no
                lean = _lean(dilemma)
                for k, beta in enumerate(_BETAS):
                    p = _sigmoid(beta * lean)
                    loglik[k] += yes * math.log(p) + no * math.log(1.0 - p)
            extra = tokens - players * len(past["dilemmas"])
            used = max(0, extra // (scoring.SUPER_WEIGHT - 1))
            if held:
                spent += used
                exposed += held
                held = max(0, held - used)
        top = max(loglik)
        weights = [math.exp(v - top) for v in loglik]
        total = sum(weights)
        betas = [(b, w / total) for b, w in zip(_BETAS, weights, strict=True) if w / total > 1e-3]
        return cls(betas, spent / exposed)

    def yes_chance(self, dilemma: DilemmaView) -> float:
        """The chance that one other player puts a YES on ``dilemma``."""
        lean = _lean(dilemma)
        total = sum(w for _, w in self.betas)
        return sum(w * _sigmoid(b * lean) for b, w in self.betas) / total


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def _lean(dilemma: DilemmaView) -> float:
    """Appeal minus harm plus the neutral card's shift: above zero leans YES."""
    neutral = dilemma["neutral"]
    shift = neutral["weight"] if neutral else 0
    return float(dilemma["positive"]["weight"] - dilemma["negative"]["weight"] + shift)


def _kept(votes: Sequence[str], held: Supervotes) -> int:
    """Super tokens still held after casting ``votes``."""
    return int(held["yes"] and scoring.SUPER_YES not in votes) + int(
        held["no"] and scoring.SUPER_NO not in votes
    )


Row = tuple[int, ...]
"""The others' summed votes: YES weight on each dilemma, then NO weight on each."""


def _others(
    view: DilemmasView,
    model: _Model,
    chances: list[float],
    must: bool,
    rows: int,
    rng: Rng,
) -> dict[Row, float]:
    """The distribution of the other players' summed votes, as row -> probability.

    Each other player casts one whole legal ballot (so token limits and forced
    super tokens hold), weighted by how well it fits the model. The exact
    distribution is built when it has at most ``rows`` rows (small tables, few
    super tokens), because sampling noise easily hides the small differences
    between good ballots; otherwise ``rows`` tables are sampled.
    """
    me = seat_of(view["seat"])
    count = len(view["dilemmas"])
    cache: dict[tuple[bool, bool], tuple[list[Row], list[float]]] = {}
    pools = []
    for seat, held in enumerate(view["supervotes"]):
        if seat != me:
            key = (bool(held["yes"]), bool(held["no"]))
            if key not in cache:
                options = scoring.ballots(count, key[0], key[1], must)
                cache[key] = _pool(options, chances, model.super_rate, count)
            pools.append(cache[key])
    exact: dict[Row, float] | None = {(0,) * (2 * count): 1.0}
    for contributions, weights in pools:
        work = len(exact) * len(contributions) if exact is not None else 0
        if exact is None or work > _EXACT_WORK or work > 8 * rows:
            exact = None
            break
        grown: dict[Row, float] = {}
        for row, chance in exact.items():
            for extra, weight in zip(contributions, weights, strict=True):
                key = tuple(map(add, row, extra))
                grown[key] = grown.get(key, 0.0) + chance * weight
        exact = grown if len(grown) <= rows else None
    if exact is not None:
        return exact
    samples = max(_MIN_SAMPLES, min(_MAX_SAMPLES, rows))
    drawn: dict[Row, float] = {}
    cumulative = [list(accumulate(weights)) for _, weights in pools]
    for _ in range(samples):
        row = (0,) * (2 * count)
        for (contributions, _w), totals in zip(pools, cumulative, strict=True):
            pick = min(bisect_right(totals, rng.random() * totals[-1]), len(totals) - 1)
            row = tuple(map(add, row, contributions[pick]))
        drawn[row] = drawn.get(row, 0.0) + 1.0 / samples
    return drawn


def _pool(
    options: Sequence[Sequence[str]], chances: list[float], super_rate: float, count: int
) -> tuple[list[Row], list[float]]:
    """One player's distinct vote contributions and their probabilities under the model.

    A plain YES on a dilemma is weighted by its YES chance and a NO by the rest;
    a super token also by how eagerly the table spends them, tuned so that the
    chance of spending one in a round matches the fitted rate.
    """
    spots = max(1, (count + 1) // 2)
    rate = min(0.95, max(0.01, super_rate))
    factor = rate / (spots * (1.0 - rate))
    merged: dict[Row, float] = {}
    for ballot in options:
        w = 1.0
        for p, token in zip(chances, ballot, strict=True):
            if token == scoring.YES:
                w *= p
            elif token == scoring.NO:
                w *= 1.0 - p
            elif token == scoring.SUPER_YES:
                w *= 2.0 * p * p * factor
            else:
                w *= 2.0 * (1.0 - p) * (1.0 - p) * factor
        row = _row(ballot)
        merged[row] = merged.get(row, 0.0) + w
    total = sum(merged.values())
    return list(merged), [w / total for w in merged.values()]


def _row(ballot: Sequence[str]) -> Row:
    """One ballot's YES weights then NO weights, per dilemma."""
    return tuple(_TOKEN_WEIGHT[t][0] for t in ballot) + tuple(_TOKEN_WEIGHT[t][1] for t in ballot)


class _Judge:
    """Values the bot's ballots by its expected share of the game's win.

    A round outcome fixes everyone's score after this round. The rounds still
    to come are modelled as repeats of this one: the joint spread of points
    (who scores, relative to the bot) seen in this round's outcomes is added
    once per round left. Joint, because in a round few dilemmas win, so when
    one rival scores the others mostly do not; treating players as independent
    misjudges leads. Shared wins count as a share, as in the result.
    """

    def __init__(self, view: DilemmasView, rows: dict[Row, float], super_bonus: float) -> None:
        self.rows = list(rows.items())
        self.count = len(view["dilemmas"])
        self.me = seat_of(view["seat"])
        self.scores = list(view["scores"])
        self.creators = [list(d["creators"]) for d in view["dilemmas"]]
        self.left = _rounds_left(view)
        self.super_bonus = super_bonus if self.left else 0.0
        self.future: list[tuple[tuple[int, ...], float]] = [((0,) * (len(self.scores) - 1), 1.0)]
        self.values: dict[tuple[int, ...], float] = {}
        self.gains: dict[tuple[int, ...], list[int]] = {}

    def outcomes(self, votes: Sequence[str]) -> dict[tuple[int, ...], float]:
        """How likely each round outcome is when the bot casts ``votes``.

        An outcome gives, per dilemma, its YES count if it wins, else -1.
        Winners are the smallest |YES-NO|, then the most NO: one integer key
        ``|YES-NO| * 1024 - NO`` orders both at once.
        """
        mine = _row(votes)
        count = self.count
        out: dict[tuple[int, ...], float] = {}
        for row, chance in self.rows:
            total = list(map(add, row, mine))
            yes = total[:count]
            keys = [abs(y - n) * 1024 - n for y, n in zip(yes, total[count:], strict=True)]
            best = min(keys)
            won = tuple([y if k == best else -1 for y, k in zip(yes, keys, strict=True)])
            out[won] = out.get(won, 0.0) + chance
        return out

    def points(self, winning: tuple[int, ...]) -> list[int]:
        """What each seat scores this round when dilemma ``i`` scores ``winning[i]``."""
        found = self.gains.get(winning)
        if found is None:
            found = [0] * len(self.scores)
            for i, yes in enumerate(winning):
                if yes >= 0:
                    for seat, gained in scoring.split_points(yes, self.creators[i]).items():
                        found[seat] += gained
            self.gains[winning] = found
        return found

    def learn_future(self, outcomes: list[dict[tuple[int, ...], float]], rng: Rng) -> None:
        """Model the rounds left as repeats of this round's outcomes (over the tried ballots)."""
        if not self.left or not outcomes:
            return
        me = self.me
        others = [seat for seat in range(len(self.scores)) if seat != me]
        joint: dict[tuple[int, ...], float] = {}
        for batch in outcomes:
            for winning, chance in batch.items():
                gained = self.points(winning)
                key = tuple([gained[j] - gained[me] for j in others])
                joint[key] = joint.get(key, 0.0) + chance
        ranked = sorted(joint.items(), key=lambda kv: -kv[1])[:_JOINT_CAP]
        if self.left == 1:
            total = sum(p for _, p in ranked)
            self.future = [(k, p / total) for k, p in ranked]
            return
        keys = [k for k, _ in ranked]
        cumulative = list(accumulate(p for _, p in ranked))
        seen = len({w for batch in outcomes for w in batch})
        samples = max(_MIN_FUTURES, min(_FUTURE_SAMPLES, _SHARE_WORK // (seen * len(others))))
        paths: dict[tuple[int, ...], float] = {}
        for _ in range(samples):
            path = (0,) * len(others)
            for _ in range(self.left):
                pick = bisect_right(cumulative, rng.random() * cumulative[-1])
                path = tuple(map(add, path, keys[min(pick, len(keys) - 1)]))
            paths[path] = paths.get(path, 0.0) + 1.0 / samples
        self.future = list(paths.items())

    def mean(self, outcomes: dict[tuple[int, ...], float], kept: int) -> float:
        """The expected value of a ballot over its outcomes, plus its unspent super tokens."""
        values = self.values
        total = 0.0
        for winning, chance in outcomes.items():
            value = values.get(winning)
            if value is None:
                value = values[winning] = self._share(winning)
            total += chance * value
        return total + self.super_bonus * kept

    def own_reject(self, votes: Sequence[str]) -> int | None:
        """The bot's own dilemma that ``votes`` puts its SUPER REJECT on, if any."""
        for i, token in enumerate(votes):
            if token == scoring.SUPER_NO and self.me in self.creators[i]:
                return i
        return None

    def wasted_reject(self, votes: Sequence[str], score: float, held: Supervotes) -> bool:
        """Whether ``votes`` spends a SUPER REJECT on the bot's own dilemma for no clear gain.

        Three more NO on its own dilemma only pay when they make that dilemma the
        closest call; as often they overshoot it, and a player reading the result
        sees a bot voting down its own work. So the token goes there only when
        the same ballot with a plain NO there (the token kept) is clearly worse.
        """
        spot = self.own_reject(votes)
        if spot is None:
            return False
        plain = list(votes)
        plain[spot] = scoring.NO
        twin = self.mean(self.outcomes(plain), _kept(plain, held))
        return score < twin + _REJECT_MARGIN

    def _share(self, winning: tuple[int, ...]) -> float:
        """The bot's expected share of the win after a round with this outcome."""
        gained = self.points(winning)
        final = [s + p for s, p in zip(self.scores, gained, strict=True)]
        mine = final[self.me]
        leads = [mine - s for seat, s in enumerate(final) if seat != self.me]
        total = 0.0
        for behind, chance in self.future:
            ties = 0
            for lead, more in zip(leads, behind, strict=True):
                if lead < more:
                    break
                if lead == more:
                    ties += 1
            else:
                total += chance / (1 + ties)
        return total


# -- building, laying and supplying ---------------------------------------------


_MoveT = TypeVar("_MoveT", BuildMove, LayMove, SupplyMove)


def _best(legal: list[_MoveT], rng: Rng, score: Callable[[_MoveT], float]) -> int:
    """Index of the best-scoring move; equal scores are broken by the bot's generator."""
    order = rng.shuffled(range(len(legal)))
    return max(order, key=lambda i: score(legal[i]))


def _rounds_left(view: DilemmasView) -> int:
    """Rounds still to come after this one (the game always has exactly five)."""
    limit = view["round_limit"]
    if limit is None:
        raise ValueError("A view of The Game of Dilemmas always tells its round limit.")
    return max(0, limit["count"] - view["round"])


def _neutral_cost(view: DilemmasView) -> float:
    """What spending the single neutral card costs: nothing in the last round."""
    return 0.0 if _rounds_left(view) == 0 else 1.0


def _build_score(view: DilemmasView, move: BuildMove) -> float:
    """Prefer a dilemma that splits the table and a hand left with options."""
    hand = view["hand"]
    weight = {c["id"]: c["weight"] for c in hand_cards(hand)}
    lean = float(weight[move["positive"]] - weight[move["negative"]])
    neutral = hand["neutral"]
    if move["neutral"] is not None and neutral is not None:
        lean += neutral["weight"]
    score = -abs(lean)
    if move["neutral"] is not None:
        score -= _neutral_cost(view)
    # Keep the rest of the hand pairable: the cards left should be able to
    # make a close call next round too.
    rest_pos = [c["weight"] for c in hand["positive"] if c["id"] != move["positive"]]
    rest_neg = [c["weight"] for c in hand["negative"] if c["id"] != move["negative"]]
    if _rounds_left(view) > 0 and rest_pos and rest_neg:
        closest = min(abs(p - n) for p in rest_pos for n in rest_neg)
        score -= 0.25 * closest
    return score


def _lay_score(view: DilemmasView, move: LayMove) -> float:
    """Lay a card that an average card of the other kind turns into a close call."""
    hand = view["hand"]
    card = next(c for c in hand_cards(hand) if c["id"] == move["card"])
    same_kind = hand["positive"] if card["kind"] == "positive" else hand["negative"]
    return -abs(float(card["weight"]) - _HARM_MEAN) + 0.1 * len(same_kind)


def _supply_score(view: DilemmasView, move: SupplyMove) -> float:
    """Complete the neighbour's card into the closest call we can make."""
    laid = view["laid"][view["supply_target"]]
    hand = view["hand"]
    card = next(c for c in hand_cards(hand) if c["id"] == move["card"])
    other = float(laid["weight"]) if laid else _HARM_MEAN
    lean = card["weight"] - other if card["kind"] == "positive" else other - card["weight"]
    neutral = hand["neutral"]
    score = -abs(float(lean) + (neutral["weight"] if move["neutral"] and neutral else 0))
    if move["neutral"] is not None:
        score -= _neutral_cost(view)
    return score
