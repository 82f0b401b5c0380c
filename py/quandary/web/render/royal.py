"""Royal Dilemma's table: realms in play, the secret choice, captures, and each round retold.

Drawn from a seat's view (or the public view) plus the device's draft. The
draft holds the chosen target card and value card; the engine's legal moves
decide which buttons are enabled. Every step of a round is explained in words
("Queen of Hearts invades Jack of Clubs with 7♥, doubled to 14 …").
"""

from __future__ import annotations

import json
from typing import TypedDict, cast

from quandary.engine import round_words
from quandary.engine.typed import needed
from quandary.games.royal.cards import (
    FACE_NAMES,
    FACES,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    card_name,
    card_points,
    rank_of,
    seat_face,
    strength,
    suit_of,
    suit_seat,
    target_seat,
)
from quandary.games.royal.cards import (
    seat_title as title,
)
from quandary.games.royal.cards import (
    short_name as short,
)
from quandary.games.royal.view import (
    ChooseMove,
    RoyalChoice,
    RoyalEvent,
    RoyalRecord,
    RoyalStep,
    RoyalStory,
    RoyalView,
)
from quandary.web.html import Markup, attrs, join, markup, repeated
from quandary.web.phrases import Cast, plural

from . import playing_cards as pc
from .ending import lead_line
from .table import Ui, error_line, reveal

DECK = 52
"""Card backs drawn for one move at most: more cards than a deck holds never move."""

PHASE_TITLES = {
    "choose": "Choose a target and a value card",
    "capture": "Choose what to capture",
    "over": "The game is over",
}


# -- small words (the card facts are the game's own: ``games.royal.cards``) -----------
# A seat is its player and its royal; the reader's own seat is "you" in every sentence.


def who(seat: int, cast: Cast, start: bool = False) -> str:
    """A seat as its royal and its player: "Queen of Hearts (Robin)", "you (Ace of Spades)"."""
    if cast.is_you(seat):
        return f"{cast.object(seat, start)} ({title(seat)})"
    return f"{title(seat)} ({cast.object(seat)})"


def royal(seat: int, cast: Cast, start: bool = False) -> str:
    """A seat by its title alone: "the Jack of Clubs", or "you"."""
    if cast.is_you(seat):
        return cast.object(seat, start)
    return ("The " if start else "the ") + title(seat)


def _pronoun(seat: int, cast: Cast) -> str:
    """The seat again, after it was named: "you", "it" (a royal)."""
    return "you" if cast.is_you(seat) else "it"


def _piece(card: str, seat: int, cast: Cast) -> str:
    """A card in a seat's realm or hand: "your 8♥", "8♥ of the Jack of Clubs"."""
    if cast.is_you(seat):
        return f"your {short(card)}"
    return f"{short(card)} of the {title(seat)}"


def _why_doubled(card: str) -> str:
    owner = FACES[suit_seat(card)]
    return f"{SUIT_NAMES[suit_of(card)]} is the {FACE_NAMES[owner]}'s suit"


def _power(card: str, value: int, doubled: bool) -> str:
    if doubled:
        return f"{short(card)}, doubled to {value} ({_why_doubled(card)})"
    return f"{short(card)} (strength {value})"


# -- explaining a round ----------------------------------------------------------------


def explain_step(step: RoyalStep, cast: Cast) -> str:
    """One step of a round's resolution as a sentence."""
    seat, target, card = step["seat"], step["target"], step["card"]
    if step["kind"] == "build":
        worth = card_points(card, seat)
        its = "your" if cast.is_you(seat) else "its"
        extra = (
            f", doubled as {SUIT_NAMES[suit_of(card)]} is {its} suit"
            if worth > rank_of(card)
            else ""
        )
        return (
            f"{who(seat, cast, start=True)} {cast.verb(seat, 'build')}: {short(card)} goes into"
            f" play (worth {worth}{extra})."
        )
    if step["kind"] == "battle":
        mine = _power(card, step["strength"], step["doubled"])
        rival = needed(step["rival_card"], "rival card in a battle")
        theirs = _power(rival, step["rival_strength"], step["rival_doubled"])
        pair = f"{who(seat, cast, start=True)} and {who(target, cast)}"
        head = f"{pair} battle: {mine} against {theirs}."
        if step["winner"] is None:
            return head + " Equal strength: both value cards are discarded."
        winner = step["winner"]
        loser = target if winner == seat else seat
        lost = rival if winner == seat else card
        return (
            f"{head} {royal(winner, cast, start=True)} {cast.verb(winner, 'win')};"
            f" {_piece(lost, loser, cast)} is discarded."
        )
    if step["after_battle"]:
        defeated = "you, defeated," if cast.is_you(target) else f"the defeated {title(target)}"
        head = (
            f"{royal(seat, cast, start=True)} {cast.verb(seat, 'invade')} {defeated}"
            f" with strength {step['strength']}"
        )
    else:
        power = _power(card, step["strength"], step["doubled"])
        head = (
            f"{who(seat, cast, start=True)} {cast.verb(seat, 'invade')} {who(target, cast)}"
            f" with {power}"
        )
    return head + _outcome(step, cast)


def _outcome(step: RoyalStep, cast: Cast) -> str:
    seat, target = step["seat"], step["target"]
    if step["captured"]:
        return f" and {cast.verb(seat, 'capture')} {short(step['captured'])}."
    if step["could_capture"]:
        options = ", ".join(short(c) for c in step["could_capture"])
        return (
            f" but {cast.verb(seat, 'capture')} nothing ({_pronoun(seat, cast)} could have"
            f" taken {options})."
        )
    if not step["from_hand"]:
        theirs = "yours" if cast.is_you(target) else f"the {title(target)}'s"
        return f", but nothing of {theirs} is worth {step['strength']} or less."
    has = f"{royal(target, cast, start=True)} {cast.verb(target, 'have')} nothing in play"
    count = step["surrendered_count"]
    if not count:
        return f". {has} and no value card to surrender."
    shown = step["surrendered"]
    cards = f" ({', '.join(short(c) for c in shown)})" if shown else ""
    if count < step["strength"]:  # the strength asked for more than the hand held
        given = f"all {plural(count, 'value card')} {_pronoun(target, cast)} held"
    else:
        given = plural(count, "value card")
    mine = "your" if cast.is_you(target) else "its"
    return (
        f". {has}, so {_pronoun(target, cast)} {cast.verb(target, 'surrender')} {given}"
        f"{cards} from {mine} hand into {_hand_of(seat, cast)}. {SURRENDER_SCORES}"
    )


SURRENDER_SCORES = "Only cards in play score, so no score changes."
"""Why a surrender moves cards but never a score: they go from hand to hand."""


def _hand_of(seat: int, cast: Cast) -> str:
    """ "your hand", "the Queen of Hearts' hand"."""
    if cast.is_you(seat):
        return "your hand"
    return f"the {title(seat)}'s hand"


def explain_choice(seat: int, choice: RoyalChoice | None, cast: Cast) -> str:
    """A revealed choice: "builds with 7♥", "targets the Jack of Clubs with 9♠", "passes"."""
    chooser = who(seat, cast, start=True)
    if choice is None:
        return f"{chooser} {cast.verb(seat, 'pass')}."
    if choice["target"] == seat:
        return f"{chooser} {cast.verb(seat, 'build')} with {short(choice['card'])}."
    return (
        f"{chooser} {cast.verb(seat, 'target')} {royal(choice['target'], cast)}"
        f" with {short(choice['card'])}."
    )


def explain_result(record: RoyalRecord, cast: Cast) -> str:
    """A round in a few sentences: choices, then every step, then the scores."""
    parts = [explain_choice(s, c, cast) for s, c in enumerate(record["choices"])]
    parts += [explain_step(s, cast) for s in record["steps"]]
    scores = ", ".join(f"{cast.object(s)} {v}" for s, v in enumerate(record["scores"]))
    return " ".join(parts) + f" Scores: {scores}."


# -- the contract with the controllers --------------------------------------------------


def checkpoints(view: RoyalView) -> int:
    """One milestone per finished round: its retelling is shown until acknowledged."""
    return len(view["history"])


def privacy_reason(view: RoyalView) -> str:
    """Why the device is being passed, without revealing anything."""
    if view.get("phase") == "capture":
        return "It is time to choose what to capture."
    return "It is time to choose a target card and a value card in secret."


def explain_milestone(view: RoyalView, index: int, cast: Cast) -> str:
    """The sentence a screen reader hears when round ``index``'s retelling is shown."""
    record = view["history"][index]
    return f"Round {record['round']} resolved. " + explain_result(record, cast)


def render_round_result(view: RoyalView, ui: Ui, index: int) -> Markup:
    """Round ``index`` retold: the revealed choices, each step in order, the scores after."""
    record = view["history"][index]
    cast = ui.cast
    choices = join(
        _choice_item(s, c, cast, f"{record['round']}-{s}") for s, c in enumerate(record["choices"])
    )
    steps = join(
        markup("<li>{}{}</li>", explain_step(s, cast), _moved(s, cast)) for s in record["steps"]
    )
    if not steps:
        steps = Markup("<li>Nothing else happens: nobody invades.</li>")
    changes = score_changes(record["steps"], len(record["scores"]))
    scores = join(
        markup(
            '<li><span>{}</span> <strong>{}</strong> <small class="royal-change">{}</small></li>',
            who(s, cast, start=True),
            v,
            f"({changes[s]:+d} this round)" if changes[s] else "(no change this round)",
        )
        for s, v in enumerate(record["scores"])
    )
    last = index == len(view["history"]) - 1 and view.get("result")
    button = "See the final scores" if last else f"On to round {record['round'] + 1}"
    ending: Markup | str = ""
    if last:
        # The final view's deck and next draw are the very numbers that ended the game.
        why = _ending(None, view["deck"], sum(view["next_draw"]))
        ending = markup('<p class="explain">{}: the game ends.</p>', why)
    return markup(
        '<section class="round-result royal-result" aria-labelledby="result-title">'
        '<h2 id="result-title" tabindex="-1" data-autofocus>Round {}: '
        "how it resolved</h2>"
        '<h3>Revealed together</h3><ul class="royal-choices">{}</ul>'
        '<h3>Step by step</h3><ol class="royal-steps">{}</ol>'
        '<h3>Scores</h3><ul class="royal-scores">{}</ul>{}'
        '<p class="actions"><button type="button" class="primary big" data-action="next" '
        'id="next">{}</button></p></section>',
        record["round"],
        choices,
        steps,
        scores,
        ending,
        button,
    )


def score_changes(steps: list[RoyalStep], players: int) -> list[int]:
    """How each step moved the scores: builds and captures only, never a surrender.

    Only cards in play score, so a build adds its worth to the builder and a
    capture moves a card's worth from one realm to the other (its value may
    differ on each side: own suit counts double). Cards passed from hand to
    hand change nothing, which the retelling says beside them.
    """
    out = [0] * players
    for step in steps:
        if step["kind"] == "build":
            out[step["seat"]] += card_points(step["card"], step["seat"])
        elif step["captured"]:
            out[step["seat"]] += card_points(step["captured"], step["seat"])
            out[step["target"]] -= card_points(step["captured"], step["target"])
    return out


def _moved(step: RoyalStep, cast: Cast) -> Markup:
    """A surrender drawn where it is told: the cards (or their backs) going hand to hand.

    Only the two royals involved see which cards moved; everyone else sees as
    many card backs. The realms are untouched, so both scores stand.
    """
    count = step.get("surrendered_count", 0)
    if not step.get("from_hand") or not count:
        return Markup()
    shown = step.get("surrendered") or []
    cards = (
        join(_card_img(c, "tiny") for c in shown)
        if shown
        else repeated(markup('<span class="pcard tiny back">{}</span>', pc.back()), count, DECK)
    )
    giver, taker = step["target"], step["seat"]
    return markup(
        '<p class="royal-moved" aria-hidden="true"><span class="royal-hands">{}</span>'
        "<span>{} hand → {} hand · nothing in play moved: scores stand</span></p>",
        cards,
        cast.possessive(giver, start=True),
        cast.possessive(taker),
    )


def _choice_item(seat: int, choice: RoyalChoice | None, cast: Cast, key: str) -> Markup:
    if choice is None:
        cards = Markup('<span class="pcard small passed">pass</span>')
    else:
        cards = target_img(choice["target"], "small") + _card_img(choice["card"], "small")
    return markup(
        '<li class="royal-choice"{}><span class="royal-pair">{}</span><span>{}</span></li>',
        reveal("turn", f"choice-{key}"),  # all turned together: one step for every seat
        cards,
        explain_choice(seat, choice, cast),
    )


def target_img(seat: int, size: str = "") -> Markup:
    """The royal a target card aims at, drawn as that seat's own face and suit.

    A target card in the hand is a face in the chooser's suit, but the face
    alone says whom it targets; showing the target's own card (the Jack of Clubs
    for the Jack of Clubs' seat) everywhere, at choice, while waiting and at the
    reveal, means one picture always means one rival.
    """
    face = seat_face(seat)
    return markup(
        '<span class="pcard {}" role="img" aria-label="{}" data-face="{}">{}</span>',
        size,
        card_name(face),
        face,
        pc.card(face),
    )


def _card_img(card: str, size: str = "") -> Markup:
    label = card_name(card)
    return markup(
        '<span class="pcard {}" role="img" aria-label="{}">{}</span>', size, label, pc.card(card)
    )


# -- the turn screen ----------------------------------------------------------------------


def render_turn(view: RoyalView, ui: Ui) -> Markup:
    """The viewer's screen: realms, then the choice, a capture, or the wait."""
    phase = view["phase"]
    head = markup(
        '<h2 id="turn-title" tabindex="-1" data-autofocus>{}<small> · {}</small></h2>',
        PHASE_TITLES.get(phase),
        round_words(view["round"], view["round_limit"]),
    )
    body = _realms(view, ui) + _counts(view)
    if phase == "capture":
        body = _this_round(view, ui) + _capture(view, ui) + body
    elif view.get("my_choice") is not None or not view["legal_moves"]:
        body = _waiting(view, ui) + body
    else:
        body = _choose(view, ui) + body
    return head + error_line(ui) + body


def _counts(view: RoyalView) -> Markup:
    deck, discard = view["deck"], view["discard"]
    return markup(
        '<p class="royal-counts">'
        '<span class="pcard tiny">{}</span> Deck: {}'
        " · discard pile: {}"
        " · next draw: {} cards in all</p>"
        '<p class="royal-length" id="royal-length">{}</p>',
        pc.back(),
        plural(deck, "card"),
        plural(discard, "card"),
        sum(view["next_draw"]),
        rounds_left(view),
    )


def rounds_left(view: RoyalView) -> str:
    """How many rounds the deck still covers, and why, from the rules' own bound.

    The header's "at most N" comes from this round's draw (``Royal.progress``);
    the next draw is at least the cards in play now, and only grows, so both
    sentences stay true however the round resolves.
    """
    deck, nxt = view["deck"], sum(view["next_draw"])
    limit = needed(view["round_limit"], "bound on rounds")
    why = (
        "Each round every player draws one card per card in play, plus one per card in play"
        " of their own suit."
    )
    cards = f"The deck's {plural(deck, 'card')}"
    if limit["exact"]:
        return (
            f"This is the last round: {cards[0].lower()}{cards[1:]} cannot cover the next draw"
            f" of at least {nxt}. {why}"
        )
    more = limit["count"] - view["round"]
    return (
        f"{cards} cover at most {plural(more, 'more round')} after this one: the next draw"
        f" takes at least {nxt}, more for every card built. {why}"
    )


def _realms(view: RoyalView, ui: Ui) -> Markup:
    items = []
    for seat, realm in enumerate(view["realms"]):
        cards = join(markup("<li>{}</li>", _card_img(c, "small")) for c in realm) or (
            Markup('<li class="empty">Nothing in play</li>')
        )
        me = seat == ui.viewer
        items.append(
            markup(
                "<li{}>"
                '<p class="realm-head"><span class="suit s{}" aria-hidden="true">'
                "{}</span> <strong>{}</strong> "
                "{}{}</p>"
                '<p class="realm-meta">{} points · '
                "{} in hand</p>"
                '<ul class="realm-cards" aria-label="{}: cards in play">{}</ul>'
                "</li>",
                attrs(class_="realm me" if me else "realm"),
                SUITS[seat],
                SUIT_SYMBOLS[SUITS[seat]],
                title(seat),
                ui.names[seat],
                _you(ui, seat),
                view["scores"][seat],
                plural(view["hand_sizes"][seat], "value card"),
                title(seat),
                cards,
            )
        )
    return markup('<h3>Realms in play</h3><ul class="realms">{}</ul>', join(items))


def _you(ui: Ui, seat: int) -> str:
    name = ui.names[seat]
    return " (you)" if seat == ui.viewer and name.casefold() != "you" else ""


def _choose(view: RoyalView, ui: Ui) -> Markup:
    me, draft = ui.viewer, _draft(ui)
    assert me is not None
    legal_targets = {m["target"] for m in view["legal_moves"] if m["type"] == "choose"}
    legal_values = {m["value"] for m in view["legal_moves"] if m["type"] == "choose"}
    target: str | None = draft.get("target")
    aim = target_seat(target) if target is not None and target in legal_targets else None
    targets = join(
        markup(
            "<li>{}</li>", _target_button(card, me, ui, card == target, card not in legal_targets)
        )
        for card in view["targets"]
    )
    chosen = draft.get("value")
    values = join(
        markup(
            "<li>{}</li>", _value_button(card, me, aim, card == chosen, card not in legal_values)
        )
        for card in view["hand"]
    )
    if not view["hand"]:
        values = Markup('<li class="empty">You hold no value cards: you can only pass.</li>')
    move = draft_move(view, draft)
    ready = move is not None and move in view["legal_moves"]
    return markup(
        '<p class="explain">Pick a target card (your own face builds) and a value card, or '
        "pass. Everyone's choice is revealed at once.</p>"
        '<section aria-label="Your target cards"><h3>Target</h3>'
        '<ul class="pcards">{}</ul></section>'
        '<section aria-label="Your value cards"><h3>Value card</h3>'
        '<ul class="pcards">{}</ul></section>'
        '<p class="royal-preview" aria-live="polite">{}</p>'
        '<p class="actions"><button type="button" class="primary big" data-action="submit" '
        'id="submit"{}>Play these cards face down</button>'
        '<button type="button" data-action="move" id="pass" '
        "data-move='{}'"
        "{}>Pass</button></p>",
        targets,
        values,
        _preview(view, ui),
        attrs(disabled=not ready),
        json.dumps({"type": "pass"}),
        attrs(disabled={"type": "pass"} not in view["legal_moves"]),
    )


def _target_button(card: str, me: int, ui: Ui, pressed: bool, disabled: bool) -> Markup:
    seat = target_seat(card)
    caption = "build" if seat == me else ui.names[seat]
    what = ": your own face" if seat == me else ": invade"
    return markup(
        '<button type="button" class="pcard target" data-action="draft" data-target="{}" '
        'id="target-{}" data-face="{}"{}>{}{}</button>',
        card,
        card,
        seat_face(seat),
        attrs(aria_pressed=str(pressed).lower(), disabled=disabled),
        pc.card(seat_face(seat), True),
        _caption(caption, what),
    )


def _value_button(card: str, me: int, aim: int | None, pressed: bool, disabled: bool) -> Markup:
    if aim is None:
        caption = ""
    elif aim == me:
        caption = f"worth {card_points(card, me)}"
    else:
        caption = f"strength {strength(card, me, aim)[0]}"
    return markup(
        '<button type="button" class="pcard value" data-action="draft" data-value="{}" '
        'data-card="{}" id="value-{}"{}>{}{}</button>',
        card,
        card,
        card,
        attrs(aria_pressed=str(pressed).lower(), disabled=disabled),
        pc.card(card, True),
        _caption(caption),
    )


def _caption(caption: str, unseen: str = "") -> Markup:
    """A card button's caption; the button is named by what it shows (the face's name,
    then the caption) with ``unseen`` words for screen readers after them, so a
    player who says what they see names it (WCAG's label in name). The space before
    the caption takes no room in the flex column but keeps the words apart."""
    return markup(
        ' <span class="caption">{}</span>{}',
        caption,
        markup('<span class="sr-only">{}</span>', unseen) if unseen else Markup(""),
    )


def _preview(view: RoyalView, ui: Ui) -> str:
    me, draft = ui.viewer, _draft(ui)
    assert me is not None
    target, value = str(draft.get("target")), str(draft.get("value"))
    if target not in view["targets"] or value not in view["hand"]:
        return "Choose a target card and a value card."
    aim = target_seat(target)
    if aim == me:
        return f"You will build: {short(value)} goes into play, worth {card_points(value, me)}."
    return (
        f"You will target the {title(aim)} with {short(value)}, strength "
        f"{strength(value, me, aim)[0]}. If they target you too, you battle."
    )


def _waiting(view: RoyalView, ui: Ui) -> Markup:
    others = [s for s in view["waiting_for"] if s != ui.viewer]
    mine = view.get("my_choice")
    shown = ""
    if mine is not None and ui.viewer is not None:
        if mine["type"] == "pass":
            shown = Markup("<p>You pass this round.</p>")
        else:
            shown = (
                Markup('<p class="royal-pair">')
                + target_img(target_seat(mine["target"]), "small")
                + _card_img(mine["value"], "small")
                + Markup("</p><p>Your cards lie face down.</p>")
            )
    wait = markup("<p>Waiting for {}…</p>", ui.cast.listing(others)) if others else ""
    return markup('<div class="waiting">{}{}</div>', shown, wait)


def _this_round(view: RoyalView, ui: Ui) -> Markup:
    choices = join(
        _choice_item(s, c, ui.cast, f"now-{view['round']}-{s}")
        for s, c in enumerate(view["choices"])
    )
    steps = join(
        markup("<li>{}{}</li>", explain_step(s, ui.cast), _moved(s, ui.cast)) for s in view["steps"]
    )
    return (
        markup(
            '<section class="royal-now" aria-label="This round so far">'
            '<h3>Revealed together</h3><ul class="royal-choices">{}</ul>',
            choices,
        )
        + (markup('<h3>So far</h3><ol class="royal-steps">{}</ol>', steps) if steps else "")
        + Markup("</section>")
    )


def _capture(view: RoyalView, ui: Ui) -> Markup:
    capture = needed(view["capture"], "capture under way")
    step = capture["step"]
    seat, target = step["seat"], step["target"]
    if ui.viewer != seat or not view["legal_moves"]:
        realm = "your realm" if ui.cast.is_you(target) else f"the {title(target)}'s realm"
        return markup(
            '<p class="waiting">{} choosing what to capture from {}…</p>',
            ui.cast.subject(seat, "be", start=True),
            realm,
        )
    buttons = join(
        markup(
            "<li>"
            '<button type="button" class="pcard capture" data-action="move" id="capture-{}" '
            "data-move='{}'>{}{}</button></li>",
            c,
            json.dumps({"type": "capture", "card": c}),
            pc.card(c, True),
            _caption(f"+{card_points(c, seat)}", " points: capture"),
        )
        for c in capture["options"]
    )
    decline = json.dumps({"type": "decline"})
    return markup(
        '<p class="explain">You invade the {} with strength '
        "{}: take one card worth {} or less into your realm.</p>"
        '<ul class="pcards">{}</ul>'
        '<p class="actions"><button type="button" data-action="move" id="decline" '
        "data-move='{}'>Capture nothing</button></p>",
        title(target),
        step["strength"],
        step["strength"],
        buttons,
        decline,
    )


class RoyalDraft(TypedDict, total=False):
    """A choice being built: the target card and the value card picked so far."""

    target: str | None
    value: str | None


def _draft(ui: Ui) -> RoyalDraft:
    """This device's draft: only ``update_draft`` below makes one (``render.Draft``)."""
    return cast(RoyalDraft, ui.draft)


def update_draft(view: RoyalView, draft: RoyalDraft, data: dict[str, str]) -> RoyalDraft:
    """The draft after a target card or a value card is clicked (again: put back)."""
    new: RoyalDraft = {**draft}
    if "target" in data:
        new["target"] = None if draft.get("target") == data["target"] else data["target"]
    if "value" in data:
        new["value"] = None if draft.get("value") == data["value"] else data["value"]
    return new


def draft_move(view: RoyalView, draft: RoyalDraft) -> ChooseMove | None:
    """The choice the draft describes, once both cards are picked (it may still be illegal)."""
    target, value = draft.get("target"), draft.get("value")
    if view.get("phase") != "choose" or not target or not value:
        return None
    return {"type": "choose", "target": target, "value": value}


RESULT_EVENTS = frozenset({"choices_revealed"})
"""The event that opens a result the players step through: the log waits with it."""


def why(story: RoyalStory, cast: Cast) -> str | None:
    """How the game was won: the winner's last capture, or the round from which they led."""
    seat = story["seat"]
    if story["kind"] == "capture":
        rival = story["from"]
        return (
            f"{cast.object(seat, start=True)} ({title(seat)}) captured {short(story['card'])}"
            f" from {cast.object(rival)} ({title(rival)}) in round {story['round']}."
        )
    return lead_line(story, cast, "round")


def describe(event: RoyalEvent, cast: Cast) -> str | None:
    """A log line for an event, or None for events not worth a line."""
    if event["kind"] == "round_started":
        started = event["data"]
        draws = ", ".join(f"{cast.object(s)} {n}" for s, n in enumerate(started["draws"]))
        return f"Round {started['round']} begins. Cards drawn: {draws}."
    if event["kind"] == "submitted":
        return f"{cast.subject(event['data']['seat'], 'have', start=True)} chosen."
    if event["kind"] == "choices_revealed":
        choices = event["data"]["choices"]
        return " ".join(explain_choice(s, c, cast) for s, c in enumerate(choices))
    if event["kind"] == "step":
        return explain_step(event["data"], cast)
    if event["kind"] == "game_over":
        ending = event["data"]
        why = _ending(ending.get("reason"), ending.get("deck"), ending.get("need"))
        return f"{why}: the game is over. {cast.listing(ending['winners'], start=True)} won."
    return None


def _ending(reason: str | None, deck: int | None, need: int | None) -> str:
    """Why the game ended, in numbers when they are known (an older save's event does
    not keep them)."""
    if reason == "empty":
        return "Nobody holds a value card and nothing is in play"
    if deck is not None and need is not None:
        return f"The deck's {plural(deck, 'card')} cannot cover the next draw of {need}"
    return "The deck cannot cover the next draw"


def gesture_move(view: RoyalView, data: dict[str, str]) -> None:
    """This game has no gestures: every move is made with buttons."""
    return None
