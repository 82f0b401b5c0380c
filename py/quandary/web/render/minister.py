"""Maybe Minister's table: proposal, secret vote, reveal, picking, collect, upkeep.

Everything is drawn from a seat's view plus the device's draft. Single-step
choices (a vote, a card to take, where to store a vote) are buttons carrying
their whole move; a proposal is drafted card by card and submitted. Buttons
exist only for moves in the legal set, so a vote can never be stored on a card
that is full and a proposal of the wrong size cannot be sent.
"""

from __future__ import annotations

import json
from typing import Any

from quandary.web.html import attrs, esc, join, names_list, plural

from .minister_parts import (
    card_body,
    card_label,
    card_tile,
    law_area,
    name,
    score_panel,
    supply,
    tables,
    vote_chip,
    vote_text,
)
from .table import Ui, error_line

PHASE_TITLES = {
    "shop_start": "Shop before proposing",
    "propose": "Make a proposal",
    "vote": "Vote in secret",
    "pick": "Take cards from the proposal",
    "collect": "Collect and store votes",
    "move": "Move votes",
    "shop_end": "Shop before ending the turn",
    "over": "The game is over",
}


def checkpoints(view: dict[str, Any]) -> int:
    """Every reveal is a milestone: it is shown once until acknowledged."""
    return int(view["reveals"])


def privacy_reason(view: dict[str, Any]) -> str:
    """Why the device is being passed, without revealing anything."""
    return {
        "vote": "It is time to choose a vote in secret.",
        "propose": "It is time to make a proposal from a secret hand.",
        "collect": "It is time to collect and store votes.",
        "pick": "It is time to take a card.",
        "move": "It is time to move votes.",
    }.get(view["phase"], "It is your turn.")


# -- the turn screen --------------------------------------------------------------------


def render_turn(view: dict[str, Any], ui: Ui) -> str:
    """The viewer's screen: the action for this phase, then the table."""
    phase = view["phase"]
    head = (
        f'<h2 id="turn-title" tabindex="-1" data-autofocus>{esc(PHASE_TITLES[phase])}'
        f"<small> · turn {view['turn']}</small></h2>"
    )
    legal = view["legal_moves"]
    if not legal:
        action = _waiting(view, ui)
    elif view.get("drawn"):
        action = _store(view, ui)
    else:
        action = {
            "propose": _propose,
            "vote": _vote,
            "pick": _pick,
            "collect": _collect,
            "move": _move,
            "shop_start": _shop,
            "shop_end": _shop,
        }[phase](view, ui)
    return (
        head
        + error_line(ui)
        + f'<div class="mm-action">{action}</div>'
        + _proposal_on_table(view)
        + law_area(view)
        + score_panel(view, ui.names, ui.viewer)
        + tables(view, ui.names, ui.viewer)
        + _hand(view, ui)
        + supply(view)
    )


def _button(move: dict[str, Any], label: str, extra_class: str = "", **more: Any) -> str:
    return (
        f'<button type="button" class="mm-move {extra_class}" data-action="move"'
        f"{attrs(data_move=json.dumps(move, separators=(',', ':')), **more)}>{label}</button>"
    )


def _waiting(view: dict[str, Any], ui: Ui) -> str:
    waiting = [ui.names[s] for s in view["waiting_for"]]
    mine = view.get("my_vote")
    said = ""
    if mine:
        votes = {v["id"]: v for row in view["tables"][ui.viewer or 0] for v in row.get("votes", [])}
        if mine in votes:
            said = f"<p>Your vote: {vote_chip(votes[mine])} (secret until everyone has voted).</p>"
    who = names_list(waiting) or "nobody"
    return f'<div class="waiting">{said}<p>Waiting for {esc(who)}…</p></div>'


def _proposal_on_table(view: dict[str, Any]) -> str:
    if not view["proposal"] or view["phase"] not in ("vote", "pick"):
        return ""
    items = join(f"<li>{card_tile(c)}</li>" for c in view["proposal"])
    return (
        '<section class="mm-proposal" aria-labelledby="proposal-title">'
        '<h3 id="proposal-title">The proposal on the table</h3>'
        f'<ul class="mm-cards">{items}</ul></section>'
    )


def _hand(view: dict[str, Any], ui: Ui) -> str:
    if view["phase"] == "propose" and view["legal_moves"]:
        return ""
    hand = view.get("hand") or []
    items = join(f"<li>{card_tile(c)}</li>" for c in hand)
    body = f'<ul class="mm-cards">{items}</ul>' if hand else "<p>Your hand is empty.</p>"
    return (
        '<section class="mm-hand" aria-labelledby="hand-title">'
        f'<h3 id="hand-title">Your hand</h3>{body}</section>'
    )


def _propose(view: dict[str, Any], ui: Ui) -> str:
    chosen = set(ui.draft.get("cards", []))
    items = join(
        f'<li><button type="button" class="mm-card mm-pick" data-action="draft" '
        f'data-card="{esc(c)}" id="card-{esc(c)}"'
        f"{attrs(aria_pressed=str(c in chosen).lower(), aria_label=card_label(c))}>"
        f"{card_body(c)}</button></li>"
        for c in view["hand"]
    )
    sizes = sorted({len(m["cards"]) for m in view["legal_moves"]})
    ready = _matching(view, ui.draft) is not None
    hint = f"Choose {' or '.join(map(str, sizes))} cards." if not ready else ""
    return (
        '<p class="explain">Choose the cards to propose. If the vote passes, its laws are'
        " enacted and the other cards are taken green side up; if it fails, they are taken"
        " red side up.</p>"
        f'<ul class="mm-cards mm-handpick" aria-label="Your hand">{items}</ul>'
        '<p class="actions"><button type="button" class="primary big" data-action="submit"'
        f' id="submit"{attrs(disabled=not ready, aria_describedby="submit-hint")}>'
        f"Propose {plural(len(chosen), 'card')}</button> "
        f'<span id="submit-hint" class="hint">{esc(hint)}</span></p>'
    )


def _my_votes(view: dict[str, Any], ui: Ui) -> dict[str, dict[str, Any]]:
    seat = ui.viewer if ui.viewer is not None else view["seat"]
    return {v["id"]: v for row in view["tables"][seat] for v in row.get("votes", [])}


def _vote(view: dict[str, Any], ui: Ui) -> str:
    votes = _my_votes(view, ui)
    buttons = join(
        _button(
            m,
            esc(vote_text(votes[m["vote"]])),
            "mm-vote " + votes[m["vote"]]["kind"],
            id="vote-" + m["vote"],
        )
        for m in view["legal_moves"]
    )
    order = "low to high" if not view["effects"]["reverse_order"] else "high to low"
    return (
        f'<p class="explain">The proposal from {esc(_names(ui, view["proposer"]))} is below.'
        " Pick one of your stored votes. A tie passes. If the proposal passes, voters take"
        f" cards in vote-number order {order}; if it fails, the other way round.</p>"
        f'<div class="mm-votes" role="group" aria-label="Your stored votes">{buttons}</div>'
    )


def _names(ui: Ui, seat: int) -> str:
    return ui.names[seat] if 0 <= seat < len(ui.names) else f"Seat {seat + 1}"


def _pick(view: dict[str, Any], ui: Ui) -> str:
    green = bool((view.get("reveal") or {}).get("accepted"))
    side = "green" if green else "red"
    items = []
    for m in view["legal_moves"]:
        card = m["card"]
        label = "Take " + card_label(card, green)
        items.append(
            "<li>"
            + _button(m, card_body(card, green), "mm-card", id="take-" + card, aria_label=label)
            + "</li>"
        )
    buttons = join(items)
    order = names_list([_names(ui, s) for s in view["picks"]])
    return (
        f'<p class="explain">Take one card; it lands {side} side up. Picking order: '
        f"{esc(order)}.</p>"
        f'<ul class="mm-cards">{buttons}</ul>'
    )


def _store(view: dict[str, Any], ui: Ui) -> str:
    seat = ui.viewer if ui.viewer is not None else view["seat"]
    legal = {(m["vote"], m["card"]) for m in view["legal_moves"] if m["type"] == "store"}
    rows = []
    for vote in view["drawn"]:
        buttons = []
        for row in view["tables"][seat]:
            card = row["card"]
            ok = (vote["id"], card) in legal
            label = f"{name(card)} ({'room for ' + str(row['room']) if ok else 'full'})"
            move = {"type": "store", "vote": vote["id"], "card": card}
            buttons.append(
                _button(move, esc(label), "", id=f"store-{vote['id']}-{card}", disabled=not ok)
            )
        choices = f'<div class="mm-choices">{join(buttons)}</div>'
        rows.append(f"<li><p>Store {vote_chip(vote)} on:</p>{choices}</li>")
    return (
        '<p class="explain">Store each new vote on one of your cards. A card holds only as'
        " many votes as its storage number; full cards cannot take more.</p>"
        f'<ul class="mm-store">{join(rows)}</ul>'
    )


def _collect(view: dict[str, Any], ui: Ui) -> str:
    legal = view["legal_moves"]
    if view["owed"]:
        votes = _my_votes(view, ui)
        buttons = join(
            _button(m, esc(vote_text(votes[m["vote"]])), "", id=f"give-{m['vote']}") for m in legal
        )
        return (
            f'<p class="explain">Your support is negative: give up {plural(view["owed"], "vote")}'
            f' (your last vote is always kept).</p><div class="mm-votes">{buttons}</div>'
        )
    trade = view["effects"]["trade_votes"]
    buttons = join(
        "<li>"
        + _button(m, esc(f"Trade {name(m['card'])} for {trade} votes"), "", id="trade-" + m["card"])
        + "</li>"
        for m in legal
        if m["type"] == "trade"
    )
    support = view["support"][ui.viewer if ui.viewer is not None else view["seat"]]
    return (
        f'<p class="explain">Your support gives {max(0, support)} new vote(s). You may discard'
        f" won resources for {trade} votes each (votes on them are lost).</p>"
        f'<ul class="mm-trades">{buttons}</ul>'
        + _button({"type": "collect"}, "Collect my votes", "primary big", id="collect")
    )


def _move(view: dict[str, Any], ui: Ui) -> str:
    legal = view["legal_moves"]
    votes = _my_votes(view, ui)
    chosen = [v for v in ui.draft.get("votes", []) if v in votes]
    toggles = join(
        f'<button type="button" class="mm-vote {v["kind"]}" data-action="draft" '
        f'data-vote="{esc(vid)}" id="pick-{esc(vid)}"'
        f"{attrs(aria_pressed=str(vid in chosen).lower())}>{esc(vote_text(v))}</button>"
        for vid, v in votes.items()
    )
    options = []
    for m in legal:
        if m["type"] == "move_law" and chosen == [m["vote"]]:
            label = f"Put {vote_text(votes[m['vote']])} on {name(m['law'])}"
            options.append(_button(m, esc(label), "", id=f"law-{m['law']}"))
        elif m["type"] == "move_card" and sorted(chosen) == sorted(m["votes"]):
            verb = "turn green" if votes[m["votes"][0]]["kind"] == "yes" else "remove"
            options.append(
                _button(
                    m, esc(f"Play both on {name(m['card'])} ({verb})"), "", id=f"red-{m['card']}"
                )
            )
    hint = (
        "Choose one vote for a law, or two YES or two NO votes for a red card."
        if not options
        else ""
    )
    return (
        '<p class="explain">Move votes: one vote onto an enacted law (more NO than YES'
        " disables it), or two equal votes onto any red card (YES turns it green, NO removes"
        " it). You always keep at least one vote.</p>"
        f'<div class="mm-votes" role="group" aria-label="Choose votes to move">{toggles}</div>'
        f'<p class="hint">{esc(hint)}</p><div class="mm-choices">{join(options)}</div>'
        + _button({"type": "pass"}, "Pass", "", id="pass")
    )


def _shop(view: dict[str, Any], ui: Ui) -> str:
    rows = []
    for i, m in enumerate(view["legal_moves"]):
        if m["type"] == "done":
            continue
        if m["type"] == "shop":
            paid = ", ".join(name(c) for c in m["pay"])
            label = f"{name(m['law'])}: pay {paid}"
        else:
            label = f"Use {name(m['card'])}"
        if m.get("target"):
            label += f" on {name(m['target'])}"
        rows.append(f"<li>{_button(m, esc(label), '', id=f'shop-{i}')}</li>")
    done = "Carry on to the proposal" if view["phase"] == "shop_start" else "End my turn"
    return (
        '<p class="explain">Shop laws trade whole won cards for rewards; special resources'
        " are discarded for their power.</p>"
        f'<ul class="mm-shop">{join(rows)}</ul>'
        + _button({"type": "done"}, esc(done), "primary", id="done")
    )


# -- drafts ----------------------------------------------------------------------------


def update_draft(
    view: dict[str, Any], draft: dict[str, Any], data: dict[str, str]
) -> dict[str, Any]:
    """A card toggled in or out of the proposal, or a vote chosen to move."""
    if "card" in data and data["card"] in (view.get("hand") or []):
        cards = list(draft.get("cards", []))
        cards = (
            [c for c in cards if c != data["card"]]
            if data["card"] in cards
            else [*cards, data["card"]]
        )
        return {**draft, "cards": cards}
    if "vote" in data:
        votes = list(draft.get("votes", []))
        votes = (
            [v for v in votes if v != data["vote"]]
            if data["vote"] in votes
            else [*votes, data["vote"]][-2:]
        )
        return {**draft, "votes": votes}
    return draft


def draft_move(view: dict[str, Any], draft: dict[str, Any]) -> dict[str, Any] | None:
    """The proposal the draft describes, its cards in hand order."""
    if view["phase"] != "propose":
        return None
    chosen = set(draft.get("cards", []))
    return {"type": "propose", "cards": [c for c in view.get("hand") or [] if c in chosen]}


def _matching(view: dict[str, Any], draft: dict[str, Any]) -> dict[str, Any] | None:
    move = draft_move(view, draft)
    return move if move in view["legal_moves"] else None


# -- the reveal ------------------------------------------------------------------------


def explain_milestone(view: dict[str, Any], index: int, names: list[str]) -> str:
    """The sentence a screen reader hears when the reveal is shown."""
    return _reveal_sentence(view["reveal"], names)


def _reveal_sentence(r: dict[str, Any], names: list[str]) -> str:
    verdict = "accepted" if r["accepted"] else "rejected"
    order = names_list([names[s] for s in r["order"]]) or "nobody"
    return (
        f"Turn {r['turn']}: the proposal is {verdict}, {r['yes']} YES to {r['no']} NO."
        f" Cards are taken by {order}."
    )


def render_round_result(view: dict[str, Any], ui: Ui, index: int) -> str:
    """The reveal: every vote, the result, the picking order and the laws enacted."""
    r = view["reveal"]
    votes = join(
        f"<li>{esc(_names(ui, s))}: {vote_chip(v) if v else 'no vote'}</li>"
        for s, v in enumerate(r["votes"])
    )
    order = join(f"<li>{esc(_names(ui, s))}</li>" for s in r["order"])
    enacted = join(f"<li>{card_tile(c)}</li>" for c in r["enacted"])
    laws = f'<h3>Enacted</h3><ul class="mm-cards">{enacted}</ul>' if r["enacted"] else ""
    verdict = "Accepted" if r["accepted"] else "Rejected"
    button = "See the final scores" if view.get("result") else "Continue"
    return (
        '<section class="round-result mm-reveal" aria-labelledby="result-title">'
        f'<h2 id="result-title" tabindex="-1" data-autofocus>{verdict}: '
        f"{r['yes']} YES, {r['no']} NO</h2>"
        f'<p class="explain">{esc(_reveal_sentence(r, ui.names))}</p>'
        f'<h3>The votes</h3><ul class="mm-reveal-votes">{votes}</ul>'
        f'<h3>Picking order</h3><ol class="mm-order">{order or "<li>nobody</li>"}</ol>{laws}'
        '<p class="actions"><button type="button" class="primary big" data-action="next" '
        f'id="next">{button}</button></p></section>'
    )


# -- the log -------------------------------------------------------------------------------


def describe(event: dict[str, Any], names: list[str]) -> str | None:
    """A log line for an event, or None for events not worth a line."""
    kind, d = event["kind"], event["data"]

    def who(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"

    if kind == "turn_started":
        return f"Turn {d['turn']}: {who(d['proposer'])} proposes."
    if kind == "proposed":
        return f"{who(d['seat'])} proposes {plural(len(d['cards']), 'card')}."
    if kind == "revealed":
        return _reveal_sentence(d, names)
    if kind == "took":
        side = "green" if d["green"] else "red"
        return f"{who(d['seat'])} takes {name(d['card'])} ({side} side up)."
    if kind == "collected":
        return f"{who(d['seat'])} collects {plural(d['votes'], 'vote')}."
    if kind == "traded":
        return f"{who(d['seat'])} trades {name(d['card'])} for votes."
    if kind == "gave_up_vote":
        return f"{who(d['seat'])} gives up a vote for negative support."
    if kind == "moved_vote":
        return f"{who(d['seat'])} puts {d['kind'].upper()} {d['number']} on {name(d['law'])}."
    if kind == "moved_card":
        verb = "turns" if d["kind"] == "yes" else "removes"
        return f"{who(d['seat'])} {verb} {who(d['owner'])}'s {name(d['card'])}."
    if kind == "shopped":
        return f"{who(d['seat'])} uses {name(d['law'])}."
    if kind == "special":
        return f"{who(d['seat'])} uses {name(d['card'])}."
    if kind == "game_over":
        return f"The game is over: {names_list([who(s) for s in d['winners']])} won."
    return None


def gesture_move(view: dict[str, Any], data: dict[str, str]) -> dict[str, Any] | None:
    """This game has no gestures: every move is made with buttons."""
    return None
