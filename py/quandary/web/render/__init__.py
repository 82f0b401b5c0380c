"""Pure renderers: view dictionaries in, HTML strings out. No ``js`` here.

Each game has one module that satisfies ``GameUi``; the game's catalog entry
names it by its full dotted path, and it is imported the first time a table of
that game is drawn, so start-up only pays for the lobby. The four games' modules
live here, but a game's renderer may live with the game (the test-only game in
``tests/fifth`` keeps its own), since nothing here names a game.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol, cast

from quandary import catalog
from quandary.engine import LogEntry, ViewHeader

if TYPE_CHECKING:
    from quandary.web.html import Markup
    from quandary.web.phrases import Cast

    from .table import Ui

View = ViewHeader
"""A view as shared code knows it: the header every game has (each game's module
takes its own view type, which adds the game's part: ``games/<game>/view.py``)."""
Draft = Mapping[str, object]
"""A move being built on this device, as shared code holds it: opaque. Only the game's
own ``update_draft`` makes one (from ``{}``), so each game reads its drafts as its own
type (``RandolphDraft``...); a draft never crosses a network or a save."""
Move = Mapping[str, object]
"""A move a screen made, as shared code passes it on: the game's own move type, which
the engine's one door (``engine.apply``) checks whatever made it."""


class GameUi(Protocol):
    """What the table controller needs from a game's render module."""

    PHASE_TITLES: dict[str, str]

    def render_turn(self, view: View, ui: Ui) -> Markup:
        """The table as the viewer's seat sees it, with what it can do now."""
        ...

    def update_draft(self, view: View, draft: Draft, data: dict[str, str]) -> Draft:
        """A step of building a move (a card chosen, a token placed), kept on this device."""
        ...

    def draft_move(self, view: View, draft: Draft) -> Move | None:
        """The move the draft describes, if it is complete (it may still be illegal)."""
        ...

    def gesture_move(self, view: View, data: dict[str, str]) -> Move | None:
        """The move a gesture on the table made (a card thrown), if the game has gestures."""
        ...

    def checkpoints(self, view: View) -> int:
        """How many results the players step through one by one (round results)."""
        ...

    def render_round_result(self, view: View, ui: Ui, index: int) -> Markup:
        """Result ``index``, with the button to go on."""
        ...

    def explain_milestone(self, view: View, index: int, cast: Cast) -> str:
        """Result ``index`` in a sentence, for screen readers (the viewer is "you")."""
        ...

    def privacy_reason(self, view: View) -> str:
        """Why the device must be passed before the next person looks."""
        ...

    def describe(self, event: LogEntry, cast: Cast) -> str | None:
        """A log line for an event (None: not worth a line); the viewer is "you"."""
        ...


def game_ui(game_id: str) -> GameUi:
    """The render module of ``game_id``; ``BadSetup`` for a game nobody registered."""
    module = importlib.import_module(catalog.entry(game_id).ui)
    return cast("GameUi", module)
