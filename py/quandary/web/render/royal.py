"""Royal Dilemma's table: realms in play, the secret choice, captures, and each round retold.

Drawn from a seat's view (or the public view) plus the device's draft. The
draft holds the chosen target card and value card; the engine's legal moves
decide which buttons are enabled. Every step of a round is explained in words
("Queen of Hearts invades Jack of Clubs with 7♥, doubled to 14 …").
"""

from __future__ import annotations

import json
from typing import Any

from quandary.engine import round_words
from quandary.games.royal.cards import (
    FACE_NAMES,
    FACES,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    card_name,
    card_points,
    rank_of,
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
from quandary.web.html import attrs, esc, join, names_list, plural

from . import playing_cards as pc
from .table import Ui, error_line

PHASE_TITLES = {
    "choose": "Choose a target and a value card",
    "capture": "Choose what to capture",
    "over": "The game is over",
}


# -- small words (the card facts are the game's own: ``games.royal.cards``) -----------


def who(seat: int, names: list[str]) -> str:
    """A seat as its royal title and its player's name: "Queen of Hearts (Robin)"."""
    return f"{title(seat)} ({names[seat]})"


def _why_doubled(card: str) -> str:
    owner = FACES[suit_seat(card)]
    return f"{SUIT_NAMES[suit_of(card)]} is the {FACE_NAMES[owner]}'s suit"


def _power(card: str, value: int, doubled: bool) -> str:
    if doubled:
        return f"{short(card)}, doubled to {value} ({_why_doubled(card)})"
    return f"{short(card)} (strength {value})"


# -- explaining a round ----------------------------------------------------------------


def explain_step(step: dict[str, Any], names: list[str]) -> str:
    """One step of a round's resolution as a sentence."""
    seat, target, card = step["seat"], step["target"], step["card"]
    if step["kind"] == "build":
        worth = card_points(card, seat)
        extra = (
            f", doubled as {SUIT_NAMES[suit_of(card)]} is its suit" if worth > rank_of(card) else ""
        )
        return f"{who(seat, names)} builds: {short(card)} goes into play (worth {worth}{extra})."
    if step["kind"] == "battle":
        mine = _power(card, step["strength"], step["doubled"])
        theirs = _power(step["rival_card"], step["rival_strength"], step["rival_doubled"])
        head = f"{who(seat, names)} and {who(target, names)} battle: {mine} against {theirs}."
        if step["winner"] is None:
            return head + " Equal strength: both value cards are discarded."
        loser = target if step["winner"] == seat else seat
        lost = step["rival_card"] if step["winner"] == seat else card
        winner = title(step["winner"])
        return f"{head} {winner} wins; {short(lost)} of the {title(loser)} is discarded."
    if step["after_battle"]:
        head = (
            f"{title(seat)} invades the defeated {title(target)} with strength {step['strength']}"
        )
    else:
        power = _power(card, step["strength"], step["doubled"])
        head = f"{who(seat, names)} invades {who(target, names)} with {power}"
    return head + _outcome(step)


def _outcome(step: dict[str, Any]) -> str:
    target = title(step["target"])
    if step["captured"]:
        return f" and captures {short(step['captured'])}."
    if step["could_capture"]:
        options = ", ".join(short(c) for c in step["could_capture"])
        return f" but captures nothing (it could have taken {options})."
    if not step["from_hand"]:
        return f", but nothing of the {target}'s is worth {step['strength']} or less."
    count = step["surrendered_count"]
    if not count:
        return f". The {target} has nothing in play and no value card to surrender."
    shown = step["surrendered"]
    cards = f": {', '.join(short(c) for c in shown)}" if shown else ""
    return (
        f". The {target} has nothing in play, so it surrenders "
        f"{plural(count, 'value card')} from hand{cards}."
    )


def explain_choice(seat: int, choice: dict[str, Any] | None, names: list[str]) -> str:
    """A revealed choice: "builds with 7♥", "targets the Jack of Clubs with 9♠", "passes"."""
    if choice is None:
        return f"{who(seat, names)} passes."
    if choice["target"] == seat:
        return f"{who(seat, names)} builds with {short(choice['card'])}."
    return f"{who(seat, names)} targets the {title(choice['target'])} with {short(choice['card'])}."


def explain_result(record: dict[str, Any], names: list[str]) -> str:
    """A round in a few sentences: choices, then every step, then the scores."""
    parts = [explain_choice(s, c, names) for s, c in enumerate(record["choices"])]
    parts += [explain_step(s, names) for s in record["steps"]]
    scores = ", ".join(f"{names[s]} {v}" for s, v in enumerate(record["scores"]))
    return " ".join(parts) + f" Scores: {scores}."


# -- the contract with the controllers --------------------------------------------------


def checkpoints(view: dict[str, Any]) -> int:
    """One milestone per finished round: its retelling is shown until acknowledged."""
    return len(view["history"])


def privacy_reason(view: dict[str, Any]) -> str:
    """Why the device is being passed, without revealing anything."""
    if view.get("phase") == "capture":
        return "It is time to choose what to capture."
    return "It is time to choose a target card and a value card in secret."


def explain_milestone(view: dict[str, Any], index: int, names: list[str]) -> str:
    """The sentence a screen reader hears when round ``index``'s retelling is shown."""
    record = view["history"][index]
    return f"Round {record['round']} resolved. " + explain_result(record, names)


def render_round_result(view: dict[str, Any], ui: Ui, index: int) -> str:
    """Round ``index`` retold: the revealed choices, each step in order, the scores after."""
    record = view["history"][index]
    names = ui.names
    choices = join(_choice_item(s, c, names) for s, c in enumerate(record["choices"]))
    steps = join(f"<li>{esc(explain_step(s, names))}</li>" for s in record["steps"])
    if not steps:
        steps = "<li>Nothing else happens: nobody invades.</li>"
    scores = join(
        f"<li><span>{esc(who(s, names))}</span> <strong>{v}</strong></li>"
        for s, v in enumerate(record["scores"])
    )
    last = index == len(view["history"]) - 1 and view.get("result")
    button = "See the final scores" if last else f"On to round {record['round'] + 1}"
    ending = ""
    if last:
        ending = '<p class="explain">The deck cannot cover the next draw: the game ends.</p>'
    return (
        '<section class="round-result royal-result" aria-labelledby="result-title">'
        f'<h2 id="result-title" tabindex="-1" data-autofocus>Round {record["round"]}: '
        "how it resolved</h2>"
        f'<h3>Revealed together</h3><ul class="royal-choices">{choices}</ul>'
        f'<h3>Step by step</h3><ol class="royal-steps">{steps}</ol>'
        f'<h3>Scores</h3><ul class="royal-scores">{scores}</ul>{ending}'
        '<p class="actions"><button type="button" class="primary big" data-action="next" '
        f'id="next">{button}</button></p></section>'
    )


def _choice_item(seat: int, choice: dict[str, Any] | None, names: list[str]) -> str:
    if choice is None:
        cards = '<span class="pcard small passed">pass</span>'
    else:
        cards = _card_img(choice["target_card"], "small") + _card_img(choice["card"], "small")
    return (
        f'<li class="royal-choice"><span class="royal-pair">{cards}</span>'
        f"<span>{esc(explain_choice(seat, choice, names))}</span></li>"
    )


def _card_img(card: str, size: str = "") -> str:
    label = esc(card_name(card))
    return f'<span class="pcard {size}" role="img" aria-label="{label}">{pc.card(card)}</span>'


# -- the turn screen ----------------------------------------------------------------------


def render_turn(view: dict[str, Any], ui: Ui) -> str:
    """The viewer's screen: realms, then the choice, a capture, or the wait."""
    phase = view["phase"]
    head = (
        f'<h2 id="turn-title" tabindex="-1" data-autofocus>{esc(PHASE_TITLES.get(phase))}'
        f"<small> · {round_words(view['round'], view['round_limit'])}</small></h2>"
    )
    body = _realms(view, ui) + _counts(view)
    if phase == "capture":
        body = _this_round(view, ui) + _capture(view, ui) + body
    elif view.get("my_choice") is not None or not view["legal_moves"]:
        body = _waiting(view, ui) + body
    else:
        body = _choose(view, ui) + body
    return head + error_line(ui) + body


def _counts(view: dict[str, Any]) -> str:
    deck, discard = view["deck"], view["discard"]
    return (
        '<p class="royal-counts">'
        f'<span class="pcard tiny">{pc.back()}</span> Deck: {plural(deck, "card")}'
        f" · discard pile: {plural(discard, 'card')}"
        f" · next draw: {sum(view['next_draw'])} cards in all</p>"
    )


def _realms(view: dict[str, Any], ui: Ui) -> str:
    items = []
    for seat, realm in enumerate(view["realms"]):
        cards = join(f"<li>{_card_img(c, 'small')}</li>" for c in realm) or (
            '<li class="empty">Nothing in play</li>'
        )
        me = seat == ui.viewer
        items.append(
            f"<li{attrs(class_='realm me' if me else 'realm')}>"
            f'<p class="realm-head"><span class="suit s{SUITS[seat]}" aria-hidden="true">'
            f"{SUIT_SYMBOLS[SUITS[seat]]}</span> <strong>{esc(title(seat))}</strong> "
            f"{esc(ui.names[seat])}{_you(ui, seat)}</p>"
            f'<p class="realm-meta">{view["scores"][seat]} points · '
            f"{plural(view['hand_sizes'][seat], 'value card')} in hand</p>"
            f'<ul class="realm-cards" aria-label="{esc(title(seat))}: cards in play">{cards}</ul>'
            "</li>"
        )
    return f'<h3>Realms in play</h3><ul class="realms">{join(items)}</ul>'


def _you(ui: Ui, seat: int) -> str:
    name = ui.names[seat]
    return " (you)" if seat == ui.viewer and name.casefold() != "you" else ""


def _choose(view: dict[str, Any], ui: Ui) -> str:
    me, draft = ui.viewer, ui.draft
    assert me is not None
    legal_targets = {m["target"] for m in view["legal_moves"] if m["type"] == "choose"}
    legal_values = {m["value"] for m in view["legal_moves"] if m["type"] == "choose"}
    target: str | None = draft.get("target")
    aim = target_seat(target) if target is not None and target in legal_targets else None
    targets = join(
        f"<li>{_target_button(card, me, ui, card == target, card not in legal_targets)}</li>"
        for card in view["targets"]
    )
    chosen = draft.get("value")
    values = join(
        f"<li>{_value_button(card, me, aim, card == chosen, card not in legal_values)}</li>"
        for card in view["hand"]
    )
    if not view["hand"]:
        values = '<li class="empty">You hold no value cards: you can only pass.</li>'
    move = draft_move(view, draft)
    ready = move is not None and move in view["legal_moves"]
    return (
        '<p class="explain">Pick a target card (your own face builds) and a value card, or '
        "pass. Everyone's choice is revealed at once.</p>"
        f'<section aria-label="Your target cards"><h3>Target</h3>'
        f'<ul class="pcards">{targets}</ul></section>'
        f'<section aria-label="Your value cards"><h3>Value card</h3>'
        f'<ul class="pcards">{values}</ul></section>'
        f'<p class="royal-preview" aria-live="polite">{esc(_preview(view, ui))}</p>'
        '<p class="actions"><button type="button" class="primary big" data-action="submit" '
        f'id="submit"{attrs(disabled=not ready)}>Play these cards face down</button>'
        '<button type="button" data-action="move" id="pass" '
        f"data-move='{json.dumps({'type': 'pass'})}'"
        f"{attrs(disabled={'type': 'pass'} not in view['legal_moves'])}>Pass</button></p>"
    )


def _target_button(card: str, me: int, ui: Ui, pressed: bool, disabled: bool) -> str:
    seat = target_seat(card)
    label = (
        "Build (your own face)" if seat == me else f"Invade the {title(seat)} ({ui.names[seat]})"
    )
    caption = "build" if seat == me else ui.names[seat]
    return (
        f'<button type="button" class="pcard target" data-action="draft" data-target="{esc(card)}" '
        f'id="target-{esc(card)}"{attrs(aria_pressed=str(pressed).lower(), disabled=disabled)} '
        f'aria-label="{esc(label)}">{pc.card(card)}'
        f'<span class="caption">{esc(caption)}</span></button>'
    )


def _value_button(card: str, me: int, aim: int | None, pressed: bool, disabled: bool) -> str:
    if aim is None:
        caption = ""
    elif aim == me:
        caption = f"worth {card_points(card, me)}"
    else:
        caption = f"strength {strength(card, me, aim)[0]}"
    label = card_name(card) + (f", {caption}" if caption else "")
    return (
        f'<button type="button" class="pcard value" data-action="draft" data-value="{esc(card)}" '
        f'data-card="{esc(card)}" id="value-{esc(card)}"'
        f'{attrs(aria_pressed=str(pressed).lower(), disabled=disabled)} aria-label="{esc(label)}">'
        f'{pc.card(card)}<span class="caption">{esc(caption)}</span></button>'
    )


def _preview(view: dict[str, Any], ui: Ui) -> str:
    me, draft = ui.viewer, ui.draft
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


def _waiting(view: dict[str, Any], ui: Ui) -> str:
    others = [ui.names[s] for s in view["waiting_for"] if s != ui.viewer]
    mine = view.get("my_choice")
    shown = ""
    if mine is not None and ui.viewer is not None:
        if mine["type"] == "pass":
            shown = "<p>You pass this round.</p>"
        else:
            shown = (
                '<p class="royal-pair">'
                + _card_img(mine["target"], "small")
                + _card_img(mine["value"], "small")
                + "</p><p>Your cards lie face down.</p>"
            )
    wait = f"<p>Waiting for {esc(names_list(others))}…</p>" if others else ""
    return f'<div class="waiting">{shown}{wait}</div>'


def _this_round(view: dict[str, Any], ui: Ui) -> str:
    choices = join(_choice_item(s, c, ui.names) for s, c in enumerate(view["choices"]))
    steps = join(f"<li>{esc(explain_step(s, ui.names))}</li>" for s in view["steps"])
    return (
        '<section class="royal-now" aria-label="This round so far">'
        f'<h3>Revealed together</h3><ul class="royal-choices">{choices}</ul>'
        + (f'<h3>So far</h3><ol class="royal-steps">{steps}</ol>' if steps else "")
        + "</section>"
    )


def _capture(view: dict[str, Any], ui: Ui) -> str:
    capture = view["capture"]
    step = capture["step"]
    seat, target = step["seat"], step["target"]
    if ui.viewer != seat or not view["legal_moves"]:
        return (
            f'<p class="waiting">{esc(ui.names[seat])} is choosing what to capture from the '
            f"{esc(title(target))}'s realm…</p>"
        )
    buttons = join(
        "<li>"
        f'<button type="button" class="pcard capture" data-action="move" id="capture-{esc(c)}" '
        f"data-move='{esc(json.dumps({'type': 'capture', 'card': c}))}' "
        f'aria-label="Capture the {esc(card_name(c))}">{pc.card(c)}'
        f'<span class="caption">+{card_points(c, seat)}</span></button></li>'
        for c in capture["options"]
    )
    decline = json.dumps({"type": "decline"})
    return (
        f'<p class="explain">You invade the {esc(title(target))} with strength '
        f"{step['strength']}: take one card worth {step['strength']} or less into your realm.</p>"
        f'<ul class="pcards">{buttons}</ul>'
        '<p class="actions"><button type="button" data-action="move" id="decline" '
        f"data-move='{esc(decline)}'>Capture nothing</button></p>"
    )


def update_draft(
    view: dict[str, Any], draft: dict[str, Any], data: dict[str, str]
) -> dict[str, Any]:
    """The draft after a target card or a value card is clicked (again: put back)."""
    new = dict(draft)
    for key in ("target", "value"):
        if key in data:
            new[key] = None if draft.get(key) == data[key] else data[key]
    return new


def draft_move(view: dict[str, Any], draft: dict[str, Any]) -> dict[str, Any] | None:
    """The choice the draft describes, once both cards are picked (it may still be illegal)."""
    if view.get("phase") != "choose" or not draft.get("target") or not draft.get("value"):
        return None
    return {"type": "choose", "target": draft["target"], "value": draft["value"]}


def describe(event: dict[str, Any], names: list[str]) -> str | None:
    """A log line for an event, or None for events not worth a line."""
    kind, data = event["kind"], event["data"]
    if kind == "round_started":
        draws = ", ".join(f"{names[s]} {n}" for s, n in enumerate(data["draws"]))
        return f"Round {data['round']} begins. Cards drawn: {draws}."
    if kind == "submitted":
        return f"{names[data['seat']]} has chosen."
    if kind == "choices_revealed":
        return " ".join(explain_choice(s, c, names) for s, c in enumerate(data["choices"]))
    if kind == "step":
        return explain_step(data, names)
    if kind == "game_over":
        winners = names_list([names[s] for s in data["winners"]])
        return f"The deck cannot cover the next draw: the game is over. {winners} won."
    return None


def gesture_move(view: dict[str, Any], data: dict[str, str]) -> dict[str, Any] | None:
    """This game has no gestures: every move is made with buttons."""
    return None
