"""What a flood costs an honest player: 2,000 messages of one kind from one guest.

A room of a host and three guests (the in-memory network of the tests, with
real Ed25519 signatures). A hostile guest queues 2,000 messages of one kind;
an honest guest's move is queued right behind them. The figure is how long the
host takes from the first flood message until the honest move is played:
everything the flood adds to that move's latency. CPython; the browser's
Python (Pyodide) is slower by a constant factor. Then the same between real
browsers over the real transport (``bench.flood_browsers``): what a flood adds to
an honest round trip, and what a 30 MB message costs the host's main thread.
Writes bench/results-flood.json.

    .venv/bin/python -m bench.room_flood
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

import quandary.games  # noqa: F401 - registers every game
from bench.flood_browsers import measure as measure_browsers
from tests.net.hostile import HostilePeer
from tests.net.test_room_protocol import room_of_three

ROOT = Path(__file__).resolve().parent.parent

FLOODS = {
    "hello": {"t": "hello", "token": None, "name": "again"},
    "sync": {"t": "sync", "version": 0},
    "name": {"t": "name", "name": "Mallory"},
    "pong": {"t": "pong", "at": 1},
    "intent": {"t": "intent", "id": "x", "version": 0, "move": {"type": "build"}},
    "garbage": "{not json at all",
    "deep": '{"t":"sync","version":' + "[" * 30_000 + "]" * 30_000 + "}",
}
COUNT = 2_000
RUNS = 5


def one_run(message: object) -> float:
    """Milliseconds from the flood's first message until the honest move is played."""
    net, host, anna, _ = room_of_three()
    net.step_ms = 0.0  # a flood arrives at once: the rate limit gets no time to refill
    mallory = HostilePeer(net)
    mallory.greet("H")
    net.settle()
    for _ in range(COUNT):
        mallory.send("H", message)  # type: ignore[arg-type]
    before = len(host.table.record.moves)
    anna.submit(anna.view["legal_moves"][0])
    start = time.perf_counter()
    while len(host.table.record.moves) == before:
        net.deliver()
    return (time.perf_counter() - start) * 1000


def main() -> None:
    """Measure each kind of flood and write the results."""
    quiet = statistics.median(one_run("{}") for _ in range(RUNS))  # one tiny flood message
    results = {}
    for kind, message in FLOODS.items():
        times = [one_run(message) for _ in range(RUNS)]
        results[kind] = round(statistics.median(times), 1)
    out = {
        "messages_per_flood": COUNT,
        "honest_move_delay_ms_median": results,
        "baseline_ms": round(quiet, 1),
        "runs": RUNS,
        "browsers": measure_browsers(),
    }
    (ROOT / "bench" / "results-flood.json").write_text(json.dumps(out, indent=2) + "\n")
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
