"""The Game of Dilemmas' spec: what the lobby shows and the setup checks, without
its rules.

The lobby is drawn before any game's rules are imported (``engine.registry``);
this module is all of the game it needs, with the card packs to choose from.
"""

from __future__ import annotations

from quandary.engine.spec import GameSpec, Option

from .cards import PACKS
from .own_cards import NO_OWN, parse_own, summary

ROUNDS = 5
"""Rounds in a game."""

SPEC = GameSpec(
    id="dilemmas",
    title="The Game of Dilemmas",
    tagline="Build a dilemma from a good and a bad card; the most divisive one scores.",
    min_players=3,
    max_players=6,
    options=(
        Option(
            "neutral",
            "Neutral cards",
            "Each player gets one neutral card to add once.",
            "flag",
            False,
        ),
        Option(
            "supervotes",
            "Supervotes",
            "One SUPER ACCEPT and one SUPER REJECT, worth 3.",
            "flag",
            False,
        ),
        Option(
            "coop", "Coop dilemmas", "Lay one card; a neighbour supplies the other.", "flag", False
        ),
        Option(
            "packs",
            "Card packs",
            "Which cards are shuffled in.",
            "multi",
            [p.id for p in PACKS if p.default],
            tuple((p.id, p.name) for p in PACKS),
        ),
        Option(
            "own",
            "Your own cards",
            "Packs written on this device, mixed in or played instead of the built-in packs.",
            "data",
            NO_OWN,
            parse=parse_own,
            summary=summary,
        ),
    ),
    simultaneous=True,
    hidden_information=True,
    max_moves_per_seat=ROUNDS * 3,
)
