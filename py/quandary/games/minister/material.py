"""Maybe Minister's material as data: decree cards from JSON, vote cards from their rule.

Decree cards live in ``cards/*.json``, one file per pack (the base game and each
expansion that prints cards). A decree card has a green and a red side, each
showing icons, and a vote storage capacity; a Law card carries its law as data
(``law``: a type and its parameters) that ``laws.py`` interprets; a special
resource carries a ``power``. The texts players read are written from that data
by ``laws.describe`` and ``laws.describe_power``, so text and effect never drift.

Vote cards follow the published numbering (static/rules/maybe-minister.html,
'Rulings'): counting up from 1 and skipping multiples of 3 up to 48 gives 50
numbers; YES takes the even positions and NO the odd ones. Abstain Attacks adds
ABSTAIN votes 3, 6, ..., 48.

>>> [VOTES[v].number for v in base_votes()[:6]]
[1, 2, 4, 5, 7, 8]
>>> [VOTES[v].kind for v in base_votes()[:4]]
['no', 'yes', 'no', 'yes']
>>> len(base_votes()), len(abstain_votes())
(50, 16)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TypedDict, cast

from quandary.engine.typed import problem

CardKind = Literal["law", "support", "resource", "special"]
VoteKind = Literal["yes", "no", "abstain"]

BASE_ICONS = ("money", "homes", "science", "wood", "minerals", "nature")
"""Resource icons of the base game; Advanced Politics adds livestock."""
LIVESTOCK = "livestock"
WILDCARD = "wildcard"
SUPPORT = "support"


# -- laws and powers as data ---------------------------------------------------------


class PerIcon(TypedDict):
    """Points for each ``icon`` shown (a colour, "green"/"red", counts sides up)."""

    type: Literal["per_icon"]
    icon: str
    points: int


class Pair(TypedDict):
    """Points for each pair of the two ``icons``."""

    type: Literal["pair"]
    icons: list[str]
    points: int


class AtLeast(TypedDict):
    """Points for showing at least ``count`` of ``icon``."""

    type: Literal["at_least"]
    icon: str
    count: int
    points: int


class AtMost(TypedDict):
    """Points for showing at most ``count`` of ``icon``."""

    type: Literal["at_most"]
    icon: str
    count: int
    points: int


ScoringLaw = PerIcon | Pair | AtLeast | AtMost
"""A law that gives or takes points (``laws.score``)."""
SCORING = frozenset({"per_icon", "pair", "at_least", "at_most"})
"""The types of the scoring laws."""


class RuleLaw(TypedDict):
    """A law that changes a rule of play and takes no number."""

    type: Literal[
        "tie_rejects",
        "reverse_order",
        "proposer_first",
        "abstain_refund",
        "proposer_no_abstain",
        "abstain_quorum",
        "abstain_tie_rejects",
    ]


class ProposerWeight(TypedDict):
    """The proposer's vote counts ``weight`` times."""

    type: Literal["proposer_weight"]
    weight: int


class HandSize(TypedDict):
    """Hands are refilled to ``delta`` more cards."""

    type: Literal["hand_size"]
    delta: int


class ProposalMax(TypedDict):
    """A proposal holds at most ``count`` cards."""

    type: Literal["proposal_max"]
    count: int


class Storage(TypedDict):
    """Every card of ``kind`` stores ``delta`` more votes."""

    type: Literal["storage"]
    kind: Literal["support", "resource"]
    delta: int


class Amount(TypedDict):
    """More votes collected (by everyone, or by whoever abstained), or for a trade."""

    type: Literal["collect_bonus", "trade_votes", "abstain_collect"]
    amount: int


AbstainCounts = TypedDict(
    "AbstainCounts", {"type": Literal["abstain_counts"], "as": Literal["yes", "no"]}
)
"""An abstain vote counts as YES or NO (``as``, a word Python keeps for itself)."""


class AbstainTakes(TypedDict):
    """Abstaining voters take cards too, ``first`` or last."""

    type: Literal["abstain_takes"]
    first: bool


class Reward(TypedDict):
    """What a shop law gives for the cards paid."""

    kind: Literal["votes", "points", "decrees", "flip"]
    amount: int


class Shop(TypedDict):
    """Discard cards showing the ``cost`` icons for the ``reward``."""

    type: Literal["shop"]
    cost: list[str]
    reward: Reward


Law = (
    ScoringLaw
    | RuleLaw
    | ProposerWeight
    | HandSize
    | ProposalMax
    | Storage
    | Amount
    | AbstainCounts
    | AbstainTakes
    | Shop
)
"""A law card's law, told apart by its ``type``; ``laws.py`` reads it."""


class AmountPower(TypedDict):
    """Draw votes or decree cards, or gain points: ``amount`` of them."""

    type: Literal["draw_votes", "draw_decrees", "bonus_points"]
    amount: int


class IconPower(TypedDict):
    """Draw one vote for each ``icon`` on its owner's base cards."""

    type: Literal["votes_per_icon"]
    icon: str


class FlipPower(TypedDict):
    """Turn a card over: one of its owner's red ones, or another player's green one."""

    type: Literal["flip_own", "flip_other"]


Power = AmountPower | IconPower | FlipPower
"""A special resource's power, told apart by its ``type``."""


def power_amount(power: Power, default: int) -> int:
    """How many votes, cards or points ``power`` gives (``default`` for one that names
    no number: a flip, or votes counted by icon)."""
    if power["type"] == "draw_votes" or power["type"] == "draw_decrees":
        return power["amount"]
    return power["amount"] if power["type"] == "bonus_points" else default


def _checked(value: object, tp: object, where: str) -> object:
    """``value`` if it is a ``tp``: the card files are the game's own, and a wrong one
    fails at once, naming the field, rather than in the middle of a game."""
    wrong = problem(value, tp, where)
    if wrong:
        raise ValueError(f"Maybe Minister's card data: {wrong}.")
    return value


@dataclass(frozen=True)
class Card:
    """One decree card. ``law`` and ``power`` are data read by ``laws.py``."""

    id: str
    kind: CardKind
    name: str
    capacity: int
    green: tuple[str, ...]
    red: tuple[str, ...]
    pack: str
    law: Law | None = None
    power: Power | None = None
    replaces: str | None = None

    def icons(self, green: bool) -> tuple[str, ...]:
        """The icons of the side that is up."""
        return self.green if green else self.red


@dataclass(frozen=True)
class Vote:
    """One vote card: its number is unique in the whole game."""

    id: str
    kind: VoteKind
    number: int


def _load(folder: Path) -> dict[str, tuple[Card, ...]]:
    packs: dict[str, tuple[Card, ...]] = {}
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        packs[data["id"]] = tuple(
            Card(
                id=c["id"],
                kind=c["kind"],
                name=c["name"],
                capacity=int(c["capacity"]),
                green=tuple(c.get("green", ())),
                red=tuple(c.get("red", ())),
                pack=data["id"],
                law=cast("Law | None", _checked(c.get("law"), Law | None, f"{c['id']}.law")),
                power=cast(
                    "Power | None", _checked(c.get("power"), Power | None, f"{c['id']}.power")
                ),
                replaces=c.get("replaces"),
            )
            for c in data["cards"]
        )
    ids = [c.id for cards in packs.values() for c in cards]
    if len(ids) != len(set(ids)):
        raise ValueError("decree card ids must be unique across packs")
    return packs


PACKS = _load(Path(__file__).with_name("cards"))
CARDS: dict[str, Card] = {c.id: c for cards in PACKS.values() for c in cards}


def _vote_cards() -> dict[str, Vote]:
    numbers = [n for n in range(1, 49) if n % 3] + list(range(49, 67))
    votes = [
        Vote(f"v{n}", "yes" if position % 2 == 0 else "no", n)
        for position, n in enumerate(numbers, start=1)
    ]
    votes += [Vote(f"v{n}", "abstain", n) for n in range(3, 49, 3)]
    return {v.id: v for v in votes}


VOTES = _vote_cards()


def base_votes() -> list[str]:
    """The 50 YES and NO votes, by number."""
    return [v.id for v in sorted(VOTES.values(), key=lambda v: v.number) if v.kind != "abstain"]


def abstain_votes() -> list[str]:
    """The 16 ABSTAIN votes of Abstain Attacks, by number."""
    return [v.id for v in sorted(VOTES.values(), key=lambda v: v.number) if v.kind == "abstain"]


def decree_cards(options: Mapping[str, object]) -> list[str]:
    """Every decree card in a game with these expansions, in catalogue order.

    Wildcard swaps some base resources for versions showing the wildcard icon;
    Abstain Attacks adds its laws; Advanced Politics its shop laws and special
    resources. Undecided Voters needs no material.
    """
    cards = list(PACKS["base"])
    if options.get("wildcard"):
        swaps = {c.replaces: c for c in PACKS["wildcard"]}
        cards = [swaps.get(c.id, c) for c in cards]
    if options.get("abstain"):
        cards += PACKS["abstain"]
    if options.get("advanced"):
        cards += PACKS["advanced"]
    return [c.id for c in cards]


def starting_supports() -> list[str]:
    """Support cards that can start a player's table: one support icon on the green side."""
    return [
        c.id
        for c in PACKS["base"]
        if c.kind == "support" and c.green == (SUPPORT,) and c.capacity >= 1
    ]


def vote_cards(options: Mapping[str, object]) -> list[str]:
    """The vote deck of a game with these expansions."""
    return base_votes() + (abstain_votes() if options.get("abstain") else [])
