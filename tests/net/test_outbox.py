"""The host's door out (net/outbox.py) keeps what it knows of each seat's secrets from
one state to the next, and still catches a secret that is new at this state."""

from __future__ import annotations

import json
from typing import Any

from quandary import engine
from quandary.net.outbox import Outbox


def _states_where_a_secret_appears(seat: int) -> tuple[Any, Any, str]:
    """Two states of the same room's game (a new deal of it, say), and a secret of
    ``seat`` that the second has and the first has not: a card that was the seat's
    own in the first deal and is another's in the second."""
    before, after = engine.setup("dilemmas", 3, seed=7), engine.setup("dilemmas", 3, seed=8)
    game = engine.game_of(before)
    new = set(game.secrets(after, seat)) - set(game.secrets(before, seat))
    assert new, "the two deals hide the same cards from the seat"
    return before, after, min(new)


def test_a_secret_new_at_this_state_is_caught_though_the_last_state_s_were_kept() -> None:
    before, after, secret = _states_where_a_secret_appears(seat=1)
    sent: list[str] = []
    outbox = Outbox(lambda peer, text: sent.append(text))
    harmless = {"t": "rejected", "code": "x", "reason": "nothing secret", "id": None}
    assert outbox.send("p", harmless, 1, before)  # the seat's secrets read at ``before``
    leaking = {"t": "rejected", "code": "x", "reason": secret, "id": None}
    assert not outbox.send("p", leaking, 1, after)
    assert outbox.leaks == 1 and len(sent) == 1
    # The same secrets at a later state are still known as secrets.
    assert not outbox.send("p", leaking, 1, after)
    assert json.loads(sent[0])["reason"] == "nothing secret"
