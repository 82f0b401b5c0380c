"""Hostile updates against a guest's view (net/view_diff.py, net/guest.py ``_news``).

Every message is untrusted, even one that verifies as the host's: a host decides what
its guests see, but no run of its updates may grow a guest's view without bound.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from quandary.net.messages import MAX_BYTES

from .test_room_protocol import room_of_three


def _forge(guest: Any, **fields: Any) -> None:
    """An update as the host's own connection would send it (it verifies as the host's)."""
    message = {"t": "update", "set": {}, "add": {}, "drop": [], **fields}
    guest.on_message(guest.host, json.dumps(message), from_host=True)


def _new_texts(n: int) -> dict[str, Any]:
    return {f"extra{n}": "x" * 50_000}


def _new_empty_lists(n: int) -> dict[str, Any]:
    return {f"{n}.{k}": [] for k in range(4000)}


@pytest.mark.parametrize("fields", [_new_texts, _new_empty_lists])
def test_forged_updates_cannot_grow_a_guests_view_without_bound(fields):
    """Each update fits in a message, but fields set anew pile up: megabytes of text,
    or thousands of empty lists (then every later update costs as many keys). The
    guest bounds its whole view, field names included, at one message."""
    net, host, anna, ben = room_of_three()
    for n in range(40):
        _forge(anna, base=anna.version, version=anna.version, set=fields(n))
    assert len(json.dumps(anna.view)) <= MAX_BYTES
    # And what an honest host sends still applies: the room goes on.
    host.submit(host.view_for(host.me)["legal_moves"][0])
    net.settle()
    host.tick()
    net.settle()
    assert anna.view == host.view_for(anna.member)
