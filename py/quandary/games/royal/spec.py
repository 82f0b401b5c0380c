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


def most_rounds_at(players: int) -> int:
    """How many rounds the deck can last at most with ``players`` seated, before any card is dealt.

    Each seat starts with one card in play, so a round draws at least
    ``players`` per seat, plus one for every card in play of a seated suit
    (unavoidable at four players, where every suit is seated).

    >>> [most_rounds_at(n) for n in (2, 3, 4)]
    [8, 3, 1]
    """
    deck = len(value_deck()) - players
    unseated = 9 * (4 - players)
    own = max(0, players - unseated)
    return deck // (players * players + own)
