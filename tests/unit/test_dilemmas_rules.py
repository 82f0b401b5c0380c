"""The Game of Dilemmas, as transcripts of the rule text's examples and rulings."""

from __future__ import annotations

import pytest

from quandary import engine
from quandary.engine import IllegalMove, MalformedMove, OutOfTurn
from quandary.games.dilemmas import scoring
from quandary.games.dilemmas.rules import supply_target

Y, N, SY, SN = scoring.YES, scoring.NO, scoring.SUPER_YES, scoring.SUPER_NO


@pytest.mark.parametrize(("dilemmas", "tokens"), [(3, 2), (4, 2), (5, 3), (6, 3)])
def test_tokens_are_half_the_dilemmas_rounded_up(dilemmas: int, tokens: int) -> None:
    # The rule text's own example: 5 dilemmas -> 3 YES and 3 NO tokens each.
    assert scoring.tokens_per_kind(dilemmas) == tokens


def test_the_smallest_difference_wins() -> None:
    assert scoring.round_winners([(4, 1), (3, 2), (5, 0)]) == [1]


def test_a_tie_goes_to_the_most_no_tokens() -> None:
    # Both differ by one; the one with more NO wins.
    assert scoring.round_winners([(3, 2), (2, 3), (5, 0)]) == [1]


def test_a_full_tie_means_every_tied_dilemma_wins() -> None:
    assert scoring.round_winners([(2, 2), (4, 0), (2, 2)]) == [0, 2]


def test_super_tokens_count_three() -> None:
    assert scoring.tally([[SY, N], [Y, SN], [N, Y]], 2) == [(4, 1), (1, 4)]


def test_coop_split_gives_the_odd_point_to_the_supplier() -> None:
    assert scoring.split_points(5, (2, 0)) == {2: 2, 0: 3}
    assert scoring.split_points(4, (1, 3)) == {1: 2, 3: 2}
    assert scoring.split_points(3, (1,)) == {1: 3}


def test_five_dilemmas_allow_three_yes_and_three_no_per_player() -> None:
    for ballot in scoring.ballots(5, False, False, False):
        assert ballot.count(Y) <= 3 and ballot.count(N) <= 3
    assert len(scoring.ballots(5, False, False, False)) == 20  # C(5,2) + C(5,3)


def test_last_round_demands_every_unused_super_token() -> None:
    for ballot in scoring.ballots(4, True, True, True):
        assert ballot.count(SY) == 1 and ballot.count(SN) == 1
    assert all(SN in b for b in scoring.ballots(4, False, True, True))


def _play_round(state, builds, votes):
    for seat, move in enumerate(builds):
        state = engine.apply(state, seat, move)
    assert state.phase == "vote"
    for seat, ballot in enumerate(votes):
        state = engine.apply(state, seat, {"type": "vote", "votes": ballot})
    return state


def _first_builds(state):
    return [engine.legal_moves(state, s)[0] for s in range(state.players)]


def test_a_round_scores_the_yes_tokens_of_the_most_controversial_dilemma() -> None:
    state = engine.setup("dilemmas", 3, {}, seed=5)
    builds = _first_builds(state)
    # Tallies: d0 = 3Y 0N, d1 = 1Y 2N (diff 1), d2 = 2Y 1N (diff 1) -> d1 wins on NO.
    votes = [[Y, N, Y], [Y, N, Y], [Y, Y, N]]
    after = _play_round(state, builds, votes)
    assert after.history[0].tallies == ((3, 0), (1, 2), (2, 1))
    assert after.history[0].winners == (1,)
    assert after.scores == (0, 1, 0)
    assert after.round == 2 and after.phase == "build"
    # The used cards left the hand and were replaced: four of each kind again.
    for seat, hand in enumerate(after.hands):
        assert builds[seat]["positive"] not in hand.positive
        assert len(hand.positive) == len(hand.negative) == 4


def test_a_dilemma_reads_positive_but_negative() -> None:
    state = engine.setup("dilemmas", 3, {}, seed=5)
    for seat, move in enumerate(_first_builds(state)):
        state = engine.apply(state, seat, move)
    view = engine.view(state, 0)
    first = view["dilemmas"][0]
    assert first["positive"]["kind"] == "positive" and first["negative"]["kind"] == "negative"
    assert first["creators"] == [0]


def test_the_game_ends_after_five_rounds_with_a_shared_win_on_a_tie() -> None:
    state = engine.setup("dilemmas", 4, {}, seed=9)
    for _ in range(5):
        # d0 and d1 get 4 YES, d2 and d3 get 4 NO: all differ by 4, so the most NO
        # wins: d2 and d3 tie and share the win, each scoring its 0 YES.
        state = _play_round(state, _first_builds(state), [[Y, Y, N, N]] * 4)
    assert state.phase == "over"
    assert _standing(engine.result(state)) == {"scores": [0, 0, 0, 0], "winners": [0, 1, 2, 3]}
    with pytest.raises(OutOfTurn, match="over"):
        engine.apply(state, 0, {"type": "vote", "votes": [Y, Y, N, N]})


def test_the_last_round_refuses_a_vote_that_keeps_a_super_token() -> None:
    state = engine.setup("dilemmas", 3, {"supervotes": True}, seed=2)
    for _ in range(4):
        state = _play_round(state, _first_builds(state), [[Y, N, N]] * 3)
    for seat, move in enumerate(_first_builds(state)):
        state = engine.apply(state, seat, move)
    with pytest.raises(IllegalMove, match="last round: you must use your SUPER ACCEPT"):
        engine.apply(state, 0, {"type": "vote", "votes": [Y, N, SN]})
    state = engine.apply(state, 0, {"type": "vote", "votes": [SY, N, SN]})
    assert state.pending[0] is not None


def test_a_super_token_is_used_once() -> None:
    state = engine.setup("dilemmas", 3, {"supervotes": True}, seed=2)
    state = _play_round(state, _first_builds(state), [[SY, N, N], [Y, N, N], [Y, N, N]])
    assert state.super_yes == (False, True, True)
    for seat, move in enumerate(_first_builds(state)):
        state = engine.apply(state, seat, move)
    with pytest.raises(IllegalMove, match="no SUPER ACCEPT left"):
        engine.apply(state, 0, {"type": "vote", "votes": [SY, N, N]})


def test_too_many_yes_tokens_are_refused_with_a_reason() -> None:
    state = engine.setup("dilemmas", 3, {}, seed=1)
    for seat, move in enumerate(_first_builds(state)):
        state = engine.apply(state, seat, move)
    with pytest.raises(IllegalMove, match="2 YES and 2 NO"):
        engine.apply(state, 0, {"type": "vote", "votes": [Y, Y, Y]})
    with pytest.raises(IllegalMove, match="each of the 3 dilemmas"):
        engine.apply(state, 0, {"type": "vote", "votes": [Y, N]})


def test_bad_builds_get_readable_errors_and_change_nothing() -> None:
    state = engine.setup("dilemmas", 3, {}, seed=1)
    other = state.hands[1].positive[0]
    mine = state.hands[0]
    with pytest.raises(IllegalMove, match="not in your hand"):
        engine.apply(
            state,
            0,
            {"type": "build", "positive": other, "negative": mine.negative[0], "neutral": None},
        )
    with pytest.raises(IllegalMove, match="one positive card and one negative"):
        engine.apply(
            state,
            0,
            {
                "type": "build",
                "positive": mine.negative[0],
                "negative": mine.negative[1],
                "neutral": None,
            },
        )
    with pytest.raises(MalformedMove):
        engine.apply(state, 0, {"type": "build", "positive": 3})
    with pytest.raises(IllegalMove, match="time to build"):
        engine.apply(state, 0, {"type": "vote", "votes": [Y, N, N]})
    assert state == engine.setup("dilemmas", 3, {}, seed=1)


def test_a_seat_that_has_built_waits() -> None:
    state = engine.setup("dilemmas", 3, {}, seed=1)
    move = engine.legal_moves(state, 0)[0]
    state = engine.apply(state, 0, move)
    assert engine.legal_moves(state, 0) == []
    with pytest.raises(OutOfTurn, match="not your turn"):
        engine.apply(state, 0, move)
    assert engine.view(state, 1)["submitted"] == [True, False, False]
    assert "my_submission" not in engine.view(state, None)


def test_neutral_card_is_added_once_and_never_redrawn() -> None:
    state = engine.setup("dilemmas", 3, {"neutral": True}, seed=4)
    neutral = state.hands[0].neutral
    assert neutral is not None
    builds = _first_builds(state)
    builds[0] = next(m for m in engine.legal_moves(state, 0) if m["neutral"] == neutral)
    state = _play_round(state, builds, [[Y, N, N]] * 3)
    assert state.history[0].dilemmas[0].neutral == neutral
    assert state.hands[0].neutral is None
    assert all(m["neutral"] is None for m in engine.legal_moves(state, 0))


@pytest.mark.parametrize(("round_", "expected"), [(1, [2, 0, 1]), (2, [1, 2, 0])])
def test_coop_neighbours_alternate(round_: int, expected: list[int]) -> None:
    # Odd rounds: complete your right neighbour's card (the previous seat);
    # even rounds: your left neighbour's (the next seat).
    state = engine.setup("dilemmas", 3, {"coop": True}, seed=3)
    from dataclasses import replace

    state = replace(state, round=round_)
    assert [supply_target(state, s) for s in range(3)] == expected


def test_coop_round_builds_shared_dilemmas_and_draws_back_the_used_kinds() -> None:
    state = engine.setup("dilemmas", 3, {"coop": True}, seed=3)
    assert state.phase == "lay"
    lays = [{"type": "lay", "card": state.hands[s].positive[0]} for s in range(3)]
    lays[1] = {"type": "lay", "card": state.hands[1].negative[0]}
    for seat, move in enumerate(lays):
        state = engine.apply(state, seat, move)
    assert state.phase == "supply"
    view = engine.view(state, 0)
    assert [c["id"] for c in view["laid"]] == [m["card"] for m in lays]
    # Seat 0 completes seat 2's positive card with a negative one, and so on.
    for seat in range(3):
        moves = engine.legal_moves(state, seat)
        target_kind = "negative" if seat != 2 else "positive"
        assert {m["card"] in state.hands[seat].__dict__[target_kind] for m in moves} == {True}
        state = engine.apply(state, seat, moves[0])
    assert [d.creators for d in state.dilemmas] == [(0, 1), (1, 2), (2, 0)]
    # Everyone votes so that dilemma 0 alone wins with 1 YES: the supplier (1) gets it.
    state = _play_round_votes(state, [[N, Y, Y], [N, Y, Y], [Y, N, N]])
    assert state.history[0].winners == (0,)
    assert state.scores == (0, 1, 0)
    for hand in state.hands:
        assert len(hand.positive) == len(hand.negative) == 4


def _play_round_votes(state, votes):
    for seat, ballot in enumerate(votes):
        state = engine.apply(state, seat, {"type": "vote", "votes": ballot})
    return state


def test_record_replays_to_the_same_state() -> None:
    state = engine.setup("dilemmas", 5, {"supervotes": True, "neutral": True}, seed=77)
    record = engine.Record(
        "dilemmas",
        5,
        engine.get("dilemmas").spec.normalise_options({"supervotes": True, "neutral": True}),
        77,
    )
    for _ in range(3):
        for seat in range(5):
            move = engine.legal_moves(state, seat)[-1]
            state = engine.apply(state, seat, move)
            record = record.with_move(seat, move)
    assert engine.Record.from_json(record.to_json()).replay() == state


def _standing(result: dict | None) -> dict:
    """The scores and winners of a result (its story and history are tested elsewhere)."""
    assert result is not None
    return {"scores": result["scores"], "winners": result["winners"]}
