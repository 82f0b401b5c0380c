"""Voting and scoring of The Game of Dilemmas, as small pure functions.

Kept apart from the turn logic so the rule text's worked examples can be
tested directly: token counts, the most controversial dilemma, tie-breaks and
the coop split.

>>> tokens_per_kind(5)
3
>>> round_winners([(3, 2), (1, 4), (2, 3)])
[2]
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

YES, NO, SUPER_YES, SUPER_NO = "yes", "no", "super_yes", "super_no"
TOKENS = (YES, NO, SUPER_YES, SUPER_NO)
SUPER_WEIGHT = 3


def tokens_per_kind(dilemmas: int) -> int:
    """YES (and NO) tokens each player holds: the number of dilemmas halved, rounded up."""
    return (dilemmas + 1) // 2


def tally(ballots: Sequence[Sequence[str]], dilemmas: int) -> list[tuple[int, int]]:
    """(YES, NO) on each dilemma; a super token counts as three."""
    out = [[0, 0] for _ in range(dilemmas)]
    for ballot in ballots:
        for i, token in enumerate(ballot):
            weight = SUPER_WEIGHT if token in (SUPER_YES, SUPER_NO) else 1
            out[i][0 if token in (YES, SUPER_YES) else 1] += weight
    return [(y, n) for y, n in out]


def round_winners(tallies: Sequence[tuple[int, int]]) -> list[int]:
    """Indices of the winning dilemmas: smallest |YES-NO|, then most NO, else all tied."""
    best = min(abs(y - n) for y, n in tallies)
    closest = [i for i, (y, n) in enumerate(tallies) if abs(y - n) == best]
    most_no = max(tallies[i][1] for i in closest)
    return [i for i in closest if tallies[i][1] == most_no]


def split_points(yes: int, creators: Sequence[int]) -> dict[int, int]:
    """Points of a winning dilemma per creator.

    A coop dilemma's points are split evenly; an odd point goes to the player who
    supplied the second card (the last creator).
    """
    if len(creators) == 1:
        return {creators[0]: yes}
    first, second = creators
    return {first: yes // 2, second: yes - yes // 2}


@cache
def ballots(
    dilemmas: int, super_yes: bool, super_no: bool, must_super: bool
) -> tuple[tuple[str, ...], ...]:
    """Every legal way to place one token on each dilemma.

    ``super_yes``/``super_no`` say whether those tokens are still available; with
    ``must_super`` (the last round) every available super token must be placed.
    A super token replaces a regular token of its side, so each side is still
    limited to ``tokens_per_kind(dilemmas)`` tokens.
    """
    limit = tokens_per_kind(dilemmas)
    out: list[tuple[str, ...]] = []
    for mask in range(1 << dilemmas):
        yes_at = [i for i in range(dilemmas) if mask >> i & 1]
        no_at = [i for i in range(dilemmas) if not mask >> i & 1]
        if len(yes_at) > limit or len(no_at) > limit:
            continue
        for sy in _super_spots(yes_at, super_yes, must_super):
            for sn in _super_spots(no_at, super_no, must_super):
                ballot = [YES if mask >> i & 1 else NO for i in range(dilemmas)]
                if sy is not None:
                    ballot[sy] = SUPER_YES
                if sn is not None:
                    ballot[sn] = SUPER_NO
                out.append(tuple(ballot))
    return tuple(out)


def _super_spots(spots: list[int], available: bool, must: bool) -> list[int | None]:
    if not available:
        return [None]
    return list(spots) if must else [None, *spots]
