"""Royal Dilemma's spec: what the lobby shows and the setup checks, without its rules.

The lobby is drawn before any game's rules are imported (``engine.registry``);
this module is all of Royal Dilemma it needs, with how long the deck lets a game
last at each table size (said on the setup screen).
"""

from __future__ import annotations

from quandary.engine.spec import GameSpec

from .cards import value_deck

SPEC = GameSpec(
    id="royal",
    title="Royal Dilemma",
    tagline="Build your realm or invade a rival's: strength decides, suits double it.",
    min_players=2,
    max_players=4,
    options=(),
    simultaneous=True,
    hidden_information=True,
    # A seat makes at most one choice and one capture per round, and the deck
    # (36 - players cards, at least players² drawn a round) lasts at most 9 rounds.
    max_moves_per_seat=20,
    secret_moves=frozenset({"choose", "pass"}),
)


def round_draw(in_play: int, own: int, players: int) -> int:
    """The cards a round draws in all: every seat one per card in play, plus its own suit's.

    ``own`` counts the cards in play of seated suits (each is drawn for once more,
    by its suit's seat, whoever controls it): the rule ``resolution.draw_need``
    applies card by card.

    >>> round_draw(3, 2, 3)  # three cards in play, two of them in seated suits
    11
    """
    return players * in_play + own


def rounds_covered(deck: int, in_play: int, own: int, players: int) -> tuple[int, int]:
    """How many rounds a deck of ``deck`` cards still covers: at fewest, and at most.

    Cards never leave play and the deck never grows, so draws never shrink. At
    most: nobody builds again, every draw stays as it is. At fewest: every seat
    builds a card of a seated suit every round, the most a round can add to the
    next draw (``players`` cards in play, each drawn for once more).

    >>> rounds_covered(33, 3, 0, 3), rounds_covered(33, 3, 3, 3)
    ((1, 3), (1, 2))
    """
    most = deck // round_draw(in_play, own, players)
    fewest = 0
    while (need := round_draw(in_play, own, players)) <= deck:
        fewest, deck = fewest + 1, deck - need
        in_play, own = in_play + players, own + players
    return fewest, most


def _dealt(players: int) -> tuple[int, int, int]:
    """The deck after the deal, and the fewest and most dealt cards of seated suits."""
    deck = len(value_deck()) - players
    unseated = 9 * (4 - players)  # the suits of the faces nobody plays
    return deck, max(0, players - unseated), players


def rounds_at(players: int) -> tuple[int, int]:
    """How many rounds a game of ``players`` lasts, at fewest and at most, before the deal.

    Each seat starts with one card in play, so a round draws at least
    ``players`` per seat, plus one for every card in play of a seated suit
    (unavoidable at four players, where every suit is seated).

    >>> [rounds_at(n) for n in (2, 3, 4)]
    [(2, 8), (1, 3), (1, 1)]
    """
    deck, fewest_own, most_own = _dealt(players)
    return (
        rounds_covered(deck, players, most_own, players)[0],
        rounds_covered(deck, players, fewest_own, players)[1],
    )


def most_rounds_at(players: int) -> int:
    """How many rounds the deck can last at most with ``players`` seated, before any card is dealt.

    >>> [most_rounds_at(n) for n in (2, 3, 4)]
    [8, 3, 1]
    """
    return rounds_at(players)[1]


def length_note(players: int) -> str:
    """How long a game of ``players`` lasts and why, in words, for the setup screen.

    >>> length_note(4)[:60]
    'With 4 players the game lasts one round. After the deal the '
    """
    fewest, most = rounds_at(players)
    deck, fewest_own, most_own = _dealt(players)
    low, high = round_draw(players, fewest_own, players), round_draw(players, most_own, players)
    first = f"{low} cards" if low == high else f"{low} to {high} cards"
    if most == 1:
        span = "one round"
        after = f"which leaves {deck - low} and draws never shrink, so there is no second round"
    else:
        span = f"{fewest} to {most} rounds" if fewest < most else f"{most} rounds"
        after = (
            f"so it covers at most {most} rounds, fewer as built cards make every later draw bigger"
        )
    return (
        f"With {players} players the game lasts {span}. After the deal the deck holds {deck}"
        " value cards, and each round every player draws one card for each card in play, plus"
        " one for each card in play of their own suit; the game ends when the deck cannot cover"
        f" a round's draw. Here the first draw takes {first}, {after}."
    )
