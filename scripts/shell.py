"""The parts of index.html that come from the game catalog, filled in by the build.

The page is painted before Python starts, so what it shows then (the game list)
and the stylesheets it links must already name every game: they are rendered
here from the same catalog and the same lobby code the app uses, so the first
paint and the running lobby cannot disagree, and adding a game changes no HTML.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))  # the build may run before the package is installed

from quandary import catalog  # noqa: E402 - needs the path above
from quandary import games as _games  # noqa: E402, F401 - registers every game
from quandary.web.html import attrs  # noqa: E402
from quandary.web.render.lobby import game_list  # noqa: E402

STYLESHEETS = "  <!-- quandary:stylesheets"
GAMES = "      <!-- quandary:games"


def fill_shell(html: str) -> str:
    """index.html with its catalog markers replaced by the games' stylesheets and list."""
    entries = catalog.entries()
    links = "".join(
        f'  <link rel="stylesheet"{attrs(href=f"./static/css/{e.stylesheet}")}>\n'
        for e in entries
        if e.stylesheet
    )
    specs = [e.game.spec for e in entries]
    listing = "      " + game_list(specs, specs[0].id) + "\n"
    return _replace_line(_replace_line(html, STYLESHEETS, links), GAMES, listing)


def _replace_line(html: str, marker: str, text: str) -> str:
    """Replace the one line that starts with ``marker``."""
    lines = html.splitlines(keepends=True)
    found = [i for i, line in enumerate(lines) if line.startswith(marker)]
    if len(found) != 1:
        raise SystemExit(f"index.html must hold {marker.strip()!r} exactly once")
    lines[found[0]] = text
    return "".join(lines)
