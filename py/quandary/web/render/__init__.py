"""Pure renderers: view dictionaries in, HTML strings out. No ``js`` here.

Each game has one module here with the same functions (``render_turn``,
``draft_move``, ``update_draft``, ``checkpoints``, ``render_round_result``,
``explain_milestone``, ``privacy_reason``, ``describe``, ``PHASE_TITLES``). The
controllers find it through ``game_ui``; a game's module is imported the first
time a table of that game is drawn, so start-up only pays for the lobby.
"""

from __future__ import annotations

import importlib
from types import ModuleType

UI_MODULES = {
    "dilemmas": "dilemmas",
    "randolph": "randolph",
    "minister": "minister",
    "royal": "royal",
}


def game_ui(game_id: str) -> ModuleType:
    """The render module of ``game_id`` (The Game of Dilemmas' for an unknown id)."""
    name = UI_MODULES.get(game_id, "dilemmas")
    return importlib.import_module(f"{__name__}.{name}")
