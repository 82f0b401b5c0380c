"""Shared test setup: every game registered before any test runs.

The four real games, and Pebbles, the game that exists in the tests only
(``tests/fifth``): it registers itself as the real ones do, so every suite that
walks the registry plays it too, while the app never imports it.
"""

import quandary.games  # noqa: F401 - fills the registry
import tests.fifth  # noqa: F401 - the test-only fifth game, registered after the four
