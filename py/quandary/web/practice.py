"""Dilemma's practice arena: throw a card again and again, nothing counting. Pure, no ``js``.

One screen: the arena with the challenge card in the middle and one card to
throw, with the very gestures of the game (``static/js/throw.entry.js``). The
throw lands by the game's own throw model (``randolph.throw.land``), so what the
player learns here is how a card lands in play, and a sentence says how it went
and what to change. Nothing races: the practice has no window and no bots.

It comes before the first game on a device (the device remembers that it was
done or skipped, ``PRACTISED_KEY``), and a player may open it again whenever
they like: from the lobby's setup, or from a game in progress (which goes on
meanwhile, as a table does whoever looks away). The controller imports this
module only when the practice is first shown.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

from quandary.engine import Rng
from quandary.games.randolph import throw
from quandary.games.randolph.throw import Flight
from quandary.games.randolph.view import Landed, Seating

from .html import EMPTY, Markup, markup
from .render import randolph as render
from .render.randolph_arena import arena_card
from .render.table import Ui

GAME = "randolph"
PLAYERS = 3
"""The practice table's size: where the thrower stands round the arena."""
CHALLENGE = 6
CARD = 3


Opening = Literal["first-game", "lobby", "game"]
"""Where the practice was opened from, so its ways on lead back there."""

WAYS_BACK = {
    "first-game": "Back to the lobby",
    "lobby": "Back to the lobby",
    "game": "Back to the game",
}


@dataclass
class Practice:
    """The throws made so far on the practice screen."""

    opened: Opening = "first-game"
    tries: list[Flight] = field(default_factory=list)

    def throw(self, data: dict[str, str]) -> None:
        """Land a measured gesture (as the page sends it) by the game's throw model."""
        move = render.gesture_move({}, data)
        if move is None:
            return
        aim = max(-throw.AIM_LIMIT, min(throw.AIM_LIMIT, move["aim"]))
        power = max(0, min(throw.POWER_MAX, move["power"]))
        spin = max(-throw.SPIN_LIMIT, min(throw.SPIN_LIMIT, move["spin"]))
        rng = Rng.from_seed(len(self.tries) + 1)
        self.tries.append(throw.land(aim, power, spin, 0, PLAYERS, rng))

    def render(self) -> Markup:
        """The practice arena, the card, how the last throw went, and the ways on."""
        last = self.tries[-1] if self.tries else None
        verdict = (
            markup(
                '<p class="practice-verdict {}" id="practice-verdict" role="status">'
                "<strong>Throw {}:</strong> {} <small>Flat so far: {} of {}. Throw again as"
                " often as you like.</small></p>",
                "good" if last.landing == "flat" else "miss",
                len(self.tries),
                verdict_words(last),
                sum(t.landing == "flat" for t in self.tries),
                len(self.tries),
            )
            if last is not None
            else Markup('<p class="practice-verdict" id="practice-verdict" role="status"></p>')
        )
        if self.opened == "first-game":
            # Before a first game the leave button stays "Back to the lobby" (no game yet);
            # the main button starts the game, with or without a throw first.
            back_action, done = (
                "lobby",
                ("Start the game" if last is not None else "Skip the practice"),
            )
        else:
            back_action, done = "practice-done", WAYS_BACK[self.opened]
        return markup(
            '<section class="table practice" aria-label="Practice" data-tries="{}">'
            '<div class="table-head"><p class="game-title">Dilemma</p>'
            '<button type="button" class="quiet" data-action="{}" id="leave">'
            "{}</button></div>"
            '<h2 id="turn-title" tabindex="-1" data-autofocus>Practice a throw</h2>'
            '<p class="explain">In Dilemma you answer a challenge by throwing a card so that it'
            " lands <strong>flat in the arena</strong>, the green circle. Nothing counts here."
            "</p>"
            # The card and the way on side by side, so both stay in view on a small
            # phone above the verdict, however long it is.
            '<div class="throw-zone">{}<div class="throw-side"><div class="practice-row">'
            '<div class="rhand throw-hand" role="group" aria-label="Your card">'
            '<button type="button" class="rcard throw-card" id="throw-{}" data-throw-card="{}"'
            ' aria-label="Throw your {}: drag and flick it at the arena, or aim with the left'
            ' and right arrows and hold Space for power">{}</button></div>'
            '<p class="actions"><button type="button" class="primary big"'
            ' data-action="practice-done" id="practice-done">{}</button></p></div>'
            '<p class="hint" id="aim-readout" aria-live="polite">Drag the card towards the arena'
            " and let go while it moves (keyboard: ← → to aim, hold Space, release).</p>{}"
            "</div></div></section>",
            len(self.tries),
            back_action,
            WAYS_BACK[self.opened],
            self._arena(last),
            CARD,
            CARD,
            CARD,
            CARD,
            done,
            verdict,
        )

    def _arena(self, last: Flight | None) -> Markup:
        """The game's arena drawing, with the practice card where it came to rest."""
        view: Seating = {"seat": 0, "players": PLAYERS, "phase": "practice"}
        card = EMPTY
        if last is not None:
            landed: Landed = {
                "seat": 0,
                "card": CARD,
                "window": 0,
                "x": last.x / 1000,
                "y": last.y / 1000,
                "rotation": last.rotation,
                "landing": last.landing,
                "at": 0,
                "land_at": last.flight,
                "status": "pending",
                "reason": None,
            }
            card = arena_card(view, Ui(["You"], ["human"], 0), len(self.tries), landed)
        return markup(
            '<div class="arena-box aiming open" id="arena-box">'
            '<div class="arena" id="arena">'
            '<div class="arena-challenge" aria-label="Challenge card {}">{}</div>{}</div></div>',
            CHALLENGE,
            CHALLENGE,
            card,
        )


def verdict_words(flight: Flight) -> str:
    """How a practice throw went, and what to change, in plain words."""
    x, y = flight.x / 1000, flight.y / 1000
    radius = math.sqrt(x * x + y * y)
    # The thrower stands below the arena: a card that stopped below the centre
    # fell short, one above it flew too far; one off to a side was aimed wide.
    side = "left" if x < 0 else "right"
    fix = []
    if abs(x) > 0.45:
        fix.append(f"aim a little more to the {'right' if side == 'left' else 'left'}")
    if y > 0.45:
        fix.append("flick a little harder")
    elif y < -0.45:
        fix.append("flick a little softer")
    advice = (" Next time " + " and ".join(fix) + ".") if fix else ""
    if flight.landing == "flat":
        near = " close to the challenge card" if radius < 0.4 else ""
        return (
            f"Well thrown: your card landed flat in the arena{near}. In a game it would take"
            " up the challenge, if it is the first flat card of another value."
        )
    if flight.landing == "diagonal":
        return (
            "Your card landed at a slant, propped up, so it would not count: only a flat card"
            " does. A throw of middling strength without a twist of the wrist lands flat"
            " more often."
        )
    if flight.landing == "edge":
        return "Your card stopped across the rim, so it would not count." + advice
    return "Your card missed the arena, so it would not count." + advice
