"""Dilemma's throw with a real hand's gestures, in the practice arena: mouse drags
and finger flicks, each a recorded shape of path and pace, from slow drags to quick
flicks, sampled at 60 to 125 Hz and aimed up to 15 degrees off the arena. At least
8 of every 10 must land flat in the arena, as the game's own throw model lands
them; a card let go without moving is told so and stays in the hand.

The gestures go in as the browser's own input (CDP ``Input.dispatchMouseEvent``,
what Playwright's ``page.mouse`` sends, and ``Input.dispatchTouchEvent``), paced
sample by sample and each stamped with its recorded moment: on a loaded machine
an input may arrive late, and unstamped a quick flick would be measured as a slow
drag. The gestures are the ones newcomers made (100-150 px, 60-300 ms): a throw
that only lands when the hand is exact is a throw newcomers cannot play.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from playwright.sync_api import CDPSession, Page, expect

from .conftest import open_app, wait_js
from .play import choose_game

STEP_TIMEOUT_MS = 30_000


@dataclass(frozen=True)
class Gesture:
    """One recorded throw: its path's shape, length, duration, sampling rate and aim."""

    band: str
    """"slow drag", "drag" or "flick": how fast the hand moved."""
    shape: Callable[[float], float]
    """Share of the length covered at each share of the duration."""
    length: float
    ms: float
    hertz: float
    aim: float
    """Degrees off the line from the card to the arena's centre (positive: clockwise)."""
    bow: float
    """How far the path bulges sideways, in px: no hand moves in a straight line."""

    def points(self, x: float, y: float, tx: float, ty: float) -> list[tuple[float, float, float]]:
        """The samples (ms after the press, x, y) of this gesture from (x, y), aimed
        ``aim`` degrees off the way to (tx, ty)."""
        heading = math.atan2(ty - y, tx - x) + math.radians(self.aim)
        ux, uy = math.cos(heading), math.sin(heading)
        count = max(2, round(self.ms * self.hertz / 1000))
        out = []
        for i in range(1, count + 1):
            u = i / count
            along = self.length * self.shape(u)
            side = self.bow * math.sin(math.pi * u)
            out.append((self.ms * u, x + ux * along - uy * side, y + uy * along + ux * side))
        return out


def ease_out(u: float) -> float:
    """A drag that slows down as it reaches where the hand lets go."""
    return 1 - (1 - u) ** 2


def steady(u: float) -> float:
    return u


def ease_in(u: float) -> float:
    """A flick: the hand speeds up into the release."""
    return u * u


def smooth(u: float) -> float:
    return u * u * (3 - 2 * u)


GESTURES = [
    Gesture("slow drag", ease_out, 110, 300, 60, 12, 6),
    Gesture("slow drag", smooth, 140, 280, 125, -14, -8),
    Gesture("slow drag", steady, 100, 250, 90, 9, 4),
    Gesture("drag", smooth, 150, 200, 60, -11, 5),
    Gesture("drag", ease_in, 120, 160, 125, 15, -6),
    Gesture("drag", ease_out, 130, 140, 90, -6, 8),
    Gesture("drag", steady, 125, 120, 60, 13, 3),
    Gesture("flick", ease_in, 100, 90, 125, -10, -4),
    Gesture("flick", steady, 140, 70, 90, 3, 6),
    Gesture("flick", ease_in, 150, 60, 125, -15, 5),
]
"""Ten throws from slow drags to quick flicks, every one aimed within 15 degrees."""


SENT_JS = """() => { window.sentThrows = []; window.heldFor = [];
  document.addEventListener('quandary:throw', (e) => window.sentThrows.push(e.detail));
  let down = 0;
  document.addEventListener('pointerdown', (e) => { down = e.timeStamp; });
  document.addEventListener('pointerup', (e) => window.heldFor.push(e.timeStamp - down)); }"""
"""Keep every gesture the page sends and how long the page saw each press last, to
print what each throw was measured as."""


def to_practice(page: Page) -> None:
    """The practice arena (offered before a device's first game of Dilemma)."""
    choose_game(page, "randolph")
    page.click("#start")
    expect(page.get_by_role("heading", name="Practice a throw")).to_be_visible()
    page.evaluate(SENT_JS)


def card_and_arena(page: Page) -> tuple[float, float, float, float]:
    page.locator(".throw-card").first.scroll_into_view_if_needed()
    card = page.locator(".throw-card").first.bounding_box()
    arena = page.locator("#arena").bounding_box()
    assert card is not None and arena is not None
    return (
        card["x"] + card["width"] / 2,
        card["y"] + card["height"] / 2,
        arena["x"] + arena["width"] / 2,
        arena["y"] + arena["height"] / 2,
    )


PACE_JS = """t => { while (performance.now() < t) {}
  return (performance.timeOrigin + performance.now()) / 1000; }"""
"""Hold the page until its clock reads ``t`` (a sample goes out at its moment); the
moment, in seconds since the epoch, as the browser's input stamps it."""


def play_back(page: Page, send: Callable[[str, float, float, float], None], g: Gesture) -> None:
    """Press, move through the gesture's samples and let go, each input stamped with
    its recorded moment: a loaded machine may deliver one late, but the page
    measures the hand by the moments the input carries, as it does a real hand's."""
    x, y, tx, ty = card_and_arena(page)
    began = float(page.evaluate("performance.now()")) + 20
    origin = float(page.evaluate(PACE_JS, began))
    send("down", x, y, origin)
    for t, px, py in g.points(x, y, tx, ty):
        page.evaluate(PACE_JS, began + t)
        send("move", px, py, origin + t / 1000)
    send("up", *g.points(x, y, tx, ty)[-1][1:], origin + g.ms / 1000)


MOUSE = {"down": "mousePressed", "move": "mouseMoved", "up": "mouseReleased"}
TOUCH = {"down": "touchStart", "move": "touchMove", "up": "touchEnd"}


def mouse_throw(page: Page, cdp: CDPSession, gesture: Gesture) -> None:
    """A mouse drag, as Playwright's ``page.mouse`` sends it (CDP mouse input), with
    each event's moment stamped."""

    def send(kind: str, x: float, y: float, at: float) -> None:
        cdp.send(
            "Input.dispatchMouseEvent",
            {
                "type": MOUSE[kind],
                "x": x,
                "y": y,
                "button": "left",
                "buttons": 0 if kind == "up" else 1,
                "clickCount": 1,
                "timestamp": at,
            },
        )

    page.mouse.move(*card_and_arena(page)[:2])
    play_back(page, send, gesture)


def finger_throw(page: Page, cdp: CDPSession, gesture: Gesture) -> None:
    """A finger flick by the browser's touch input, each touch stamped with its moment."""

    def send(kind: str, x: float, y: float, at: float) -> None:
        points = [] if kind == "up" else [{"x": x, "y": y}]
        cdp.send(
            "Input.dispatchTouchEvent",
            {"type": TOUCH[kind], "touchPoints": points, "timestamp": at},
        )

    play_back(page, send, gesture)


ANSWER_JS = """(tries) => {
  const section = document.querySelector('section.practice');
  const verdict = document.querySelector('#practice-verdict');
  if (Number(section?.dataset.tries) >= tries)
    return verdict.classList.contains('good') ? 'flat'
      : 'missed: ' + verdict.textContent.split('.')[0].replace(/^Throw \\d+: /, '');
  const said = document.querySelector('#aim-readout')?.textContent.trim();
  return said ? 'refused: ' + said : false;
}"""
"""What became of the last gesture: the practice's verdict on throw number ``tries``, or
the page's words for a gesture it did not take as a throw."""


def answer(page: Page, throw: Callable[[], None], tries: int) -> str:
    """Make one gesture; "flat", "missed" or why the page refused it."""
    page.evaluate("() => { document.querySelector('#aim-readout').textContent = ''; }")
    throw()
    return str(wait_js(page, ANSWER_JS, tries, STEP_TIMEOUT_MS))


def land_rate(page: Page, throw: Callable[[Gesture], None], device: str) -> int:
    """Throw every gesture in the practice arena; prints and returns how many landed flat."""
    bands: dict[str, list[str]] = {}
    tries = 0
    for gesture in GESTURES:
        said = answer(page, lambda g=gesture: throw(g), tries + 1)
        tries += not said.startswith("refused")
        bands.setdefault(gesture.band, []).append(said)
    shares = ", ".join(f"{band} {v.count('flat')}/{len(v)}" for band, v in bands.items())
    total = sum(v.count("flat") for v in bands.values())
    print(f"{device}: {total}/{len(GESTURES)} landed flat ({shares})")
    for band, said in bands.items():  # what became of each throw
        print(f"  {band}: " + "; ".join(said))
    sent = page.evaluate("() => window.sentThrows")
    held = page.evaluate("() => window.heldFor")
    print("  held for (ms, as the page saw it): " + ", ".join(str(round(ms)) for ms in held))
    print(
        "  measured as: "
        + "; ".join(f"{t['aim']}° power {t['power']} spin {t['spin']}" for t in sent)
    )
    return total


def test_mouse_throws_from_slow_drags_to_quick_flicks_land(new_page, base_url) -> None:
    page = open_app(new_page({"width": 1024, "height": 800}), base_url)
    to_practice(page)
    cdp = page.context.new_cdp_session(page)
    total = land_rate(page, lambda g: mouse_throw(page, cdp, g), "mouse")
    assert total >= 8, f"only {total} of 10 natural mouse throws landed"


def test_finger_flicks_on_a_phone_land(new_page, base_url) -> None:
    page = open_app(
        new_page({"width": 360, "height": 740}, has_touch=True, is_mobile=True), base_url
    )
    to_practice(page)
    # The practice's card, arena and way on are all in view on a small phone.
    for part in ("#arena", ".throw-card", "#practice-done"):
        expect(page.locator(part)).to_be_in_viewport(ratio=1)
    cdp = page.context.new_cdp_session(page)
    total = land_rate(page, lambda g: finger_throw(page, cdp, g), "finger")
    for part in ("#arena", ".throw-card", "#practice-verdict", "#practice-done"):
        expect(page.locator(part)).to_be_in_viewport(ratio=1)
    assert total >= 8, f"only {total} of 10 natural finger flicks landed"


def test_a_card_let_go_without_moving_is_not_thrown(new_page, base_url) -> None:
    page = open_app(new_page({"width": 1024, "height": 800}), base_url)
    to_practice(page)
    x, y, _, _ = card_and_arena(page)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 3, y - 2)
    page.mouse.up()
    expect(page.locator("#aim-readout")).to_contain_text("without throwing it")
    expect(page.locator("#aim-readout")).not_to_contain_text("away from the arena")
    expect(page.locator("section.practice")).to_have_attribute("data-tries", "0")


def test_the_practice_arena_again_and_again_before_and_during_a_game(new_page, base_url) -> None:
    page = open_app(new_page({"width": 1024, "height": 800}), base_url)
    to_practice(page)
    cdp = page.context.new_cdp_session(page)
    steady_drag = GESTURES[3]
    for tries in (1, 2, 3):
        said = answer(page, lambda: mouse_throw(page, cdp, steady_drag), tries)
        assert not said.startswith("refused"), said
        expect(page.locator("#practice-verdict")).to_contain_text(f"Throw {tries}:")
    page.click("#practice-done")  # "Start the game"
    expect(page.locator("#turn-title")).to_be_visible()
    expect(page.locator("section.practice")).to_have_count(0)
    # During the game: the practice opens again, and leads back to this game.
    page.click("#practice")
    expect(page.locator("#practice-done")).to_have_text("Back to the game")
    for tries in (1, 2):
        said = answer(page, lambda: mouse_throw(page, cdp, steady_drag), tries)
        assert not said.startswith("refused"), said
    page.click("#practice-done")
    expect(page.locator("section.practice")).to_have_count(0)
    expect(page.locator(".players")).to_be_visible()
