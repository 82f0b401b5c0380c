"""Debian's WebKitGTK has no WebRTC: its room screens say plainly that this browser cannot
be in a room, and which browsers can, both to a host and to a guest with a link."""

from __future__ import annotations

import pytest

from quandary.web.bridge import NO_WEBRTC_TEXT

GUEST_LINK = "#r=tj9-2XTFOi0t.sni1PRARHqoGKyB1XJEybg&k=" + "A" * 43


@pytest.mark.parametrize("engine", ["webkit"])
def test_the_room_screens_say_this_browser_cannot_join(new_tab, site_url) -> None:
    tab = new_tab().open(site_url)
    assert tab.evaluate("() => typeof RTCPeerConnection") == "undefined"
    tab.click("#create-room")
    said = tab.text("#screen", "cannot open or join rooms")
    assert NO_WEBRTC_TEXT in " ".join(said.split()), said
    assert "RTCPeerConnection" not in said
    tab.goto(site_url + "?guest" + GUEST_LINK)
    tab.ready()
    said = tab.text("#screen", "cannot open or join rooms")
    assert "Firefox, Chrome, Edge or Safari" in said and "RTCPeerConnection" not in said
