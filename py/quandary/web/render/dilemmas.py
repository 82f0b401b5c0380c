"""The Game of Dilemmas' table: hand, building, voting and the round's result.

Everything is drawn from a seat's view (or the public view) plus the device's
drafts; the engine's legal moves decide which buttons are enabled, so a move
the rules forbid is never offered.
"""

from __future__ import annotations

from typing import TypedDict, cast

from quandary.engine import last_round, round_words
from quandary.engine.typed import needed
from quandary.games.dilemmas.view import (
    CardView,
    DilemmaCards,
    DilemmasEvent,
    DilemmasMove,
    DilemmaStory,
    DilemmasView,
    RoundView,
    hand_cards,
)
from quandary.web.html import EMPTY, Markup, attrs, join, markup
from quandary.web.phrases import Cast, names_list, plural

from .ending import lead_line, lead_tail
from .table import Ui, error_line, reveal

TOKEN_LABELS = {"yes": "YES", "no": "NO", "super_yes": "SUPER ACCEPT", "super_no": "SUPER REJECT"}
PHASE_TITLES = {
    "build": "Build your dilemma",
    "lay": "Lay one card",
    "supply": "Complete your neighbour's card",
    "vote": "Vote on every dilemma",
}


def checkpoints(view: DilemmasView) -> int:
    """How many round results exist: each one is shown until acknowledged."""
    return len(view["history"])


def privacy_reason(view: DilemmasView) -> str:
    """Why the device is being passed, without revealing anything."""
    return {
        "build": "It is time to build a secret dilemma.",
        "lay": "It is time to lay a card.",
        "supply": "It is time to complete a neighbour's card.",
        "vote": "The dilemmas are on the table: it is time to vote in secret.",
    }.get(view["phase"], "")


def sentence(d: DilemmaCards) -> str:
    """A dilemma as one readable line (for the log and screen readers)."""
    text = f"{d['positive']['text']} … but {d['negative']['text']}"
    neutral = d.get("neutral")
    if neutral:
        text += f" … and {neutral['text']}"
    return text


def dilemma_html(d: DilemmaCards) -> Markup:
    """A dilemma as a quote with its parts coloured."""
    card = d.get("neutral")
    neutral = (
        markup(' <span class="join">… and</span> <span class="neu">{}</span>', card["text"])
        if card
        else ""
    )
    return markup(
        '<blockquote class="dilemma"><span class="pos">{}</span>'
        ' <span class="join">… but</span> <span class="neg">{}</span>'
        "{}</blockquote>",
        d["positive"]["text"],
        d["negative"]["text"],
        neutral,
    )


def render_turn(view: DilemmasView, ui: Ui) -> Markup:
    """The viewer's screen for the current phase (or the wait after submitting)."""
    head = markup(
        '<h2 id="turn-title" tabindex="-1" data-autofocus>{}<small> · {}</small></h2>',
        PHASE_TITLES[view["phase"]],
        round_words(view["round"], view["round_limit"]),
    )
    if view.get("my_submission") is not None or not view["legal_moves"]:
        return head + _waiting(view, ui)
    body = {"build": _build, "lay": _lay, "supply": _supply, "vote": _vote}[view["phase"]]
    return head + error_line(ui) + body(view, ui)


def _waiting(view: DilemmasView, ui: Ui) -> Markup:
    mine = view.get("my_submission")
    shown = ""
    if mine is not None and mine["type"] == "build":
        hand = needed(view.get("hand"), "hand of a seat that built a dilemma")
        cards = {c["id"]: c for c in hand_cards(hand)}
        shown = dilemma_html(
            {
                "positive": cards[mine["positive"]],
                "negative": cards[mine["negative"]],
                "neutral": hand["neutral"] if mine["neutral"] else None,
            }
        )
    others = ui.cast.listing(view["waiting_for"])
    return markup('<div class="waiting">{}<p>Waiting for {}…</p></div>', shown, others)


def _card(card: CardView, selected: bool, disabled: bool = False) -> Markup:
    label = {"positive": "Good", "negative": "… but", "neutral": "… and"}[card["kind"]]
    return markup(
        '<button type="button" class="card {}" data-action="draft" '
        'id="card-{}" '
        'data-card="{}" data-kind="{}"'
        "{}>"
        '<span class="card-kind">{}</span><span class="card-text">{}</span>'
        "</button>",
        card["kind"],
        card["id"],
        card["id"],
        card["kind"],
        attrs(aria_pressed=str(selected).lower(), disabled=disabled),
        label,
        card["text"],
    )


def _hand_row(
    title: str,
    cards: list[CardView],
    chosen: set[str | None],
    allowed: set[str] | None = None,
) -> Markup:
    if not cards:
        return EMPTY
    items = join(
        markup(
            "<li>{}</li>",
            _card(c, c["id"] in chosen, allowed is not None and c["id"] not in allowed),
        )
        for c in cards
    )
    return markup(
        '<section class="hand-row" aria-label="{}"><h3>{}</h3><ul class="cards">{}</ul></section>',
        title,
        title,
        items,
    )


def _neutral_row(view: DilemmasView, ui: Ui) -> Markup:
    neutral = view["hand"]["neutral"]
    if not neutral or not view["options"].get("neutral"):
        return EMPTY
    chosen = {_draft(ui).get("neutral")} - {None}
    return _hand_row("Your neutral card (optional, once per game)", [neutral], chosen)


def _submit(label: str, ready: bool, hint: str) -> Markup:
    """The submit button, its hint on a line of its own below it.

    The actions row is centred: a hint beside the button that appears and
    vanishes as cards are picked would slide the button sideways.
    """
    return markup(
        '<p class="actions"><button type="button" class="primary big" data-action="submit"'
        ' id="submit"{}>{}</button></p>'
        '<p id="submit-hint" class="hint submit-hint">{}</p>',
        attrs(disabled=not ready, aria_describedby="submit-hint"),
        label,
        hint,
    )


def _build(view: DilemmasView, ui: Ui) -> Markup:
    hand, draft = view["hand"], _draft(ui)
    positive, negative = draft.get("positive"), draft.get("negative")
    chosen = {positive, negative, draft.get("neutral")} - {None}
    preview = ""
    by_id = {c["id"]: c for c in hand_cards(hand)}
    if positive in by_id and negative in by_id:
        shown: DilemmaCards = {
            "positive": by_id[positive],
            "negative": by_id[negative],
            "neutral": hand["neutral"] if draft.get("neutral") else None,
        }
        preview = markup('<div class="preview"><h3>Your dilemma</h3>{}</div>', dilemma_html(shown))
    ready = _matching_move(view, ui) is not None
    # The preview comes after the button: it appears once two cards are picked,
    # and above the button it would push the button away from the pointer.
    return (
        _hand_row("Good things (pick one)", hand["positive"], chosen)
        + _hand_row("… but (pick one)", hand["negative"], chosen)
        + _neutral_row(view, ui)
        + _submit("Build this dilemma", ready, "" if ready else "Pick one good and one “but” card.")
        + preview
    )


def _lay(view: DilemmasView, ui: Ui) -> Markup:
    hand = view["hand"]
    chosen = {_draft(ui).get("card")} - {None}
    ready = _matching_move(view, ui) is not None
    return (
        Markup('<p class="explain">Lay one card, good or bad. A neighbour will complete it.</p>')
        + _hand_row("Good things", hand["positive"], chosen)
        + _hand_row("… but", hand["negative"], chosen)
        + _submit("Lay this card", ready, "" if ready else "Pick a card.")
    )


def _supply(view: DilemmasView, ui: Ui) -> Markup:
    target = view["supply_target"]
    laid = view["laid"][target]
    hand = view["hand"]
    allowed = {m["card"] for m in view["legal_moves"] if m["type"] == "supply"}
    chosen = {_draft(ui).get("card"), _draft(ui).get("neutral")} - {None}
    ready = _matching_move(view, ui) is not None
    return (
        markup(
            '<div class="laid"><p>{} laid:</p>{}</div>',
            ui.cast.object(target, start=True),
            _card(needed(laid, "card laid for this seat to complete"), False, True),
        )
        + _hand_row("Good things", hand["positive"], chosen, allowed)
        + _hand_row("… but", hand["negative"], chosen, allowed)
        + _neutral_row(view, ui)
        + _submit(
            "Complete the dilemma", ready, "" if ready else "Pick a card of the missing kind."
        )
    )


def _vote(view: DilemmasView, ui: Ui) -> Markup:
    votes = _draft(ui).get("votes", {})
    legal = [m["votes"] for m in view["legal_moves"] if m["type"] == "vote"]
    offered = [t for t in TOKEN_LABELS if any(t in b for b in legal)]
    rows = []
    for i, d in enumerate(view["dilemmas"]):
        possible = {b[i] for b in legal if all(b[j] == t for j, t in votes.items() if j != i)}
        buttons = join(
            markup(
                '<button type="button" class="token {}" data-action="draft" data-dilemma="{}"'
                ' data-token="{}" id="token-{}-{}"'
                "{}>"
                "{}</button>",
                t,
                i,
                t,
                i,
                t,
                attrs(aria_pressed=str(votes.get(i) == t).lower(), disabled=t not in possible),
                TOKEN_LABELS[t],
            )
            for t in offered
        )
        rows.append(
            markup(
                '<li class="vote-row"><p class="by">Dilemma {} · by {}</p>'
                '<div class="turning"{}>{}</div>'
                '<div class="tokens" role="group" aria-label="Your token on dilemma {}">'
                "{}</div></li>",
                i + 1,
                ui.cast.listing(d["creators"]),
                reveal("turn", f"dilemma-{view['round']}-{i}", i),
                dilemma_html(d),
                i + 1,
                buttons,
            )
        )
    limit = view["tokens"]
    used_yes = sum(t in ("yes", "super_yes") for t in votes.values())
    used_no = len(votes) - used_yes
    counter = markup(
        '<p class="counter">YES tokens left: {} of {} · NO tokens left: {} of {}</p>',
        limit - used_yes,
        limit,
        limit - used_no,
        limit,
    )
    ready = _matching_move(view, ui) is not None
    return (
        Markup(
            '<p class="explain">Would you say yes? Place one token on every dilemma, yours too. '
            "The dilemma closest to a tie wins, and its creator scores its YES tokens.</p>"
        )
        + _supers(view, ui)
        + counter
        + markup('<ol class="vote-list">{}</ol>', join(rows))
        + _submit("Cast my votes", ready, "" if ready else "Place a token on every dilemma.")
    )


def _supers(view: DilemmasView, ui: Ui) -> Markup:
    if not view["options"].get("supervotes") or ui.viewer is None:
        return EMPTY
    mine = view["supervotes"][ui.viewer]
    left = [
        name for held, name in ((mine["yes"], "SUPER ACCEPT"), (mine["no"], "SUPER REJECT")) if held
    ]
    if not left:
        return Markup('<p class="explain">You have used both super tokens.</p>')
    last = " This is the last round: use them now." if last_round(view) else ""
    return markup(
        '<p class="explain">Super tokens count three. Still yours: {}.{}</p>', ", ".join(left), last
    )


class DilemmasDraft(TypedDict, total=False):
    """A move being built: the cards picked for each slot (None: put back), and the
    token placed on each dilemma by its position."""

    positive: str | None
    negative: str | None
    neutral: str | None
    card: str | None
    votes: dict[int, str]


def _draft(ui: Ui) -> DilemmasDraft:
    """This device's draft: only ``update_draft`` below makes one (``render.Draft``)."""
    return cast(DilemmasDraft, ui.draft)


def draft_move(view: DilemmasView, draft: DilemmasDraft) -> DilemmasMove | None:
    """The move the draft describes, if it is complete (it may still be illegal)."""
    phase, card, neutral = view["phase"], draft.get("card"), draft.get("neutral")
    if phase == "build":
        positive, negative = draft.get("positive"), draft.get("negative")
        if positive is None or negative is None:
            return None
        return {"type": "build", "positive": positive, "negative": negative, "neutral": neutral}
    if phase == "lay":
        return None if card is None else {"type": "lay", "card": card}
    if phase == "supply":
        return None if card is None else {"type": "supply", "card": card, "neutral": neutral}
    if phase == "vote":
        votes = draft.get("votes", {})
        if len(votes) != len(view["dilemmas"]):
            return None
        return {"type": "vote", "votes": [votes[i] for i in range(len(view["dilemmas"]))]}
    return None


def _matching_move(view: DilemmasView, ui: Ui) -> DilemmasMove | None:
    move = draft_move(view, _draft(ui))
    return move if move in view["legal_moves"] else None


def pick(view: DilemmasView, draft: DilemmasDraft, card_id: str) -> DilemmasDraft:
    """The draft after a card is clicked: toggles it into the slot of its kind."""
    hand = needed(view.get("hand"), "hand of the seat choosing a card")
    kinds = {c["id"]: c["kind"] for c in hand_cards(hand)}
    neutral = hand["neutral"]
    if neutral:
        kinds[neutral["id"]] = "neutral"
    kind = kinds.get(card_id)
    if kind is None:
        return draft
    slot = kind if view["phase"] == "build" or kind == "neutral" else "card"
    new: DilemmasDraft = {**draft}
    chosen = None if draft.get(slot) == card_id else card_id
    if slot == "positive":
        new["positive"] = chosen
    elif slot == "negative":
        new["negative"] = chosen
    elif slot == "neutral":
        new["neutral"] = chosen
    else:
        new["card"] = chosen
    return new


def set_token(draft: DilemmasDraft, dilemma: int, token: str) -> DilemmasDraft:
    """The draft after a token is placed (placing the same token again lifts it)."""
    votes = dict(draft.get("votes", {}))
    if votes.get(dilemma) == token:
        del votes[dilemma]
    else:
        votes[dilemma] = token
    return {**draft, "votes": votes}


def render_round_result(view: DilemmasView, ui: Ui, index: int) -> Markup:
    """The reveal of a round's votes, with the winner and why it won."""
    r = view["history"][index]
    rows = []
    for i, d in enumerate(r["dilemmas"]):
        yes, no = r["tallies"][i]
        won = i in r["winners"]
        owners = ui.cast.listing(d["creators"], start=True)
        mark = (" · one of the winners" if len(r["winners"]) > 1 else " · winner") if won else ""
        rows.append(
            markup(
                '<li{}{}><p class="by">{}'
                "{}</p>{}"
                '<p class="tally"><span class="yes"><span data-count>{}</span> YES</span> '
                '<span class="no"><span data-count>{}</span> NO</span>'
                " <span>difference {}</span></p></li>",
                attrs(class_="won" if won else None),
                reveal("turn", f"result-{r['round']}-{i}", i),
                owners,
                mark,
                dilemma_html(d),
                yes,
                no,
                abs(yes - no),
            )
        )
    last = last_round({"round": r["round"], "round_limit": view["round_limit"]})
    button = "See the final scores" if last else f"On to round {r['round'] + 1}"
    return markup(
        '<section class="round-result" aria-labelledby="result-title">'
        '<h2 id="result-title" tabindex="-1" data-autofocus>Round {}: the votes</h2>'
        '<p class="explain">{}</p>'
        '<ol class="results">{}</ol>'
        '<p class="actions"><button type="button" class="primary big" data-action="next" '
        'id="next">{}</button></p></section>',
        r["round"],
        explain_result(r, ui.cast),
        join(rows),
        button,
    )


def explain_milestone(view: DilemmasView, index: int, cast: Cast) -> str:
    """The sentence a screen reader hears when round ``index``'s result is shown."""
    r = view["history"][index]
    return f"Round {r['round']}: " + explain_result(r, cast)


def update_draft(view: DilemmasView, draft: DilemmasDraft, data: dict[str, str]) -> DilemmasDraft:
    """A step of a draft: a card clicked (``card``) or a token placed (``dilemma``, ``token``)."""
    if "card" in data:
        return pick(view, draft, data["card"])
    if "dilemma" in data:
        if not data["dilemma"].isdigit():
            return draft
        return set_token(draft, int(data["dilemma"]), data.get("token", ""))
    return draft


def explain_result(r: RoundView, cast: Cast) -> str:
    """Why the winner won and who scored what, in one or two sentences."""
    tallies = r["tallies"]
    winners = r["winners"]
    best = abs(tallies[winners[0]][0] - tallies[winners[0]][1])
    closest = [i for i, (y, n) in enumerate(tallies) if abs(y - n) == best]
    if len(winners) > 1:
        named = names_list(
            [
                f"{_whose_dilemma(r['dilemmas'][i]['creators'], cast, n == 0)}"
                f" ({tallies[i][0]} YES)"
                for n, i in enumerate(winners)
            ]
        )
        every = "both" if len(winners) == 2 else f"all {len(winners)}"
        why = (
            f"{named} tie as the closest call (difference {best},"
            f" {tallies[winners[0]][1]} NO each), so {every} win."
        )
        behind = len(closest) - len(winners)
        if behind:
            why += (
                f" {plural(behind, 'other dilemma')} {'was' if behind == 1 else 'were'} as close"
                " but had fewer NO tokens."
            )
    elif len(closest) > 1:
        why = (
            f"{_whose_dilemma(r['dilemmas'][winners[0]]['creators'], cast)} ties on the"
            f" smallest difference ({best}) but has the most NO tokens, so it wins."
        )
    else:
        why = (
            f"{_whose_dilemma(r['dilemmas'][winners[0]]['creators'], cast)} is the most"
            f" controversial (difference {best})."
        )
    gains = [f"{cast.object(s)} +{p}" for s, p in enumerate(r["points"]) if p]
    if len(winners) > 1:
        if gains:
            return f"{why} Each creator scores their dilemma's YES tokens: {', '.join(gains)}."
        return f"{why} None has a YES token, so nobody scores."
    if gains:
        return f"{why} Points for its YES tokens: {', '.join(gains)}."
    return f"{why} It has no YES tokens, so nobody scores."


def _whose_dilemma(creators: list[int], cast: Cast, start: bool = True) -> str:
    """ "Your dilemma", "Ada's dilemma", "Ada and Bo's dilemma", "Ada's and your dilemma"
    (starting a sentence unless ``start`` is false: the reader comes last, so only a
    name can start it)."""
    if len(creators) == 1:
        return cast.possessive(creators[0], start=start) + " dilemma"
    others = [s for s in creators if not cast.is_you(s)]
    if len(others) == len(creators):
        return cast.listing(creators) + "'s dilemma"
    return names_list([cast.possessive(s) for s in others] + ["your"]) + " dilemma"


RESULT_EVENTS = frozenset({"votes_revealed"})
"""The event that opens a result the players step through: the log waits with it."""


def why(story: DilemmaStory, cast: Cast) -> str | None:
    """How the game was won, from the engine's story: the round from which the winner led.

    The round's winning dilemma is the one closest to a tie: the most
    controversial on the table. Every sentence is checked against the game
    played (``ending.lead_line``): a lead taken in the last round is not one
    kept "from then on", a shared top is not a lead.
    """
    if not story["round"]:
        return None
    who, number = story["seat"], story["round"]
    if story["points"] > 0 and story["rounds"]:
        best = (
            "a dilemma tied for the most controversial"
            if story["tied"]
            else "the most controversial dilemma"
        )
        return (
            f"{cast.object(who, start=True)} scored {plural(story['points'], 'point')} with"
            f" {best} of round {number}{lead_tail(story, cast)}."
        )
    return lead_line(story, cast, "round")


def describe(event: DilemmasEvent, cast: Cast) -> str | None:
    """A log line for an event, or None for events not worth a line."""
    if event["kind"] == "round_started":
        return f"Round {event['data']['round']} begins."
    if event["kind"] == "dilemmas_revealed":
        return f"{len(event['data']['dilemmas'])} dilemmas are revealed."
    if event["kind"] == "cards_laid":
        return "Everyone has laid a card."
    if event["kind"] == "votes_revealed":
        return f"Round {event['data']['round']}: {explain_result(event['data'], cast)}"
    if event["kind"] == "game_over":
        return f"The game is over: {cast.listing(event['data']['winners'])} won."
    return None


def gesture_move(view: DilemmasView, data: dict[str, str]) -> None:
    """This game has no gestures: every move is made with buttons."""
    return None
