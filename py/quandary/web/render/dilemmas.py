"""The Game of Dilemmas' table: hand, building, voting and the round's result.

Everything is drawn from a seat's view (or the public view) plus the device's
drafts; the engine's legal moves decide which buttons are enabled, so a move
the rules forbid is never offered.
"""

from __future__ import annotations

from typing import Any

from quandary.engine import last_round, round_words
from quandary.web.html import attrs, esc, join, names_list

from .table import Ui, error_line

TOKEN_LABELS = {"yes": "YES", "no": "NO", "super_yes": "SUPER ACCEPT", "super_no": "SUPER REJECT"}
PHASE_TITLES = {
    "build": "Build your dilemma",
    "lay": "Lay one card",
    "supply": "Complete your neighbour's card",
    "vote": "Vote on every dilemma",
}


def checkpoints(view: dict[str, Any]) -> int:
    """How many round results exist: each one is shown until acknowledged."""
    return len(view["history"])


def privacy_reason(view: dict[str, Any]) -> str:
    """Why the device is being passed, without revealing anything."""
    return {
        "build": "It is time to build a secret dilemma.",
        "lay": "It is time to lay a card.",
        "supply": "It is time to complete a neighbour's card.",
        "vote": "The dilemmas are on the table: it is time to vote in secret.",
    }.get(view["phase"], "")


def sentence(d: dict[str, Any]) -> str:
    """A dilemma as one readable line (for the log and screen readers)."""
    text = f"{d['positive']['text']} … but {d['negative']['text']}"
    if d.get("neutral"):
        text += f" … and {d['neutral']['text']}"
    return text


def dilemma_html(d: dict[str, Any]) -> str:
    """A dilemma as a quote with its parts coloured."""
    neutral = (
        f' <span class="join">… and</span> <span class="neu">{esc(d["neutral"]["text"])}</span>'
        if d.get("neutral")
        else ""
    )
    return (
        f'<blockquote class="dilemma"><span class="pos">{esc(d["positive"]["text"])}</span>'
        f' <span class="join">… but</span> <span class="neg">{esc(d["negative"]["text"])}</span>'
        f"{neutral}</blockquote>"
    )


def render_turn(view: dict[str, Any], ui: Ui) -> str:
    """The viewer's screen for the current phase (or the wait after submitting)."""
    head = (
        f'<h2 id="turn-title" tabindex="-1" data-autofocus>{PHASE_TITLES[view["phase"]]}'
        f"<small> · {round_words(view['round'], view['round_limit'])}</small></h2>"
    )
    if view.get("my_submission") is not None or not view["legal_moves"]:
        return head + _waiting(view, ui)
    body = {"build": _build, "lay": _lay, "supply": _supply, "vote": _vote}[view["phase"]]
    return head + error_line(ui) + body(view, ui)


def _waiting(view: dict[str, Any], ui: Ui) -> str:
    others = [ui.names[s] for s in view["waiting_for"]]
    mine = view.get("my_submission") or {}
    shown = ""
    if mine.get("type") == "build":
        cards = {c["id"]: c for kind in ("positive", "negative") for c in view["hand"][kind]}
        neutral = view["hand"]["neutral"]
        shown = dilemma_html(
            {
                "positive": cards[mine["positive"]],
                "negative": cards[mine["negative"]],
                "neutral": neutral if mine["neutral"] else None,
            }
        )
    return f'<div class="waiting">{shown}<p>Waiting for {esc(names_list(others))}…</p></div>'


def _card(card: dict[str, Any], selected: bool, disabled: bool = False) -> str:
    label = {"positive": "Good", "negative": "… but", "neutral": "… and"}[card["kind"]]
    return (
        f'<button type="button" class="card {card["kind"]}" data-action="draft" '
        f'id="card-{esc(card["id"])}" '
        f'data-card="{esc(card["id"])}" data-kind="{card["kind"]}"'
        f"{attrs(aria_pressed=str(selected).lower(), disabled=disabled)}>"
        f'<span class="card-kind">{label}</span><span class="card-text">{esc(card["text"])}</span>'
        "</button>"
    )


def _hand_row(
    title: str,
    cards: list[dict[str, Any]],
    chosen: set[Any],
    allowed: set[str] | None = None,
) -> str:
    if not cards:
        return ""
    items = join(
        f"<li>{_card(c, c['id'] in chosen, allowed is not None and c['id'] not in allowed)}</li>"
        for c in cards
    )
    return (
        f'<section class="hand-row" aria-label="{esc(title)}"><h3>{esc(title)}</h3>'
        f'<ul class="cards">{items}</ul></section>'
    )


def _neutral_row(view: dict[str, Any], ui: Ui) -> str:
    neutral = view["hand"]["neutral"]
    if not neutral or not view["options"].get("neutral"):
        return ""
    chosen = {ui.draft.get("neutral")} - {None}
    return _hand_row("Your neutral card (optional, once per game)", [neutral], chosen)


def _submit(label: str, ready: bool, hint: str) -> str:
    return (
        '<p class="actions"><button type="button" class="primary big" data-action="submit"'
        f' id="submit"{attrs(disabled=not ready, aria_describedby="submit-hint")}>{label}</button>'
        f' <span id="submit-hint" class="hint">{esc(hint)}</span></p>'
    )


def _build(view: dict[str, Any], ui: Ui) -> str:
    hand, draft = view["hand"], ui.draft
    chosen = {draft.get("positive"), draft.get("negative"), draft.get("neutral")} - {None}
    preview = ""
    by_id = {c["id"]: c for k in ("positive", "negative") for c in hand[k]}
    if draft.get("positive") in by_id and draft.get("negative") in by_id:
        shown = {
            "positive": by_id[draft["positive"]],
            "negative": by_id[draft["negative"]],
            "neutral": hand["neutral"] if draft.get("neutral") else None,
        }
        preview = f'<div class="preview"><h3>Your dilemma</h3>{dilemma_html(shown)}</div>'
    ready = _matching_move(view, ui) is not None
    return (
        _hand_row("Good things (pick one)", hand["positive"], chosen)
        + _hand_row("… but (pick one)", hand["negative"], chosen)
        + _neutral_row(view, ui)
        + preview
        + _submit("Build this dilemma", ready, "" if ready else "Pick one good and one “but” card.")
    )


def _lay(view: dict[str, Any], ui: Ui) -> str:
    hand = view["hand"]
    chosen = {ui.draft.get("card")} - {None}
    ready = _matching_move(view, ui) is not None
    return (
        '<p class="explain">Lay one card, good or bad. A neighbour will complete it.</p>'
        + _hand_row("Good things", hand["positive"], chosen)
        + _hand_row("… but", hand["negative"], chosen)
        + _submit("Lay this card", ready, "" if ready else "Pick a card.")
    )


def _supply(view: dict[str, Any], ui: Ui) -> str:
    target = view["supply_target"]
    laid = view["laid"][target]
    hand = view["hand"]
    allowed = {m["card"] for m in view["legal_moves"]}
    chosen = {ui.draft.get("card"), ui.draft.get("neutral")} - {None}
    ready = _matching_move(view, ui) is not None
    return (
        f'<div class="laid"><p>{esc(ui.names[target])} laid:</p>{_card(laid, False, True)}</div>'
        + _hand_row("Good things", hand["positive"], chosen, allowed)
        + _hand_row("… but", hand["negative"], chosen, allowed)
        + _neutral_row(view, ui)
        + _submit(
            "Complete the dilemma", ready, "" if ready else "Pick a card of the missing kind."
        )
    )


def _vote(view: dict[str, Any], ui: Ui) -> str:
    votes: dict[int, str] = ui.draft.get("votes", {})
    legal = [m["votes"] for m in view["legal_moves"]]
    offered = [t for t in TOKEN_LABELS if any(t in b for b in legal)]
    rows = []
    for i, d in enumerate(view["dilemmas"]):
        possible = {b[i] for b in legal if all(b[j] == t for j, t in votes.items() if j != i)}
        buttons = join(
            f'<button type="button" class="token {t}" data-action="draft" data-dilemma="{i}"'
            f' data-token="{t}" id="token-{i}-{t}"'
            f"{attrs(aria_pressed=str(votes.get(i) == t).lower(), disabled=t not in possible)}>"
            f"{TOKEN_LABELS[t]}</button>"
            for t in offered
        )
        owners = names_list([ui.names[c] for c in d["creators"]])
        mine = " (yours)" if ui.viewer in d["creators"] else ""
        rows.append(
            f'<li class="vote-row"><p class="by">Dilemma {i + 1} · by {esc(owners)}{mine}</p>'
            f"{dilemma_html(d)}"
            f'<div class="tokens" role="group" aria-label="Your token on dilemma {i + 1}">'
            f"{buttons}</div></li>"
        )
    limit = view["tokens"]
    used_yes = sum(t in ("yes", "super_yes") for t in votes.values())
    used_no = len(votes) - used_yes
    counter = (
        f'<p class="counter">YES tokens left: {limit - used_yes} of {limit}'
        f" · NO tokens left: {limit - used_no} of {limit}</p>"
    )
    ready = _matching_move(view, ui) is not None
    return (
        '<p class="explain">Would you say yes? Place one token on every dilemma, yours too. '
        "The dilemma closest to a tie wins, and its creator scores its YES tokens.</p>"
        + _supers(view, ui)
        + counter
        + f'<ol class="vote-list">{join(rows)}</ol>'
        + _submit("Cast my votes", ready, "" if ready else "Place a token on every dilemma.")
    )


def _supers(view: dict[str, Any], ui: Ui) -> str:
    if not view["options"].get("supervotes") or ui.viewer is None:
        return ""
    mine = view["supervotes"][ui.viewer]
    left = [name for key, name in (("yes", "SUPER ACCEPT"), ("no", "SUPER REJECT")) if mine[key]]
    if not left:
        return '<p class="explain">You have used both super tokens.</p>'
    last = " This is the last round: use them now." if last_round(view) else ""
    return f'<p class="explain">Super tokens count three. Still yours: {", ".join(left)}.{last}</p>'


def draft_move(view: dict[str, Any], draft: dict[str, Any]) -> dict[str, Any] | None:
    """The move the draft describes, if it is complete (it may still be illegal)."""
    phase = view["phase"]
    if phase == "build":
        return {
            "type": "build",
            "positive": draft.get("positive"),
            "negative": draft.get("negative"),
            "neutral": draft.get("neutral"),
        }
    if phase == "lay":
        return {"type": "lay", "card": draft.get("card")}
    if phase == "supply":
        return {"type": "supply", "card": draft.get("card"), "neutral": draft.get("neutral")}
    if phase == "vote":
        votes = draft.get("votes", {})
        if len(votes) != len(view["dilemmas"]):
            return None
        return {"type": "vote", "votes": [votes[i] for i in range(len(view["dilemmas"]))]}
    return None


def _matching_move(view: dict[str, Any], ui: Ui) -> dict[str, Any] | None:
    move = draft_move(view, ui.draft)
    return move if move in view["legal_moves"] else None


def pick(view: dict[str, Any], draft: dict[str, Any], card_id: str) -> dict[str, Any]:
    """The draft after a card is clicked: toggles it into the slot of its kind."""
    kinds = {c["id"]: c["kind"] for k in ("positive", "negative") for c in view["hand"][k]}
    neutral = view["hand"]["neutral"]
    if neutral:
        kinds[neutral["id"]] = "neutral"
    kind = kinds.get(card_id)
    if kind is None:
        return draft
    slot = kind if view["phase"] == "build" or kind == "neutral" else "card"
    new = dict(draft)
    new[slot] = None if draft.get(slot) == card_id else card_id
    return new


def set_token(draft: dict[str, Any], dilemma: int, token: str) -> dict[str, Any]:
    """The draft after a token is placed (placing the same token again lifts it)."""
    votes = dict(draft.get("votes", {}))
    if votes.get(dilemma) == token:
        del votes[dilemma]
    else:
        votes[dilemma] = token
    return {**draft, "votes": votes}


def render_round_result(view: dict[str, Any], ui: Ui, index: int) -> str:
    """The reveal of a round's votes, with the winner and why it won."""
    r = view["history"][index]
    rows = []
    for i, d in enumerate(r["dilemmas"]):
        yes, no = r["tallies"][i]
        won = i in r["winners"]
        owners = names_list([ui.names[c] for c in d["creators"]])
        rows.append(
            f'<li{attrs(class_="won" if won else None)}><p class="by">{esc(owners)}'
            f"{' · winner' if won else ''}</p>{dilemma_html(d)}"
            f'<p class="tally"><span class="yes">{yes} YES</span> '
            f'<span class="no">{no} NO</span> <span>difference {abs(yes - no)}</span></p></li>'
        )
    last = last_round({"round": r["round"], "round_limit": view["round_limit"]})
    button = "See the final scores" if last else f"On to round {r['round'] + 1}"
    return (
        '<section class="round-result" aria-labelledby="result-title">'
        f'<h2 id="result-title" tabindex="-1" data-autofocus>Round {r["round"]}: the votes</h2>'
        f'<p class="explain">{esc(explain_result(r, ui.names))}</p>'
        f'<ol class="results">{join(rows)}</ol>'
        '<p class="actions"><button type="button" class="primary big" data-action="next" '
        f'id="next">{button}</button></p></section>'
    )


def explain_milestone(view: dict[str, Any], index: int, names: list[str]) -> str:
    """The sentence a screen reader hears when round ``index``'s result is shown."""
    r = view["history"][index]
    return f"Round {r['round']}: " + explain_result(r, names)


def update_draft(
    view: dict[str, Any], draft: dict[str, Any], data: dict[str, str]
) -> dict[str, Any]:
    """A step of a draft: a card clicked (``card``) or a token placed (``dilemma``, ``token``)."""
    if "card" in data:
        return pick(view, draft, data["card"])
    if "dilemma" in data:
        return set_token(draft, int(data["dilemma"]), data.get("token", ""))
    return draft


def explain_result(r: dict[str, Any], names: list[str]) -> str:
    """Why the winner won and who scored what, in one or two sentences."""
    tallies = r["tallies"]
    winners = r["winners"]
    best = abs(tallies[winners[0]][0] - tallies[winners[0]][1])
    closest = [i for i, (y, n) in enumerate(tallies) if abs(y - n) == best]
    who = [names_list([names[c] for c in r["dilemmas"][i]["creators"]]) for i in winners]
    if len(winners) > 1:
        why = (
            f"{len(winners)} dilemmas tie as most controversial (difference {best},"
            f" {tallies[winners[0]][1]} NO each), so they all win."
        )
    elif len(closest) > 1:
        why = (
            f"{who[0]}'s dilemma ties on the smallest difference ({best}) but has the most"
            " NO tokens, so it wins."
        )
    else:
        why = f"{who[0]}'s dilemma is the most controversial (difference {best})."
    gains = [f"{names[s]} +{p}" for s, p in enumerate(r["points"]) if p]
    if gains:
        return f"{why} Points for its YES tokens: {', '.join(gains)}."
    return f"{why} It has no YES tokens, so nobody scores."


def describe(event: dict[str, Any], names: list[str]) -> str | None:
    """A log line for an event, or None for events not worth a line."""
    kind, data = event["kind"], event["data"]
    if kind == "round_started":
        return f"Round {data['round']} begins."
    if kind == "dilemmas_revealed":
        return f"{len(data['dilemmas'])} dilemmas are revealed."
    if kind == "cards_laid":
        return "Everyone has laid a card."
    if kind == "votes_revealed":
        return f"Round {data['round']}: {explain_result(data, names)}"
    if kind == "game_over":
        return f"The game is over: {names_list([names[s] for s in data['winners']])} won."
    return None


def gesture_move(view: dict[str, Any], data: dict[str, str]) -> dict[str, Any] | None:
    """This game has no gestures: every move is made with buttons."""
    return None
