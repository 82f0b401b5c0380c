"""Every game Quandary offers, each described once: rules, bots, UI, rules page, style.

A game package registers one ``GameEntry`` when it is imported; the engine's
registry, the bot levels, the lobby, the page's renderer lookup and the build
(stylesheets, the game list painted before Python starts) all read it from
here, so adding a game is one registration and no list elsewhere can forget
it. Pure standard library. An entry holds the game's spec and a loader, not its
rules, and names its UI module rather than importing it: registering the four
games costs the app's first screen next to nothing, and each game's code is
imported when a game of that kind is first played.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from quandary import engine
from quandary.bots import BotFactory, register_bots
from quandary.engine import BadSetup, BadView, Game, GameSpec, read_header
from quandary.engine.typed import Changed


@dataclass(frozen=True)
class GameEntry:
    """One game as the whole app knows it."""

    spec: GameSpec
    load: Callable[[], Game]
    """Imports the game's rules and builds its ``Game`` (called once, on first use)."""
    ui: str
    """The module that draws its table, by its full dotted path
    ("quandary.web.render.royal"), imported on first use: the module may live
    anywhere, with the game or beside the other renderers."""
    rules_page: str
    """Its page under ``static/rules/``."""
    stylesheet: str | None = None
    """Its stylesheet under ``static/css/``, if it has one beyond the app's."""
    bots: dict[str, BotFactory] = field(default_factory=dict)
    """Bot levels beyond ``random`` (which every game has), by level id."""
    bot_labels: dict[str, str] | None = None
    """Menu labels for levels beyond the common ones, if the game has such levels."""
    length_note: Callable[[int], str] | None = None
    """How long a game at this many players can last, for the setup screen, where the
    table size alone decides it (Royal Dilemma's deck allows one round at four)."""
    views: str | None = None
    """The module declaring its view as types, with ``read_view`` checking one against
    them (imported when a view from another device is first checked)."""
    credit: str = ""
    """Who made the game, as its rule texts name them ("by Pandaqi"), shown in the lobby;
    empty when the texts name nobody."""
    practice_first: bool = False
    """Whether a device's first game of it opens with the practice arena (Dilemma's
    throw is a skill of the hand: ``quandary.web.practice``)."""

    @property
    def id(self) -> str:
        """The game's id (its spec's)."""
        return self.spec.id

    @property
    def game(self) -> Game:
        """The game's rules, imported now if no game of this kind was played yet."""
        return engine.get(self.id)


_ENTRIES: dict[str, GameEntry] = {}


def register(entry: GameEntry) -> GameEntry:
    """Make a game known everywhere: rules, bots and everything the page needs."""
    engine.register(entry.spec, entry.load)
    register_bots(entry.id, entry.bots, entry.bot_labels)
    _ENTRIES[entry.id] = entry
    return entry


def entry(game_id: str) -> GameEntry:
    """The entry of ``game_id``; ``BadSetup`` with a readable sentence if there is none."""
    try:
        return _ENTRIES[game_id]
    except (KeyError, TypeError):
        raise BadSetup(f"There is no game called {game_id!r}.") from None


def read_view(view: Mapping[str, object], changed: Changed | None = None) -> Mapping[str, object]:
    """``view`` checked: its header, and its game's own part where the game declares
    it as types (whole, or only the fields ``changed`` since a view checked whole:
    ``typed.check_view``); ``BadView`` (or ``BadSetup`` for a game nobody registered)
    says what is wrong. For a view from another device, before it is kept."""
    header = read_header(view)
    game = entry(header["game"])
    players, spec = header["players"], game.spec
    if not spec.min_players <= players <= spec.max_players:
        raise BadView(
            f"A table of {spec.title} seats {spec.min_players} to {spec.max_players} players,"
            f" not {players}."
        )
    reader = game.views
    if reader is not None:
        importlib.import_module(reader).read_view(view, changed)
    return view


def entries() -> list[GameEntry]:
    """Every game, in registration order (the lobby's order)."""
    return list(_ENTRIES.values())
