"""How many random playouts the conformance suite plays: 200 per game unless told.

``QUANDARY_PLAYOUTS=cells`` (``make check`` and ``make test``) plays every
(players x options) cell of each game once, rounded up to whole chunks (The Game
of Dilemmas has the most cells, 96: 100 playouts; Royal Dilemma has 3: 25), so
a quick loop spends no time on a game's second round of cells; ``make monkey``
(CI's long run) plays 500 for depth, and a plain ``pytest`` 200, every cell at
least twice. A count is spread over the suite's chunks, so it is rounded down to
a multiple of their number.
"""

from __future__ import annotations

import os

import pytest

ENV = "QUANDARY_PLAYOUTS"
CELLS = "cells"
"""The quick loop's count: each game's cells once (``playout.covering``)."""


@pytest.fixture(autouse=True)
def _playouts(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Set the suite's playout count from the environment, for this test only."""
    wanted = os.environ.get(ENV)
    if not wanted or not hasattr(request.module, "CHUNKS"):
        return  # unset, or a module whose playouts are not counted in chunks
    if wanted == CELLS:
        monkeypatch.setattr(request.module, "PLAYOUTS", None)
        return
    if not wanted.isdigit() or int(wanted) < request.module.CHUNKS:
        pytest.fail(
            f"{ENV} must be {CELLS!r} or a whole number of at least {request.module.CHUNKS}."
        )
    monkeypatch.setattr(request.module, "PLAYOUTS", int(wanted))
