"""Every law of Maybe Minister, one effect each, read through the one law engine.

Scoring laws are checked against holdings built for them; the other laws by the
field of ``Effects`` they change (the turn logic reads only those fields, and
``test_minister_rules.py`` shows them at work in whole turns). The material's
published counts are checked here too.
"""

from __future__ import annotations

import doctest
import itertools
import math
from collections import Counter
from dataclasses import fields

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from quandary.games.minister import laws, material, upkeep
from quandary.games.minister.laws import Effects, Holding
from quandary.games.minister.material import (
    CARDS,
    PACKS,
    VOTES,
    Card,
    base_votes,
    decree_cards,
)
from quandary.web.render import minister as minister_render

ALL_LAWS = sorted(c.id for c in CARDS.values() if c.law is not None)


def resource_with(icon: str, green: bool = True) -> str:
    """A base resource card showing exactly one ``icon`` on the given side."""
    for card in PACKS["base"]:
        if card.kind == "resource" and card.icons(green) == (icon,):
            return card.id
    raise LookupError(icon)


ICONS = (
    "money",
    "homes",
    "science",
    "wood",
    "minerals",
    "nature",
    "livestock",
    "support",
    "wildcard",
)


@pytest.fixture(autouse=True)
def single_icon_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """Test-only cards showing one icon on each side, so counts can be set exactly."""
    for icon in ICONS:
        for k in range(6):
            card = Card(
                f"T-{icon}-{k}", "resource", f"Test {icon} {k}", 1, (icon,), (icon,), "test"
            )
            monkeypatch.setitem(CARDS, card.id, card)


def holding_with(counts: dict[str, int], abstains: int = 0) -> Holding:
    """A holding whose net icon counts are exactly ``counts``."""
    cards = tuple((f"T-{icon}-{k}", n > 0) for icon, n in counts.items() for k in range(abs(n)))
    return Holding(cards, abstains, 0)


def gain(law_id: str, holding: Holding) -> int:
    return laws.score([law_id], holding)[0]


def _scoring_case(law: dict) -> tuple[Holding, int]:
    kind = law["type"]
    if kind == "per_icon":
        icon = law["icon"]
        if icon == "abstain":
            return Holding((), 3, 0), 3 * law["points"]
        if icon in ("green", "red"):
            card = resource_with("homes", icon == "green")
            return Holding(((card, icon == "green"),), 0, 0), law["points"]
        return holding_with({icon: 2}), 2 * law["points"]
    if kind == "pair":
        a, b = law["icons"]
        return holding_with({a: 2, b: 1}), law["points"]
    if kind == "at_least":
        return holding_with({law["icon"]: law["count"]}), law["points"]
    if kind == "at_most":
        if law["icon"] == "abstain":
            return Holding((), 0, 0), law["points"]
        return holding_with({}), law["points"]
    raise AssertionError(kind)


_EFFECT = {
    "tie_rejects": ("tie_passes", False),
    "reverse_order": ("reverse_order", True),
    "proposer_weight": ("proposer_weight", 2),
    "proposer_first": ("proposer_first", True),
    "hand_size": ("hand_size", 6),
    "proposal_max": ("proposal_max", 3),
    "collect_bonus": ("collect_bonus", 1),
    "trade_votes": ("trade_votes", 3),
    "abstain_refund": ("abstain_refund", True),
    "abstain_collect": ("abstain_collect", 1),
    "proposer_no_abstain": ("proposer_may_abstain", False),
    "abstain_quorum": ("abstain_quorum", True),
    "abstain_tie_rejects": ("abstain_tie_rejects", True),
}


@pytest.mark.parametrize("law_id", ALL_LAWS)
def test_every_law_has_its_effect(law_id: str) -> None:
    law = CARDS[law_id].law
    assert law is not None
    kind = law["type"]
    text = laws.describe(law)
    assert text.endswith(".") and len(text) > 10
    if laws.is_scoring(law_id):
        holding, expected = _scoring_case(law)
        assert gain(law_id, holding) == expected, text
        assert laws.effects([law_id]) == Effects(), "a scoring law changes no rule"
        return
    fx = laws.effects([law_id])
    if kind in _EFFECT:
        name, value = _EFFECT[kind]
        assert getattr(fx, name) == value, text
    elif kind == "storage":
        assert getattr(fx, f"{law['kind']}_storage") == 1
        card = next(c for c in PACKS["base"] if c.kind == law["kind"])
        assert fx.capacity(card) == card.capacity + 1
    elif kind == "abstain_counts":
        assert fx.abstain_counts_as == law["as"]
    elif kind == "abstain_takes":
        assert fx.abstain_takes == ("first" if law["first"] else "last")
    elif kind == "shop":
        assert fx.shops == (law_id,)
        cost, reward = laws.shop(law_id)
        assert cost and reward["amount"] >= 1
    else:
        raise AssertionError(f"no test for law type {kind}")
    assert gain(law_id, holding_with({"money": 2})) == 0, "a rule law gives no points"


def test_red_sides_subtract_and_penalties_bite() -> None:
    red_money = holding_with({"money": -2})
    assert gain("L01", red_money) == -2  # +1 per money, but two money removed
    assert gain("L20", red_money) == 2  # the wealth tax on negative money pays back
    assert gain("L09", holding_with({"money": -1, "homes": 3})) == 0  # no pairs below zero


def test_a_wildcard_counts_as_the_best_icon() -> None:
    wild = next(c for c in PACKS["wildcard"] if c.green == ("wildcard",))
    holding = Holding(((wild.id, True),), 0, 0)
    assert gain("L08", holding) == 2  # science +2: the wildcard is science
    total, lines = laws.score(["L01", "L08"], holding)
    assert total == 2 and "wildcards as science" in lines[1].because


def test_wildcards_are_given_icons_together_not_one_at_a_time() -> None:
    """ "For your score, Quandary tries every way of giving your wildcards icons and
    keeps the one with the highest score, all your wildcards together: two wildcards
    can become the two science that reach 'at least 3 science', even if each alone
    would do better as money." (static/rules/maybe-minister.html, 'Wildcard')"""
    holding = holding_with({"science": 1, "wildcard": 2})
    # One at a time, each wildcard would be money (+1 beats a second science, which
    # reaches no threshold): 2 points. Together, both are science: 3 science, +4.
    total, lines = laws.score(["L01", "L13"], holding)
    assert total == 4
    assert "wildcards as science, science" in lines[1].because


SCORING_LAWS = [law_id for law_id in ALL_LAWS if laws.is_scoring(law_id)]


def _concrete(base: dict[str, int], add: tuple[str, ...], remove: tuple[str, ...]) -> Holding:
    """``base`` with the wildcards replaced by plain cards showing the given icons."""
    cards = list(holding_with(base).cards)
    used = Counter({icon: abs(n) for icon, n in base.items()})
    for icon, green in [(i, True) for i in add] + [(i, False) for i in remove]:
        cards.append((f"T-{icon}-{used[icon]}", green))
        used[icon] += 1
    return Holding(tuple(cards), 0, 0)


@settings(max_examples=120, deadline=None)
@given(
    law_ids=st.lists(st.sampled_from(SCORING_LAWS), max_size=5, unique=True),
    base=st.dictionaries(st.sampled_from(laws.ICONS), st.integers(-2, 2), max_size=4),
    greens=st.integers(0, 3),
    reds=st.integers(0, 1),
)
@example(law_ids=["L01", "L13"], base={"science": 1}, greens=2, reds=0)
@example(law_ids=["L09", "L15", "L22"], base={"homes": 2}, greens=2, reds=1)
def test_the_wildcard_choice_is_the_best_of_every_assignment(
    law_ids: list[str], base: dict[str, int], greens: int, reds: int
) -> None:
    if greens + reds > 3:
        reds = 0
    wild = holding_with({"wildcard": greens}).cards
    wild += tuple((f"T-wildcard-{5 - k}", False) for k in range(reds))
    holding = Holding(holding_with(base).cards + wild, 0, 0)
    best = max(
        laws.score(law_ids, _concrete(base, add, remove))[0]
        for add in itertools.product(laws.ICONS, repeat=greens)
        for remove in itertools.product(laws.ICONS, repeat=reds)
    )
    assert laws.score(law_ids, holding)[0] == best


def test_every_wildcard_a_player_can_hold_is_searched_jointly() -> None:
    """All 8 wildcard cards under laws reading every icon: within the joint bound,
    and never worse than giving the wildcards their icons one at a time."""
    wild = [c.id for c in PACKS["wildcard"]]
    assert len(wild) == 8
    assert math.comb(len(laws.ICONS) + len(wild) - 1, len(wild)) <= laws.JOINT_LIMIT
    busy = ("L09", "L10", "L11", "L12", "L13", "L14", "L15", "L22", "L24", "L01", "L19")
    holding = Holding(tuple((card, True) for card in wild), 0, 0)
    scoring = laws._scoring(busy)
    c, greens, reds = laws.counts(holding)
    one_by_one = laws._raw(scoring, laws._one_by_one(scoring, c, greens, reds)[0])
    assert laws.score(busy, holding)[0] >= one_by_one


def test_explanations_name_the_law_the_points_and_the_reason() -> None:
    total, lines = laws.score(["L01", "L03", "L18"], holding_with({"money": 2, "minerals": 1}))
    assert total == 2 + 0 - 1
    assert [(line.law, line.points) for line in lines] == [("L01", 2), ("L03", 0), ("L18", -1)]
    assert "2 x +1 for money" in lines[0].because


def test_later_laws_win_when_two_disagree() -> None:
    assert laws.effects(["A01", "A02"]).abstain_counts_as == "no"
    assert laws.effects(["A02", "A01"]).abstain_counts_as == "yes"


def test_the_material_follows_the_published_counts() -> None:
    base = PACKS["base"]
    kinds = Counter(c.kind for c in base)
    assert kinds == {"law": 34, "support": 10, "resource": 38}
    capacity = Counter(c.capacity for c in base)
    assert capacity == {0: 12, 1: 49, 2: 21}
    supports = [c for c in base if c.kind == "support"]
    assert Counter(len(c.green) for c in supports) == {1: 8, 2: 2}
    assert Counter(len(c.red) for c in supports) == {1: 5, 2: 3, 3: 2}
    for c in base:
        if c.kind == "resource":
            assert 1 <= len(c.green) <= 3
            assert max(1, len(c.green) - 2) <= len(c.red) <= len(c.green)
    scoring = [c for c in base if c.kind == "law" and laws.is_scoring(c.id)]
    assert len(scoring) == 24
    assert (
        sum(
            laws.score([c.id], holding_with({"money": 1, "science": 1}))[0] < 0
            or (c.law or {}).get("points", 0) < 0
            for c in scoring
        )
        == 7
    )
    assert len(PACKS["abstain"]) == 12
    assert Counter(c.kind for c in PACKS["advanced"]) == {"law": 14, "special": 12}
    assert len(base_votes()) == 50
    numbers = sorted(v.number for v in VOTES.values())
    assert numbers == list(range(1, 67)) and len(set(numbers)) == 66
    assert Counter(v.kind for v in VOTES.values()) == {"yes": 25, "no": 25, "abstain": 16}
    assert len(decree_cards({"wildcard": True})) == 82
    assert len(decree_cards({"abstain": True, "advanced": True})) == 82 + 12 + 26


def test_every_law_text_is_unique() -> None:
    texts = [laws.describe(CARDS[i].law or {}) for i in ALL_LAWS]
    assert len(texts) == len(set(texts))
    assert {f.name for f in fields(Effects)} >= {"hand_size", "tie_passes"}


@pytest.mark.parametrize("module", [material, laws, upkeep, minister_render])
def test_docstring_examples(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.attempted > 0 and result.failed == 0


def test_a_card_file_with_a_law_of_the_wrong_shape_is_refused_naming_the_field() -> None:
    """The card files are read into their declared types at once: a wrong one fails at
    start, saying which card and which field, not in the middle of a game."""
    good = {"type": "per_icon", "icon": "money", "points": 1}
    assert material._checked(good, material.Law, "L99.law") == good
    with pytest.raises(ValueError, match=r"L99\.law\.icon must be text"):
        material._checked({**good, "icon": 3}, material.Law, "L99.law")
    with pytest.raises(ValueError, match=r"L99\.law\.type must be one of"):
        material._checked({**good, "type": "per_moon"}, material.Law, "L99.law")
    with pytest.raises(ValueError, match=r"P9\.power has no amount"):
        material._checked({"type": "draw_votes"}, material.Power, "P9.power")
