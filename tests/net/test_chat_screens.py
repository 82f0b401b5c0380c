"""The chat panel and reaction bubbles on whole devices (the page's controllers) over the
in-memory network: hostile text stays text, the badge counts, bubbles go after 2 s."""

from __future__ import annotations

import re

from quandary.net.chat import LINES, SHOWN_MS
from quandary.web.actions import ClearField

from .test_room_screens import open_room, seat_everyone

HOSTILE = '<img src=x onerror="document.title=1">'


def test_hostile_text_is_shown_as_text_and_heard_politely() -> None:
    net, host, (anna,) = open_room(guests=("Anna",))
    anna.press("chat-send", text=HOSTILE)
    net.settle()
    page = host.html()
    assert "<img" not in page
    assert "&lt;img src=x onerror=&quot;document.title=1&quot;&gt;" in page
    live = re.search(r'<p class="sr-only" id="chat-live" aria-live="polite">(.*?)</p>', page)
    assert live is not None and live.group(1).startswith("Anna: &lt;img")


def test_a_sent_line_empties_the_field_and_the_sixth_stays_with_a_note() -> None:
    net, host, (anna,) = open_room(guests=("Anna",))
    for i in range(LINES):
        anna.controller.dispatch("chat-send", {"text": f"line {i}"})
        assert ClearField("chat-text", f"line {i}") in anna.glue()
    anna.controller.dispatch("chat-send", {"text": "one too many"})
    assert not any(isinstance(e, ClearField) for e in anna.glue())
    note = re.search(r'id="chat-note" role="status">(.*?)</p>', anna.html())
    assert note is not None and note.group(1).startswith("Slow down:")
    net.settle()
    assert host.html().count('class="chat-line"') == LINES


def test_the_badge_counts_lines_that_came_while_the_panel_was_closed() -> None:
    net, host, (anna,) = open_room(guests=("Anna",))
    anna.press("chat-send", text="one")
    anna.press("chat-send", text="two")
    net.settle()
    assert re.search(r'id="chat-unread">2<', host.html())
    host.press("chat-open", open="true")
    assert 'id="chat-unread"' not in host.html()
    anna.press("chat-send", text="three")
    net.settle()
    assert 'id="chat-unread"' not in host.html(), "read as it comes, with the panel open"
    host.press("chat-open", open="false")
    host.press("chat-send", text="my own line is never unread")
    assert 'id="chat-unread"' not in host.html()


def test_a_reaction_shows_by_the_seat_on_the_scoreboard_for_two_seconds() -> None:
    net, host, guests = open_room()
    anna = guests[0]
    anna.press("chat-react", emoji="🎉")
    net.settle()
    assert re.search(r"<li>Anna<span class=\"reaction\"[^>]*>🎉</span>", host.html())
    seat_everyone(net, host, guests)
    host.press("room-start")
    net.settle()
    anna.press("chat-react", emoji="👍")
    net.settle()
    board = re.search(r'<ol class="scoreboard".*?</ol>', host.html())
    assert board is not None
    assert re.search(r'Anna<small></small><span class="reaction"[^>]*>👍</span>', board.group(0))
    room = host.controller.room
    assert room.next_wakeup() is not None
    net.clock += SHOWN_MS
    assert room.on_clock()
    assert 'class="reaction"' not in host.html()


def test_the_host_mutes_a_member_from_the_room_panel() -> None:
    net, host, (anna,) = open_room(guests=("Anna",))
    member = anna.controller.room.my_member()
    assert f'id="mute-{member}"' in host.html()
    assert 'data-action="room-mute"' not in anna.html(), "only the host may mute"
    host.press("room-mute", member=member, muted="true")
    net.settle()
    assert re.search(r'id="mute-[^"]*" aria-pressed="true"', host.html())
    page = anna.html()
    assert "The host has muted you" in page and 'id="chat-text"' in page
    assert re.search(r'<input type="text" id="chat-text"[^>]* disabled', page)
    anna.press("chat-send", text="hello?")
    net.settle()
    assert 'class="chat-line"' not in host.html()


def test_chat_actions_leave_the_rooms_notice_alone() -> None:
    """The panel opens by itself when it first appears (a successor's room included):
    that must not wipe what the room just said ("the room now runs on this device")."""
    net, host, (anna,) = open_room(guests=("Anna",))
    room = host.controller.room
    room.notice = "The host left, so the room now runs on this device."
    host.press("chat-open", open="true")
    host.press("chat-send", text="hi")
    host.press("chat-react", emoji="👍")
    assert room.notice is not None and "runs on this device" in host.html()
