"""Dilemma (Alex Randolph): the screens: challenge, throwing hand, duel, players' rows, end.

Throwing is measured in the page (``static/js/throw.js`` turns a drag and flick,
or the arrow keys and a held key, into a gesture) and sent as a ``throw`` move;
the authority decides where the card lands. This module only draws; the arena
itself is drawn by ``randolph_arena``.
"""

from __future__ import annotations

import json
from typing import TypedDict, cast

from quandary.engine.typed import needed
from quandary.games.randolph.view import (
    ChallengeMove,
    RandolphEvent,
    RandolphStory,
    RandolphView,
    RoundView,
    ThrowMove,
)
from quandary.web.html import EMPTY, Markup, attrs, join, markup, repeated
from quandary.web.phrases import Cast, article, indefinite, plural

from .ending import lead_line
from .randolph_arena import arena, arena_line, arena_list
from .table import Ui, error_line, reveal

MOST_LIVES = 9
"""Hearts drawn for one player at most (a table starts with two or three lives each)."""

PHASE_TITLES = {
    "challenge": "Lay down a challenge",
    "react": "Throw a card into the arena",
    "duel": "Peace or conflict?",
    "over": "The game is over",
}


def checkpoints(view: RandolphView) -> int:
    """None: the game is real time, so results are shown beside play, never in its way."""
    return 0


def render_round_result(view: RandolphView, ui: Ui, index: int) -> Markup:
    """Not used (no checkpoints); kept for the shared contract."""
    return round_summary(view["history"][index], ui.cast)


def explain_milestone(view: RandolphView, index: int, cast: Cast) -> str:
    """A round's outcome in one sentence."""
    return explain_round(view["history"][index], cast)


def privacy_reason(view: RandolphView) -> str:
    """One person per device plays this game, so the device is never passed."""
    return ""


class RandolphDraft(TypedDict, total=False):
    """The only draft: the challenge card being considered."""

    card: int


def _draft(ui: Ui) -> RandolphDraft:
    """This device's draft: only ``update_draft`` below makes one (``render.Draft``)."""
    return cast(RandolphDraft, ui.draft)


def update_draft(view: RandolphView, draft: RandolphDraft, data: dict[str, str]) -> RandolphDraft:
    """The only draft is the challenge card being considered."""
    if "card" in data and data["card"].isdigit():
        return {**draft, "card": int(data["card"])}
    return draft


def draft_move(view: RandolphView, draft: RandolphDraft) -> ChallengeMove | None:
    """The challenge the draft describes, if it is one of the legal moves."""
    if "card" not in draft:
        return None
    move: ChallengeMove = {"type": "challenge", "card": draft["card"]}
    return move if move in view["legal_moves"] else None


# -- the screen -----------------------------------------------------------------


def render_turn(view: RandolphView, ui: Ui) -> Markup:
    """The arena, what this seat can do now, everyone's cards and the last outcome."""
    phase = view["phase"]
    head = markup(
        '<h2 id="turn-title" tabindex="-1" data-autofocus>{}<small> · challenge {}</small></h2>',
        PHASE_TITLES.get(phase, phase),
        view["round"],
    )
    if phase == "challenge" and view["seat"] == view["provocateur"]:
        # The cards and their button first, in view on a small phone; the outcome
        # follows right under them.
        body = _challenge(view, ui) + last_outcome(view, ui)
    elif phase == "challenge":
        body = last_outcome(view, ui) + _challenge(view, ui)
    elif phase == "react":
        body = _react(view, ui)
    elif phase == "duel":
        body = _duel(view, ui) + last_outcome(view, ui)
    else:
        body = last_outcome(view, ui)
    return head + error_line(ui) + body + players_panel(view, ui) + PRACTICE_LINK


PRACTICE_LINK = Markup(
    '<p class="practice-link"><button type="button" class="quiet" data-action="practice"'
    ' id="practice">Practise throwing</button> <small>Throw at an arena where nothing'
    " counts; the game goes on meanwhile.</small></p>"
)
"""The way to the practice arena from a game in progress, below everything of the step."""


def last_outcome(view: RandolphView, ui: Ui) -> Markup:
    """The last challenge's outcome, kept in view through the next challenge.

    With a bot holding the stumbling block the next challenge comes at once: the
    outcome is drawn first while a bot chooses a challenge (right under the cards
    when the viewer chooses one), beside the hand during the countdown and after,
    so nobody has to scroll to find what just happened.
    """
    last = view["history"][-1] if view["history"] else None
    if last is None:
        return EMPTY
    return markup(
        '<section class="last-round" id="last-round" aria-label="The last challenge">'
        "<h3>Challenge {}</h3>{}</section>",
        last["round"],
        round_summary(last, ui.cast),
    )


def _challenge(view: RandolphView, ui: Ui) -> Markup:
    provocateur = view["provocateur"]
    if view["seat"] != provocateur:
        return markup(
            '<p class="explain">{} the stumbling block and {}'
            " choosing a challenge card. Get ready to throw.</p>",
            ui.cast.subject(provocateur, "hold", start=True),
            ui.cast.verb(provocateur, "be"),
        ) + arena(view, ui)
    chosen = _draft(ui).get("card")
    legal = {m["card"] for m in view["legal_moves"] if m["type"] == "challenge"}
    buttons = join(
        markup(
            '<button type="button" class="rcard" data-action="draft" data-card="{}"'
            ' id="challenge-{}"'
            "{}"
            ' aria-label="Challenge with your {}">{}</button>',
            v,
            v,
            attrs(aria_pressed=str(v == chosen).lower(), disabled=v not in legal),
            v,
            v,
        )
        for v in view["hands"][view["seat"]]
    )
    ready = draft_move(view, _draft(ui)) is not None
    return (
        markup(
            '<p class="explain">You hold the stumbling block. Place one card face up in the arena:'
            " the others may throw a card of a different value onto it to take up the"
            " challenge.</p>"
            '<div class="rhand" role="group" aria-label="Your cards">{}</div>'
            '<p class="actions"><button type="button" class="primary big" data-action="submit"'
            ' id="submit"{}>',
            buttons,
            attrs(disabled=not ready),
        )
        + (f"Challenge with the {chosen}" if ready else "Choose a card")
        + Markup("</button></p>")
    )


def _react(view: RandolphView, ui: Ui) -> Markup:
    """The arena beside the hand: both in view at once on a laptop and on a phone."""
    me = view["seat"]
    window = view["window"]
    challenge = needed(view["challenge"], "challenge card of an open window")
    counting = ui.elapsed < 0
    second = (
        " This is the second chance: the first throws were all invalid."
        if window and window["second"]
        else ""
    )
    if me == view["provocateur"]:
        lead = f"You challenged with your {view['challenge']}. Watch who takes it up.{second}"
        side = markup('<p class="explain">{}</p>', lead)
        return _throw_zone(view, ui, side, aiming=False)
    throws = [m for m in view["legal_moves"] if m["type"] == "throw"]
    if me is None:
        side = markup('<p class="explain">The players throw at the challenge.{}</p>', second)
        return _throw_zone(view, ui, side, aiming=False)
    if not throws:
        side = markup('<p class="explain">You have no cards left to throw.{}</p>', second)
        return _throw_zone(view, ui, side, aiming=False)
    can = {m["card"] for m in throws}
    cards = join(
        markup(
            '<button type="button" class="rcard throw-card" id="throw-{}" data-throw-card="{}"'
            "{}"
            ' aria-label="Throw your {}: drag and flick it at the arena, or aim with the left'
            ' and right arrows and hold Space for power">{}</button>',
            v,
            v,
            attrs(disabled=v not in can),
            v,
            v,
        )
        for v in view["hands"][me]
    )
    how = (
        "Drag a card at the arena and let go with a flick (keyboard: ← → to aim, hold"
        " Space to throw)."
    )
    hint = (
        "Get ready: when the countdown says Throw!, drag a card towards the arena and let go"
        " with a flick."
        if counting
        else how
    )
    side = markup(
        '<div class="rhand throw-hand" role="group" aria-label="Your cards">{}</div>'
        '<p class="hint" id="aim-readout" aria-live="polite" data-open-text="{}">{}</p>'
        '<p class="explain">{} with {}'
        " <strong>{}</strong>. To take it up, throw a card of another value so"
        " it lands flat in the arena before anyone else's. Same value: invalid. Every other"
        " thrown card leaves the game.{}</p>",
        cards,
        how,
        hint,
        ui.cast.subject(view["provocateur"], "challenge", start=True),
        article(challenge),
        challenge,
        second,
    )
    return _throw_zone(view, ui, side, aiming=True)


def _throw_zone(view: RandolphView, ui: Ui, side: Markup, aiming: bool) -> Markup:
    """The arena and, beside it (below on a phone), the hand, the hint and the outcomes.

    The hand comes first, so it is in view with the arena even on a phone; the
    last challenge's outcome follows it, and during the countdown it is also
    written over the arena, where every screen shows it before the race starts.
    """
    column = side + arena_list(view, ui) + last_outcome(view, ui)
    last = view["history"][-1] if view["history"] else None
    news = explain_round(last, ui.cast) if last is not None else ""
    return markup(
        '<div class="throw-zone">{}<div class="throw-side">{}</div></div>',
        arena(view, ui, aiming=aiming, news=news),
        column,
    )


def _duel(view: RandolphView, ui: Ui) -> Markup:
    duel = needed(view["duel"], "duel under way")
    seats = duel["seats"]
    me = view["seat"]
    opponent = next((s for s in seats if s != me), None)
    picture = arena(view, ui) + arena_list(view, ui)
    if me is None or me not in seats or opponent is None or not view["legal_moves"]:
        who = ui.cast.listing(seats, start=True)
        text = f"{who} duel over the {duel['challenge']} and the {duel['card']}."
        if view["waiting_for"]:
            text += f" Waiting for {ui.cast.listing(view['waiting_for'])} to choose."
        return markup('<p class="explain">{}</p>', text) + picture
    mine = duel["card"] if me != seats[0] else duel["challenge"]
    theirs = duel["challenge"] if me != seats[0] else duel["card"]
    offered = {m["choice"] for m in view["legal_moves"] if m["type"] == "duel"}
    lives = view["lives"][me]
    buttons = join(
        markup(
            '<button type="button" class="{}" data-action="move" id="duel-{}"'
            " data-move='{}'"
            "{}>{}</button> ",
            cls,
            choice,
            json.dumps({"type": "duel", "choice": choice}),
            attrs(disabled=choice not in offered),
            label,
        )
        for choice, label, cls in (
            ("peace", "☮ Peace", "primary big"),
            ("conflict", "⚔ Conflict", "big danger"),
        )
    )
    no_life = (
        Markup('<p class="hint">You have no life blocks left, so only peace is possible.</p>')
        if "conflict" not in offered
        else ""
    )
    # Peace and Conflict come straight after the one line that says what is at stake,
    # so they are in view on a small phone; what each pair of choices does follows.
    return (
        markup(
            '<p class="explain">Your {} against {} {}. Both choose in secret; you have {}'
            " left.</p>{}",
            mine,
            ui.cast.possessive(opponent),
            theirs,
            plural(lives, "life", "lives"),
            no_life,
        )
        + markup('<p class="actions duel-choice">{}</p>', buttons)
        + Markup(
            '<p class="explain duel-rules">Peace and peace: each takes the other\'s card.'
            " Conflict against peace: conflict takes both cards and loses a life. Conflict and"
            " conflict: both cards leave the game and both lose a life.</p>"
        )
        + picture
    )


# -- everyone's cards ------------------------------------------------------------------


def players_panel(view: RandolphView, ui: Ui) -> Markup:
    """Each player's remaining cards, lives, won cards and the stumbling block."""
    rows = []
    for seat, name in enumerate(ui.names):
        hand = view["hands"][seat]
        won = view["won"][seat]
        block = (
            Markup(' <span class="block" title="Holds the stumbling block">▲ provocateur</span>')
            if seat == view["provocateur"]
            else ""
        )
        lives = view["lives"][seat]
        rows.append(
            markup(
                '<li{}><p class="who">{}{}</p><p class="lives" aria-label="{}">',
                attrs(class_="me" if seat == view["seat"] else None),
                name,
                block,
                plural(lives, "life", "lives"),
            )
            + (repeated("♥", lives, MOST_LIVES) or "no lives")
            + markup(
                "</p>"
                '<p class="held" aria-label="Cards in hand">{}</p>'
                '<p class="won" aria-label="Won cards">Won: {}'
                " = {}</p></li>",
                _chips(hand) or "no cards",
                _chips(won) or "nothing yet",
                sum(won),
            )
        )
    return markup('<ol class="players" aria-label="Players">{}</ol>', join(rows))


def _chips(values: list[int]) -> Markup:
    return join(markup('<span class="chip">{}</span>', v) for v in values)


# -- the end ------------------------------------------------------------------------


def why_over(view: RandolphView, cast: Cast) -> str:
    """Why the game ended, in a sentence: nobody is left to answer a challenge."""
    holders = [s for s, hand in enumerate(view["hands"]) if hand]
    if len(holders) == 1:
        seat = holders[0]
        return (
            f"The game ended after challenge {view['round']}: only"
            f" {cast.object(seat)} still {cast.verb(seat, 'hold')} cards, so there is nobody"
            " left to challenge."
        )
    return f"The game ended after challenge {view['round']}: nobody holds a card any more."


def final_details(view: RandolphView, ui: Ui) -> Markup:
    """Under the final scores: why the game ended and the cards each player won."""
    rows = join(
        markup(
            '<li><span class="who">{}</span> won {} = {}</li>',
            name,
            _chips(view["won"][seat]) or "no cards",
            plural(sum(view["won"][seat]), "point"),
        )
        for seat, name in enumerate(ui.names)
    )
    return markup(
        '<section class="final-details" aria-label="How the game ended">'
        '<p class="why-over">{}</p><ul class="won-cards">{}</ul></section>',
        why_over(view, ui.cast),
        rows,
    )


# -- outcomes ----------------------------------------------------------------------


def explain_round(r: RoundView, cast: Cast) -> str:
    """What a finished challenge came to, in a sentence or two."""
    provocateur = r["provocateur"]
    duel = r.get("duel")
    if r["outcome"] == "kept" or duel is None:
        why = (
            "none of the thrown cards was valid"
            if r.get("reason") == "no_valid_card"
            else "nobody took it up"
        )
        return (
            f"{cast.object(provocateur, start=True)} challenged with"
            f" {indefinite(r['challenge'])}; {why}, so {cast.subject(provocateur, 'keep')} it"
            " as winnings."
        )
    rival = duel["seats"][1]
    both = cast.listing([provocateur, rival], start=True)
    cards = {provocateur: duel["challenge"], rival: duel["card"]}
    pair = " and ".join(f"{cast.possessive(s)} {cards[s]}" for s in (provocateur, rival))
    outcome = r["outcome"]
    if outcome == "peace":
        return f"{both} both chose peace: each takes the other's card ({pair})."
    if outcome == "both_conflict":
        return f"{both} both chose conflict: {pair} leave the game; both lose a life."
    winner = r["winner"]
    if winner is None:
        winner = provocateur
    loser = rival if winner == provocateur else provocateur
    return (
        f"{cast.object(winner, start=True)} chose conflict and {cast.object(loser)} peace:"
        f" {cast.subject(winner, 'win')} {cast.possessive(loser)} {cards[loser]},"
        f" {cast.verb(winner, 'keep')} {cast.own(winner)} {cards[winner]}"
        f" and {cast.verb(winner, 'lose')} a life."
    )


def round_summary(r: RoundView, cast: Cast) -> Markup:
    """The last challenge's outcome, with the fate of every thrown card."""
    thrown = join(markup("<li>{}</li>", arena_line(t, cast)) for t in r.get("arena", []))
    return markup(
        '<p class="outcome"{}>{}</p>',
        reveal("uncover", f"outcome-{r['round']}"),
        explain_round(r, cast),
    ) + (markup('<ol class="arena-list">{}</ol>', thrown) if thrown else "")


def why(story: RandolphStory, cast: Cast) -> str | None:
    """How the game was won: the winner's last won duel, or the challenge from which they led."""
    who = story["seat"]
    if story["kind"] == "duel":
        # The winner's last duel won, wherever it fell: not the last of its challenge.
        return (
            f"{cast.object(who, start=True)} last won a duel in challenge {story['round']},"
            f" against {cast.object(story['rival'])}, taking {plural(story['points'], 'point')}."
        )
    return lead_line(story, cast, "challenge")


def describe(event: RandolphEvent, cast: Cast) -> str | None:
    """A log line for an event, or None for events not worth a line."""
    if event["kind"] == "challenge_placed":
        placed = event["data"]
        who = cast.subject(placed["seat"], "challenge", start=True)
        return f"{who} with {indefinite(placed['card'])}."
    if event["kind"] == "card_landed":
        return arena_line(event["data"], cast) + "."
    if event["kind"] == "second_window":
        return "No valid card: everyone may throw once more."
    if event["kind"] == "round_over":
        return explain_round(event["data"], cast)
    if event["kind"] == "game_over":
        return f"The game is over: {cast.listing(event['data']['winners'])} won."
    return None


GESTURE_FIELDS = ("card", "aim", "power", "spin")


def gesture_move(view: object, data: dict[str, str]) -> ThrowMove | None:
    """A throw measured by ``static/js/throw.entry.js`` (drag, flick or keyboard).

    The table stamps its time and judges it; a gesture with a missing or
    non-numeric field is no throw at all. The page names the window the card was
    picked up in, so a throw released as that challenge closed is refused by the
    table instead of landing on the next challenge.
    """
    try:
        card, aim, power, spin = (round(float(data[key])) for key in GESTURE_FIELDS)
    except (KeyError, ValueError, OverflowError):
        return None
    move: ThrowMove = {"type": "throw", "card": card, "aim": aim, "power": power, "spin": spin}
    window = data.get("window", "")
    if window.isdigit():
        move["window"] = int(window)
    return move
