"""JSON checked against its declared type: what a view from another device must pass."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

import pytest

from quandary.engine import BadView
from quandary.engine.typed import needed, problem


class Card(TypedDict):
    id: str
    kind: Literal["good", "but"]


class Hand(TypedDict):
    seat: int
    points: float
    shown: bool
    cards: list[Card]
    picked: Card | None
    counts: dict[str, int]
    note: NotRequired[str]


SOUND: Hand = {
    "seat": 1,
    "points": 2,
    "shown": False,
    "cards": [{"id": "a", "kind": "good"}],
    "picked": None,
    "counts": {"good": 1},
}


def test_a_sound_value_has_no_problem_and_extra_keys_are_left_alone() -> None:
    assert problem(SOUND, Hand, "hand") == ""
    assert problem({**SOUND, "note": "hi", "unknown": object()}, Hand, "hand") == ""


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"seat": True}, "hand.seat must be a whole number"),
        ({"seat": 1.5}, "hand.seat must be a whole number"),
        ({"points": "2"}, "hand.points must be a number"),
        ({"shown": 0}, "hand.shown must be true or false"),
        ({"cards": {"id": "a"}}, "hand.cards must be a list"),
        ({"cards": [{"id": "a", "kind": "x"}]}, "hand.cards[0].kind must be one of 'good', 'but'"),
        ({"cards": [{"id": 3, "kind": "good"}]}, "hand.cards[0].id must be text"),
        (
            {"cards": [{"id": "a", "kind": ["good"]}]},
            "hand.cards[0].kind must be one of 'good', 'but'",
        ),
        ({"counts": {"good": 1, 2: 1}}, "hand.counts must have text keys"),
        ({"cards": [{"kind": "good"}]}, "hand.cards[0] has no id"),
        ({"picked": {"id": "a", "kind": 1}}, "hand.picked.kind must be one of 'good', 'but'"),
        ({"picked": "a"}, "hand.picked must be an object or nothing"),
        ({"counts": {"good": "1"}}, "hand.counts.good must be a whole number"),
        ({"note": None}, "hand.note must be text"),
    ],
)
def test_each_wrong_field_is_named_with_its_path(change: dict[str, object], said: str) -> None:
    assert problem({**SOUND, **change}, Hand, "hand") == said


def test_a_missing_required_key_is_named_and_a_missing_optional_one_is_fine() -> None:
    assert problem({k: v for k, v in SOUND.items() if k != "cards"}, Hand, "hand") == (
        "hand has no cards"
    )
    assert "note" not in SOUND and problem(SOUND, Hand, "hand") == ""


def test_a_literal_true_is_not_the_number_one() -> None:
    assert problem(True, Literal[1], "x") == "x must be one of 1"
    assert problem(1, Literal[1], "x") == ""


def test_a_type_the_checker_does_not_know_is_a_programming_error() -> None:
    with pytest.raises(TypeError):
        problem(3, tuple[int, int], "x")


def test_needed_refuses_an_empty_value_the_rules_never_leave_empty() -> None:
    assert needed(3, "a bound") == 3
    with pytest.raises(BadView, match="The view has no bound on rounds"):
        needed(None, "bound on rounds")
