"""Dilemma's spec: what the lobby shows and the setup checks, without its rules.

The lobby is drawn before any game's rules are imported (``engine.registry``);
this module is all of Dilemma it needs.
"""

from __future__ import annotations

from quandary.engine.spec import GameSpec, Option

SPEC = GameSpec(
    id="randolph",
    title="Dilemma",
    tagline="Throw a card at the challenge, then choose peace or conflict.",
    min_players=3,
    max_players=5,
    options=(
        Option(
            "window",
            "Throw window",
            "How long the others have to throw at a challenge card, after a"
            " countdown; bots react more slowly in the longer windows. Until a game"
            " of Dilemma was finished on this device, it starts at a first game's pace.",
            "choice",
            "relaxed",
            (
                (
                    "first",
                    "First game: a 5-second countdown, 7 s after the last landing,"
                    " 25 s at most, and slow bots",
                ),
                ("relaxed", "Relaxed, for newcomers: 4 s after the last landing, 15 s at most"),
                ("standard", "Standard: 2 s after the last landing, 8 s at most"),
                ("quick", "Quick: 1.5 s after the last landing, 6 s at most"),
            ),
            newcomer="first",
        ),
    ),
    simultaneous=False,
    hidden_information=True,
    # Per seat: 10 challenges, 20 closes, a duel choice per round (at most 50
    # rounds), 10 throws, and with two players left up to 10 throws in each of
    # two windows of 20 rounds (cards that do not duel come back): under 500.
    max_moves_per_seat=500,
    secret_moves=frozenset({"duel"}),
    authority_moves=frozenset({"close"}),
    timed_moves=frozenset({"throw"}),
    round_word="challenge",
)
