"""Maybe Minister's view checked against its declared types (games/minister/view_types.py).

A view from another device is refused, with the path of the wrong field in the
sentence, before a renderer that trusts the types reads it; a sound one passes.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

import quandary.games  # noqa: F401  (fills the game registry)
from quandary import catalog, engine
from quandary.engine import BadView


def _after_a_reveal(seed: int = 3) -> Any:
    """A game of four played on its first legal moves until a vote has been revealed."""
    state = engine.setup("minister", 4, {"undecided": True}, seed)
    for _ in range(200):
        if engine.view(state, None)["reveal"] is not None:
            return state
        seat = engine.view(state, None)["waiting_for"][0]
        state = engine.apply(state, seat, engine.legal_moves(state, seat)[0])
    raise AssertionError("no vote was revealed")


def test_every_seats_view_and_a_spectators_pass() -> None:
    state = _after_a_reveal()
    for seat in (None, 0, 1, 2, 3):
        view = engine.view(state, seat)
        assert catalog.read_view(view) is view


def _doctored(change: Any) -> dict[str, Any]:
    view = copy.deepcopy(engine.view(_after_a_reveal(), 0))
    change(view)
    return view


def _own_vote(view: dict[str, Any]) -> None:
    view["tables"][0][0]["votes"] = [{"id": "v7", "kind": "yes", "number": "7"}]


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (
            lambda v: v["reveal"]["votes"].__setitem__(1, {"kind": "maybe", "number": 3}),
            "the view.reveal.votes[1].kind must be one of 'yes', 'no', 'abstain'",
        ),
        (_own_vote, "the view.tables[0][0].votes[0].number must be a whole number"),
        (
            lambda v: v["effects"].__setitem__("tie_passes", 1),
            "the view.effects.tie_passes must be true or false",
        ),
        (lambda v: v.pop("owed"), "the view has no owed"),
        (
            lambda v: v["legal_moves"].insert(0, {"type": "take", "card": 5}),
            "the view.legal_moves[0].card must be text",
        ),
        (
            lambda v: v["legal_moves"].insert(0, {"type": "steal"}),
            "the view.legal_moves[0].type must be one of 'propose'",
        ),
    ],
)
def test_a_view_with_a_wrong_field_deep_inside_is_refused_naming_it(change: Any, said: str) -> None:
    view = _doctored(change)
    with pytest.raises(BadView, match="This Maybe Minister table cannot be drawn") as refused:
        catalog.read_view(view)
    assert said in str(refused.value)
