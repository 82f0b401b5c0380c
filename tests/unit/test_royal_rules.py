"""Royal Dilemma as transcripts: each rule of static/rules/royal-dilemma.html, played out.

Seats: 0 the Ace of Spades, 1 the Jack of Clubs, 2 the Queen of Hearts, 3 the
King of Diamonds. A target card is a face in the player's own suit: the Ace
plays "JS" to target the Jack, "AS" to build.
"""

from __future__ import annotations

import doctest
import importlib
import json
from dataclasses import replace

import pytest

from quandary import engine
from quandary.engine import IllegalMove, MalformedMove, OutOfTurn
from quandary.games.royal.cards import strength, target_cards, value_deck
from quandary.games.royal.resolution import draw_need, scores
from quandary.games.royal.state import RoyalState

ACE, JACK, QUEEN, KING = range(4)


def table(
    realms: list[list[str]], hands: list[list[str]], deck: list[str] | None = None
) -> RoyalState:
    """A round-1 table laid out by hand: realms, hands and (by default) every other card."""
    players = len(realms)
    state = engine.setup("royal", players, {}, seed=1)
    used = {c for zone in realms + hands for c in zone}
    rest = [c for c in value_deck() if c not in used] if deck is None else deck
    return replace(
        state,
        realms=tuple(tuple(r) for r in realms),
        hands=tuple(tuple(h) for h in hands),
        deck=tuple(rest),
        log=(),
    )


def choose(target: str, value: str) -> dict[str, str]:
    return {"type": "choose", "target": target, "value": value}


PASS = {"type": "pass"}


def play(state: RoyalState, *moves: dict[str, str]) -> RoyalState:
    """Every seat's choice for the round, in seat order."""
    for seat, move in enumerate(moves):
        state = engine.apply(state, seat, move)
    return state


def last_round(state: RoyalState):
    return state.history[-1]


# -- setup and drawing ---------------------------------------------------------------


def test_setup_deals_one_card_into_play_each_and_the_first_draw() -> None:
    state = engine.setup("royal", 3, {}, seed=4)
    assert [len(r) for r in state.realms] == [1, 1, 1]
    # Three cards in play: each draws 3, plus one per card in play of its own suit.
    need = draw_need(state.realms, 3)
    assert [len(h) for h in state.hands] == list(need)
    assert all(n >= 3 for n in need)
    assert len(state.deck) == 36 - 3 - sum(need)
    assert state.round == 1 and state.stage == "choose"
    assert target_cards(ACE, 3) == ("AS", "JS", "QS")


def test_the_draw_counts_cards_of_your_suit_whoever_controls_them() -> None:
    realms = (("5S", "7S"), ("9H",))
    # Three cards in play; two Spades (the Ace's suit), no Clubs.
    assert draw_need(realms, 2) == (5, 3)


# -- building ----------------------------------------------------------------------


def test_a_builder_puts_its_value_card_into_play() -> None:
    state = table([["4D"], ["6H"]], [["7S", "2C"], ["8H", "3D"]])
    after = play(state, choose("AS", "7S"), choose("JC", "3D"))
    assert after.realms == (("4D", "7S"), ("6H", "3D"))
    steps = last_round(after).steps
    assert [(s.kind, s.seat, s.card) for s in steps] == [("build", 0, "7S"), ("build", 1, "3D")]
    # Next round: four cards in play (one Spade, no Club) -> the Ace draws 5, the Jack 4.
    assert after.round == 2 and after.draws == (5, 4)
    assert scores(after.realms) == (4 + 14, 6 + 3)


def test_a_card_built_this_round_can_be_captured_the_same_round() -> None:
    state = table([["4D"], ["6H"]], [["9S", "2C"], ["10C", "3D"]])
    after = play(state, choose("AS", "9S"), choose("AC", "10C"))
    # The Jack's 10♣ is doubled (Clubs is the Jack's suit) to 20: both cards are in reach.
    assert after.stage == "capture"
    assert engine.legal_moves(after, JACK) == [
        {"type": "capture", "card": "9S"},
        {"type": "capture", "card": "4D"},
        {"type": "decline"},
    ]
    after = engine.apply(after, JACK, {"type": "capture", "card": "9S"})
    assert after.realms == (("4D",), ("6H", "9S"))
    assert "10C" in after.hands[JACK], "the invader's value card comes back to hand"


# -- invasions -----------------------------------------------------------------------


def test_an_invasion_captures_a_card_up_to_its_strength() -> None:
    state = table([["4D"], ["6H", "9C", "10D"]], [["9H", "2C"], ["8H", "3D"]])
    after = play(state, choose("JS", "9H"), PASS)
    # 9♥ is neither Spades nor Clubs: strength 9. The 10♦ is out of reach.
    assert after.stage == "capture" and after.capture is not None
    assert after.capture.step.strength == 9 and not after.capture.step.doubled
    assert set(after.capture.options) == {"6H", "9C"}
    assert engine.legal_moves(after, ACE)[-1] == {"type": "decline"}
    assert engine.legal_moves(after, JACK) == [], "only the capturer acts"
    after = engine.apply(after, ACE, {"type": "capture", "card": "9C"})
    assert after.realms == (("4D", "9C"), ("6H", "10D"))
    assert "9H" in after.hands[ACE]
    step = last_round(after).steps[0]
    assert (step.kind, step.captured, step.could_capture) == ("invasion", "9C", ("9C", "6H"))


def test_an_invader_may_capture_nothing() -> None:
    state = table([["4D"], ["6H"]], [["9H", "2C"], ["8H", "3D"]])
    after = play(state, choose("JS", "9H"), PASS)
    after = engine.apply(after, ACE, {"type": "decline"})
    assert after.realms == (("4D",), ("6H",))
    assert last_round(after).steps[0].captured is None


def test_an_invasion_with_nothing_in_reach_resolves_at_once() -> None:
    state = table([["4D"], ["10H"]], [["3H", "2C"], ["8H", "3D"]])
    after = play(state, choose("JS", "3H"), PASS)
    assert after.stage == "choose" and after.round == 2
    step = last_round(after).steps[0]
    assert step.could_capture == () and step.captured is None


def test_invading_an_empty_realm_takes_value_cards_from_its_hand_at_random() -> None:
    hand = ["2C", "5C", "7H", "8D", "10S"]
    state = table([["4D"], [], ["6H"]], [["3D"], hand, ["2H"]])
    after = play(state, choose("JS", "3D"), PASS, PASS)
    step = last_round(after).steps[0]
    assert len(step.surrendered) == 3 and set(step.surrendered) <= set(hand)
    # The Jack drew for round 2 after surrendering: its old hand lost exactly those three.
    assert set(step.surrendered) <= set(after.hands[ACE])
    assert not set(step.surrendered) & set(after.hands[JACK])
    assert "3D" in after.hands[ACE]
    # Only the two seats involved learn which cards changed hands; events say how many.
    for seat, sees in ((ACE, True), (JACK, True), (QUEEN, False), (None, False)):
        text = json.dumps(engine.view(after, seat)["history"])
        assert all((f'"{c}"' in text) == sees for c in step.surrendered), seat
    log = json.dumps([e.data for e in after.log])
    assert not any(f'"{c}"' in log for c in step.surrendered)
    assert '"surrendered_count": 3' in log


def test_a_short_hand_surrenders_what_it_has_but_never_a_target_card() -> None:
    state = table([["4D"], []], [["8S"], ["2C"]])
    after = play(state, choose("JS", "8S"), PASS)
    step = last_round(after).steps[0]
    assert step.strength == 16 and step.surrendered == ("2C",)
    assert all(c in after.hands[ACE] for c in ("2C", "8S"))


def test_two_invaders_on_one_target_resolve_strongest_first() -> None:
    state = table([["2S"], ["3C", "5H"], ["2H"]], [["6D"], ["9D"], ["4H"]])
    # Ace: 6♦ = 6. Queen: 4♥ doubled (Hearts) = 8, so the Queen invades first.
    after = play(state, choose("JS", "6D"), PASS, choose("JH", "4H"))
    assert after.capture is not None and after.capture.step.seat == QUEEN
    assert set(after.capture.options) == {"3C", "5H"}
    after = engine.apply(after, QUEEN, {"type": "capture", "card": "5H"})
    assert after.capture is not None and after.capture.step.seat == ACE
    assert after.capture.options == ("3C",)
    after = engine.apply(after, ACE, {"type": "capture", "card": "3C"})
    assert after.realms == (("2S", "3C"), (), ("2H", "5H"))
    assert [s.seat for s in last_round(after).steps] == [QUEEN, ACE]


def test_invaders_of_equal_strength_go_in_seat_order_from_the_ace() -> None:
    state = table([["2S"], ["3C"], ["2H"]], [["8D"], ["9D"], ["4H"]])
    after = play(state, choose("JS", "8D"), PASS, choose("JH", "4H"))
    assert after.capture is not None and after.capture.step.seat == ACE
    after = engine.apply(after, ACE, {"type": "capture", "card": "3C"})
    # The Jack's realm is now empty: the Queen takes eight cards from its hand (it has one).
    step = last_round(after).steps[-1]
    assert step.seat == QUEEN and step.surrendered == ("9D",)


# -- battles ---------------------------------------------------------------------------


def test_a_battle_won_lets_the_winner_invade_and_costs_the_loser_its_card() -> None:
    state = table([["4D"], ["6H", "7D"]], [["8S", "2C"], ["10H", "3D"]])
    after = play(state, choose("JS", "8S"), choose("AC", "10H"))
    # 8♠ doubled (the Ace's suit) = 16 beats 10♥ = 10; the Ace invades with 16.
    assert after.stage == "capture" and after.capture is not None
    assert after.capture.step.after_battle and after.capture.step.strength == 16
    after = engine.apply(after, ACE, {"type": "capture", "card": "7D"})
    battle, invasion = last_round(after).steps
    assert (battle.kind, battle.winner, battle.strength, battle.rival_strength) == (
        "battle",
        ACE,
        16,
        10,
    )
    assert battle.doubled and not battle.rival_doubled
    assert invasion.captured == "7D"
    assert after.discard == ("10H",)
    assert "8S" in after.hands[ACE] and "10H" not in after.hands[JACK]


def test_a_battle_lost_discards_the_losers_card_and_the_winner_invades() -> None:
    state = table([["4D"], ["6H"]], [["3H", "2C"], ["5C", "3D"]])
    after = play(state, choose("JS", "3H"), choose("AC", "5C"))
    # 3♥ = 3 loses to 5♣ doubled (the Jack's suit) = 10: the Jack invades the Ace.
    assert after.capture is not None and after.capture.step.seat == JACK
    after = engine.apply(after, JACK, {"type": "capture", "card": "4D"})
    assert after.realms == ((), ("6H", "4D"))
    assert after.discard == ("3H",)
    assert last_round(after).steps[0].winner == JACK


def test_a_tied_battle_discards_both_value_cards() -> None:
    state = table([["4D"], ["6H"]], [["5S", "2C"], ["10D", "3D"]])
    after = play(state, choose("JS", "5S"), choose("AC", "10D"))
    battle = last_round(after).steps[0]
    assert (battle.strength, battle.rival_strength, battle.winner) == (10, 10, None)
    assert len(last_round(after).steps) == 1
    assert set(after.discard) == {"5S", "10D"}
    assert after.realms == (("4D",), ("6H",))


def test_a_third_player_may_invade_a_seat_that_is_battling() -> None:
    state = table([["4D"], ["6H"], ["2H"]], [["5S"], ["10D"], ["9H"]])
    after = play(state, choose("JS", "5S"), choose("AC", "10D"), choose("AH", "9H"))
    # The battle (tied, 10 v 10) comes before the Queen's invasion of the Ace (9♥ doubled).
    assert after.capture is not None and after.capture.step.seat == QUEEN
    kinds = [s.kind for s in after.steps]
    assert kinds == ["battle"]


# -- doubling --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "seat", "other", "expected"),
    [
        ("7H", ACE, QUEEN, (14, True)),  # the target's suit
        ("7S", ACE, QUEEN, (14, True)),  # the invader's own suit
        ("7D", ACE, QUEEN, (7, False)),  # a bystander's suit
        ("10C", JACK, KING, (20, True)),
        ("2D", QUEEN, JACK, (2, False)),
    ],
)
def test_a_value_card_doubles_in_the_suit_of_either_player(card, seat, other, expected) -> None:
    assert strength(card, seat, other) == expected


# -- the end and scoring ---------------------------------------------------------------


def test_the_game_ends_when_the_deck_cannot_cover_a_draw() -> None:
    # After this round 2 cards are in play, each draws 2 (+ own suit): 4 or more needed.
    state = table([["4D"], ["6H"]], [["8H"], ["3D"]], deck=["2S", "3S", "4S"])
    after = play(state, PASS, PASS)
    assert after.stage == "over"
    assert after.hands == (("8H",), ("3D",)), "nobody draws when the deck cannot cover everyone"
    assert _standing(engine.result(after)) == {"scores": [4, 6], "winners": [1]}
    assert after.log[-1].kind == "game_over" and after.log[-1].data["reason"] == "deck"
    with pytest.raises(OutOfTurn):
        engine.apply(after, ACE, PASS)


def test_scores_double_cards_of_your_own_suit_and_ties_share() -> None:
    realms = (("10S", "3H"), ("5C", "2D", "9H"), ("8H",), ("2S", "2D", "3C", "4D"))
    assert scores(realms) == (23, 21, 16, 2 + 4 + 3 + 8)
    state = table([["10C", "5S"], ["10S", "5C"]], [[], []], deck=[])
    over = play(state, PASS, PASS)
    assert _standing(engine.result(over)) == {"scores": [20, 20], "winners": [0, 1]}


# -- bad input -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        (choose("KS", "7S"), "You do not hold the target card King of Spades."),
        (choose("JC", "7S"), "You do not hold the target card Jack of Clubs."),
        (choose("JS", "9S"), "You do not hold the Nine of Spades."),
        (choose("JS", "QS"), "Queen of Spades is not a value card"),
        ({"type": "capture", "card": "7S"}, "Nobody is invading yet"),
    ],
)
def test_bad_choices_are_refused_with_a_reason_and_change_nothing(move, reason) -> None:
    state = table([["4D"], ["6H"]], [["7S", "2C"], ["8H", "3D"]])
    with pytest.raises(IllegalMove) as info:
        engine.apply(state, ACE, move)
    assert reason in info.value.message and info.value.message.endswith(".")
    assert engine.apply(state, ACE, choose("JS", "7S")).pending[ACE] is not None
    assert state.pending == (None, None)


@pytest.mark.parametrize(
    ("card", "reason"),
    [
        ("10D", "The Ten of Diamonds is worth 10, more than your strength of 9."),
        ("4D", "The Jack of Clubs does not control the Four of Diamonds"),
        ("5S", "The Jack of Clubs does not control the Five of Spades"),
    ],
)
def test_bad_captures_are_refused_with_a_reason_and_change_nothing(card, reason) -> None:
    state = table([["4D"], ["6H", "10D"]], [["9H", "2C"], ["8H", "3D"]])
    waiting = play(state, choose("JS", "9H"), PASS)
    with pytest.raises(IllegalMove) as info:
        engine.apply(waiting, ACE, {"type": "capture", "card": card})
    assert reason in info.value.message
    assert waiting.capture is not None and waiting.realms == (("4D",), ("6H", "10D"))
    with pytest.raises(OutOfTurn):
        engine.apply(waiting, JACK, {"type": "decline"})


def test_malformed_moves_are_refused() -> None:
    state = table([["4D"], ["6H"]], [["7S"], ["8H"]])
    for move in ({"type": "invade"}, {"type": "choose", "target": "JS"}, {"type": "pass", "x": 1}):
        with pytest.raises(MalformedMove):
            engine.apply(state, ACE, move)


# -- secrecy -------------------------------------------------------------------------


def test_a_pending_choice_stays_secret_until_everyone_has_chosen() -> None:
    state = table([["4D"], ["6H"]], [["7S", "2C"], ["8H", "3D"]])
    before = engine.view(state, JACK)
    after = engine.apply(state, ACE, choose("JS", "7S"))
    seen = engine.view(after, JACK)
    assert seen["submitted"] == [True, False]
    assert "7S" not in json.dumps(seen)
    changed = {k for k in seen if seen[k] != before[k]}
    assert changed <= {"version", "waiting_for", "log", "submitted"}
    assert engine.view(after, ACE)["my_choice"] == choose("JS", "7S")


@pytest.mark.parametrize(
    "name",
    [
        "quandary.games.royal.cards",
        "quandary.games.royal.resolution",
        "quandary.web.render.playing_cards",
    ],
)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0


def _standing(result: dict | None) -> dict:
    """The scores and winners of a result (its story and history are tested elsewhere)."""
    assert result is not None
    return {"scores": result["scores"], "winners": result["winners"]}
