"""How many random playouts the conformance suite plays: 500 per game unless told.

``QUANDARY_PLAYOUTS=50`` (``make check`` sets it) plays fewer for a quick loop;
``make test`` and CI leave it unset. The count is spread over the suite's
chunks, so it is rounded down to a multiple of their number.
"""

from __future__ import annotations

import os

import pytest

ENV = "QUANDARY_PLAYOUTS"


@pytest.fixture(autouse=True)
def _playouts(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Set the suite's playout count from the environment, for this test only."""
    wanted = os.environ.get(ENV)
    if not wanted or not hasattr(request.module, "PLAYOUTS"):
        return  # unset, or a module that plays no counted playouts
    if not wanted.isdigit() or int(wanted) < request.module.CHUNKS:
        pytest.fail(f"{ENV} must be a whole number of at least {request.module.CHUNKS}.")
    monkeypatch.setattr(request.module, "PLAYOUTS", int(wanted))
