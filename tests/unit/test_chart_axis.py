"""The end chart's round axis: every label has room on a phone."""

from __future__ import annotations

from itertools import pairwise

from quandary.web.render.chart import _Scale


def test_round_labels_start_at_one_end_at_the_last_and_keep_their_distance() -> None:
    for rounds in range(1, 81):
        ticks = _Scale(rounds, 0, 10).x_ticks()
        every = 1 + (rounds - 1) // 8
        assert ticks[0] == 1 and ticks[-1] == rounds, (rounds, ticks)
        assert len(ticks) <= 9, (rounds, ticks)
        assert all(b - a >= every for a, b in pairwise(ticks)), (rounds, ticks)
