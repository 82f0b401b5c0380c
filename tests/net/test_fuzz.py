"""Fuzzing the room protocol: thousands of hostile messages against a host and a guest.

Whatever arrives, nothing escapes ``on_message`` (each message is handled in its
own boundary), and a message the parser refuses, or a move the game refuses,
changes nothing the room would save or show. Messages are drawn from a mix of
random JSON, valid messages with one field broken, real moves with one value
changed, text with lone surrogates or control characters, and deep nesting.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quandary.net.messages import GUEST_TYPES, HOST_TYPES, ProtocolError, parse

from .test_room_protocol import room_of_three

BATCH = 100
EXAMPLES = int(__import__("os").environ.get("FUZZ_EXAMPLES", "205"))
"""Batches of 100 messages to the host and as many to a guest: 205 (over 20,000) unless
told; `make check` and `make test` send 50 (5,000), `make monkey` 205 (the Makefile's
CHECK_FUZZ and DEEP_FUZZ), as the conformance suite's playouts are split."""
PARTS = 5
"""The batches run as this many tests of their own, so the test workers share them
(one test of 205 batches kept one worker busy for a minute while the other idled)."""

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**60), 2**60)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from(["\ud800", "a\x00b", "<script type='py'>x</script>", "é" * 30])
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=8,
)


def _shaped(types: dict[str, Any]) -> st.SearchStrategy[str]:
    """A message of a known type with each field random: mostly wrong, sometimes right."""
    return st.sampled_from(sorted(types)).flatmap(
        lambda t: st.fixed_dictionaries({"t": st.just(t), **{k: values for k in types[t]}}).map(
            json.dumps
        )
    )


messages = st.one_of(
    st.text(max_size=40),
    values.map(json.dumps),
    _shaped(GUEST_TYPES),
    _shaped(HOST_TYPES),
    st.integers(20, 40_000).map(lambda d: '{"t":"sync","version":' + "[" * d + "]" * d + "}"),
    st.sampled_from(
        ['{"t":"name","name":"\\ud800"}', '{"t":"hello","token":null,"name":"\\u0000"}']
    ),
)


def _saved(host) -> tuple:
    """What the room would save or show, cheaply: states are immutable, so identity
    tells whether the game moved; members, seats and settings are compared by value."""
    table = host.table
    members = tuple(
        (m.id, m.token, m.name, m.seat, m.peer, tuple(m.seen)) for m in host.members.values()
    )
    plan = tuple((p.kind, p.level) for p in host.plan)
    return (
        table,
        table and table.state,
        table and table.record,
        members,
        plan,
        host.game,
        json.dumps(host.options),
    )


def _intents(host, guest) -> st.SearchStrategy[str]:
    """Real moves of the guest's seat with one value replaced, as intents."""
    legal = guest.view["legal_moves"] or [{"type": "build"}]
    return st.tuples(st.sampled_from(legal), values, st.integers(0, 10)).map(
        lambda m: json.dumps(
            {
                "t": "intent",
                "id": f"f{m[2]}",
                "version": guest.version or 0,
                "move": {**m[0], next(iter(m[0])): m[1]} if len(m[0]) > 1 else m[0],
            }
        )
    )


@pytest.mark.parametrize("part", range(PARTS))
@settings(
    max_examples=-(-EXAMPLES // PARTS),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
)
@given(data=st.data())
def test_no_message_escapes_and_refused_ones_change_nothing(part: int, data) -> None:
    net, host, anna, ben = room_of_three()
    clock = [0.0]

    def now() -> float:
        clock[0] += 1000.0  # a second between messages: the rate limit never hides one
        return clock[0]

    host.now = now
    batch = data.draw(st.lists(messages | _intents(host, anna), min_size=BATCH, max_size=BATCH))
    for text in batch:
        before = _saved(host)
        host.on_message("A", text)  # never raises
        try:
            parse(text, GUEST_TYPES)
        except ProtocolError:
            assert _saved(host) == before, f"a refused message changed the room: {text[:80]!r}"
        ben_before = (ben.version, ben.view, ben.lobby, ben.host, ben.status, ben.token)
        ben.on_message("A", text, from_host=False)  # another guest posing as the host
        after = (ben.version, ben.view, ben.lobby, ben.host, ben.status, ben.token)
        assert all(a is b for a, b in zip(after, ben_before, strict=True))
        ben.on_message("H", text, from_host=True)  # even the host's word, if malformed
        try:
            parse(text, HOST_TYPES)
        except ProtocolError:
            after = (ben.version, ben.view, ben.lobby, ben.host, ben.status, ben.token)
            assert all(a is b for a, b in zip(after, ben_before, strict=True))
    assert host.errors == 0, "a message reached a bug"
    net.settle()
    assert anna.view == host.view_for(anna.member)
