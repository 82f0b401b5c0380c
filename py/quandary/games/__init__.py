"""Every game Quandary knows. Importing this package registers them all.

Each game is a package here that registers itself when imported (its
``__init__`` calls ``catalog.register``); this finds them by looking, so a new
game's folder is all it takes, with no list of games to keep beside it. They are
imported in the order of their names, which is the order the lobby lists them in.
"""

import importlib
import pkgutil

GAMES: tuple[str, ...] = tuple(
    sorted(info.name for info in pkgutil.iter_modules(__path__) if info.ispkg)
)
"""The games' package names, found beside this file."""

for _name in GAMES:
    importlib.import_module(f"{__name__}.{_name}")

__all__ = ["GAMES"]
