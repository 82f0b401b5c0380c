"""The suite's own warm start (tests/e2e/warm.py): a test's page restores the build's
snapshot, on the plain site and on the site with a relay.

Without this, a handover that silently stopped working (a changed cache key, a
build whose folder the store misreads) would only make every page boot cold
again: slower, never failing.
"""

from __future__ import annotations

import pytest

from .conftest import open_app

ENGINE = "document.documentElement.dataset.engine"


def test_a_tests_page_restores_the_builds_snapshot(new_page, base_url, room_url) -> None:
    page = open_app(new_page(), base_url)
    assert page.evaluate(ENGINE) == "restored"
    other = open_app(new_page(), room_url)
    assert other.evaluate(ENGINE) == "restored"


@pytest.mark.cold_start
def test_a_cold_start_test_gets_a_first_visits_page(new_page, base_url) -> None:
    page = open_app(new_page(), base_url)
    assert page.evaluate(ENGINE) == "fresh"
