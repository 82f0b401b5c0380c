"""Nothing another device sends can become markup: HTML is escaped by construction.

Two halves. The source check proves no module under ``web/`` builds HTML
outside the helpers of ``quandary.web.html`` (an f-string, ``%`` or
``str.format`` with a tag in it, or ``Markup`` made from something other than a
literal). The screen check renders every game's screens with markup in every
name and in the string fields of views and lobbies that come from the host, and
finds it only as text.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from quandary import engine
from quandary.engine import moves
from quandary.net.heir import Handover
from quandary.web.controller import Controller
from quandary.web.html import Markup, attrs, esc, join, markup, stamped
from quandary.web.render.room import status_line
from tests.net import test_room_screens as screens

from .test_controller import MemoryStorage, seats
from .test_randolph_controller import Clock

WEB = Path(__file__).resolve().parents[2] / "py" / "quandary" / "web"
HELPERS = WEB / "html.py"

# Names are cut to 20 characters by the lobby and the protocol: each fits.
NAMES = ['<script type="py">', '"><img src=x>', "{0}{{x}}</b>"]
# View fields have no such limit.
HOSTILE = '<script type="py">x</script>"><img src=x onerror=alert(1)>{{0}}{0}'


# -- the source check ---------------------------------------------------------------


def _looks_like_html(text: str) -> bool:
    return "<" in text or '="' in text


def html_built_outside_helpers(source: str, filename: str) -> list[str]:
    """Every place in ``source`` that makes HTML text without the escaping helpers."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        where = f"{filename}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.JoinedStr):
            literal = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
            if _looks_like_html(literal):
                found.append(f"{where}: f-string building HTML")
        elif (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.Mod)
            and isinstance(node.left, ast.Constant)
            and isinstance(node.left.value, str)
            and _looks_like_html(node.left.value)
        ):
            found.append(f"{where}: %-format building HTML")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            target = node.func.value
            if (
                node.func.attr in ("format", "format_map")
                and isinstance(target, ast.Constant)
                and isinstance(target.value, str)
                and _looks_like_html(target.value)
            ):
                found.append(f"{where}: str.format building HTML")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "Markup"
            and not all(isinstance(a, ast.Constant) for a in node.args)
        ):
            found.append(f"{where}: Markup() of something that is not a literal")
    return found


def test_no_module_in_web_builds_html_outside_the_helpers() -> None:
    modules = sorted(p for p in WEB.rglob("*.py") if p != HELPERS)
    assert len(modules) > 10
    found = [
        line
        for path in modules
        for line in html_built_outside_helpers(path.read_text(), str(path.relative_to(WEB)))
    ]
    assert found == []


@pytest.mark.parametrize(
    "planted",
    [
        'def f(name): return f"<p>{name}</p>"',
        "def f(name): return f'<a href=\"{name}\">x</a>'",
        'def f(name): return "<p>%s</p>" % name',
        'def f(name): return "<p>{}</p>".format(name)',
        "def f(name): return Markup(name)",
    ],
)
def test_the_source_check_finds_planted_html(planted: str) -> None:
    assert len(html_built_outside_helpers(planted, "planted.py")) == 1


def test_text_that_is_not_html_may_still_use_fstrings() -> None:
    assert html_built_outside_helpers('def f(n): return f"{n} wins!"', "ok.py") == []


# -- the helpers ---------------------------------------------------------------------


def test_markup_escapes_what_is_not_markup_and_keeps_what_is() -> None:
    assert markup("<p>{}</p>", HOSTILE) == "<p>" + str(esc(HOSTILE)) + "</p>"
    assert markup("<p>{}</p>", markup("<b>{}</b>", 1)) == "<p><b>1</b></p>"
    # Braces in a value are text, not a template.
    assert markup("<p>{}</p>", "{0}{x}") == "<p>{0}{x}</p>"
    assert esc(esc("<")) == "&lt;"
    assert attrs(title='"><script>') == ' title="&quot;&gt;&lt;script&gt;"'
    assert join(["<i>", Markup("<b>")]) == "&lt;i&gt;<b>"


def test_plain_text_never_becomes_markup_by_concatenation() -> None:
    assert isinstance(Markup("<b>") + "<i>", Markup)
    assert Markup("<b>") + "<i>" == "<b>&lt;i&gt;"
    assert "<i>" + Markup("<b>") == "&lt;i&gt;<b>"
    assert type(f"{Markup('<b>')}") is str, "an f-string makes text, which draw refuses"
    with pytest.raises(TypeError):
        Markup("<p>%s</p>") % "<script>"


def test_a_stamp_digests_the_whole_element_and_changes_with_any_part_of_it() -> None:
    """The page leaves a stamped part of the screen unwalked while its stamp is the one
    it shows (static/js/draw.entry.js): a stamp that missed a change would leave the
    old part on screen, so any attribute or any text inside changes it."""
    base = markup('<ol class="log" id="log"><li>{}</li></ol>', "Anna voted")
    first = stamped(base)
    assert first.startswith('<ol class="log" id="log" data-h="')
    assert first.endswith('"><li>Anna voted</li></ol>') and isinstance(first, Markup)
    assert stamped(markup('<ol class="log" id="log"><li>{}</li></ol>', "Anna voted")) == first
    variants = [
        markup('<ol class="log" id="log"><li>{}</li></ol>', "Anna voted."),
        markup('<ol class="log open" id="log"><li>{}</li></ol>', "Anna voted"),
        markup('<ol class="log" id="log2"><li>{}</li></ol>', "Anna voted"),
        markup('<ol class="log" id="log"><li>{}</li><li></li></ol>', "Anna voted"),
    ]
    stamps = {stamped(v).split('data-h="')[1].split('"')[0] for v in [base, *variants]}
    assert len(stamps) == 5
    # A name holding a lone surrogate is digested (and sent) as it is.
    assert "data-h=" in stamped(markup("<p>{}</p>", "\ud800"))
    assert stamped(Markup("<br/>")).endswith('"/>')


@pytest.mark.parametrize(
    "text", ["plain text", "", "<!-- x -->", " <p>x</p>", '<p title="a>b">x</p>', "<p id=x>"]
)
def test_only_an_element_is_stamped(text: str) -> None:
    """Nor an opening tag it cannot read as ``attrs`` writes one: a ``>`` in a value
    (never written so by the helpers) would put the stamp inside that value."""
    with pytest.raises(ValueError):
        stamped(Markup(text))


# -- the screen check ----------------------------------------------------------------


def assert_inert(html: str) -> None:
    """No element but ours: hostile text shows only as text."""
    assert isinstance(html, Markup), "a screen must be Markup"
    lowered = html.lower()
    assert "<script" not in lowered
    assert "<img" not in lowered
    assert "</b>" not in lowered
    assert "src=x" not in lowered.replace("&quot;", '"').replace("&gt;", ">").split("<")[0]


@dataclass
class HostileDevice(screens.Device):
    """A device whose player has a hostile name, drawing its screen after every press.

    ``name`` stays plain (the test network makes ids from it); ``display`` is what
    the player typed into the name field, and what the other devices receive.
    """

    display: str = ""

    def typed_name(self) -> str:
        return self.display

    def press(self, action: str, **data: Any) -> None:
        super().press(action, **data)
        assert_inert(self.html())


def _open_hostile_room(game: str) -> tuple[Any, HostileDevice, list[HostileDevice]]:
    net = screens.Network()
    host = HostileDevice("Hana", net, display=NAMES[0])
    host.press("create-room")
    if game != "dilemmas":
        host.press("field", field="room-game", value=game)
    guests = [
        HostileDevice(f"Guest{i}", net, fragment=host.fragment, display=name)
        for i, name in enumerate(NAMES[1:])
    ]
    net.settle()
    return net, host, guests


GAMES = [g.spec.id for g in engine.all_games()]


@pytest.mark.parametrize("game", GAMES)
def test_hostile_names_render_as_text_in_a_room_game(game: str) -> None:
    net, host, guests = _open_hostile_room(game)
    spec = engine.get(game).spec
    guests = guests[: spec.max_players - 1]
    screens.seat_everyone(net, host, guests)
    for device in [host, *guests]:
        html = device.html()
        assert_inert(html)
        assert "&lt;script type=&quot;py&quot;&gt;" in html
        assert "&quot;&gt;&lt;img src=x&gt;" in html
    host.press("room-start")
    net.settle()
    clock = host.controller.room.table.authority
    for _ in range(50):
        screens.play_on(net, [host, *guests])
        if host.room_view().get("result"):
            break
        wake = clock.next_wakeup()
        assert wake is not None, "nobody can act and no clock runs"
        net.clock = max(net.clock, wake + 1)
        host.controller.on_clock()
        assert_inert(host.html())
    for device in [host, *guests]:
        html = device.html()
        assert_inert(html)
        assert "final-title" in html
        assert "&lt;script type=&quot;py&quot;&gt;" in html


def _poisoned(value: Any, keys: frozenset[str] | None) -> Any:
    """``value`` with hostile text in its string leaves (only under ``keys``, if given).

    The ``game`` key is left alone: an unknown game is refused before anything is
    drawn (``BadSetup``), which proves nothing about escaping.
    """
    if isinstance(value, dict):
        return {
            k: (
                HOSTILE + v
                if isinstance(v, str) and k != "game" and (keys is None or k in keys)
                else _poisoned(v, keys)
            )
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [
            HOSTILE + v if isinstance(v, str) and keys is None else _poisoned(v, keys)
            for v in value
        ]
    return value


FIELDS = frozenset({"version", "phase", "name", "names", "text", "title", "label", "card", "id"})


def _forgeries(view: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield _poisoned(view, None)
    yield _poisoned(view, FIELDS)
    yield {**view, "version": HOSTILE}
    yield {**view, "phase": HOSTILE}
    yield {**view, "scores": [HOSTILE for _ in view.get("scores", [])]}


def _everyone_acts_once(net: Any, devices: list[HostileDevice]) -> None:
    """Each device steps past a result or makes its first legal move, if it has one."""
    for device in devices:
        net.settle()
        room = device.controller.room
        view = room.table.view()
        if view is None or view.get("result"):
            continue
        authority = engine.get(view["game"]).spec.authority_moves
        offered = [m for m in view["legal_moves"] if m["type"] not in authority]
        if room.table.seen < room.table.checkpoints():
            device.press("next")
        elif offered:
            device.press("move", move=json.dumps(moves.concrete(offered[0], lambda a, b: a)))
    net.settle()


@pytest.mark.parametrize("game", GAMES)
def test_a_forged_view_and_lobby_from_the_host_render_inert(game: str) -> None:
    net, host, guests = _open_hostile_room(game)
    (anna,) = guests[:1]
    screens.seat_everyone(net, host, [anna])
    host.press("room-start")
    net.settle()
    guest = anna.controller.room.guest
    honest_view, honest_lobby = guest.view, guest.lobby
    drawn = 0
    for _ in range(6):
        for forged in _forgeries(honest_view):
            guest.view = forged
            for lobby in (honest_lobby, _poisoned(honest_lobby, None)):
                guest.lobby = lobby
                html = anna.html()
                assert_inert(html)
                drawn += "cannot be drawn" not in html
        guest.view, guest.lobby = honest_view, honest_lobby
        _everyone_acts_once(net, [host, anna])
        honest_view, honest_lobby = guest.view, guest.lobby
    assert drawn > 0, "some forgeries are drawable, so their text went through the renderers"


@pytest.mark.parametrize("game", GAMES)
def test_hostile_names_render_as_text_at_a_local_table(game: str) -> None:
    clock = Clock()
    c = Controller(MemoryStorage(), lambda: 3, now=clock)
    c.dispatch("choose-game", {"game": game})
    spec = engine.get(game).spec
    count = max(spec.min_players, 2)
    names = (NAMES * 2)[:count]
    seats(c, [(names[0], "human")] + [(n, "bot:random") for n in names[1:]])
    lobby = c.render()
    assert_inert(lobby)
    assert 'value="&lt;script type=&quot;py&quot;&gt;"' in lobby
    c.dispatch("start", {})
    if c.screen == "practice":  # Dilemma's practice throw, once per device
        assert_inert(c.render())
        c.dispatch("practice-done", {})
    assert c.screen == "table", c.form.error
    for _ in range(200):
        html = c.render()
        assert_inert(html)
        if "final-title" in html:
            break
        table = c.local
        assert table is not None
        if table.seen < table.checkpoints():
            c.dispatch("next", {})
            continue
        view = table.view()
        assert view is not None
        offered = [m for m in view["legal_moves"] if m["type"] not in spec.authority_moves]
        if offered:
            move = moves.concrete(offered[0], lambda a, b: a)
            c.dispatch("move", {"move": json.dumps(move)})
        elif (wake := c.next_wakeup()) is not None:
            clock.now = wake + 1
            c.on_clock()
        else:
            break
    assert "&lt;script type=&quot;py&quot;&gt;" in c.render()


def test_a_cached_card_tile_keeps_text_and_markup_apart() -> None:
    from quandary.games.minister.material import CARDS
    from quandary.web.render.minister_parts import card_tile

    card = next(iter(CARDS))
    as_text = card_tile(card, extra="<b>x</b>")
    as_markup = card_tile(card, extra=Markup("<b>x</b>"))
    assert "&lt;b&gt;x" in as_text and "<b>x</b>" not in as_text
    assert "<b>x</b>" in as_markup


def test_a_hostile_name_in_the_handover_sentence_is_text() -> None:
    """The host names the players (its lobby); while it is away, a guest's status line
    names them too, and a name made of markup and odd Unicode stays text."""
    name = '<img src=x onerror=alert(1)>\u202e"Ben\ud800'
    told = Handover(successor="m2", heirs=("m2",), waited=False, partners=True)
    line = str(status_line("guest", "away", None, None, told, {"m2": name}))
    assert "<img" not in line and "&lt;img src=x onerror=alert(1)&gt;" in line
    assert "takes the game on" in line
