"""Maybe Minister explained as it happens: each constraint says why where it is met.

The proposal sizes (why 2, 3 or 5), a vote kind missing from the choice (why no
YES on your own proposal), and the shop's payments are explained on the screen
that offers the choice; the screens are rendered from real views of seeded games.
"""

from __future__ import annotations

from typing import Any

from quandary.web.render import minister as ui
from quandary.web.render.table import Ui

from .test_minister_controller import _act
from .test_minister_polish import _game

NAMES = ["Robin", "Bot Ada", "Bot Bo"]


def _screen(c: Any) -> Ui:
    return Ui(names=NAMES, kinds=["human", "bot", "bot"], viewer=c.viewer)


def test_the_proposal_screen_says_why_these_sizes() -> None:
    c = _game()
    view = c.table.view(c.viewer)
    assert view["phase"] == "propose" and len(view["hand"]) == 5
    shown = str(ui.render_turn(view, _screen(c)))
    assert "Choose 2, 3 or 5 cards." in shown
    assert "may not leave exactly one card in your hand." in shown
    assert "So not 4 of your 5." in shown
    # The sizes are said by the Propose button, where a newcomer looks when it is
    # off; the Now line at the top says what to do, the same words every proposal.
    now = shown[shown.index('<p class="mm-now"') :]
    now = now[: now.index("</p>")]
    assert "pick cards from your hand, then press Propose." in now and "2, 3 or 5" not in now


def test_a_hand_of_three_is_told_why_it_proposes_all_three() -> None:
    view = {"hand": ["a", "b", "c"], "effects": {"proposal_min": 2, "proposal_max": 5}}
    rule, here = ui.proposal_sizes_why(view, [3])
    assert rule == "A proposal holds 2 to 5 cards and may not leave exactly one card in your hand."
    assert here == "So not 2 of your 3; you hold only 3."


def test_a_proposer_with_no_yes_vote_is_told_why_yes_is_not_offered() -> None:
    c = _game(13)  # the human's two starting votes are both NO
    _act(c)  # the human proposes; now everyone votes
    view = c.table.view(c.viewer)
    assert view["phase"] == "vote" and view["proposer"] == c.viewer
    assert {m["vote"][0] for m in view["legal_moves"]} == {"v"}
    shown = str(ui.render_turn(view, _screen(c)))
    assert "You hold no YES vote to cast, even on your own proposal." in shown
    assert "only a vote stored on your cards" in shown


def test_nothing_is_explained_about_votes_when_every_kind_is_held() -> None:
    view: dict[str, Any] = {"proposer": 0, "effects": {"proposer_may_abstain": True}}
    screen = Ui(names=NAMES, kinds=["human", "bot", "bot"], viewer=0)
    assert ui.vote_limits_why(view, screen, ["yes", "no"]) == []
    ruled = {"proposer": 0, "effects": {"proposer_may_abstain": False}}
    said = ui.vote_limits_why(ruled, screen, ["yes", "no", "abstain"])
    assert "may not abstain on their own proposal" in " ".join(said)


def test_votes_chosen_to_move_say_why_they_cannot_go_onto_a_card() -> None:
    assert "never onto a card" in ui.move_hint(["no", "abstain"], 4)
    assert "must be alike" in ui.move_hint(["yes", "no"], 4)
    assert "keep at least one" in ui.move_hint(["yes", "yes"], 2)
    assert ui.move_hint([], 4).startswith("Choose one vote for a law")
