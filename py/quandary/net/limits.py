"""The room's limits, read from ``limits.json`` beside this module.

The page's transport (``static/js/room.entry.js``) bundles the same file, so the
bounds it applies before anything is parsed or verified, and those the protocol
applies after, are one declaration: a change here changes both.

- ``message_bytes``: the largest protocol message (UTF-8), either way.
- ``envelope_bytes``: the largest message the transport takes from a peer (a host
  message signed in its envelope is JSON within JSON, so up to about twice as long).
- ``rate_per_second`` / ``burst``: the host's token bucket per guest connection.
- ``transport_*``: the transport's own bucket per peer (messages begun), and how
  many of a peer's chunked messages may be arriving at once.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Final


def _read() -> dict[str, int]:
    data = json.loads((Path(__file__).with_name("limits.json")).read_text(encoding="utf-8"))
    return {k: int(v) for k, v in data.items() if not k.startswith("_")}


LIMITS: Final = _read()
MESSAGE_BYTES: Final = LIMITS["message_bytes"]
ENVELOPE_BYTES: Final = LIMITS["envelope_bytes"]
RATE: Final = float(LIMITS["rate_per_second"])
BURST: Final = float(LIMITS["burst"])
