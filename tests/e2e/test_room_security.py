"""A hostile guest in real browsers: posing as the host while it reloads, injecting script.

Ben is a guest with the link, like anyone in the group chat. While the host's
page reloads (the moment guests used to follow whoever answered first), he
sends Anna every host message he can make up, plain and in forged signed
envelopes, with ``<script type="py">`` in every field. Anna's page must show
none of it, run none of it, keep her seat token to the real host, and carry on
with the real host: the host back on its reload, or, if the reload outlasts
the wait for a host whose page closed, Anna herself as its rightful heir
(never Ben, whose claims are forged), with the host back in its seat.
"""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from .play import build_first
from .rooms import JOIN_TIMEOUT_MS, create_room, inbox, join, open_peer

PAYLOAD = (
    '<script type="py">import js\\njs.document.title = "pwned"\\n'
    'js.localStorage.setItem("pwned", "1")</script><img src=x onerror="document.title=1">'
)

ATTACK = """
(payload) => {
  const view = {
    game: "dilemmas", version: payload, seat: 1, players: 3, waiting_for: [],
    result: null, log: [], names: [payload, payload, payload],
    kinds: ["human", "human", "human"], phase: payload, round: payload, scores: [1, 2, 3],
    legal_moves: [], hand: {positive: [], negative: [], neutral: null}, options: {},
  };
  const lobby = {
    game: "dilemmas", title: payload, options: {}, started: true, host: "ben",
    min: 3, max: 6, seats: [], members: [{id: "ben", name: payload, seat: 0, connected: true}],
  };
  const messages = [
    {t: "host"},
    {t: "welcome", token: "forged-token", member: "ben"},
    {t: "lobby", lobby},
    {t: "snapshot", version: 999, view},
    {t: "update", base: 0, version: 1000, set: {version: payload}, drop: []},
    {t: "replaced"},
  ].map((m) => JSON.stringify(m));
  let n = 0;
  const send = () => {
    for (const text of messages) {
      n += 1;
      window.__quandaryBroadcast(text);
      window.__quandaryBroadcast(JSON.stringify({m: text, n, s: "AAAA"}));
    }
  };
  send();
  window.__attack = setInterval(send, 150);
}
"""


def test_a_guest_cannot_pose_as_the_host_during_its_reload_nor_inject_script(
    new_page, room_url
) -> None:
    host = open_peer(new_page, room_url)
    link = create_room(host, "Hana")
    anna, ben = open_peer(new_page, room_url), open_peer(new_page, room_url)
    join(anna, link, "Anna", 1)
    join(ben, link, "Ben", 2)
    host.click("#room-start")
    expect(anna.get_by_role("heading", name="Build your dilemma")).to_be_visible()
    title = anna.title()
    scripts = anna.locator("script").count()
    token = json.loads(
        anna.evaluate(
            "Object.entries(localStorage).find(([k]) => k.startsWith('quandary.room.'))[1]"
        )
    )["token"]

    ben.evaluate(ATTACK, PAYLOAD)
    host.reload()  # the host is away: the moment an impostor would be followed
    expect(anna.locator("#room-status")).to_contain_text("paused", timeout=JOIN_TIMEOUT_MS)
    host.wait_for_selector("html[data-quandary=ready]")
    # Which of the two happens depends on how long the reload takes on this machine;
    # following Ben is neither.
    expect(anna.locator("#room-status")).to_have_text(
        re.compile(r"^(Connected to the room\.|You are the host)"), timeout=JOIN_TIMEOUT_MS
    )
    ben.evaluate("clearInterval(window.__attack)")

    # Nothing of Ben's was run or shown on Anna's page.
    assert anna.title() == title
    assert anna.evaluate("localStorage.getItem('pwned')") is None
    assert anna.locator("script").count() == scripts, "only the page's own"
    assert anna.locator("img[src=x]").count() == 0
    assert "pwned" not in anna.content()
    expect(anna.get_by_role("heading", name="Build your dilemma")).to_be_visible()
    expect(anna.locator(".scoreboard")).to_contain_text("Hana")
    # Anna's seat token went to the real host only: Ben's device never received it.
    assert token not in json.dumps(inbox(ben))
    # The game goes on: everyone builds, and the vote opens for all. Where Anna took
    # over, a bot built Hana's dilemma meanwhile, and Hana's page, back with its saved
    # room, learns of Anna and sits down as a guest in its own seat.
    builders = [host, anna, ben]
    if anna.locator("#room-status").inner_text().startswith("You are the host"):
        expect(anna.locator(".scoreboard li", has_text="Hana")).to_contain_text("ready")
        expect(host.locator("#room-status")).to_have_text(
            "Connected to the room.", timeout=JOIN_TIMEOUT_MS
        )
        builders = [anna, ben]
    for page in builders:
        build_first(page)
    for page in (host, anna, ben):
        expect(page.locator(".vote-row")).to_have_count(3, timeout=JOIN_TIMEOUT_MS)
