"""Chat and reactions over the in-memory network: relayed by the host, stamped by it,
cleaned, bounded, rate-limited with a note, mutable, and never forged by a peer."""

from __future__ import annotations

import json

import pytest

from quandary.net.chat import (
    CHUNK,
    HISTORY,
    LINES,
    MAX_CHAT,
    REACTIONS,
    WINDOW_MS,
    ChatRoom,
    clean_chat,
)
from quandary.net.messages import GUEST_TYPES, HOST_TYPES, MAX_BYTES, ProtocolError, encode, parse

from .memnet import HostKey, Network, sign
from .test_room_protocol import rejections


def room_of_two():
    net = Network()
    host = net.add_host("Hana")
    anna = net.add_guest("A", "Anna")
    ben = net.add_guest("B", "Ben")
    net.settle()
    return net, host, anna, ben


def texts(log) -> list[tuple[str, str]]:
    return [(line.name, line.text) for line in log.lines]


def test_a_line_is_relayed_to_everyone_stamped_with_its_sender() -> None:
    net, host, anna, ben = room_of_two()
    assert anna.say("hello all")
    net.settle()
    for log in (host.chat.log, anna.chat, ben.chat):
        assert texts(log) == [("Anna", "hello all")]
        assert log.lines[0].member == anna.member
    host.say("welcome")
    net.settle()
    assert texts(ben.chat) == [("Anna", "hello all"), ("Hana", "welcome")]


def test_chat_never_travels_in_the_game_state_or_views() -> None:
    net, host, anna, ben = room_of_two()
    ids = {m["name"]: m["id"] for m in host.lobby()["members"]}
    host.sit(ids["Hana"], 0)
    anna.sit(1)
    ben.sit(2)
    net.settle()
    host.start()
    net.settle()
    anna.say("secret plan xyzzy")
    net.settle()
    assert "xyzzy" not in json.dumps(host.to_json())
    assert "xyzzy" not in json.dumps(ben.view) and "xyzzy" not in json.dumps(ben.lobby)
    assert texts(ben.chat) == [("Anna", "secret plan xyzzy")]


def test_the_name_is_the_hosts_record_not_the_senders_word() -> None:
    net, host, anna, ben = room_of_two()
    # A guest's own message cannot name its sender: the schema has no such field.
    host.on_message("A", '{"t":"chat","text":"hi","name":"Hana"}')
    net.settle()
    assert "exactly the fields" in rejections(net, "A")[-1]["reason"]
    host.on_message("A", encode({"t": "chat", "text": "hi"}))
    net.settle()
    assert texts(ben.chat) == [("Anna", "hi")]


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("a\u202eevil\u202c b", "aevil b"),  # bidi overrides
        ("zero\u200bwidth", "zerowidth"),
        ("two\nlines\ttab", "two lines tab"),
        ("bell\x07 \x1b[31mred", "bell [31mred"),
        ("lone \ud800 surrogate", "lone surrogate"),
        ("e\u0301", "é"),
        ("👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"),  # a family stays one emoji
        ("x" * 400, "x" * MAX_CHAT),
        ("   ", ""),
    ],
)
def test_text_is_cleaned_like_names(typed: str, shown: str) -> None:
    assert clean_chat(typed) == shown


def test_the_host_cleans_what_a_hostile_guest_sends() -> None:
    net, host, anna, ben = room_of_two()
    host.on_message("A", json.dumps({"t": "chat", "text": "hi\u200b\u2063 there"}))
    net.settle()
    assert texts(ben.chat) == [("Anna", "hi there")]
    # Bidi overrides and control characters are refused with the whole message.
    host.on_message("A", json.dumps({"t": "chat", "text": "a\u202eb"}))
    net.settle()
    assert "control characters" in rejections(net, "A")[-1]["reason"]
    host.on_message("A", json.dumps({"t": "chat", "text": "\u200b"}))
    net.settle()
    assert rejections(net, "A")[-1]["code"] == "chat-empty"
    assert len(ben.chat.lines) == 1


def test_a_line_over_280_characters_is_refused_by_the_schema() -> None:
    parse(encode({"t": "chat", "text": "x" * MAX_CHAT}), GUEST_TYPES)
    with pytest.raises(ProtocolError, match="chat line"):
        parse(encode({"t": "chat", "text": "x" * (MAX_CHAT + 1)}), GUEST_TYPES)
    with pytest.raises(ProtocolError, match="reaction"):
        parse(encode({"t": "react", "emoji": "💩"}), GUEST_TYPES)
    with pytest.raises(ProtocolError, match="too large"):
        parse('{"t":"chat","text":"' + "x" * 70_000 + '"}', GUEST_TYPES)


def test_the_sixth_fast_line_is_refused_with_a_note_never_silently() -> None:
    net, host, anna, ben = room_of_two()
    for i in range(LINES):
        assert anna.say(f"line {i}")
    assert not anna.say("one too many")
    assert anna.chat.note is not None and anna.chat.note.startswith("Slow down:")
    net.settle()
    assert len(ben.chat.lines) == LINES
    net.clock += WINDOW_MS
    assert anna.say("later")
    assert anna.chat.note is None
    net.settle()
    assert ben.chat.lines[-1].text == "later"


def test_the_host_enforces_the_limit_on_a_guest_that_ignores_it() -> None:
    net, host, anna, ben = room_of_two()
    for i in range(LINES + 3):
        host.on_message("A", encode({"t": "chat", "text": f"flood {i}"}))
    net.settle()
    assert len(ben.chat.lines) == LINES
    slow = [r for r in rejections(net, "A") if r["code"] == "chat-slow"]
    assert len(slow) == 3 and slow[0]["reason"].startswith("Slow down:")
    assert anna.chat.note is not None and anna.chat.note.startswith("Slow down:")
    assert anna.notice is None, "a chat refusal is the chat panel's, not the room's status"


def test_the_hosts_own_sixth_line_is_noted_too() -> None:
    net, host, anna, ben = room_of_two()
    for i in range(LINES + 1):
        host.say(f"h{i}")
    assert host.chat.log.note is not None and host.chat.log.note.startswith("Slow down:")
    net.settle()
    assert len(anna.chat.lines) == LINES


def test_reactions_are_shown_for_two_seconds_and_rate_limited() -> None:
    net, host, anna, ben = room_of_two()
    anna.react("🎉")
    net.settle()
    for log, now in ((ben.chat, net.clock), (host.chat.log, net.clock)):
        (bubble,) = log.live(now)
        assert (bubble.name, bubble.emoji, bubble.member) == ("Anna", "🎉", anna.member)
    assert ben.chat.live(net.clock + 2_000) == []
    assert ben.chat.expire(net.clock + 2_000) and ben.chat.reactions == []
    for _ in range(LINES):
        anna.react("👍")
    assert anna.chat.note is not None and anna.chat.note.startswith("Slow down:")
    for _ in range(3):
        host.on_message("A", encode({"t": "react", "emoji": "👍"}))
    net.settle()
    assert rejections(net, "A")[-1]["code"] == "chat-slow"


def test_a_muted_peer_is_told_and_its_lines_are_dropped() -> None:
    net, host, anna, ben = room_of_two()
    host.mute(anna.member, True)
    net.settle()
    assert anna.chat.muted and "muted" in (anna.chat.note or "")
    assert not anna.say("can you hear me")
    host.on_message("A", encode({"t": "chat", "text": "sneaky"}))
    host.on_message("A", encode({"t": "react", "emoji": "😂"}))
    net.settle()
    assert ben.chat.lines == [] and ben.chat.reactions == []
    assert [r["code"] for r in rejections(net, "A")][-2:] == ["chat-muted", "chat-muted"]
    host.mute(anna.member, False)
    net.settle()
    assert not anna.chat.muted and anna.say("back")
    net.settle()
    assert texts(ben.chat) == [("Anna", "back")]


def test_mute_is_kept_when_the_host_reloads() -> None:
    net, host, anna, ben = room_of_two()
    ids = {m["name"]: m["id"] for m in host.lobby()["members"]}
    anna.sit(1)
    net.settle()
    host.mute(ids["Anna"], True)
    again = net.add_host("Hana", peer="H2")
    again.restore(json.loads(json.dumps(host.to_json())))
    assert again.chat.muted == {ids["Anna"]}


def test_lines_after_the_host_reloads_are_shown_too() -> None:
    net, host, anna, ben = room_of_two()
    host.say("before")
    net.settle()
    saved = json.loads(json.dumps(host.to_json()))
    net.disconnect("H")
    again = net.add_host("Hana", peer="H2")
    again.restore(saved)
    net.settle()
    again.say("after")
    net.settle()
    assert [line.text for line in anna.chat.lines] == ["before", "after"]


def test_a_late_joiner_sees_the_last_fifty_lines() -> None:
    net, host, anna, ben = room_of_two()
    for i in range(HISTORY + 7):
        host.chat.said.forget(host.me)
        host.say(f"line {i}")
    net.settle()
    carl = net.add_guest("C", "Carl")
    net.settle()
    assert [line.text for line in carl.chat.lines] == [f"line {i}" for i in range(7, HISTORY + 7)]
    history = [m for m in map(json.loads, net.received["C"]) if m["t"] == "chat"]
    assert len(history) == -(-HISTORY // CHUNK) and all(len(m["lines"]) <= CHUNK for m in history)


def test_the_longest_history_fits_in_its_messages() -> None:
    """50 of the longest lines (280 four-byte characters, a 20-character name of them,
    the longest member id) overflow one message: the history goes in chunks, each of
    which a guest's parser takes."""
    room = ChatRoom()
    for n in range(HISTORY):
        room.said.forget("m" * 64)
        room.say("m" * 64, "😬" * 20, 15, "😬" * MAX_CHAT, n * 1.0)
    whole = {"t": "chat", "lines": [line.to_json() for line in room.log.lines], "whole": True}
    assert len(encode(whole).encode()) > MAX_BYTES
    for message in room.history():
        assert parse(encode(message), HOST_TYPES)["t"] == "chat"


def test_a_forged_chat_from_a_peer_is_refused_by_guests() -> None:
    net, host, anna, ben = room_of_two()
    line = {"n": 99, "member": host.me, "name": "Hana", "seat": None, "text": "Ben cheats"}
    forged = encode({"t": "chat", "lines": [line], "whole": False})
    react = encode({"t": "react", "member": host.me, "name": "Hana", "seat": 0, "emoji": "😂"})
    # Plain, as another guest sends it.
    ben.on_message("A", forged)
    ben.on_message("A", react)
    # In an envelope signed with a key that is not the room's.
    net.queue.append(("A", "B", sign(HostKey().private, "testroom0001", "A", "B", 1, forged)))
    net.settle()
    assert ben.chat.lines == [] and ben.chat.reactions == []
    assert net.forged == 1
    # Only the verified host's word counts.
    host.say("honest")
    net.settle()
    assert texts(ben.chat) == [("Hana", "honest")]


def test_a_bad_chat_message_never_breaks_the_room() -> None:
    net, host, anna, ben = room_of_two()
    for text in (
        '{"t":"chat","text":""}',
        '{"t":"chat","text":5}',
        '{"t":"react","emoji":"' + REACTIONS[0] * 2 + '"}',
        '{"t":"chat","lines":[],"whole":true}',
    ):
        host.on_message("A", text)
    for bad in (
        {"t": "chat", "lines": [{"n": 1}], "whole": False},
        {"t": "chat", "lines": "x", "whole": False},
        {"t": "react", "member": "x", "name": "y" * 30, "seat": 0, "emoji": "👍"},
    ):
        with pytest.raises(ProtocolError):
            parse(encode(bad), HOST_TYPES)
    net.settle()
    assert host.errors == 0
    assert anna.say("still here")
    net.settle()
    assert texts(ben.chat) == [("Anna", "still here")]
