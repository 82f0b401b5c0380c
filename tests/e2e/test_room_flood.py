"""A flood and a huge message from a guest, in real browsers over real data channels.

The page's transport reads each chunk's header before Trystero puts a message
together (static/js/gate.js): a message bigger than any the room sends is dropped
from its first chunk, and a peer over its rate has its messages dropped unread, so
neither reaches the host's Python nor holds up an honest guest.
"""

from __future__ import annotations

from playwright.sync_api import expect

from .rooms import (
    JOIN_TIMEOUT_MS,
    RECORDER,
    SEND,
    create_room,
    inbox,
    join,
    open_peer,
    rename,
)

TOO_LARGE = "too large"
ABORT_HEARD = """
const logged = console.error;
console.error = (...args) =>
  String(args[0]).startsWith('Trystero peer error:') ? undefined : logged(...args);
"""
"""The sender of a huge message hears its channel aborted under it (the host closed the
connection at the message's first chunk) and Trystero logs that on the sender's page:
the attacker's own page, not the room's. The host's and Anna's pages are still held to
no error at all."""


def refusals(page, words: str) -> int:
    return sum(1 for m in inbox(page) if m.get("t") == "rejected" and words in m.get("reason", ""))


def test_a_huge_message_and_a_flood_are_dropped_unread_and_the_room_plays_on(new_page, room_url):
    host = open_peer(new_page, room_url)
    link = create_room(host, "Hana")
    anna, mallory = open_peer(new_page, room_url), open_peer(new_page, room_url, ABORT_HEARD)
    join(anna, link, "Anna", 1)
    join(mallory, link, "Mallory", 2)
    # Over the protocol's 64 KiB but within what the transport takes: it reaches the
    # host, whose Python refuses it with a reason (so a refusal is what we would see).
    mallory.evaluate(SEND, ["x" * 100_000, 1])
    mallory.wait_for_function(
        "() => (window.__quandaryInbox || []).some((t) => t.includes('too large'))",
        timeout=JOIN_TIMEOUT_MS,
    )
    assert refusals(mallory, TOO_LARGE) == 1
    # A flood of small messages: over the rate they are dropped before parsing; an
    # honest guest's change still goes through and everyone sees it.
    mallory.evaluate(SEND, ['{"t": "sync", "version": 0}', 2_000])
    rename(anna, "Annabel")
    for page in (host, anna, mallory):
        expect(page.locator(".members")).to_contain_text("Annabel", timeout=JOIN_TIMEOUT_MS)
    heard = host.evaluate("() => window.__quandaryInbox.filter((t) => t.includes('sync')).length")
    assert heard < 500, f"{heard} of the flood's 2,000 messages were read: over the rate, few are"
    # 8 MB, forty times what the room takes (bench.room_flood times 30 MB), and a
    # message behind it: no honest peer sends the first, so its first chunk closes
    # Mallory's connection on the host's page, which reads nothing more of either (the
    # rest of the 8 MB still in flight: the browser's abort is not a page error).
    mallory.evaluate(SEND, ["y" * 8_000_000, 1])
    mallory.evaluate(SEND, ['{"t": "no such kind"}', 1])
    members = host.locator(".members")
    expect(members.locator("li", has_text="Mallory")).to_contain_text(
        "away", timeout=JOIN_TIMEOUT_MS
    )
    assert refusals(mallory, TOO_LARGE) == 1, "the 8 MB message reached the host's Python"
    huge = host.evaluate("() => window.__quandaryInbox.filter((t) => t.length > 200000).length")
    assert huge == 0
    assert host.evaluate("() => !window.__quandaryInbox.some((t) => t.includes('no such kind'))"), (
        "a message behind the huge one was read"
    )
    # The room plays on for the others.
    rename(anna, "Anna B")
    for page in (host, anna):
        expect(page.locator(".members")).to_contain_text("Anna B", timeout=JOIN_TIMEOUT_MS)


# Mallory's page keeps its data channels and a copy of the framing its own transport
# writes, so the test can send what no honest Trystero would: raw frames.
RAW_TAP = """
window.__channels = new Set();
window.__frame = null;
const send = RTCDataChannel.prototype.send;
RTCDataChannel.prototype.send = function (data) {
  window.__channels.add(this);
  const bytes = ArrayBuffer.isView(data)
    ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
    : data instanceof ArrayBuffer ? new Uint8Array(data) : null;
  if (bytes && bytes[0] === 1 && !window.__frame) window.__frame = Array.from(bytes);
  return send.call(this, data);
};
"""
LIAR = """() => {
  // One message that says it is one chunk long (progress 255) and runs to 300 KB.
  const head = window.__frame;
  const start = 3 + ((head[1] << 8) | head[2]);
  const chunk = new Uint8Array(16 * 1024);
  chunk.set(head.slice(0, start + 32));
  chunk.set([255, 255, 0, 255], start + 32);  // nonce, tag: not the last, progress: all
  for (let i = 0; i < 20; i++) {
    for (const channel of window.__channels) if (channel.readyState === 'open') channel.send(chunk);
  }
}"""


# The host's page keeps every connection it makes (the transport subclasses the
# browser's RTCPeerConnection when it loads: it subclasses this one).
CONNECTIONS = """
window.__connections = [];
const Native = window.RTCPeerConnection;
window.RTCPeerConnection = class extends Native {
  constructor(...args) {
    super(...args);
    window.__connections.push(this);
  }
};
"""


def test_a_message_longer_than_it_declared_closes_the_liars_connection(new_page, room_url):
    host = open_peer(new_page, room_url, CONNECTIONS)
    link = create_room(host, "Hana")
    anna = open_peer(new_page, room_url)
    mallory = new_page()
    mallory.context.add_init_script(RECORDER + RAW_TAP)
    join(anna, link, "Anna", 1)
    join(mallory, link, "Mallory", 2)
    mallory.wait_for_function("() => window.__frame && window.__channels.size > 0")
    # A message longer than it declared breaks the framing on purpose: the host's
    # page closes that connection, and Mallory shows as away.
    mallory.evaluate(LIAR)
    members = host.locator(".members")
    expect(members.locator("li", has_text="Mallory")).to_contain_text(
        "away", timeout=JOIN_TIMEOUT_MS
    )
    expect(members.locator("li", has_text="Anna")).to_contain_text("here")
    # The whole connection is closed, not only its channel (whose ICE, DTLS and SCTP
    # would otherwise run on, one more each time the liar came back).
    closed = "() => window.__connections.filter((c) => c.signalingState === 'closed').length"
    assert host.evaluate(closed) >= 1
