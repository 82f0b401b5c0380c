"""The parts of index.html that come from the game catalog, filled in by the build.

The page is painted and usable before Python starts, so what it shows then (the
lobby with the first game's setup) and every other game's setup (for choosing one
while the engine boots) must already name every game. (Each game's own
stylesheet is not linked here: the page links it when that game's table is first
drawn.) They are rendered here by the app's own controller and lobby code, from a
fresh device's state, so the first paint and the running lobby cannot disagree,
and adding a game changes no HTML.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))  # the build may run before the package is installed

from quandary import catalog  # noqa: E402 - needs the path above
from quandary import games as _games  # noqa: E402, F401 - registers every game
from quandary.web.bridge import MirrorStorage  # noqa: E402
from quandary.web.controller import Controller  # noqa: E402
from quandary.web.html import Markup, attrs, join, markup  # noqa: E402
from quandary.web.render.lobby import setup_form  # noqa: E402

LOBBY = "    <!-- quandary:lobby"
RULES = "    <!-- quandary:rules"
"""The line of ``static/rules/index.html`` that becomes the list of the games' rules."""
SETUPS = "  <!-- quandary:setups"
ASSETS = "./static/vendor/"
"""How index.html names the built assets; the build
replaces it with ``./static/v/<content hash>/``, a folder that never changes
once published, so hosts may cache it for a year."""


def fill_shell(html: str) -> str:
    """index.html with its catalog markers replaced by the game list and setups."""
    entries = catalog.entries()
    fresh = _fresh_device()
    lobby = "    " + fresh.render() + "\n"
    setups = "  " + join(_setup_template(fresh, e.id) for e in entries) + "\n"
    return replace_line(replace_line(html, LOBBY, lobby), SETUPS, setups)


def fill_rules(html: str) -> str:
    """The rules index with its marker replaced by a link to each game's rules page,
    its title, who made it and its tagline, from the registry: a new game is listed
    with nothing to add here."""
    items = join(
        markup(
            '      <li><a href="{}">{}</a>{}. {}</li>\n',
            entry.rules_page,
            entry.spec.title,
            markup(" {}", entry.credit) if entry.credit else "",
            entry.spec.tagline,
        )
        for entry in catalog.entries()
    )
    return replace_line(html, RULES, markup("    <ul>\n{}    </ul>\n", items))


def _fresh_device() -> Controller:
    """The app's controller as a first visit starts it: nothing stored, no room."""
    return Controller(MirrorStorage({}), lambda: 0, speed="normal")


def _setup_template(controller: Controller, game: str) -> Markup:
    """A game's setup as the engine shows it when chosen, holding a row for every seat
    up to its most players (the page shows the first ``data-seats`` of them)."""
    controller.dispatch("choose-game", {"game": game})
    form = controller.form
    seats = len(form.seats)
    spec = next(s for s in controller.specs if s.id == game)
    controller.dispatch("field", {"field": "seat-count", "value": str(spec.max_players)})
    return markup(
        "<template{}>{}</template>",
        attrs(data_setup=game, data_seats=seats),
        setup_form(spec, form, controller.speed),
    )


def replace_line(html: str, marker: str, text: str) -> str:
    """Replace the one line that starts with ``marker``."""
    lines = html.splitlines(keepends=True)
    found = [i for i, line in enumerate(lines) if line.startswith(marker)]
    if len(found) != 1:
        raise SystemExit(f"index.html must hold {marker.strip()!r} exactly once")
    lines[found[0]] = text
    return "".join(lines)


def main() -> None:
    """``python -m scripts.shell [GAME ...] < index.html``: the filled page on stdout
    (``--rules < static/rules/index.html``: the rules index).

    The build runs it in an interpreter of its own, so the page lists the site's
    games, plus the packages named (test-only games, in a build for the tests),
    whatever the building process has registered (a test run registers the tests'
    own game, which the site's page must never list).
    """
    args = sys.argv[1:]
    if args[:1] == ["--rules"]:
        # ``--rules < static/rules/index.html``: the site's games only (a test-only
        # game's rules page is not under static/rules).
        fill = fill_rules
    else:
        fill = fill_shell
        for game in args:
            importlib.import_module(game)
    sys.stdout.buffer.write(fill(sys.stdin.buffer.read().decode("utf-8")).encode("utf-8"))


if __name__ == "__main__":
    main()
