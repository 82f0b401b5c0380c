"""Sentences about players, as the player they are about reads them and as everyone else does.

The events are real: seeded playouts of each game through the engine
(``game_logs.py``). Each test picks an event of one kind and checks the exact
line for the acting seat, for another seat and for a spectator. The sweep at
the end renders every event of every game for every reader and looks for the
mistakes "you" used to make ("You's 3", "You keeps", "a 8").
"""

from __future__ import annotations

import html as html_lib
import importlib
import re
from collections.abc import Callable
from typing import Any, get_args, get_type_hints

import pytest

from quandary import catalog, engine
from quandary.engine import typed
from quandary.games.royal.cards import seat_title
from quandary.games.royal.cards import short_name as short
from quandary.web.phrases import Cast
from quandary.web.render import game_ui
from quandary.web.render.minister_parts import name as card_name
from quandary.web.render.table import TO_LOBBY, Ui, final_screen

from .game_logs import events

NAMES = ["Robin", "Bot Ada", "Bot Bo", "Bot Cy", "Bot Di", "Bot Ed"]


def first(game: str, kind: str, where: Callable[[dict[str, Any]], bool] = lambda d: True):
    """The first event of ``kind`` whose data passes ``where``, and its player count."""
    found = next(((p, e) for p, e in events(game) if e["kind"] == kind and where(e["data"])), None)
    assert found is not None, f"no {kind} event in the {game} playouts: try other seeds"
    return found


def line(game: str, event: dict[str, Any], players: int, viewer: int | None) -> str:
    text = game_ui(game).describe(event, Cast(NAMES[:players], viewer))
    assert text is not None
    return text


def other(players: int, *seats: int) -> int:
    """A seat that is none of ``seats``."""
    return next(s for s in range(players) if s not in seats)


# -- Dilemma (Alex Randolph) -----------------------------------------------------------


def test_randolph_a_challenge() -> None:
    players, event = first("randolph", "challenge_placed", lambda d: d["card"] == 8)
    seat = event["data"]["seat"]
    assert line("randolph", event, players, seat) == "You challenge with an 8."
    reader = other(players, seat)
    assert line("randolph", event, players, reader) == f"{NAMES[seat]} challenges with an 8."
    players, event = first("randolph", "challenge_placed", lambda d: d["card"] == 7)
    assert line("randolph", event, players, None).endswith(" challenges with a 7.")


def test_randolph_a_card_lands() -> None:
    players, event = first("randolph", "card_landed", lambda d: d["landing"] == "outside")
    seat, card = event["data"]["seat"], event["data"]["card"]
    rest = "landed outside the arena."
    assert line("randolph", event, players, seat) == f"Your {card} {rest}"
    assert (
        line("randolph", event, players, other(players, seat)) == f"{NAMES[seat]}'s {card} {rest}"
    )


def test_randolph_a_challenge_nobody_takes_up() -> None:
    players, event = first("randolph", "round_over", lambda d: d["outcome"] == "kept")
    d = event["data"]
    seat, card = d["provocateur"], d["challenge"]
    a = "an" if card == 8 else "a"
    why = "none of the thrown cards was valid"
    assert line("randolph", event, players, seat) == (
        f"You challenged with {a} {card}; {why}, so you keep it as winnings."
    )
    name = NAMES[seat]
    assert line("randolph", event, players, other(players, seat)) == (
        f"{name} challenged with {a} {card}; {why}, so {name} keeps it as winnings."
    )


def test_randolph_conflict_against_peace() -> None:
    players, event = first("randolph", "round_over", lambda d: d["outcome"] == "conflict_won")
    d = event["data"]
    winner = d["winner"]
    loser = next(s for s in d["duel"]["seats"] if s != winner)
    cards = {d["provocateur"]: d["duel"]["challenge"]}
    cards[next(s for s in d["duel"]["seats"] if s != d["provocateur"])] = d["duel"]["card"]
    won, kept = cards[loser], cards[winner]
    w, lost_by = NAMES[winner], NAMES[loser]
    assert line("randolph", event, players, loser) == (
        f"{w} chose conflict and you peace: {w} wins your {won}, keeps their {kept}"
        " and loses a life."
    )
    assert line("randolph", event, players, winner) == (
        f"You chose conflict and {lost_by} peace: you win {lost_by}'s {won}, keep your {kept}"
        " and lose a life."
    )
    assert line("randolph", event, players, other(players, winner, loser)) == (
        f"{w} chose conflict and {lost_by} peace: {w} wins {lost_by}'s {won}, keeps their {kept}"
        " and loses a life."
    )


@pytest.mark.parametrize(
    ("outcome", "choice", "then"),
    [
        ("peace", "peace", "each takes the other's card ({})."),
        ("both_conflict", "conflict", "{} leave the game; both lose a life."),
    ],
)
def test_randolph_both_choose_alike(outcome: str, choice: str, then: str) -> None:
    players, event = first("randolph", "round_over", lambda d: d["outcome"] == outcome)
    d = event["data"]
    first_seat, second = d["duel"]["seats"]
    one, two = d["duel"]["challenge"], d["duel"]["card"]
    name_1, name_2 = NAMES[first_seat], NAMES[second]
    assert line("randolph", event, players, first_seat) == (
        f"You and {name_2} both chose {choice}: " + then.format(f"your {one} and {name_2}'s {two}")
    )
    assert line("randolph", event, players, second) == (
        f"{name_1} and you both chose {choice}: " + then.format(f"{name_1}'s {one} and your {two}")
    )


@pytest.mark.parametrize("game", ["dilemmas", "randolph", "minister"])
def test_the_game_is_over(game: str) -> None:
    players, event = first(game, "game_over", lambda d: len(d["winners"]) == 1)
    [winner] = event["data"]["winners"]
    assert line(game, event, players, winner) == "The game is over: you won."
    reader = other(players, winner)
    assert line(game, event, players, reader) == f"The game is over: {NAMES[winner]} won."


# -- The Game of Dilemmas ----------------------------------------------------------------


def test_dilemmas_one_winner() -> None:
    players, event = first(
        "dilemmas",
        "votes_revealed",
        lambda d: len(d["winners"]) == 1 and len(d["dilemmas"][d["winners"][0]]["creators"]) == 1,
    )
    d = event["data"]
    [creator] = d["dilemmas"][d["winners"][0]]["creators"]
    yours = line("dilemmas", event, players, creator)
    assert yours.startswith(f"Round {d['round']}: Your dilemma ")
    assert "Points for its YES tokens: " in yours or "It has no YES tokens" in yours
    reader = other(players, creator)
    theirs = line("dilemmas", event, players, reader)
    assert theirs.startswith(f"Round {d['round']}: {NAMES[creator]}'s dilemma ")
    gains = [f"{NAMES[s]} +{p}" for s, p in enumerate(d["points"]) if p and s != reader]
    assert all(g in theirs for g in gains)
    if d["points"][reader]:
        assert f"you +{d['points'][reader]}" in theirs


def test_dilemmas_a_tie_scores_their_tokens() -> None:
    players, event = first("dilemmas", "votes_revealed", lambda d: len(d["winners"]) > 1)
    text = line("dilemmas", event, players, 0)
    every = "both" if len(event["data"]["winners"]) == 2 else "all"
    assert " tie as the closest call " in text and f"so {every} " in text
    assert "Each creator scores their dilemma's YES tokens: " in text or "None has a YES" in text
    assert "its YES" not in text


def test_dilemmas_a_dilemma_of_two_creators() -> None:
    players, event = first(
        "dilemmas",
        "votes_revealed",
        lambda d: len(d["winners"]) == 1 and len(d["dilemmas"][d["winners"][0]]["creators"]) == 2,
    )
    d = event["data"]
    one, two = d["dilemmas"][d["winners"][0]]["creators"]
    text = line("dilemmas", event, players, two)
    assert text.startswith(f"Round {d['round']}: {NAMES[one]}'s and your dilemma ")
    assert line("dilemmas", event, players, None).startswith(
        f"Round {d['round']}: {NAMES[one]} and {NAMES[two]}'s dilemma "
    )


# -- Royal Dilemma -----------------------------------------------------------------------


def test_royal_a_choice_is_made() -> None:
    players, event = first("royal", "submitted")
    seat = event["data"]["seat"]
    assert line("royal", event, players, seat) == "You have chosen."
    assert line("royal", event, players, other(players, seat)) == f"{NAMES[seat]} has chosen."


def test_royal_choices_revealed() -> None:
    players, event = first(
        "royal", "choices_revealed", lambda d: None in d["choices"] and any(d["choices"])
    )
    choices = event["data"]["choices"]
    passer = choices.index(None)
    aimer = next(s for s, c in enumerate(choices) if c and c["target"] != s)
    target, card = choices[aimer]["target"], short(choices[aimer]["card"])
    passes = line("royal", event, players, passer)
    assert f"You ({seat_title(passer)}) pass." in passes
    aimed = line("royal", event, players, target)
    assert f"{seat_title(aimer)} ({NAMES[aimer]}) targets you with {card}." in aimed
    by_aimer = line("royal", event, players, aimer)
    assert f"You ({seat_title(aimer)}) target the {seat_title(target)} with {card}." in by_aimer


def test_royal_a_build() -> None:
    players, event = first("royal", "step", lambda d: d["kind"] == "build")
    seat, card = event["data"]["seat"], short(event["data"]["card"])
    assert line("royal", event, players, seat).startswith(
        f"You ({seat_title(seat)}) build: {card} goes into play (worth "
    )
    assert line("royal", event, players, other(players, seat)).startswith(
        f"{seat_title(seat)} ({NAMES[seat]}) builds: {card} goes into play (worth "
    )


def test_royal_an_invasion_of_the_reader() -> None:
    players, event = first("royal", "step", lambda d: d["kind"] == "invasion" and d["captured"])
    d = event["data"]
    seat, target, taken = d["seat"], d["target"], short(d["captured"])
    invaded = line("royal", event, players, target)
    assert invaded.startswith(
        f"{seat_title(seat)} ({NAMES[seat]}) invades you ({seat_title(target)}) with "
    )
    assert invaded.endswith(f" and captures {taken}.")
    invader = line("royal", event, players, seat)
    assert invader.startswith(f"You ({seat_title(seat)}) invade {seat_title(target)}")
    assert invader.endswith(f" and capture {taken}.")


def test_royal_a_battle_lost_by_the_reader() -> None:
    players, event = first(
        "royal", "step", lambda d: d["kind"] == "battle" and d["winner"] is not None
    )
    d = event["data"]
    winner = d["winner"]
    loser = d["target"] if winner == d["seat"] else d["seat"]
    lost = short(d["rival_card"] if winner == d["seat"] else d["card"])
    assert line("royal", event, players, loser).endswith(
        f" The {seat_title(winner)} wins; your {lost} is discarded."
    )
    assert line("royal", event, players, winner).endswith(
        f" You win; {lost} of the {seat_title(loser)} is discarded."
    )


def test_royal_a_hand_surrendered_by_the_reader() -> None:
    players, event = first("royal", "step", lambda d: d["from_hand"] and d["surrendered_count"] > 1)
    d = event["data"]
    target, count, seat = d["target"], d["surrendered_count"], d["seat"]
    held = count < d["strength"]  # the whole hand went: the strength asked for more
    you = f"all {count} value cards you held" if held else f"{count} value cards"
    it = f"all {count} value cards it held" if held else f"{count} value cards"
    scores = " Only cards in play score, so no score changes."
    # The log is public: it tells how many cards moved, never which.
    assert line("royal", event, players, target).endswith(
        f". You have nothing in play, so you surrender {you} from your hand into the"
        f" {seat_title(seat)}'s hand.{scores}"
    )
    assert line("royal", event, players, seat).endswith(
        f". The {seat_title(target)} has nothing in play, so it surrenders {it} from its hand"
        f" into your hand.{scores}"
    )


def test_royal_cards_drawn() -> None:
    players, event = first("royal", "round_started", lambda d: len(d["draws"]) == 2)
    d = event["data"]
    one, two = d["draws"]
    assert line("royal", event, players, 1) == (
        f"Round {d['round']} begins. Cards drawn: Robin {one}, you {two}."
    )


# -- Maybe Minister ------------------------------------------------------------------------

MINISTER_ACTS = {
    "proposed": ("propose", "proposes"),
    "took": ("take", "takes"),
    "collected": ("collect", "collects"),
    "traded": ("trade", "trades"),
    "gave_up_vote": ("give up", "gives up"),
    "moved_vote": ("put", "puts"),
    "moved_card": ("turn", "turns"),
    "shopped": ("use", "uses"),
    "special": ("use", "uses"),
}


@pytest.mark.parametrize(("kind", "forms"), MINISTER_ACTS.items())
def test_minister_a_player_acts(kind: str, forms: tuple[str, str]) -> None:
    # Two YES votes turn a red card green; two NO remove it (another verb).
    players, event = first("minister", kind, lambda d: d.get("kind", "yes") == "yes")
    seat = event["data"]["seat"]
    assert line("minister", event, players, seat).startswith(f"You {forms[0]} ")
    reader = other(players, seat)
    assert line("minister", event, players, reader).startswith(f"{NAMES[seat]} {forms[1]} ")


def test_minister_exact_lines() -> None:
    players, event = first("minister", "took", lambda d: d["green"])
    d = event["data"]
    taken = card_name(d["card"])
    assert line("minister", event, players, d["seat"]) == f"You take {taken} (green side up)."
    players, event = first("minister", "collected", lambda d: d["votes"] == 1)
    assert line("minister", event, players, event["data"]["seat"]) == "You collect 1 vote."
    players, event = first("minister", "turn_started")
    d = event["data"]
    assert line("minister", event, players, d["proposer"]) == f"Turn {d['turn']}: You propose."
    for kind, verb in (("yes", "turns your {} green"), ("no", "removes your {}")):
        players, event = first(
            "minister", "moved_card", lambda d, k=kind: d["seat"] != d["owner"] and d["kind"] == k
        )
        d = event["data"]
        assert line("minister", event, players, d["owner"]) == (
            f"{NAMES[d['seat']]} {verb.format(card_name(d['card']))}."
        )


# -- status lines on the table --------------------------------------------------------


def screen_text(html: str) -> str:
    return html_lib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)))


def turn(game: str, state: Any, viewer: int) -> str:
    view = engine.view(state, viewer)
    names = NAMES[: view["players"]]
    ui = Ui(names=names, kinds=["human"] * len(names), viewer=viewer)
    return screen_text(game_ui(game).render_turn(view, ui))


def test_randolph_status_lines() -> None:
    state = engine.setup("randolph", 3, None, 1)
    provocateur = engine.view(state, None)["provocateur"]
    reader = other(3, provocateur)
    assert f"{NAMES[provocateur]} holds the stumbling block and is choosing" in turn(
        "randolph", state, reader
    )
    state = engine.apply(state, provocateur, {"type": "challenge", "card": 8})
    assert f"{NAMES[provocateur]} challenges with an 8." in turn("randolph", state, reader)


def test_minister_status_lines() -> None:
    state = engine.setup("minister", 3, None, 1)
    proposer = engine.view(state, None)["proposer"]
    move = engine.legal_moves(state, proposer)[0]
    state = engine.apply(state, proposer, move)
    assert "Your proposal is below." in turn("minister", state, proposer)
    reader = other(3, proposer)
    assert f"{NAMES[proposer]}'s proposal is below." in turn("minister", state, reader)


@pytest.mark.parametrize(
    ("winners", "viewer", "headline"),
    [([1], 1, "You win!"), ([1], 0, "Bot Ada wins!"), ([0, 2], 2, "Shared win: Robin and you!")],
)
def test_the_final_screen_headline(winners: list[int], viewer: int, headline: str) -> None:
    view = {"result": {"winners": winners, "scores": [3, 3, 3]}}
    ui = Ui(names=NAMES[:3], kinds=["human"] * 3, viewer=viewer)
    assert f">{headline}</h2>" in final_screen(view, ui, True, TO_LOBBY)


# -- the sweep: every event, every reader --------------------------------------------------

ROOM_ONLY = {"redealt"}
"""Events only a room's successor writes (``tests/net/test_succession.py`` reads them)."""


def declared_kinds(game: str) -> set[str]:
    """The kinds of event the game's view type says its log may hold (``engine.Logged``):
    its rules write no other (the conformance suite checks every view against the type)."""
    module = importlib.import_module(catalog.entry(game).views or "")
    view_type = get_type_hints(module.read_view)["return"]
    (event,) = get_args(typed.hints(view_type)["log"])
    return {kind for member in get_args(event) for kind in get_args(get_args(member)[0])}


def test_the_declared_kinds_are_read_from_the_view_types() -> None:
    assert declared_kinds("randolph") >= {"challenge_placed", "duel_revealed", "redealt"}
    assert "took" in declared_kinds("minister") and "took" not in declared_kinds("royal")


YOU_MISTAKES = re.compile(r"\b[Yy]ou(?:'s|r's| is| has| was| [a-z]+s\b)")
NUMBER_ARTICLE = re.compile(r"\b([Aa]n?) (\d+)")
COUNT = re.compile(r"(?<![-\d])(\d+) (card|vote|point|time|value card|li(?:fe|ves))(s?)\b")


def mistakes(text: str) -> list[str]:
    """The ways ``text`` reads wrong: a "you" with the wrong verb or apostrophe, a wrong
    article before a number, a wrong plural after a count."""
    found = [m.group() for m in YOU_MISTAKES.finditer(text)]
    for article, number in NUMBER_ARTICLE.findall(text):
        said_an = number.startswith("8") or number in ("11", "18")
        if (article.lower() == "an") != said_an:
            found.append(f"{article} {number}")
    for count, noun, s in COUNT.findall(text):
        if (count == "1") == bool(s or noun == "lives"):
            found.append(f"{count} {noun}{s}")
    return found


@pytest.mark.parametrize(
    "mistake", ["You's 3", "You keeps it", "a 8", "an 7", "a 18", "1 votes", "2 card", "1 lives"]
)
def test_the_sweep_sees_each_mistake(mistake: str) -> None:
    assert mistakes(f"So {mistake} now.")


@pytest.mark.parametrize("game", sorted(g.spec.id for g in engine.all_games()))
def test_every_line_reads_right_for_every_reader(game: str) -> None:
    """Every kind of event the game declares, but a room's, is reached by its seeded
    playouts, and each reads right for every reader."""
    ui = game_ui(game)
    seen: set[str] = set()
    wrong: dict[str, str] = {}
    for players, event in events(game):
        seen.add(event["kind"])
        for names in (NAMES[:players], ["You", *NAMES[1:players]]):
            for viewer in (None, *range(players)):
                text = ui.describe(event, Cast(names, viewer))
                if text and mistakes(text):
                    wrong.setdefault(f"{event['kind']} {mistakes(text)}", text)
    missed = declared_kinds(game) - ROOM_ONLY - seen
    assert not missed, f"the playouts never reached {missed}"
    assert not wrong, "\n".join(f"{k}: {v}" for k, v in wrong.items())
