"""The protocol's two declarations of its messages agree: the checks a message passes
(``net/messages.py``) and the types the code reads it as (``net/wire.py``).

A kind declared in one and not the other, or a field the checks pass that the type
does not name (or the other way round), fails here, so a message can never be read
as a type whose fields its checks did not check.
"""

from __future__ import annotations

import json
from typing import Any, get_args, get_type_hints

import pytest

from quandary.net import messages, wire
from quandary.net.messages import ProtocolError

SIDES = [
    ("guest", messages.GUEST_TYPES, wire.GuestMessage),
    ("host", messages.HOST_TYPES, wire.HostMessage),
    ("peer", messages.PEER_TYPES, wire.PeerMessage),
]


def _kinds(union: Any) -> dict[str, set[str]]:
    """Each TypedDict of ``union`` by its ``t``, with its other fields."""
    found: dict[str, set[str]] = {}
    for member in get_args(union):
        hints = get_type_hints(member)
        (kind,) = get_args(hints["t"])
        assert kind not in found, f"two types of the kind {kind!r}"
        found[kind] = set(hints) - {"t"}
    return found


@pytest.mark.parametrize(("side", "checks", "union"), SIDES, ids=[s[0] for s in SIDES])
def test_every_kind_has_the_same_fields_checked_and_typed(side: str, checks: Any, union: Any):
    typed = _kinds(union)
    assert set(typed) == set(checks), f"{side}: kinds checked but not typed, or typed not checked"
    for kind, fields in checks.items():
        assert typed[kind] == set(fields), f"{side} {kind!r}: {typed[kind]} != {set(fields)}"


def test_a_text_becomes_a_typed_message_only_whole():
    assert wire.read_guest('{"t":"sync","version":3}') == {"t": "sync", "version": 3}
    assert wire.read_host('{"t":"tick","version":1,"at":2,"epoch":0}')["t"] == "tick"
    assert wire.read_peer('{"t":"claim","serial":1,"epoch":2,"commit":"' + "a" * 64 + '"}')
    for bad in ('{"t":"sync"}', '{"t":"tick","version":1,"at":2,"epoch":0}', "[]"):
        with pytest.raises(ProtocolError):
            wire.read_guest(bad)
    with pytest.raises(ProtocolError):
        wire.read_peer('{"t":"sync","version":3}')


def test_a_backed_message_is_checked_inside_as_its_two_messages_would_be():
    backup = {
        "t": "backup",
        "serial": 1,
        "epoch": 0,
        "version": 3,
        "heirs": [],
        "room": "eJw=",
        "part": None,
        "salt": "s",
        "chain": [],
        "log": {"base": 0, "skip": 0, "lines": [{"kind": "dealt", "data": {}}]},
    }
    news = {"t": "update", "base": 2, "version": 3, "set": {}, "add": {}, "drop": []}
    good = {"t": "backed", "backup": backup, "news": news}
    assert wire.read_host(json.dumps(good))["t"] == "backed"
    for bad in (
        {**good, "backup": {**backup, "version": -1}},
        {**good, "backup": {**backup, "extra": 1}},
        {**good, "backup": {**backup, "log": {"base": 0, "skip": -1, "lines": []}}},
        {**good, "backup": {**backup, "log": {"base": 0, "skip": 0, "lines": ["dealt"]}}},
        {**good, "backup": {**backup, "log": {"base": 0, "skip": 0}}},
        {
            **good,
            "backup": {**backup, "log": {"base": 0, "skip": 0, "lines": [{"kind": 5, "data": {}}]}},
        },
        {**good, "backup": {**backup, "log": {"base": 0, "skip": 0, "lines": [{"kind": "dealt"}]}}},
        {**good, "backup": news},
        {**good, "news": {"t": "tick", "version": 1, "at": 2, "epoch": 0}},
        {**good, "news": {**news, "t": "backed"}},
        {**good, "news": "update"},
    ):
        with pytest.raises(ProtocolError):
            wire.read_host(json.dumps(bad))
