"""Peers that cannot connect directly still play, through the room's TURN server.

Debian's coturn runs on loopback, and every browser context is forced to
relay-only ICE (``iceTransportPolicy: "relay"``), as behind a strict firewall:
no host or server-reflexive candidate is ever tried, so the only way the
devices can connect is through the TURN server the host named in its
connection settings, which the room's link carries to the guest.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from scripts.turn import TurnServer, running_turn

from .play import build_first
from .rooms import JOIN_TIMEOUT_MS, RECORDER, create_room, join, open_peer

# Every RTCPeerConnection the page makes keeps only relay candidates, and is
# kept in a list so the test can ask it which candidates carried the traffic.
RELAY_ONLY = """
(() => {
  const Native = window.RTCPeerConnection;
  const peers = (window.__quandaryPeers = []);
  class RelayOnly extends Native {
    constructor(config, ...rest) {
      super({ ...(config || {}), iceTransportPolicy: "relay" }, ...rest);
      peers.push(this);
    }
  }
  window.RTCPeerConnection = RelayOnly;
})();
"""

# The candidate types (local/remote) of each connected peer's selected pair.
SELECTED_PAIRS = """async () => {
  const pairs = [];
  for (const peer of window.__quandaryPeers) {
    if (peer.connectionState !== "connected") continue;
    const stats = await peer.getStats();
    for (const s of stats.values()) {
      if (s.type !== "transport" || !s.selectedCandidatePairId) continue;
      const pair = stats.get(s.selectedCandidatePairId);
      const local = stats.get(pair.localCandidateId);
      const remote = stats.get(pair.remoteCandidateId);
      pairs.push(`${local.candidateType}/${remote.candidateType}`);
    }
  }
  return pairs;
}"""


@pytest.fixture(scope="module")
def turn() -> Iterator[TurnServer]:
    """coturn on a free loopback port for this module; stopped (process group) after it."""
    if shutil.which("turnserver") is None:
        pytest.fail("Debian's coturn is not installed: run `make test`, which installs it.")
    with running_turn(lifetime=600) as server:
        yield server


def test_two_devices_that_only_reach_a_turn_server_play_through_it(
    new_page, room_url, turn: TurnServer
) -> None:
    def relay_only() -> Page:
        page = new_page()
        page.context.add_init_script(RELAY_ONLY)
        return page

    host = open_peer(relay_only, room_url)
    host.click("summary:has-text('Connection settings')")
    for field, value in (
        ("#turn-urls", turn.url),
        ("#turn-user", turn.username),
        ("#turn-pass", turn.credential),
    ):
        host.fill(field, value)
        host.locator(field).blur()
    link = create_room(host, "Hana")
    assert f"&turn={turn.url.replace(':', '%3A')}&tu=quandary&tp=" in link, link
    host.select_option("#room-seat-count", "3")
    host.select_option("#room-seat-kind-2", "bot:random")
    anna = relay_only()  # straight to the link: one boot fewer than open_peer
    anna.context.add_init_script(RECORDER)
    join(anna, link, "Anna", 1)
    expect(host.locator(".members")).to_contain_text("Anna")
    host.click("#room-start")
    # A move each way: the guest's dilemma reaches the host, whose table (with
    # every dilemma on it) reaches the guest.
    for page in (host, anna):
        expect(page.get_by_role("heading", name="Build your dilemma")).to_be_visible(
            timeout=JOIN_TIMEOUT_MS
        )
        build_first(page)
    for page in (host, anna):
        expect(page.locator(".vote-row")).to_have_count(3, timeout=JOIN_TIMEOUT_MS)
    # The browsers say the connection ran through relayed candidates only...
    for page in (host, anna):
        pairs = page.evaluate(SELECTED_PAIRS)
        assert pairs and set(pairs) == {"relay/relay"}, f"connected through {pairs}"
    # ...and coturn says it gave them relayed addresses and let each reach the
    # other's (a permission per device, at least: coturn drops traffic without).
    log = turn.log()
    for packet in ("ALLOCATE", "CREATE_PERMISSION"):
        done = re.findall(
            rf"user <{turn.username}>: incoming packet {packet} processed, success", log
        )
        assert len(done) >= 2, f"coturn logged {len(done)} {packet}:\n{log[-3000:]}"
