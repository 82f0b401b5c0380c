"""The engine's one door from the page: a batch of messages in, the page's work out.

PyScript runs the engine in a worker (``py/main.py``, declared in ``index.html``
and ``pyscript.toml``), which exports ``Engine.handle`` to the page. The page
(``static/js/app.entry.js``) sends what happened since its last call as one
batch, in order: the first batch opens with its ``start`` message (storage,
address, relays); the actions a player made while Python booted follow it. The
answer holds everything the page must do, in order, plus when the table's clock
next needs the engine and whether the room's heartbeat runs: the page keeps the
timers, so the worker holds no JS object and needs none.

Pure, like the bridge under it: the whole exchange runs under plain pytest.
"""

from __future__ import annotations

import json
from typing import Any

from quandary.web.bridge import Bridge

ACTIONS = frozenset({"event", "hash"})
"""Messages that are a player's action: the page counts them until answered (it
marks ``#screen`` busy meanwhile), so each is answered even when nothing changes."""


class Engine:
    """The bridge, opened by the first ``start`` message, fed in batches."""

    def __init__(self) -> None:
        self.bridge: Bridge | None = None
        self.owed = 0
        """Actions answered by a batch whose screen was left for the next call (``more``):
        counted with that screen, so the page stays busy until it is drawn."""

    def handle(self, text: str) -> str:
        """A JSON list of the page's messages; the answer as JSON text.

        Every message is handled on its own: one that fails becomes a ``bug`` for
        the page and those after it still run. The screen is made once, after the
        whole batch; but when the batch sends anything to a room's peers, the answer
        goes without it (``more``), so those messages leave before this device spends
        its time drawing (a host's moves reach every guest a screen sooner), and the
        page asks again at once for the screen (a ``draw`` message).
        """
        out: list[dict[str, Any]] = []
        reply: dict[str, Any] = {"wake": None, "heartbeat": False}
        try:
            batch = json.loads(text)
            if not isinstance(batch, list):
                raise TypeError("a batch must be a list of messages")
        except (ValueError, TypeError) as exc:
            return json.dumps({"out": [_bug(exc)], "answered": 0, "more": False, **reply})
        answered = sum(1 for m in batch if isinstance(m, dict) and m.get("t") in ACTIONS)
        for message in batch:
            if not isinstance(message, dict):
                out.append(_bug(TypeError("a message must be an object")))
                continue
            if self.bridge is None:
                if message.get("t") != "start":
                    continue  # nothing can be done before the page has said who it is
                self.bridge = Bridge(message)
                # What the start asks of the bridge: draw the first screen.
                message = {k: message[k] for k in ("hash", "now") if k in message} | {"t": "start"}
            reply = self.bridge.answer(message, render=False)
            out.extend(reply["out"])
        more = False
        if self.bridge is not None and self.bridge.wants_draw:
            # Once only: a batch that opens with the screen asked for draws it, sends or not.
            asked = isinstance(batch[0], dict) and batch[0].get("t") == "draw"
            if not asked and any(m.get("t") == "send" for m in out):
                more, self.owed, answered = True, self.owed + answered, 0
            else:
                reply = self.bridge.answer({"t": "draw"})
                out.extend(reply["out"])
        if not more:
            answered, self.owed = answered + self.owed, 0
        return json.dumps(
            {
                "out": out,
                "answered": answered,
                "more": more,
                "wake": reply["wake"],
                "heartbeat": reply["heartbeat"],
            }
        )

    @property
    def started(self) -> bool:
        """Whether the page's start message has arrived."""
        return self.bridge is not None


def _bug(exc: Exception) -> dict[str, Any]:
    """What the page shows for a batch it should never have sent."""
    text = f"{type(exc).__name__}: {exc}"
    return {"t": "bug", "text": text, "trace": text}
