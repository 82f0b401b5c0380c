"""Dilemma's screens through the controller: what a player sees at each moment.

The arena and the hand share one zone (side by side, or stacked on a phone);
the last challenge's outcome stays beside them; the end screen says why the
game ended and who won which cards; the lobby says "challenge 10", not "round".
"""

from __future__ import annotations

import re

from .test_randolph_controller import Clock, play_turn, start, until_the_human_can_throw


def test_the_hand_and_the_hint_are_drawn_beside_the_arena() -> None:
    clock = Clock()
    c = start(clock)
    until_the_human_can_throw(c, clock)
    html = str(c.render())
    zone = html[html.index('class="throw-zone"') : html.index('class="players"')]
    side = zone[zone.index('class="throw-side"') :]
    assert 'id="arena-box"' in zone.split('class="throw-side"')[0]
    assert "throw-card" in side and 'id="aim-readout"' in side


def test_the_last_outcome_stays_beside_the_next_challenge() -> None:
    clock = Clock()
    c = start(clock)
    thrown: list[int] = []
    for _ in range(400):
        view = c.table.view(0)
        if view["history"] and view["phase"] == "react" and view["provocateur"] != 0:
            break
        play_turn(c, clock, thrown)
    else:
        raise AssertionError("no second challenge to throw at")
    html = str(c.render())
    side = html[html.index('class="throw-side"') : html.index('class="players"')]
    last = view["history"][-1]["round"]
    assert f"<h3>Challenge {last}</h3>" in side, "the outcome is in view beside the arena"
    assert side.index("throw-card") < side.index('id="last-round"'), "the hand comes first"
    # During the countdown it is also written over the arena, where every screen shows it.
    assert c.table.elapsed(clock.now) < 0, "the next challenge's countdown is on"
    lead_in = html[html.index('class="lead-in"') : html.index('class="throw-side"')]
    assert view["history"][-1]["outcome"] and 'class="lead-news"' in lead_in
    sentence = lead_in.split('class="lead-news">')[1].split("</p>")[0]
    assert sentence and sentence in side


def test_the_end_screen_says_why_and_who_won_which_cards_and_resume_says_challenge() -> None:
    clock = Clock()
    c = start(clock)
    thrown: list[int] = []
    resumed = False
    for _ in range(4000):
        if c.table.over:
            break
        view = c.table.view(0)
        if not resumed and view["round"] >= 3:
            c.dispatch("leave", {})
            lobby = str(c.render())
            assert re.search(r"Dilemma</strong> · challenge \d+ ·", lobby), lobby
            assert "· round" not in lobby
            c.dispatch("continue", {"save": c.saves[0].id})
            resumed = True
        play_turn(c, clock, thrown)
        clock.now += 5
    assert c.table.over
    final = str(c.render())
    assert "The game ended after challenge" in final and "so there is nobody left" in final
    won = final[final.index('class="won-cards"') :]
    won = won[: won.index("</ul>")]
    rows = re.findall(r"<li>(.*?)</li>", won)
    view = c.table.view(0)
    assert len(rows) == len(view["names"])
    assert any(view["won"]), "somebody won cards"
    for row, name, values in zip(rows, view["names"], view["won"], strict=True):
        assert name in row and f"= {sum(values)} point" in row
        assert re.findall(r'class="chip">(\d+)<', row) == [str(v) for v in values]
