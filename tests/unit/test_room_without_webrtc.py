"""A browser with no WebRTC (WebKitGTK has none) is told plainly that it cannot be in a
room, and which browsers can: static/js/room.entry.js throws NO_WEBRTC when
``RTCPeerConnection`` is missing, and the page passes it on as the room's failure."""

from __future__ import annotations

import html
import json
from typing import Any

from quandary.web.bridge import NO_WEBRTC, NO_WEBRTC_TEXT, Bridge, open_bridge


def send(bridge: Bridge, message: dict[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(bridge.handle(json.dumps(message)))
    return answer


def start(fragment: str = "") -> Bridge:
    bridge = open_bridge(json.dumps({"storage": {}, "href": "http://x/", "now": 0}))
    send(bridge, {"t": "start", "hash": fragment})
    return bridge


def drawn(answer: dict[str, Any]) -> str:
    return html.unescape(" ".join(m["html"] for m in answer["out"] if m["t"] == "draw"))


def host_link() -> str:
    """A real room link, as a host's page makes it."""
    bridge = start()
    send(bridge, {"t": "event", "action": "create-room", "data": {}, "early": False})
    opened = send(bridge, {"t": "host-key", "public": "A" * 43, "private": "B" * 64})
    return str(next(m for m in opened["out"] if m["t"] == "hash")["fragment"])


def test_a_host_without_webrtc_is_told_which_browsers_can_open_a_room() -> None:
    bridge = start()
    send(bridge, {"t": "event", "action": "create-room", "data": {}, "early": False})
    send(bridge, {"t": "host-key", "public": "A" * 43, "private": "B" * 64})
    answer = send(bridge, {"t": "room-opened", "error": NO_WEBRTC})
    text = drawn(answer)
    assert NO_WEBRTC_TEXT in text
    assert "Firefox, Chrome, Edge or Safari" in text
    assert NO_WEBRTC not in text and "RTCPeerConnection" not in text
    assert answer["heartbeat"] is False


def test_a_guest_without_webrtc_is_told_which_browsers_can_join() -> None:
    bridge = start(host_link())
    answer = send(bridge, {"t": "room-opened", "error": NO_WEBRTC})
    assert NO_WEBRTC_TEXT in drawn(answer)


def test_any_other_failure_still_says_what_failed() -> None:
    bridge = start()
    send(bridge, {"t": "event", "action": "create-room", "data": {}, "early": False})
    send(bridge, {"t": "host-key", "public": "A" * 43, "private": "B" * 64})
    answer = send(bridge, {"t": "room-opened", "error": "relay refused"})
    assert "it failed: relay refused." in drawn(answer)
    assert NO_WEBRTC_TEXT not in drawn(answer)
