"""The law engine: every law is data (a type and parameters) read by this one module.

Three readers, one table of law types:
  ``score``    scoring laws: points for what a player shows, with the reasons;
  ``effects``  voting, card, misc, abstain and shop laws folded into one
               ``Effects`` value that the turn logic reads (hand size, tie rule,
               picking order, storage, ...). The turn logic never asks which law
               is enacted, only what the effects are;
  ``card_text`` the sentence printed on a card, written from the same data.

Only active laws count: with Undecided Voters a law with more NO than YES votes
on it is disabled, and the caller leaves it out.

A player's counts: each resource icon (green side up adds, red side up
removes), ``support`` icons the same way, ``green`` and ``red`` (how many won
cards show each side), and ``abstain`` (abstain votes cast so far). A wildcard
icon counts as whichever icon the player likes best at the moment: all of a
player's wildcards are given icons together, the assignment with the highest
score winning (two wildcards may complete a pair or a threshold that neither
would reach alone).

>>> holding = Holding((("R02", True), ("R05", False)), abstains=0, bonus=0)
>>> score(["L01"], holding)[0]  # 3 money shown, 0 money removed
3
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TypeGuard

from .material import (
    BASE_ICONS,
    CARDS,
    LIVESTOCK,
    SCORING,
    SUPPORT,
    WILDCARD,
    AtLeast,
    AtMost,
    Card,
    Law,
    Pair,
    PerIcon,
    Power,
    Reward,
    ScoringLaw,
)
from .view_types import ScoreLine

ICONS = (*BASE_ICONS, LIVESTOCK)
"""Icons a wildcard may stand for."""
ICON_NAMES = {
    "money": "money",
    "homes": "homes",
    "science": "science",
    "wood": "wood",
    "minerals": "minerals",
    "nature": "nature",
    "livestock": "livestock",
    "support": "support",
    "wildcard": "wildcard",
    "green": "card with its green side up",
    "red": "card with its red side up",
    "abstain": "abstain vote you have cast",
}


@dataclass(frozen=True)
class Holding:
    """What one player shows, as scoring laws read it: won cards with their side up."""

    cards: tuple[tuple[str, bool], ...]
    abstains: int
    bonus: int


@dataclass(frozen=True)
class Line:
    """One reason in a score explanation: which law gave how many points, and why."""

    law: str
    points: int
    because: str

    def to_json(self) -> ScoreLine:
        """The line as the views show it."""
        title = CARDS[self.law].name if self.law in CARDS else self.law
        return {"law": self.law, "title": title, "points": self.points, "because": self.because}


def counts(holding: Holding) -> tuple[dict[str, int], int, int]:
    """Net counts of every icon, and the green and red wildcards still to assign."""
    out = dict.fromkeys((*ICONS, SUPPORT, "green", "red"), 0)
    out["abstain"] = holding.abstains
    wild_green = wild_red = 0
    for card_id, green in holding.cards:
        sign = 1 if green else -1
        out["green" if green else "red"] += 1
        for icon in CARDS[card_id].icons(green):
            if icon == WILDCARD:
                if green:
                    wild_green += 1
                else:
                    wild_red += 1
            else:
                out[icon] += sign
    return out, wild_green, wild_red


# -- scoring ------------------------------------------------------------------


def _per_icon(law: PerIcon, c: dict[str, int]) -> tuple[int, str]:
    n = c[law["icon"]]
    return law["points"] * n, f"{n} x {_signed(law['points'])} for {_icon(law['icon'], n)}"


def _pair(law: Pair, c: dict[str, int]) -> tuple[int, str]:
    a, b = law["icons"]
    pairs = max(0, min(c[a], c[b]))
    return law["points"] * pairs, f"{pairs} pair(s) of {a} ({c[a]}) and {b} ({c[b]})"


def _at_least(law: AtLeast, c: dict[str, int]) -> tuple[int, str]:
    n = c[law["icon"]]
    met = n >= law["count"]
    return (law["points"] if met else 0), f"you have {n} {law['icon']}, need {law['count']}+"


def _at_most(law: AtMost, c: dict[str, int]) -> tuple[int, str]:
    n = c[law["icon"]]
    met = n <= law["count"]
    return (law["points"] if met else 0), f"you have {n} {law['icon']}, limit {law['count']}"


def _points(law: ScoringLaw, c: dict[str, int]) -> tuple[int, str]:
    """A scoring law's points for the counts ``c``, and why."""
    if law["type"] == "per_icon":
        return _per_icon(law, c)
    if law["type"] == "pair":
        return _pair(law, c)
    if law["type"] == "at_least":
        return _at_least(law, c)
    return _at_most(law, c)


def scores(law: Law | None) -> TypeGuard[ScoringLaw]:
    """Whether ``law`` gives points (rather than changing how the game is played)."""
    return law is not None and law["type"] in SCORING


def _signed(points: int) -> str:
    return f"+{points}" if points >= 0 else str(points)


def _icon(icon: str, n: int) -> str:
    name = ICON_NAMES.get(icon, icon)
    return name if abs(n) == 1 or icon not in ("green", "red", "abstain") else name + "s"


def is_scoring(card_id: str) -> bool:
    """Whether a law gives points (rather than changing how the game is played)."""
    return scores(CARDS[card_id].law)


def _raw(scoring: tuple[ScoringLaw, ...], c: dict[str, int]) -> int:
    return sum(_points(law, c)[0] for law in scoring)


@functools.lru_cache(maxsize=1024)
def _scoring(laws: tuple[str, ...]) -> tuple[ScoringLaw, ...]:
    """The scoring laws among ``laws``, as data (cached: read for every holding)."""
    found = (CARDS[law_id].law for law_id in laws)
    return tuple(law for law in found if scores(law))


@functools.lru_cache(maxsize=1024)
def _candidates(laws: tuple[str, ...], sign: int) -> tuple[str, ...]:
    """The icons worth trying for a wildcard that adds (``sign`` 1) or removes (-1) one.

    Every icon a pair, at-least or at-most law reads must be tried. The others
    count only through "each <icon> is worth N" laws, so each copy of one is
    worth its rate whatever else the player shows: any wildcard given to one of
    them is best given to the one with the best rate (for a removal, the lowest).
    So the candidates are the tried icons plus at most one other, never none.
    """
    scoring = _scoring(laws)
    tried = {i for law in scoring if law["type"] != "per_icon" for i in _read(law)}
    linear = [icon for icon in ICONS if icon not in tried]
    rate = dict.fromkeys(linear, 0)
    for law in scoring:
        if law["type"] == "per_icon" and law["icon"] in rate:
            rate[law["icon"]] += law["points"]
    best = [max(linear, key=lambda icon: sign * rate[icon])] if linear else []
    return tuple(icon for icon in ICONS if icon in tried) + tuple(best)


def _read(law: ScoringLaw) -> tuple[str, ...]:
    return tuple(law["icons"]) if law["type"] == "pair" else (law["icon"],)


JOINT_LIMIT = 5000
"""Most wildcard assignments tried for one holding. The published material never
comes near: 8 wildcards at most and 7 icons make C(14, 6) = 3003 ways, and a
player rarely holds more than two. Beyond it, wildcards are assigned one by one."""


def _ways(icons: tuple[str, ...], many: int) -> int:
    """How many multisets of ``many`` icons from ``icons`` (never empty: see above)."""
    return math.comb(len(icons) + many - 1, many)


def assign_wildcards(laws: Sequence[str], holding: Holding) -> tuple[dict[str, int], list[str]]:
    """Counts with every wildcard given its icon, and the icons chosen.

    All of the player's wildcards are assigned together: every way of sharing
    the green ones (each adds an icon) and the red ones (each removes one) among
    the candidate icons is tried, and the highest score wins (on a tie, the
    first tried, so every replica chooses alike). Wildcards are alike, so a way
    is a multiset of icons.
    """
    c, wild_green, wild_red = counts(holding)
    if not wild_green and not wild_red:
        return c, []
    key = tuple(laws)
    scoring = _scoring(key)
    greens, reds = _candidates(key, 1), _candidates(key, -1)
    if _ways(greens, wild_green) * _ways(reds, wild_red) > JOINT_LIMIT:
        return _one_by_one(scoring, c, wild_green, wild_red)
    best: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    best_points: int | None = None
    for add, remove in itertools.product(
        itertools.combinations_with_replacement(greens, wild_green),
        itertools.combinations_with_replacement(reds, wild_red),
    ):
        _shift(c, add, remove, 1)
        points = _raw(scoring, c)
        _shift(c, add, remove, -1)
        if best_points is None or points > best_points:
            best_points, best = points, (add, remove)
    add, remove = best
    _shift(c, add, remove, 1)
    return c, [*add, *(f"-{icon}" for icon in remove)]


def _shift(c: dict[str, int], add: tuple[str, ...], remove: tuple[str, ...], step: int) -> None:
    """Give (``step`` 1) or take back (-1) the wildcards' icons in the counts ``c``."""
    for icon in add:
        c[icon] += step
    for icon in remove:
        c[icon] -= step


def _one_by_one(
    scoring: tuple[ScoringLaw, ...], c: dict[str, int], wild_green: int, wild_red: int
) -> tuple[dict[str, int], list[str]]:
    """The fallback past ``JOINT_LIMIT``: each wildcard in turn to its best icon."""
    chosen: list[str] = []
    for sign, many in ((1, wild_green), (-1, wild_red)):
        for _ in range(many):
            best, best_points = ICONS[0], None
            for icon in ICONS:
                c[icon] += sign
                points = _raw(scoring, c)
                c[icon] -= sign
                if best_points is None or points > best_points:
                    best, best_points = icon, points
            c[best] += sign
            chosen.append(best if sign > 0 else f"-{best}")
    return c, chosen


def score(laws: Sequence[str], holding: Holding) -> tuple[int, list[Line]]:
    """A player's points under the active ``laws``, with one line per law that counts."""
    total, lines = _score(tuple(laws), holding)
    return total, list(lines)


@functools.lru_cache(maxsize=4096)
def _score(laws: tuple[str, ...], holding: Holding) -> tuple[int, tuple[Line, ...]]:
    """Cached: every view scores every player, and holdings change only now and then."""
    c, chosen = assign_wildcards(laws, holding)
    lines: list[Line] = []
    total = holding.bonus
    if holding.bonus:
        lines.append(Line("shop", holding.bonus, "points bought with shop laws and powers"))
    for law_id in laws:
        law = CARDS[law_id].law
        if not scores(law):
            continue
        points, because = _points(law, c)
        total += points
        if chosen:
            because += f" (wildcards as {', '.join(chosen)})"
        lines.append(Line(law_id, points, because))
    return total, tuple(lines)


# -- effects of the other laws ----------------------------------------------------


@dataclass(frozen=True)
class Effects:
    """How the active laws change play. Defaults are the base rules."""

    hand_size: int = 5
    proposal_min: int = 2
    proposal_max: int = 5
    tie_passes: bool = True
    reverse_order: bool = False
    proposer_weight: int = 1
    proposer_first: bool = False
    support_storage: int = 0
    resource_storage: int = 0
    collect_bonus: int = 0
    trade_votes: int = 2
    abstain_counts_as: str | None = None
    abstain_takes: str | None = None
    abstain_refund: bool = False
    abstain_collect: int = 0
    proposer_may_abstain: bool = True
    abstain_quorum: bool = False
    abstain_tie_rejects: bool = False
    shops: tuple[str, ...] = ()

    def capacity(self, card: Card) -> int:
        """How many votes a won card stores under these laws."""
        extra = {"support": self.support_storage, "resource": self.resource_storage}
        return card.capacity + extra.get(card.kind, 0)


HAND_LIMIT = 7
"""Hand size laws stop here, so a proposal's choices stay few enough to list."""


def _fold(e: Effects, law_id: str, law: Law) -> Effects:
    if law["type"] == "tie_rejects":
        return replace(e, tie_passes=False)
    if law["type"] == "reverse_order":
        return replace(e, reverse_order=not e.reverse_order)
    if law["type"] == "proposer_weight":
        return replace(e, proposer_weight=max(e.proposer_weight, law["weight"]))
    if law["type"] == "proposer_first":
        return replace(e, proposer_first=True)
    if law["type"] == "hand_size":
        return replace(e, hand_size=min(HAND_LIMIT, e.hand_size + law["delta"]))
    if law["type"] == "proposal_max":
        return replace(e, proposal_max=max(e.proposal_min, min(e.proposal_max, law["count"])))
    if law["type"] == "storage":
        if law["kind"] == "support":
            return replace(e, support_storage=e.support_storage + law["delta"])
        return replace(e, resource_storage=e.resource_storage + law["delta"])
    if law["type"] == "collect_bonus":
        return replace(e, collect_bonus=e.collect_bonus + law["amount"])
    if law["type"] == "trade_votes":
        return replace(e, trade_votes=max(e.trade_votes, law["amount"]))
    if law["type"] == "abstain_collect":
        return replace(e, abstain_collect=e.abstain_collect + law["amount"])
    if law["type"] == "abstain_counts":
        return replace(e, abstain_counts_as=law["as"])
    if law["type"] == "abstain_takes":
        return replace(e, abstain_takes="first" if law["first"] else "last")
    if law["type"] == "abstain_refund":
        return replace(e, abstain_refund=True)
    if law["type"] == "proposer_no_abstain":
        return replace(e, proposer_may_abstain=False)
    if law["type"] == "abstain_quorum":
        return replace(e, abstain_quorum=True)
    if law["type"] == "abstain_tie_rejects":
        return replace(e, abstain_tie_rejects=True)
    if law["type"] == "shop":
        return replace(e, shops=(*e.shops, law_id))
    raise ValueError(f"unknown law type {law['type']!r}")


def effects(laws: Sequence[str]) -> Effects:
    """The active non-scoring laws folded in the order they were enacted.

    Where two laws disagree (an abstain vote counting as YES and as NO), the
    later one wins, as a newer law replaces an older one.
    """
    return _effects(tuple(laws))


@functools.lru_cache(maxsize=1024)
def _effects(laws: tuple[str, ...]) -> Effects:
    out = Effects()
    for law_id in laws:
        law = CARDS[law_id].law
        if law is not None and law["type"] not in SCORING:
            out = _fold(out, law_id, law)
    return out


def shop(law_id: str) -> tuple[tuple[str, ...], Reward]:
    """A shop law's cost (one icon per card paid) and reward."""
    law = CARDS[law_id].law
    assert law is not None and law["type"] == "shop"
    return tuple(law["cost"]), law["reward"]


# -- the texts printed on cards -----------------------------------------------------


def _reward_text(reward: Reward) -> str:
    n = reward["amount"]
    return {
        "votes": f"draw {n} votes and store them",
        "points": f"gain {n} points for good",
        "decrees": f"draw {n} decree cards into your hand",
        "flip": "turn one of your red cards to its green side",
    }[reward["kind"]]


_RULES = {
    "tie_rejects": "A tied vote is rejected.",
    "reverse_order": "Cards are taken in the reverse of the usual vote order.",
    "proposer_first": "The proposer takes a card first, whatever the vote order.",
    "abstain_refund": "An abstain vote goes back onto its owner's card after the reveal.",
    "abstain_collect": "Whoever abstained this turn collects 1 more vote.",
    "proposer_no_abstain": "The proposer may not abstain on their own proposal.",
    "abstain_quorum": "If more than half of the votes abstain, the proposal is rejected.",
    "abstain_tie_rejects": "A tie is rejected if anyone abstained.",
}
"""The sentences of the laws that take no number of their own."""


def describe(law: Law) -> str:
    """The rule a law card states, written from its data."""
    if law["type"] == "per_icon":
        icon = law["icon"]
        what = f"{icon} icon" if icon in (*ICONS, SUPPORT) else ICON_NAMES[icon]
        return f"Each {what} is worth {_signed(law['points'])}."
    if law["type"] == "pair":
        a, b = law["icons"]
        return f"Each pair of {a} and {b} is worth {_signed(law['points'])}."
    if law["type"] == "at_least":
        return f"{_signed(law['points'])} if you have at least {law['count']} {law['icon']}."
    if law["type"] == "at_most":
        # "at most 0" is "no": said as the formula beside it says it ("with no").
        most = f"at most {law['count']}" if law["count"] else "no"
        return f"{_signed(law['points'])} if you have {most} {_plural(law)}."
    if law["type"] == "proposer_weight":
        return f"The proposer's vote counts {law['weight']} times."
    if law["type"] == "hand_size":
        return f"Refill hands to {5 + law['delta']} cards instead of 5."
    if law["type"] == "proposal_max":
        return f"A proposal holds at most {law['count']} cards."
    if law["type"] == "storage":
        return f"Every {law['kind']} card stores {law['delta']} more vote."
    if law["type"] == "collect_bonus":
        return f"Everyone collects {law['amount']} more vote each turn."
    if law["type"] == "trade_votes":
        return f"Discarding a resource when collecting gives {law['amount']} votes."
    if law["type"] == "abstain_counts":
        return f"An abstain vote counts as {law['as'].upper()}."
    if law["type"] == "abstain_takes":
        when = "before" if law["first"] else "after"
        return f"Abstaining voters take cards too, {when} everyone else."
    if law["type"] == "shop":
        cost = " and ".join(f"a {icon} card" for icon in law["cost"])
        return f"Shop: discard {cost} to {_reward_text(law['reward'])}."
    return _RULES[law["type"]]


def _plural(law: AtMost) -> str:
    icon = law["icon"]
    return "abstain votes cast" if icon == "abstain" else icon


def describe_power(power: Power) -> str:
    """What a special resource does when its owner discards it."""
    if power["type"] == "votes_per_icon":
        return f"Discard: draw one vote per {power['icon']} on your base cards and store them."
    if power["type"] == "flip_own":
        return "Discard: turn one of your red cards to its green side."
    if power["type"] == "flip_other":
        return "Discard: turn another player's green resource card to its red side."
    return {
        "draw_votes": f"Discard: draw {power['amount']} votes and store them.",
        "draw_decrees": f"Discard: draw {power['amount']} decree cards into your hand.",
        "bonus_points": f"Discard: gain {power['amount']} points for good.",
    }[power["type"]]


def card_text(card: Card) -> str:
    """The sentence printed on a card ("" for plain resource and support cards)."""
    if card.law is not None:
        return describe(card.law)
    if card.power is not None:
        return describe_power(card.power)
    return ""
