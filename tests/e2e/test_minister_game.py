"""Maybe Minister in the real page: a whole game against bots, and a secret vote in a room."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Page, expect

from .conftest import open_app, wait_js
from .play import choose_game, expect_every_score_on_the_final_screen, lobby_seat_names
from .rooms import create_room, inbox, join, open_peer

CALM = ("#collect", "#pass", "#done")


def _changed(page: Page, before: str) -> None:
    """Wait until the table has been drawn again after a click."""
    wait_js(page, "old => document.querySelector('main').innerHTML !== old", before, 20_000)


def _propose(page: Page) -> None:
    """Click hand cards until the proposal is allowed, then propose."""
    cards = page.locator(".mm-handpick button[data-card]")
    for i in range(cards.count()):
        cards.nth(i).click()
        expect(cards.nth(i)).to_have_attribute("aria-pressed", "true")
        if page.locator("#submit").is_enabled():
            break
    page.click("#submit")


def _vote(page: Page) -> str:
    """Choose the first stored vote, see that nothing is cast yet, then confirm it."""
    button = page.locator(".mm-votes button").first
    vote = (button.get_attribute("id") or "").removeprefix("vote-")
    expect(page.locator("#cast-vote")).to_be_disabled()
    button.click()
    expect(button).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#cast-vote")).to_be_enabled()
    page.click("#cast-vote")
    return vote


# Every law in force and every player's points: where each lies once the page is
# scrolled to its top, and how tall the first screen is.
GLANCE = """() => {
  window.scrollTo(0, 0);
  const boxes = (selector) => [...document.querySelectorAll(selector)].map((e) => {
    const box = e.getBoundingClientRect();
    return {text: e.textContent.trim().slice(0, 40), top: box.top, bottom: box.bottom,
            width: box.width};
  });
  return {scrollY: window.scrollY, height: window.innerHeight,
          laws: boxes('.mm-laws .mm-law'), scores: boxes('.mm-scores .mm-score')};
}"""


def _out_of_first_screen(page: Page) -> list[str]:
    """The laws in force and players' points not wholly in the first screen, scrolled to top.

    A newcomer reads what scores and who leads at a glance, or not at all: a law
    half under the fold is as good as hidden.
    """
    seen = page.evaluate(GLANCE)
    assert seen["scrollY"] == 0
    if not seen["scores"]:
        return ["no player's points on the screen"]
    return [
        f"{item['text']!r} at {item['top']:.0f}-{item['bottom']:.0f}"
        for item in seen["laws"] + seen["scores"]
        if item["width"] == 0 or item["top"] < 0 or item["bottom"] > seen["height"]
    ]


def _step(page: Page) -> bool:
    """Do whatever the screen asks; False once the final screen is shown."""
    if page.locator(".final").count():
        return False
    before = page.inner_html("main")
    if page.locator("#next").count():
        page.click("#next")
    elif page.locator(".mm-handpick").count():
        _propose(page)
    elif page.locator("#cast-vote").count():
        _vote(page)
    else:
        calm = [s for s in CALM if page.locator(f"{s}:not([disabled])").count()]
        target = page.locator(calm[0]) if calm else page.locator(".mm-move:not([disabled])").first
        target.click()
    _changed(page, before)
    return True


def test_a_whole_game_against_two_bots(new_page, base_url) -> None:
    """A newcomer's first game at 1280x800 with the default bots, from the lobby to the end."""
    page = open_app(new_page({"width": 1280, "height": 800}), base_url)
    choose_game(page, "minister")
    names = lobby_seat_names(page)
    assert len(names) == 3, names  # the lobby's defaults: you and two clever bots
    page.click("#start")
    expect(
        page.get_by_role("heading", name=re.compile("Make a proposal|Vote in secret"))
    ).to_be_visible()
    expect(page.locator(".mm-laws")).to_contain_text("No law has been enacted yet")
    expect(page.locator("#mm-now")).to_contain_text("Now:")
    # The decks are folded (no move depends on them); opened, they stay open while
    # the table is drawn again after every move, a bot's or the player's.
    supply = page.locator("details.mm-supply")
    expect(supply).not_to_have_attribute("open", "")
    supply.locator("summary").click()
    expect(supply.locator("p")).to_contain_text("Decree deck:")
    reveals = 0
    screens: list[str] = []
    hidden: dict[str, list[str]] = {}
    with_laws = 0
    for _ in range(1500):
        if page.locator(".final").count():
            break
        if page.locator("#next").count():
            reveals += 1
            expect(page.locator(".mm-reveal")).to_contain_text("Picking order")
        # Every screen, a turn or a vote's reveal: every law in force and every
        # player's points in the first screen, with nothing scrolled.
        title = page.locator("#turn-title, #result-title").inner_text()
        screens.append(title)
        with_laws += bool(page.locator(".mm-laws .mm-law").count())
        if out := _out_of_first_screen(page):
            hidden[f"screen {len(screens)}: {title}"] = out
        if supply.count():
            expect(supply).to_have_attribute("open", "")
        if not _step(page):
            break
    expect_every_score_on_the_final_screen(page, names)
    assert reveals >= 3
    assert with_laws, "a law was enacted during the game"
    shown = len(screens) - len(hidden)
    print(f"laws and points in the first screen on {shown} of {len(screens)} screens")
    assert not hidden, f"only {shown} of {len(screens)} screens show them all: {hidden}"


def test_a_vote_round_in_a_room_keeps_every_vote_secret_until_the_reveal(new_page, room_url):
    host = open_peer(new_page, room_url)
    link = create_room(host, "Hana")
    host.select_option("#room-game", "minister")
    anna, ben = open_peer(new_page, room_url), open_peer(new_page, room_url)
    join(anna, link, "Anna", 1)
    join(ben, link, "Ben", 2)
    host.click("#room-start")
    devices = {"Hana": host, "Anna": anna, "Ben": ben}
    expect(host.get_by_role("heading", name=re.compile("Make a proposal"))).to_be_visible()
    _propose(host)
    cast: dict[str, str] = {}
    for who, page in devices.items():
        expect(page.get_by_role("heading", name=re.compile("Vote in secret"))).to_be_visible()
        cast[who] = _vote(page)
        assert re.fullmatch(r"v\d+", cast[who])
    for page in devices.values():
        expect(page.locator(".mm-reveal")).to_be_visible()
        expect(page.locator(".mm-reveal-votes tr")).to_have_count(3)
    for who in ("Anna", "Ben"):
        messages = inbox(devices[who])
        assert messages, "the recorder saw nothing"
        text = [json.dumps(m) for m in messages]
        for other, vote in cast.items():
            if other == who:
                continue
            # Another player's vote card is never sent by id: before the reveal it is
            # secret, and the reveal shows only its number and kind.
            assert not any(f'"{vote}"' in t for t in text), f"{who} learnt {other}'s vote"
        # Before the reveal, not even the number of another player's vote reaches a guest.
        revealed_at = next(i for i, t in enumerate(text) if '"accepted"' in t)
        for other, vote in cast.items():
            if other != who:
                seen = re.compile(rf'"number": {vote[1:]}\b')
                assert not any(seen.search(t) for t in text[:revealed_at]), (who, other)


# Every word of a card title, measured with a Range: a word laid out over two lines
# has client rects on two lines. Each title element on the page takes every card's
# name in turn, so every name is measured in every place a title is drawn.
SPLIT_WORDS = """(names) => {
  const range = document.createRange();
  const split = (element) => {
    const out = [];
    for (const node of element.childNodes) {
      if (node.nodeType !== Node.TEXT_NODE) continue;
      for (const m of node.textContent.matchAll(/\\S+/g)) {
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()]
          .filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) out.push(m[0]);
      }
    }
    return out;
  };
  const found = [];
  const titles = [...document.querySelectorAll('.mm-name, .mm-lawlist .mm-law strong')];
  for (const title of titles) {
    const shown = title.textContent;
    for (const name of names) {
      title.textContent = name;
      for (const word of split(title)) found.push(`${word} (in ${name})`);
      // Kept whole, a word must still fit: sticking out of its card is no better.
      if (title.scrollWidth > title.clientWidth + 1) found.push(`${name} overflows`);
    }
    title.textContent = shown;
  }
  return {titles: titles.length, found: [...new Set(found)]};
}"""


WIDTHS = (360, 820, 1280)
"""A narrow phone, a tablet and a laptop."""


def test_no_card_title_breaks_inside_a_word(new_page, base_url) -> None:
    """On a narrow phone (360 px), a tablet and a laptop, every card name, in every place
    a title is drawn, breaks only between words: one game, each of its screens measured
    at each width in turn (the page lays itself out again for each)."""
    from quandary.games.minister.material import CARDS

    page = open_app(new_page({"width": WIDTHS[0], "height": 740}), base_url)
    choose_game(page, "minister")
    page.click("#start")
    expect(page.locator(".mm-handpick .mm-name").first).to_be_visible()
    names = sorted({card.name for card in CARDS.values()})
    found: dict[str, list[str]] = {}
    places = dict.fromkeys(WIDTHS, 0)
    for _ in range(40):
        # The hand, the proposal, the reveal, the take buttons, laws and won cards.
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 740})
            seen = page.evaluate(SPLIT_WORDS, names)
            places[width] = max(places[width], seen["titles"])
            if seen["found"]:
                title = page.locator("#turn-title, #result-title").inner_text()
                found[f"{width} px, {title}"] = seen["found"]
        if page.locator(".mm-laws .mm-law").count() and min(places.values()) >= 8:
            break
        if not _step(page):
            break
    assert min(places.values()) >= 8, f"titles in several places were measured: {places}"
    assert not found, f"words broken inside: {found}"
