"""Maybe Minister: the rulings of RULINGS §3 that the rule text leaves open, as transcripts.

Special resources are used on anyone's turn and in a round of powers before
the 25-point check; a shop price is paid by a minimal set of cards, one card
showing both icons paying a two-icon price alone; an ABSTAIN vote moved onto
a law counts for neither side. Tables are rigged as in test_minister_rules.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from quandary import engine
from quandary.bots import bot_rng
from quandary.engine import GameError, IllegalMove
from quandary.games.minister import board
from quandary.games.minister.bots import HeuristicBot
from quandary.games.minister.state import Enacted, MinisterState, Won
from tests.unit.test_minister_rules import HAND, apply, quiet_step, rig, vote_all

ADVANCED = {"advanced": True}


def _rig_powers(bonus: tuple[int, int, int] = (0, 0, 0)) -> MinisterState:
    """Seat 1 holds Ribbon Cutting (X11), seat 2 its twin (X12): +3 points each, for good."""
    state = rig(
        options=ADVANCED,
        hands={0: HAND, 1: ["R10"], 2: ["R11"]},
        votes={0: ["v8"], 1: ["v2"], 2: ["v4"]},
        won={1: [Won("X11", True, ())], 2: [Won("X12", True, ())]},
    )
    return replace(state, bonus=bonus)


# -- (a) special resources on anyone's turn --------------------------------------------


def test_a_special_resource_is_used_in_someone_elses_vote() -> None:
    """ "A player may discard one for its power at any time, on anyone's turn:
    whenever the game waits for a move of theirs" (RULINGS §3)."""
    state = apply(_rig_powers(), 0, {"type": "propose", "cards": ["L01", "R02", "R05"]})
    assert state.phase == "vote"
    power = {"type": "special", "card": "X11", "target": None}
    assert power in engine.legal_moves(state, 1)
    state = apply(state, 1, power)
    assert state.bonus[1] == 3 and "X11" in state.discard
    assert state.phase == "vote"
    assert {"type": "vote", "vote": "v2"} in engine.legal_moves(state, 1), "seat 1 still votes"
    state = vote_all(state, {0: "v8", 1: "v2", 2: "v4"})
    assert state.phase == "pick"


def test_a_special_resource_is_not_offered_when_the_game_does_not_wait_for_its_holder() -> None:
    state = apply(_rig_powers(), 0, {"type": "propose", "cards": ["L01", "R02", "R05"]})
    state = apply(state, 1, {"type": "vote", "vote": "v2"})
    assert engine.legal_moves(state, 1) == [], "seat 1 has voted: nothing is waited for"
    with pytest.raises(GameError):
        apply(state, 1, {"type": "special", "card": "X11", "target": None})


def _to_powers(state: MinisterState) -> MinisterState:
    state = apply(state, 0, {"type": "propose", "cards": ["L01", "R02", "R05"]})
    state = vote_all(state, {0: "v8", 1: "v2", 2: "v4"})
    while state.phase not in ("powers", "over") and state.turn == 1:
        state = quiet_step(state)
    return state


def test_a_power_used_at_the_end_of_the_turn_counts_before_the_25_point_check() -> None:
    """ "...and at the end of every turn, where, before the 25-point check, every holder
    gets the chance round the table from the proposer" (RULINGS §3)."""
    state = _to_powers(_rig_powers(bonus=(0, 0, 22)))
    assert state.phase == "powers" and state.turn == 1
    assert state.actor == 1, "round the table from the proposer: seat 1 first"
    assert {"type": "done"} in engine.legal_moves(state, 1)
    state = apply(state, 1, {"type": "done"})
    assert state.actor == 2
    state = apply(state, 2, {"type": "special", "card": "X12", "target": None})
    assert state.phase == "powers" and state.actor == 1, "a power used: a full round again"
    state = apply(state, 1, {"type": "done"})
    assert state.phase == "over", "22 + 3 = 25 at the end of the turn: the game ends"
    assert engine.result(state) is not None


def test_the_round_of_powers_goes_on_until_a_full_round_passes_with_none_used() -> None:
    state = _to_powers(_rig_powers())
    state = apply(state, 1, {"type": "special", "card": "X11", "target": None})
    # Seat 1 used a power: a full round starts again from it, so seat 2 is asked
    # and, seat 2 then using one, seat 1 would be asked again (it has none left).
    assert state.phase == "powers" and state.actor == 2
    state = apply(state, 2, {"type": "special", "card": "X12", "target": None})
    assert state.phase == "propose" and state.turn == 2, "nobody holds a power: the turn ends"
    assert state.bonus == (0, 3, 3)


# -- (b) paying a shop law's price --------------------------------------------------------


def _rig_shop(cards: list[str]) -> MinisterState:
    """P09: pay money and science for 5 points. The proposer shops before proposing."""
    state = rig(
        options=ADVANCED,
        hands={0: HAND, 1: ["R10"], 2: ["R11"]},
        votes={0: ["v8", "v11"], 1: ["v2"], 2: ["v4"]},
        won={0: [Won(c, True, ()) for c in cards]},
        laws=["P09"],
    )
    return replace(state, phase="shop_start", queue=(0,))


def _payments(state: MinisterState) -> list[list[str]]:
    return [m["pay"] for m in engine.legal_moves(state, 0) if m["type"] == "shop"]


def test_one_card_showing_both_icons_pays_a_two_icon_price_alone() -> None:
    """ "one card showing both icons of a two-icon price pays it alone" (RULINGS §3).
    Merchant Bank (R03) shows money and science."""
    state = _rig_shop(["R03"])
    assert _payments(state) == [["R03"]]
    state = apply(state, 0, {"type": "shop", "law": "P09", "pay": ["R03"], "target": None})
    assert state.bonus[0] == 5 and "R03" in state.discard


def test_no_card_may_be_added_to_a_payment_that_already_covers_the_price() -> None:
    """ "a card may not be added to a payment whose other cards already cover the price"
    (RULINGS §3). Stock Exchange (R05) shows money, Engineering School (R14) science."""
    state = _rig_shop(["R03", "R05", "R14"])
    assert sorted(_payments(state)) == [["R03"], ["R05", "R14"]]
    spare = {"type": "shop", "law": "P09", "pay": ["R03", "R14"], "target": None}
    with pytest.raises(IllegalMove, match="already pay"):
        apply(state, 0, spare)


# -- (c) an ABSTAIN vote moved onto a law --------------------------------------------------


def _rig_move(laws: list[str]) -> MinisterState:
    state = rig(
        options={"undecided": True, "abstain": True},
        votes={0: ["v3", "v8"], 1: ["v2"], 2: ["v4"]},
        laws=laws,
    )
    return replace(state, phase="move", queue=(0, 1, 2), actor=0)


def test_an_abstain_vote_may_be_moved_onto_a_law_and_counts_for_neither_side() -> None:
    """ "the Law move may put a stored ABSTAIN vote onto an enacted law [...] it counts
    for neither YES nor NO, whatever laws say about counting abstain votes" (RULINGS §3).
    A02 makes abstain votes count as NO in a vote."""
    state = _rig_move(["L03", "A02"])
    move = {"type": "move_law", "vote": "v3", "law": "L03"}
    assert move in engine.legal_moves(state, 0)
    state = apply(state, 0, move)
    assert state.laws[0] == Enacted("L03", ("v3",))
    assert board.active_laws(state) == ["L03", "A02"], "an abstain vote is not a NO"
    law = engine.view(state, None)["laws"][0]
    assert (law["yes"], law["no"], law["active"]) == (0, 0, True)
    assert state.abstains[0] == 0, "moving an abstain vote is not casting it"
    with_no = replace(state, laws=(Enacted("L03", ("v3", "v1")), state.laws[1]))
    assert board.active_laws(with_no) == ["A02"], "one NO against no YES disables it"


def test_a_power_used_while_owing_votes_never_costs_the_last_vote() -> None:
    """Negative support takes stored votes, "but never your last one": a power whose card
    carried a vote away lowers what is still owed. S04 red side: -3 support."""
    state = rig(
        options=ADVANCED,
        hands={0: HAND, 1: ["R10"], 2: ["R11"]},
        votes={0: ["v8", "v11"], 1: ["v2"], 2: ["v4"]},
        won={0: [Won("S04", False, ()), Won("X01", True, ("v14",))]},
    )
    state = apply(state, 0, {"type": "propose", "cards": ["L01", "R02", "R05"]})
    state = vote_all(state, {0: "v8", 1: "v2", 2: "v4"})
    while state.phase == "pick":
        state = apply(state, state.actor, {"type": "take", "card": state.proposal[0]})
    assert state.phase == "collect" and state.actor == 0 and state.owed == 1
    state = apply(state, 0, {"type": "special", "card": "X01", "target": None})
    while state.drawn:
        state = apply(state, 0, engine.legal_moves(state, 0)[0])
    assert state.owed == 0
    assert not [m for m in engine.legal_moves(state, 0) if m["type"] == "discard_vote"]


def test_a_bot_does_not_move_an_abstain_vote_onto_a_law_to_disable_it() -> None:
    """The bots keep up with the ruling: an ABSTAIN vote on a law is not a NO, so a bot
    hurt by Quarry Levy (L18: each minerals icon -1; R24 shows three) does not spend
    its move putting one there as if it could disable the law."""
    state = rig(
        options={"undecided": True, "abstain": True},
        votes={0: ["v3", "v8"], 1: ["v2"], 2: ["v4"]},
        won={0: [Won("R24", True, ())]},
        laws=["L18"],
    )
    state = replace(state, phase="move", queue=(0, 1, 2), actor=0)
    view = engine.view(state, 0)
    abstain = {"type": "move_law", "vote": "v3", "law": "L18"}
    assert abstain in view["legal_moves"]
    for seed in range(5):
        assert HeuristicBot().choose(view, bot_rng(seed, 0, state.version)) != abstain
