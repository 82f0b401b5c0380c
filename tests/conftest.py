"""Shared test setup: every game registered before any test runs."""

import quandary.games  # noqa: F401 - fills the registry
