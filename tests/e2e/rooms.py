"""Helpers for room tests: several browser contexts at one table, each audited."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Page, expect

from .conftest import BOOT_TIMEOUT_MS

RECORDER = (Path(__file__).parent / "wire.js").read_text()
"""An init script: the device's room messages in ``window.__quandaryInbox``, read off
its data channels below the page's code, and a sender of raw frames (see wire.js)."""
JOIN_TIMEOUT_MS = 45_000
SEND = """async ([text, times]) => {
  for (let i = 0; i < times; i++) await window.__quandaryBroadcast(text);
}"""
"""Send ``text`` to everyone ``times`` over, framed as Trystero frames it but written
straight onto the data channels, as a hostile guest would (anyone controls their own
page)."""

AHEAD = """(() => {
  if (!globalThis.RTCDataChannel) return;
  window.__ahead = [];
  let answers = 0;
  let answersAtClick = -1;
  let clickedAt = 0;
  let heard = 0; // messages from the room, counted
  let pending = null; // the last intent sent: what happened before the engine was called
  document.addEventListener('click', () => {
    answersAtClick = answers;
    clickedAt = performance.now();
  }, true);
  const listen = MessagePort.prototype.addEventListener;
  MessagePort.prototype.addEventListener = function (type, handler, ...rest) {
    if (type === 'message') listen.call(this, 'message', () => { answers += 1; });
    return listen.call(this, type, handler, ...rest);
  };
  const post = MessagePort.prototype.postMessage;
  MessagePort.prototype.postMessage = function (...args) {
    if (pending) {
      pending.record.held = heard > pending.heard || performance.now() - pending.at >= 240;
      pending = null;
    }
    return post.apply(this, args);
  };
  const send = RTCDataChannel.prototype.send;
  const decoder = new TextDecoder();
  RTCDataChannel.prototype.send = function (data) {
    const text = typeof data === 'string' ? data : decoder.decode(data);
    if (text.includes('"t":"intent"')) {
      const record = { ahead: answers === answersAtClick, held: null };
      pending = { record, heard, at: clickedAt };
      window.__ahead.push(record);
    }
    return send.call(this, data);
  };
  const open = RTCPeerConnection.prototype.createDataChannel;
  const count = (channel) => channel.addEventListener('message', () => { heard += 1; });
  RTCPeerConnection.prototype.createDataChannel = function (...args) {
    const channel = open.apply(this, args);
    count(channel);
    return channel;
  };
  const Connection = RTCPeerConnection;
  window.RTCPeerConnection = class extends Connection {
    constructor(...args) {
      super(...args);
      this.addEventListener('datachannel', (event) => count(event.channel));
    }
  };
})();"""
"""An init script: for each intent the device sends, in ``window.__ahead``, whether it
left before any answer of the device's engine since the last click (``ahead``: the
page sent it at the click, static/js/app.entry.js ``sendAhead``), and whether the
engine was first called after it only once a message came from the room, or after
the page's wait for one ran out (``held``: ``holdForHost``)."""


def open_peer(new_page, url: str, *scripts: str) -> Page:
    """A fresh device (its own context and storage) that records what it receives
    (and runs ``scripts`` too, before the page's own)."""
    page = new_page()
    for script in (RECORDER, *scripts):
        page.context.add_init_script(script)
    page.goto(url)
    page.wait_for_selector("html[data-quandary=ready]", timeout=BOOT_TIMEOUT_MS)
    return page


def create_room(host: Page, name: str) -> str:
    """The host opens a room, names itself, and returns the link to share."""
    host.click("#create-room")
    # The link exists once the room's keys are made and its transport is up: seconds
    # on a loaded machine (CI once took over the default five).
    expect(host.locator("#room-link")).to_be_visible(timeout=JOIN_TIMEOUT_MS)
    rename(host, name)
    return host.input_value("#room-link")


def rename(page: Page, name: str) -> None:
    """Type a name and commit it (a change event)."""
    page.fill("#room-name", name)
    page.press("#room-name", "Enter")
    page.locator("#room-name").blur()


def join(guest: Page, link: str, name: str, seat: int) -> None:
    """A guest opens the link, names itself and takes a seat."""
    guest.goto(link)
    guest.wait_for_selector("html[data-quandary=ready]", timeout=BOOT_TIMEOUT_MS)
    expect(guest.locator("#room-status")).to_have_text(
        "Connected to the room.", timeout=JOIN_TIMEOUT_MS
    )
    rename(guest, name)
    guest.click(f"#sit-{seat}")
    expect(guest.locator(f"#sit-{seat}")).to_have_count(0)


def inbox(page: Page) -> list[dict]:
    """Every message this device received, parsed (a host's signed envelope opened)."""
    out = []
    for text in page.evaluate("window.__quandaryInbox || []"):
        message = json.loads(text)
        out.append(json.loads(message["m"]) if set(message) == {"m", "n", "s"} else message)
    return out


def hand_ids(page: Page) -> set[str]:
    """The card ids in this device's hand, as shown."""
    return set(page.locator(".card[data-card]").evaluate_all("els => els.map(e => e.dataset.card)"))
