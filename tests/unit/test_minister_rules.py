"""Maybe Minister's rules as transcripts: rigged tables, moves, and what must follow.

Votes by number: YES 2, 5, 8, 11, ... and NO 1, 4, 7, 10, ... (up to 48; above,
even numbers are YES and odd NO); ABSTAIN 3, 6, 9, ... (Abstain Attacks).
Starting supports used here: S03 and S06 store two votes, S01 one.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

import pytest

from quandary import engine
from quandary.engine import GameError, IllegalMove, OutOfTurn
from quandary.games.minister import board
from quandary.games.minister.state import Enacted, MinisterState, Won
from quandary.table import Seat, Table

GAME = "minister"


def rig(
    players: int = 3,
    options: dict[str, bool] | None = None,
    hands: dict[int, list[str]] | None = None,
    votes: dict[int, list[str]] | None = None,
    won: dict[int, list[Won]] | None = None,
    laws: list[str] | None = None,
    vote_deck: list[str] | None = None,
    deck: list[str] | None = None,
) -> MinisterState:
    """A table at the start of seat 0's turn, with the given cards in place."""
    state = engine.setup(GAME, players, options or {}, 7)
    starters = ("S03", "S06", "S01", "S02", "S04", "S05")[:players]
    votes = votes or {}
    tables = tuple(
        (Won(starters[s], True, tuple(votes.get(s, ["v2", "v1"]))), *(won or {}).get(s, []))
        for s in range(players)
    )
    hand_cards = tuple(tuple((hands or {}).get(s, [])) for s in range(players))
    return replace(
        state,
        starters=starters,
        won=tables,
        hands=hand_cards,
        laws=tuple(Enacted(c, ()) for c in laws or []),
        vote_deck=tuple(vote_deck if vote_deck is not None else ["v50", "v52", "v54", "v56"]),
        vote_discard=(),
        deck=tuple(deck if deck is not None else ["R30", "R29", "R28", "R27", "R26", "R25"]),
        phase="propose",
        proposer=0,
        actor=0,
    )


def apply(state: Any, seat: int, move: dict[str, Any]) -> Any:
    return engine.apply(state, seat, move)


def vote_all(state: Any, ballots: dict[int, str]) -> Any:
    for seat, vote in ballots.items():
        state = apply(state, seat, {"type": "vote", "vote": vote})
    return state


def quiet_step(state: MinisterState) -> MinisterState:
    """The actor's most passive move: collect, pass or done if offered, else the first."""
    seat = state.actor
    legal = engine.legal_moves(state, seat)
    calm = [m for m in legal if m["type"] in ("collect", "pass", "done")]
    return apply(state, seat, calm[0] if calm else legal[0])


def sides(state: MinisterState, seat: int) -> dict[str, bool]:
    return {w.card: w.green for w in state.won[seat]}


HAND = ["L01", "R02", "R05", "R06", "R07"]


# -- propose, vote, pick ---------------------------------------------------------


def test_an_accepted_proposal_enacts_its_laws_and_is_picked_low_to_high() -> None:
    state = rig(hands={0: HAND, 1: ["R10"], 2: ["R11"]}, votes={0: ["v8"], 1: ["v2"], 2: ["v4"]})
    state = apply(state, 0, {"type": "propose", "cards": ["L01", "R02", "R05"]})
    assert state.phase == "vote" and state.hands[0] == ("R06", "R07")
    state = vote_all(state, {0: "v8", 1: "v2", 2: "v4"})
    reveal = engine.view(state, None)["reveal"]
    assert reveal["accepted"] and (reveal["yes"], reveal["no"]) == (2, 1)
    assert reveal["order"] == [1, 2, 0], "accepted: vote numbers low to high"
    assert [law.card for law in state.laws] == ["L01"]
    assert state.phase == "pick" and state.actor == 1
    with pytest.raises(OutOfTurn):
        apply(state, 0, {"type": "take", "card": "R02"})
    state = apply(state, 1, {"type": "take", "card": "R02"})
    # The last card goes to the next picker without a choice to make.
    assert sides(state, 1)["R02"] is True and sides(state, 2)["R05"] is True
    assert board.scores(state)[1] == 3, "three money under 'each money is worth +1'"


def test_a_rejected_proposal_discards_its_laws_and_is_picked_high_to_low() -> None:
    state = rig(hands={0: HAND, 1: ["R10"], 2: ["R11"]}, votes={0: ["v8"], 1: ["v10"], 2: ["v4"]})
    state = apply(state, 0, {"type": "propose", "cards": ["L01", "R02", "R05"]})
    state = vote_all(state, {0: "v8", 1: "v10", 2: "v4"})
    reveal = engine.view(state, None)["reveal"]
    assert not reveal["accepted"] and reveal["order"] == [1, 0, 2], "rejected: high to low"
    assert state.laws == () and "L01" in state.discard
    state = apply(state, 1, {"type": "take", "card": "R05"})
    assert sides(state, 1)["R05"] is False and sides(state, 0)["R02"] is False
    assert board.scores(state) == [0, 0, 0]


def test_picking_cycles_when_there_are_more_cards_than_voters() -> None:
    hand = ["R02", "R05", "R06", "R07", "R09"]
    state = rig(hands={0: hand, 1: ["R10"], 2: ["R11"]}, votes={0: ["v5"], 1: ["v2"], 2: ["v8"]})
    state = apply(state, 0, {"type": "propose", "cards": hand})
    state = vote_all(state, {0: "v5", 1: "v2", 2: "v8"})
    takers = []
    while state.phase == "pick" and state.proposal:
        takers.append(state.actor)
        state = apply(state, state.actor, {"type": "take", "card": state.proposal[0]})
    assert takers == [1, 0, 2, 1]
    assert sorted(len(state.won[s]) for s in range(3)) == [2, 3, 3]


def test_a_tied_vote_passes() -> None:
    state = rig(
        players=4,
        hands={0: HAND, 1: ["R10"], 2: ["R11"], 3: ["R12"]},
        votes={0: ["v2"], 1: ["v5"], 2: ["v1"], 3: ["v4"]},
    )
    state = apply(state, 0, {"type": "propose", "cards": ["L01", "R02", "R05"]})
    state = vote_all(state, {0: "v2", 1: "v5", 2: "v1", 3: "v4"})
    reveal = engine.view(state, None)["reveal"]
    assert (reveal["yes"], reveal["no"], reveal["accepted"]) == (2, 2, True)


def test_strict_majority_law_makes_a_tie_fail() -> None:
    state = rig(
        players=4,
        hands={0: HAND, 1: ["R10"], 2: ["R11"], 3: ["R12"]},
        votes={0: ["v2"], 1: ["v5"], 2: ["v1"], 3: ["v4"]},
        laws=["L25"],
    )
    state = apply(state, 0, {"type": "propose", "cards": ["L01", "R02", "R05"]})
    state = vote_all(state, {0: "v2", 1: "v5", 2: "v1", 3: "v4"})
    assert engine.view(state, None)["reveal"]["accepted"] is False


def test_abstain_votes_do_not_count_and_take_no_card() -> None:
    state = rig(
        options={"abstain": True},
        hands={0: HAND, 1: ["R10"], 2: ["R11"]},
        votes={0: ["v2"], 1: ["v3"], 2: ["v4"]},
    )
    state = apply(state, 0, {"type": "propose", "cards": ["L01", "R02", "R05"]})
    state = vote_all(state, {0: "v2", 1: "v3", 2: "v4"})
    reveal = engine.view(state, None)["reveal"]
    assert (reveal["yes"], reveal["no"], reveal["accepted"]) == (1, 1, True)
    assert reveal["order"] == [0, 2], "the abstainer takes no card"
    assert state.abstains == (0, 1, 0)


def test_abstain_laws_count_abstentions_and_let_abstainers_take() -> None:
    state = rig(
        options={"abstain": True},
        hands={0: HAND, 1: ["R10"], 2: ["R11"]},
        votes={0: ["v2"], 1: ["v3"], 2: ["v4"]},
        laws=["A02", "A04"],
    )
    state = apply(state, 0, {"type": "propose", "cards": ["L01", "R02", "R05"]})
    state = vote_all(state, {0: "v2", 1: "v3", 2: "v4"})
    reveal = engine.view(state, None)["reveal"]
    assert (reveal["yes"], reveal["no"], reveal["accepted"]) == (1, 2, False)
    assert reveal["order"] == [2, 1, 0], "counted as NO, the abstainer is a voter (high to low)"


def test_the_proposers_vote_can_count_twice() -> None:
    state = rig(
        hands={0: HAND, 1: ["R10"], 2: ["R11"]},
        votes={0: ["v2"], 1: ["v1"], 2: ["v4"]},
        laws=["L27"],
    )
    state = apply(state, 0, {"type": "propose", "cards": ["L01", "R02", "R05"]})
    state = vote_all(state, {0: "v2", 1: "v1", 2: "v4"})
    reveal = engine.view(state, None)["reveal"]
    assert (reveal["yes"], reveal["no"], reveal["accepted"]) == (2, 2, True)


def test_reverse_order_law_flips_the_picking_order() -> None:
    state = rig(
        hands={0: HAND, 1: ["R10"], 2: ["R11"]},
        votes={0: ["v8"], 1: ["v2"], 2: ["v5"]},
        laws=["L26"],
    )
    state = apply(state, 0, {"type": "propose", "cards": ["L01", "R02", "R05"]})
    state = vote_all(state, {0: "v8", 1: "v2", 2: "v5"})
    assert engine.view(state, None)["reveal"]["order"] == [0, 2, 1]


# -- collect and storage ----------------------------------------------------------------


def _to_collect(state: MinisterState, ballots: dict[int, str]) -> MinisterState:
    state = apply(state, 0, {"type": "propose", "cards": ["L01", "R02", "R05"]})
    state = vote_all(state, ballots)
    while state.phase == "pick":
        state = apply(state, state.actor, {"type": "take", "card": state.proposal[0]})
    return state


STORER = {
    "hands": {0: HAND, 1: ["R10"], 2: ["R11"]},
    "votes": {0: ["v8", "v11"], 1: ["v2"], 2: ["v4"]},
}


def test_collect_draws_support_and_stores_within_capacity() -> None:
    state = rig(**STORER, won={0: [Won("R04", True, ())]})  # type: ignore[arg-type]
    state = _to_collect(state, {0: "v8", 1: "v2", 2: "v4"})
    # Seat 0 could trade R04 (a resource), but collects: S03 holds 2 (one vote
    # left), R04 holds 2, and it draws 1 for its support.
    assert state.phase == "collect" and state.actor == 0
    state = apply(state, 0, {"type": "collect"})
    assert state.drawn == ("v56",)
    legal = engine.legal_moves(state, 0)
    assert legal == [
        {"type": "store", "vote": "v56", "card": "S03"},
        {"type": "store", "vote": "v56", "card": "R04"},
        # The table's suggestion, one click: the support card, never traded away.
        {"type": "store_all", "votes": ["v56"], "cards": ["S03"]},
    ]
    state = apply(state, 0, legal[1])
    assert board.vote_home(state, 0, "v56") == "R04" and state.actor == 1


def test_storing_beyond_capacity_is_refused_with_a_reason() -> None:
    state = rig(**STORER, won={0: [Won("R04", True, ())]})  # type: ignore[arg-type]
    state = apply(_to_collect(state, {0: "v8", 1: "v2", 2: "v4"}), 0, {"type": "collect"})
    full = replace(
        state,
        won=(
            (Won("S03", True, ("v11", "v14")), *state.won[0][1:]),
            *state.won[1:],
        ),
    )
    frozen = copy.deepcopy(full)
    with pytest.raises(IllegalMove, match="full: it stores at most 2"):
        apply(full, 0, {"type": "store", "vote": full.drawn[0], "card": "S03"})
    assert full == frozen


def test_negative_support_costs_stored_votes_but_never_the_last() -> None:
    red_support = Won("S04", False, ())  # three support icons on its red side
    state = rig(
        hands={0: HAND, 1: ["R10"], 2: ["R11"]},
        votes={0: ["v8"], 1: ["v2", "v5", "v11"], 2: ["v4"]},
        won={1: [red_support]},
    )
    assert board.support(state, 1) == 1 - 3
    state = _to_collect(state, {0: "v8", 1: "v2", 2: "v4"})
    while state.actor != 1:
        seat = state.actor
        state = apply(state, seat, engine.legal_moves(state, seat)[0])
    # Two votes stored, support -2: give up one (the last is kept), draw nothing.
    legal = engine.legal_moves(state, 1)
    assert {m["type"] for m in legal} == {"discard_vote"}
    state = apply(state, 1, {"type": "discard_vote", "vote": "v5"})
    assert board.stored(state, 1) == ["v11"]
    assert state.actor != 1 or not state.drawn


def test_a_player_with_no_votes_and_no_support_still_collects_one() -> None:
    state = rig(
        hands={0: HAND, 1: ["R10"], 2: ["R11"]},
        votes={0: ["v8"], 1: ["v2"], 2: ["v4"]},
        won={1: [Won("S04", False, ())]},
    )
    state = _to_collect(state, {0: "v8", 1: "v2", 2: "v4"})
    while state.phase == "collect":
        seat = state.actor
        legal = engine.legal_moves(state, seat)
        state = apply(
            state, seat, {"type": "collect"} if {"type": "collect"} in legal else legal[0]
        )
    assert len(board.stored(state, 1)) == 1


def test_trading_a_resource_brings_two_votes() -> None:
    state = rig(
        hands={0: HAND, 1: ["R10"], 2: ["R11"]},
        votes={0: ["v8"], 1: ["v2"], 2: ["v4"]},
        won={0: [Won("R04", True, ()), Won("R08", True, ())]},  # both store 2
    )
    state = _to_collect(state, {0: "v8", 1: "v2", 2: "v4"})
    assert state.actor == 0
    legal = engine.legal_moves(state, 0)
    assert {"type": "collect"} in legal
    state = apply(state, 0, {"type": "trade", "card": "R04"})
    assert "R04" in state.discard and state.traded == 1
    assert engine.legal_moves(state, 0) == [
        {"type": "trade", "card": "R08"},
        {"type": "collect"},
    ], "R08 may still be traded, though its votes would find no room"
    state = apply(state, 0, {"type": "collect"})
    assert len(state.drawn) == 3, "1 for support and 2 for the traded resource"


def test_a_resource_may_be_traded_whatever_room_is_left() -> None:
    """ "You may also discard any won resource card for 2 votes each, whatever room you
    have left [...] Storage limits what you draw, not whether you may discard: with
    room for only one more vote, a discard draws one; with no room, it draws none
    but still rids you of the card." (static/rules/maybe-minister.html, 'Collect')"""
    state = rig(
        hands={0: HAND, 1: ["R10"], 2: ["R11"]},
        votes={0: ["v8", "v11"], 1: ["v2"], 2: ["v4"]},
        # R06 stores one vote; R19 and R20 store none.
        won={0: [Won("R06", True, ()), Won("R19", True, ()), Won("R20", True, ())]},
    )
    state = _to_collect(state, {0: "v8", 1: "v2", 2: "v4"})
    # Room for two (one on S03, one on R06); support brings one: room for one more.
    assert state.actor == 0 and sum(board.room(state, 0).values()) == 2
    legal = engine.legal_moves(state, 0)
    assert [m.get("card") for m in legal] == ["R06", "R19", "R20", None]
    state = apply(state, 0, {"type": "trade", "card": "R19"})
    state = apply(state, 0, {"type": "trade", "card": "R20"})
    state = apply(state, 0, {"type": "collect"})
    assert len(state.drawn) == 2, "1 for support and only 1 of the 4 traded: no room for more"
    assert {"R19", "R20"} <= set(state.discard) and "R06" in sides(state, 0)


def test_a_resource_may_be_traded_with_no_room_at_all() -> None:
    """ "With no room, it draws none but still rids you of the card." (as above)"""
    state = rig(
        hands={0: HAND, 1: ["R10"], 2: ["R11"]},
        votes={0: ["v8", "v11", "v14"], 1: ["v2"], 2: ["v4"]},
        won={0: [Won("R19", True, ())]},  # stores no vote
    )
    state = _to_collect(state, {0: "v8", 1: "v2", 2: "v4"})
    assert state.actor == 0 and board.room(state, 0) == {}
    assert engine.legal_moves(state, 0) == [{"type": "trade", "card": "R19"}, {"type": "collect"}]
    state = apply(state, 0, {"type": "trade", "card": "R19"})
    assert "R19" in state.discard and state.actor != 0
    assert board.stored(state, 0) == ["v11", "v14"], "nothing drawn, nothing lost"


def test_only_won_resources_can_be_traded() -> None:
    state = rig(
        hands={0: HAND, 1: ["R10"], 2: ["R11"]},
        votes={0: ["v8"], 1: ["v2"], 2: ["v4"]},
        won={0: [Won("R06", True, ())]},
    )
    state = _to_collect(state, {0: "v8", 1: "v2", 2: "v4"})
    frozen = copy.deepcopy(state)
    for card in ("S03", "R10"):
        with pytest.raises(IllegalMove, match="only trade resource cards you have won"):
            apply(state, 0, {"type": "trade", "card": card})
    assert state == frozen


# -- the end ---------------------------------------------------------------------------


def test_the_game_ends_at_the_end_of_the_turn_someone_reaches_25() -> None:
    rich = [Won(f"R{n:02d}", True, ()) for n in (1, 3, 4, 5, 33)]  # 6 money
    state = rig(
        hands={0: HAND, 1: ["R10"], 2: ["R11"]},
        votes={0: ["v8"], 1: ["v2"], 2: ["v4"]},
        won={1: rich},
        laws=["L07"],
    )
    assert board.scores(state)[1] < 25
    state = _to_collect(state, {0: "v8", 1: "v2", 2: "v4"})
    while engine.result(state) is None:
        state = quiet_step(state)
    result = engine.result(state)
    assert result is not None and result["winners"] == [1]
    assert result["scores"][1] >= 25 and state.turn == 1


def test_a_score_that_touched_25_and_fell_back_does_not_end_the_game() -> None:
    """ "The game ends at the end of a turn in which someone has 25 points or more at
    that moment: a score that reached 25 during the turn and fell back below (a law
    disabled by votes moved onto it) does not end it."
    (static/rules/maybe-minister.html, 'Scoring and the end')"""
    rich = [Won(f"R{n:02d}", True, ()) for n in (1, 3, 4, 5, 33)]  # 6 money
    state = rig(
        options={"undecided": True},
        hands={0: HAND, 1: ["R10"], 2: ["R11"]},
        votes={0: ["v8", "v1", "v4"], 1: ["v2"], 2: ["v10"]},
        won={1: rich},
        laws=["L07"],
    )
    state = _to_collect(state, {0: "v8", 1: "v2", 2: "v10"})
    # L01 enacted and R02 taken: 9 money at +2 and +1 each.
    assert board.scores(state)[1] == 27
    while state.phase == "collect":
        state = quiet_step(state)
    assert state.phase == "move" and state.actor == 0
    # A NO vote onto "each money is worth +2" disables it: seat 1 falls to 9.
    state = apply(state, 0, {"type": "move_law", "vote": "v1", "law": "L07"})
    assert board.scores(state)[1] == 9
    while state.turn == 1:
        state = quiet_step(state)
    assert state.phase == "propose" and engine.result(state) is None
    assert state.proposer == 1


def test_a_save_from_before_the_end_rule_still_loads() -> None:
    """Saves once kept whether anyone had ever reached 25; that field is dropped."""
    seats = [Seat("A", "human"), Seat("B", "bot", "random"), Seat("C", "bot", "random")]
    table = Table.new(GAME, seats, {}, 5)
    saved = table.to_json()
    saved["state"] = saved["state"] | {"reached": False}
    assert Table.from_json(saved).state == table.state


# -- expansions ------------------------------------------------------------------------


def test_undecided_voters_move_votes_onto_laws_and_red_cards() -> None:
    state = rig(
        options={"undecided": True},
        hands={0: HAND, 1: ["R10"], 2: ["R11"]},
        votes={0: ["v8", "v1", "v4", "v7"], 1: ["v2", "v5"], 2: ["v10"]},
        won={0: [Won("R23", True, ())], 1: [Won("R04", False, ())]},
        laws=["L03"],
    )
    state = _to_collect(state, {0: "v8", 1: "v2", 2: "v10"})
    while state.phase == "collect":
        seat = state.actor
        state = apply(state, seat, engine.legal_moves(state, seat)[-1])
    assert state.phase == "move" and state.actor == 0
    legal = engine.legal_moves(state, 0)
    assert {"type": "pass"} in legal
    remove = {"type": "move_card", "votes": ["v1", "v4"], "card": "R04"}
    assert remove in legal
    state = apply(state, 0, remove)
    assert "R04" not in sides(state, 1) and "R04" in state.discard
    assert state.actor == 1
    state = apply(state, 1, {"type": "move_law", "vote": "v5", "law": "L03"})
    assert board.active_laws(state)[0] == "L03", "one YES vote keeps the law"
    no_law = replace(state, laws=(Enacted("L03", ("v7",)),))
    assert board.active_laws(no_law) == [], "more NO than YES: disabled"
    assert engine.view(no_law, None)["laws"][0]["active"] is False


def test_advanced_politics_shop_at_the_start_of_the_turn() -> None:
    state = rig(
        options={"advanced": True},
        hands={0: HAND, 1: ["R10"], 2: ["R11"]},
        votes={0: ["v8", "v11"], 1: ["v2"], 2: ["v4"]},
        won={0: [Won("R06", True, ())]},
        laws=["P02"],
    )
    state = replace(state, phase="shop_start", queue=(0,))
    legal = engine.legal_moves(state, 0)
    buy = {"type": "shop", "law": "P02", "pay": ["R06"], "target": None}
    assert buy in legal and {"type": "done"} in legal
    state = apply(state, 0, buy)
    assert state.bonus[0] == 2 and "R06" in state.discard
    assert board.scores(state)[0] == 2
    assert state.phase == "propose", "nothing left to buy: on to the proposal"


def test_a_special_resource_is_discarded_for_its_power() -> None:
    state = rig(
        options={"advanced": True},
        hands={0: HAND, 1: ["R10"], 2: ["R11"]},
        votes={0: ["v8"], 1: ["v2"], 2: ["v4"]},
        won={0: [Won("X11", True, ())]},
    )
    state = replace(state, phase="shop_start", queue=(0,))
    state = apply(state, 0, {"type": "special", "card": "X11", "target": None})
    assert state.bonus[0] == 3 and "X11" in state.discard


def test_a_wildcard_resource_scores_as_the_best_icon() -> None:
    state = rig(options={"wildcard": True}, won={1: [Won("W02", True, ())]}, laws=["L08"])
    assert board.scores(state)[1] == 2
    lines = engine.view(state, None)["explain"][1]
    assert lines[0]["law"] == "L08" and "wildcards as science" in lines[0]["because"]


def test_a_players_wildcards_are_chosen_together_for_the_best_score() -> None:
    """ "For your score, Quandary tries every way of giving your wildcards icons and
    keeps the one with the highest score, all your wildcards together."
    (static/rules/maybe-minister.html, 'Wildcard')"""
    wild = [Won("W02", True, ()), Won("W05", True, ()), Won("R14", True, ())]
    state = rig(options={"wildcard": True}, won={1: wild}, laws=["L01", "L13"])
    # Money +1 each; +4 with at least 3 science. Both wildcards as science: 4 points
    # (one at a time, each would have gone to money, for 2).
    assert board.scores(state)[1] == 4
    lines = engine.view(state, None)["explain"][1]
    assert [line["law"] for line in lines] == ["L13"]
    assert "wildcards as science, science" in lines[0]["because"]


def test_a_power_that_counts_an_icon_counts_a_wildcard_as_that_icon() -> None:
    """ "A power or a price that counts an icon counts each wildcard as that icon [...]
    a power giving one vote per money counts your wildcards as money."
    (static/rules/maybe-minister.html, 'Wildcard')"""
    state = rig(
        options={"wildcard": True, "advanced": True},
        hands={0: HAND, 1: ["R10"], 2: ["R11"]},
        votes={0: ["v8"], 1: ["v2"], 2: ["v4"]},
        # Treasury Audit: one vote per money. R05 shows one money, W02 a wildcard.
        won={0: [Won("X03", True, ()), Won("R05", True, ()), Won("W02", True, ())]},
    )
    state = replace(state, phase="shop_start", queue=(0,))
    state = apply(state, 0, {"type": "special", "card": "X03", "target": None})
    assert "X03" in state.discard
    assert len(state.drawn) == 2, "the money and the wildcard as money"


# -- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "move", "reason"),
    [
        (0, {"type": "propose", "cards": ["L01", "R02", "R05", "R06"]}, "never leave exactly one"),
        (0, {"type": "propose", "cards": ["L01", "R10"]}, "not all in your hand"),
        (0, {"type": "propose", "cards": ["L01"]}, "must hold 2 or 3 or 5"),
        (1, {"type": "propose", "cards": ["R10"]}, "not your turn"),
        (0, {"type": "vote", "vote": "v2"}, "not to vote"),
    ],
)
def test_bad_proposals_are_refused_and_change_nothing(
    seat: int, move: dict[str, Any], reason: str
) -> None:
    state = rig(hands={0: HAND, 1: ["R10"], 2: ["R11"]})
    frozen = copy.deepcopy(state)
    with pytest.raises(GameError, match=reason) as info:
        apply(state, seat, move)
    assert info.value.message.endswith(".")
    assert state == frozen


def test_a_vote_not_stored_on_the_voters_cards_is_refused() -> None:
    state = rig(hands={0: HAND, 1: ["R10"], 2: ["R11"]}, votes={0: ["v8"], 1: ["v2"], 2: ["v4"]})
    state = apply(state, 0, {"type": "propose", "cards": ["L01", "R02", "R05"]})
    frozen = copy.deepcopy(state)
    with pytest.raises(IllegalMove, match="not stored on your cards"):
        apply(state, 1, {"type": "vote", "vote": "v4"})
    assert state == frozen


def test_a_cast_vote_stays_secret_until_everyone_has_voted() -> None:
    state = rig(hands={0: HAND, 1: ["R10"], 2: ["R11"]}, votes={0: ["v8"], 1: ["v2"], 2: ["v4"]})
    state = apply(state, 0, {"type": "propose", "cards": ["L01", "R02", "R05"]})
    state = apply(state, 0, {"type": "vote", "vote": "v8"})
    for seat in (1, 2, None):
        text = str(engine.view(state, seat))
        assert "v8" not in text
    assert engine.view(state, 0)["my_vote"] == "v8"
    assert engine.view(state, 1)["submitted"] == [True, False, False]


def test_a_pick_out_of_order_is_refused_and_changes_nothing() -> None:
    state = rig(hands={0: HAND, 1: ["R10"], 2: ["R11"]}, votes={0: ["v8"], 1: ["v2"], 2: ["v4"]})
    state = apply(state, 0, {"type": "propose", "cards": ["L01", "R02", "R05"]})
    state = vote_all(state, {0: "v8", 1: "v2", 2: "v4"})
    assert state.actor == 1
    frozen = copy.deepcopy(state)
    for seat in (0, 2):
        with pytest.raises(OutOfTurn, match="not your turn") as info:
            apply(state, seat, {"type": "take", "card": "R02"})
        assert info.value.message.endswith(".")
    with pytest.raises(IllegalMove, match="not in the proposal"):
        apply(state, 1, {"type": "take", "card": "R10"})
    assert state == frozen
