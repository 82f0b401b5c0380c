"""Maybe Minister's spec: what the lobby shows and the setup checks, without its rules.

The lobby is drawn before any game's rules are imported (``engine.registry``);
this module is all of Maybe Minister it needs.
"""

from __future__ import annotations

from quandary.engine.spec import GameSpec, Option

SPEC = GameSpec(
    id="minister",
    title="Maybe Minister",
    tagline="Propose laws, vote in secret, rewrite the scoring.",
    min_players=3,
    max_players=6,
    options=(
        Option(
            "wildcard", "Wildcard", "Some resources show a wildcard icon: any icon.", "flag", False
        ),
        Option("abstain", "Abstain Attacks", "ABSTAIN votes and laws about them.", "flag", False),
        Option(
            "undecided", "Undecided Voters", "Move votes onto laws and red cards.", "flag", False
        ),
        Option("advanced", "Advanced Politics", "Shop laws and special resources.", "flag", False),
    ),
    simultaneous=True,
    hidden_information=True,
    max_moves_per_seat=300,
    secret_moves=frozenset({"vote"}),
    round_word="turn",
    # Saves from before the end was checked at the end of each turn kept whether
    # anyone had ever reached the target; that is no longer state.
    retired_fields=frozenset({"reached"}),
    # Saves from before the end screen's chart kept neither the scores turn by
    # turn nor how many events the log had dropped: the replayed moves fill them.
    added_fields=frozenset({"turn_scores", "log_start"}),
)
