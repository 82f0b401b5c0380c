"""The room transport's outbox queue, tested on the JS that ships (room.mjs ``perPeer``,
in Node): each peer's messages are signed in the order they were made, as the
receiver's counters require, and one peer's slow signature holds up no other peer."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

RUNNER = Path(__file__).with_name("transport_queue.mjs")


def finished(built_site: Path, steps: list[list[object]]) -> list[str]:
    """The names of ``steps`` in the order the shipped queue finished them."""
    (bundle,) = built_site.glob("static/v/*/room.mjs")
    done = subprocess.run(
        ["node", str(RUNNER), str(bundle)],
        input=json.dumps(steps),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(done.stdout)


def test_each_peer_in_order_and_the_peers_side_by_side(built_site: Path) -> None:
    # A's first message is slow to sign: A's second waits for it, B's and C's do not.
    order = finished(
        built_site,
        [["A", "a1", 300], ["A", "a2", 0], ["B", "b1", 0], ["C", "c1", 50], ["B", "b2", 0]],
    )
    assert order.index("a1") < order.index("a2")
    assert order.index("b1") < order.index("b2")
    assert order.index("b2") < order.index("a1")
    assert order.index("c1") < order.index("a1")


def test_a_failed_step_holds_up_nothing_after_it(built_site: Path) -> None:
    order = finished(built_site, [["A", "fail-gone", 20], ["A", "a2", 0], ["B", "b1", 0]])
    assert order == ["b1", "a2"]
