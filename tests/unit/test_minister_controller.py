"""Maybe Minister through the pure Controller: a whole game against bots, by clicks.

Every action goes through ``Controller.dispatch`` with the data a click would
send (the button's data-* attributes), and every button pressed is first found
in the rendered HTML, so the screens offer what the rules allow.
"""

from __future__ import annotations

import html
import json
import re

from quandary.web.controller import Controller

from .test_controller import MemoryStorage

MOVE_BUTTON = re.compile(r'<button[^>]*data-action="move"[^>]*>')


def _buttons(page: str) -> list[dict[str, object]]:
    """The moves of every enabled move button on the page."""
    out = []
    for tag in MOVE_BUTTON.findall(page):
        if " disabled" in tag:
            continue
        found = re.search(r'data-move="([^"]*)"', tag)
        if found:
            out.append(json.loads(html.unescape(found.group(1))))
    return out


def _act(c: Controller) -> None:
    """Play the human's step the way a player would click it."""
    assert c.table is not None
    view = c.table.view(c.viewer)
    page = c.render()
    legal = view["legal_moves"]
    if view["phase"] == "propose" and legal and legal[0]["type"] == "propose":
        for card in legal[0]["cards"]:
            assert f'data-card="{card}"' in page
            c.dispatch("draft", {"card": card})
        assert 'id="submit"' in c.render()
        c.dispatch("submit", {})
        return
    if view["phase"] == "vote" and legal:
        # Choosing a vote casts nothing: it takes the confirm button.
        vote = legal[0]["vote"]
        assert f'id="vote-{vote}"' in page and 'id="cast-vote"' in page
        c.dispatch("draft", {"vote": vote})
        assert c.table.view(c.viewer)["legal_moves"], "a chosen vote is not cast yet"
        c.dispatch("submit", {})
        return
    offered = _buttons(page)
    assert offered, f"no button for {view['phase']}: {legal[:2]}"
    for move in offered:
        assert move in legal, move
    calm = [m for m in offered if m["type"] in ("collect", "pass", "done")]
    c.dispatch("move", {"move": json.dumps(calm[0] if calm else offered[0])})


def test_a_whole_game_against_bots_through_the_controller() -> None:
    storage = MemoryStorage()
    c = Controller(storage, lambda: 4)
    c.dispatch("choose-game", {"game": "minister"})
    assert c.form.game == "minister"
    c.dispatch("start", {})
    reveals = 0
    for _ in range(3000):
        page = c.render()
        if "Play again" in page:
            break
        if 'id="next"' in page:
            reveals += 1
            assert "YES" in page and "Picking order" in page
            c.dispatch("next", {})
            continue
        _act(c)
        assert c.error is None, c.error
    page = c.render()
    assert "Play again" in page and "final-scores" in page
    assert reveals >= 3
    assert not storage.saved_games()


def test_a_refused_proposal_shows_its_reason() -> None:
    c = Controller(MemoryStorage(), lambda: 4)
    c.dispatch("choose-game", {"game": "minister"})
    c.dispatch("start", {})
    assert c.table is not None
    view = c.table.view(c.viewer)
    assert view["phase"] == "propose" and c.table.state.proposer == 0
    c.dispatch("draft", {"card": view["hand"][0]})
    c.dispatch("submit", {})
    assert c.error is not None and "proposal" in c.error
    assert "form-error" in c.render()


def test_hot_seat_never_shows_one_players_hand_or_vote_to_another() -> None:
    from quandary.games.minister.material import CARDS, VOTES

    from .test_controller import seats

    c = Controller(MemoryStorage(), lambda: 6)
    c.dispatch("choose-game", {"game": "minister"})
    seats(c, [("Anna", "human"), ("Ben", "human"), ("Cy", "bot:random")])
    c.dispatch("start", {})
    assert "Pass the device to Anna" in c.render()
    c.dispatch("reveal", {})
    assert c.table is not None and c.viewer == 0
    _act(c)  # Anna proposes
    assert "Pass the device to Anna" in c.render(), "Anna votes first"
    c.dispatch("reveal", {})
    vote = c.table.view(0)["legal_moves"][0]["vote"]
    c.dispatch("draft", {"vote": vote})
    c.dispatch("submit", {})
    gate = c.render()
    assert "Pass the device to Ben" in gate
    c.dispatch("reveal", {})
    assert c.viewer == 1
    page = c.render()
    secret = [CARDS[card].name for card in c.table.view(0)["hand"]]
    assert secret and not any(name in page for name in secret)
    anna_vote = VOTES[vote]
    assert f"{anna_vote.kind.upper()} {anna_vote.number}<" not in page
    assert "Vote in secret" in page
