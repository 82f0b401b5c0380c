"""The room transport's receiving policy, tested on the JS that ships.

Who speaks for the host is decided by the page's transport (static/js/room.entry.js
``receiver``: envelopes, signatures, replays, trusted successors, chains of mandates);
the in-memory network of the protocol tests has a Python copy (tests/net/memnet.py
``Receiver``). Each case here, signed with real Ed25519 keys, goes through the built
room.mjs in Node (tests/e2e/transport_policy.mjs) and through the copy: both must
decide alike at every step, and as the policy says.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.net.memnet import ROOM, HostKey, Receiver, b64, mandate_payload, sign

RUNNER = Path(__file__).with_name("transport_policy.mjs")
ME = "A"

ROOMS = HostKey()
SUCCESSOR, EARLIER, HEIR, NEXT_HEIR, STRANGER = (HostKey() for _ in range(5))


def _signed(key: HostKey, counter: Any, text: str, src: str = "H", dst: str = ME) -> str:
    return sign(key.private, ROOM, src, dst, counter, text)


def _link(signer: HostKey, heirs: list[Any], pad: str = "") -> list[str]:
    text = json.dumps(
        {"epoch": 0, "heirs": heirs, "pad": pad}, separators=(",", ":"), ensure_ascii=False
    )
    return [text, b64(signer.private.sign(mandate_payload(text)))]


def _greeting(chain: list[Any], t: str = "host") -> str:
    return json.dumps({"t": t, "epoch": len(chain), "chain": chain}, separators=(",", ":"))


def _case(steps: list[list[Any]], trusted: list[str] | None = None) -> dict[str, Any]:
    return {
        "roomId": ROOM,
        "selfId": ME,
        "hostKey": ROOMS.public,
        "trusted": trusted or [],
        "steps": steps,
    }


def _open(text: str, src: str = "H") -> list[Any]:
    return ["open", src, text]


TICK = '{"t":"tick","epoch":0,"at":1,"version":0}'
HEIRS = [["a", HEIR.public], ["b", NEXT_HEIR.public]]

CASES: dict[str, tuple[dict[str, Any], list[Any]]] = {
    "envelopes and replays": (
        _case(
            [
                _open("plain words"),
                _open(_signed(ROOMS, 1, TICK)),
                _open(_signed(ROOMS, 1, TICK)),  # the same again: a replay
                _open(_signed(ROOMS, 2, TICK)),
                _open(_signed(ROOMS, 1, TICK)),  # an older one
                _open(_signed(ROOMS, 3, TICK, dst="B")),  # to another connection
                _open(_signed(ROOMS, 3, TICK), src="B"),  # from another connection
                _open(_signed(STRANGER, 3, TICK)),  # no key the room knows
                _open(_signed(ROOMS, 3, TICK).replace('"n":3', '"n":3.0')),  # one number
                _open(_signed(ROOMS, 4, TICK)[:-1] + ',"x":1}'),  # no envelope: plain
                _open(_signed(ROOMS, 2**53, TICK)),  # past a safe integer: plain
                _open(_signed(ROOMS, 5, TICK).replace('"n":5', '"n":"5"')),  # plain
                _open('{"m": "half an envelope'),  # plain
                _open(_signed(ROOMS, 6, TICK)[:-3] + '!!"}'),  # a signature spoiled
                ["forget", "H"],  # the host's connection left and came back
                _open(_signed(ROOMS, 1, TICK)),
            ]
        ),
        [
            ["plain words", False, None],
            [TICK, True, None],
            None,
            [TICK, True, None],
            None,
            None,
            None,
            None,
            [TICK, True, None],
            "plain",
            "plain",
            "plain",
            ['{"m": "half an envelope', False, None],
            None,
            None,
            [TICK, True, None],
        ],
    ),
    "trusted successors": (
        _case(
            [
                _open(_signed(EARLIER, 1, TICK)),  # opened with two: the last is followed
                _open(_signed(SUCCESSOR, 2, TICK)),
                ["trust", HEIR.public],  # in place of the one before
                _open(_signed(SUCCESSOR, 3, TICK)),
                _open(_signed(HEIR, 4, TICK)),
                _open(_signed(ROOMS, 5, TICK)),  # the room's own key, always
            ],
            trusted=[EARLIER.public, SUCCESSOR.public],
        ),
        [None, [TICK, True, None], None, None, [TICK, True, None], [TICK, True, None]],
    ),
}


def _mandate_cases() -> dict[str, tuple[dict[str, Any], list[Any]]]:
    one = [_link(ROOMS, HEIRS)]
    two = [_link(ROOMS, [["a", HEIR.public]]), _link(HEIR, [["b", NEXT_HEIR.public]])]
    # 4,096 characters in JavaScript's count, fewer in Python's: each emoji is two there.
    long_pad = "\U0001f600" * 2030
    odd = [["x"], "y", ["z", 5], ["a", HEIR.public]]
    greetings = [
        (HEIR, _greeting(one), HEIR.public),
        (NEXT_HEIR, _greeting(one), NEXT_HEIR.public),
        (STRANGER, _greeting(one), None),  # signed by a key the chain does not name
        (HEIR, _greeting([_link(STRANGER, HEIRS)]), None),  # a chain from no known key
        (NEXT_HEIR, _greeting(two), NEXT_HEIR.public),
        (HEIR, _greeting(two), None),  # named by the first mandate only
        (HEIR, _greeting(one * 9), None),  # longer than any chain a room makes
        (HEIR, _greeting([_link(ROOMS, HEIRS, pad="x" * 4096)]), None),
        (HEIR, _greeting([_link(ROOMS, HEIRS, pad=long_pad)]), None),
        (HEIR, _greeting([_link(ROOMS, HEIRS * 9)]), None),  # 18 heirs
        (HEIR, _greeting([_link(ROOMS, odd)]), HEIR.public),
        (HEIR, _greeting(one, t="tick"), None),
        (HEIR, _greeting([]), None),
    ]
    cases = {}
    for n, (signer, text, heir) in enumerate(greetings):
        expected = None if heir is None else [text, False, heir]
        cases[f"mandates {n}"] = (_case([_open(_signed(signer, 1, text))]), [expected])
    return cases


CASES |= _mandate_cases()


def _in_python(case: dict[str, Any]) -> list[Any]:
    policy = Receiver(case["roomId"], case["selfId"], case["hostKey"], case["trusted"])
    answers: list[Any] = []
    for op, *args in case["steps"]:
        if op == "open":
            opened = policy.open(*args)
            answers.append(None if opened is None else list(opened))
        else:
            getattr(policy, op)(*args)
            answers.append(None)
    return answers


@pytest.fixture(scope="module")
def in_js(built_site: Path) -> dict[str, list[Any]]:
    """Every case's answers from the built transport, in Node."""
    (bundle,) = built_site.glob("static/v/*/room.mjs")
    cases = list(CASES.values())
    done = subprocess.run(
        ["node", str(RUNNER), str(bundle)],
        input=json.dumps([case for case, _ in cases]),
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return dict(zip(CASES, json.loads(done.stdout), strict=True))


def _expected(case: dict[str, Any], answers: list[Any]) -> list[Any]:
    """``answers`` with "plain" for an envelope read as plain text, as it was sent."""
    steps = case["steps"]
    return [[s[2], False, None] if a == "plain" else a for s, a in zip(steps, answers, strict=True)]


@pytest.mark.parametrize("name", list(CASES))
def test_the_shipped_transport_and_the_tests_copy_decide_alike_as_the_policy_says(name, in_js):
    case, answers = CASES[name]
    expected = _expected(case, answers)
    assert in_js[name] == expected
    assert _in_python(case) == expected
