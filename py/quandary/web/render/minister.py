"""Maybe Minister's table: proposal, secret vote, reveal, picking, collect, upkeep.

Everything is drawn from a seat's view plus the device's draft. Single-step
choices (a vote, a card to take, where to store a vote) are buttons carrying
their whole move; a proposal is drafted card by card and submitted. Buttons
exist only for moves in the legal set, so a vote can never be stored on a card
that is full and a proposal of the wrong size cannot be sent.
"""

from __future__ import annotations

import json
from typing import TypedDict, cast

from quandary.engine.typed import needed
from quandary.games.minister.view_types import (
    DiscardVoteMove,
    MinisterEvent,
    MinisterMove,
    MinisterStory,
    MinisterView,
    OwnVote,
    ProposeMove,
    PublicVote,
    RevealSummary,
    ScoreChanged,
    SpecialMove,
    TakeMove,
    VoteMove,
)
from quandary.web.html import EMPTY, Markup, attrs, join, markup
from quandary.web.phrases import Cast, plural

from . import minister_icons as pics
from .minister_parts import (
    card_body,
    card_tile,
    law_area,
    name,
    score_panel,
    supply,
    tables,
    tone,
    vote_chip,
    vote_text,
)
from .table import Ui, error_line, reveal

PHASE_TITLES = {
    "shop_start": "Shop before proposing",
    "propose": "Make a proposal",
    "vote": "Vote in secret",
    "pick": "Take cards from the proposal",
    "collect": "Collect and store votes",
    "move": "Move votes",
    "shop_end": "Shop before ending the turn",
    "powers": "Special resources before the turn ends",
    "over": "The game is over",
}


def checkpoints(view: MinisterView) -> int:
    """Every reveal is a milestone: it is shown once until acknowledged."""
    return view["reveals"]


def privacy_reason(view: MinisterView) -> str:
    """Why the device is being passed, without revealing anything."""
    return {
        "vote": "It is time to choose a vote in secret.",
        "propose": "It is time to make a proposal from a secret hand.",
        "collect": "It is time to collect and store votes.",
        "pick": "It is time to take a card.",
        "move": "It is time to move votes.",
    }.get(view["phase"], "It is your turn.")


# -- the turn screen --------------------------------------------------------------------


def render_turn(view: MinisterView, ui: Ui) -> Markup:
    """The viewer's screen: the action for this phase, then the table."""
    phase = view["phase"]
    # The turn's number is in the bar above every screen: not said twice.
    head = markup('<h2 id="turn-title" tabindex="-1" data-autofocus>{}</h2>', PHASE_TITLES[phase])
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
            "powers": _shop,
        }[phase](view, ui)
        if phase not in ("shop_start", "shop_end", "powers"):
            action += _powers(view)
    # Laws and points come right after the action on a phone; on a wide screen they
    # are a column of their own beside it, so a newcomer sees what scores and who
    # leads without scrolling however many laws are in force.
    return markup(
        '<div class="mm-board"><div class="mm-main">{}{}{}<div class="mm-action">{}</div></div>'
        "{}"
        '<div class="mm-rest">{}{}{}{}{}</div></div>',
        head,
        now_line(view, ui),
        error_line(ui),
        action,
        glance(view, ui),
        _proposal_on_table(view, ui),
        tables(view, ui.cast),
        _hand(view, ui),
        pics.legend(view),
        supply(view),
    )


def glance(view: MinisterView, ui: Ui) -> Markup:
    """Every player's points, then every law in force: what a newcomer looks up most."""
    return markup(
        '<aside class="mm-glance" aria-label="Points and laws in force">{}{}</aside>',
        score_panel(view, ui.names, ui.viewer),
        law_area(view),
    )


def now_line(view: MinisterView, ui: Ui) -> Markup:
    """What the viewer can do right now, in one short sentence at the top of every screen."""
    return markup('<p class="mm-now" id="mm-now"><strong>Now:</strong> {}</p>', _now(view, ui))


def _now(view: MinisterView, ui: Ui) -> str:
    phase, legal = view["phase"], view["legal_moves"]
    if not legal:
        waiting = [s for s in view["waiting_for"] if s != ui.viewer]
        if not waiting:
            return "nothing to do; the table is moving on."
        who = ui.cast.listing(waiting)
        if phase == "vote":
            return f"wait while {who} {'votes' if len(waiting) == 1 else 'vote'} in secret."
        return f"wait for {who} to {_VERBS.get(phase, 'play')}."
    if any(m["type"] == "store_all" for m in legal):
        return "store your new votes where suggested, or choose a card for each."
    if view.get("drawn"):
        return "put each new vote in an empty slot on one of your cards."
    if phase == "propose":
        # The sizes allowed are beside the Propose button, and why just above it.
        return "pick cards from your hand, then press Propose."
    if phase == "vote":
        return "choose one of your stored votes, then press Cast this vote."
    if phase == "pick":
        return "take one card from the proposal."
    if phase == "collect":
        if view["owed"]:
            return "give up the votes your negative support costs."
        return "collect your new votes (you may first trade a resource card for votes)."
    if phase == "move":
        return "move a vote onto a law or two onto a red card, or pass."
    if phase == "powers":
        return "use a special resource before the turn ends, or use none now."
    return "use a shop law or a special card, or carry on."


_VERBS = {
    "propose": "make a proposal",
    "pick": "take a card",
    "collect": "collect votes",
    "move": "move votes",
    "shop_start": "shop",
    "shop_end": "shop",
    "powers": "use special resources",
}


def _specials(view: MinisterView) -> list[SpecialMove]:
    """The special powers usable now (they share every phase's list of moves)."""
    return [m for m in view["legal_moves"] if m["type"] == "special"]


def _proposals(view: MinisterView) -> list[ProposeMove]:
    return [m for m in view["legal_moves"] if m["type"] == "propose"]


def _votes(view: MinisterView) -> list[VoteMove]:
    return [m for m in view["legal_moves"] if m["type"] == "vote"]


def _takes(view: MinisterView) -> list[TakeMove]:
    return [m for m in view["legal_moves"] if m["type"] == "take"]


def _give_ups(view: MinisterView) -> list[DiscardVoteMove]:
    return [m for m in view["legal_moves"] if m["type"] == "discard_vote"]


def _powers(view: MinisterView) -> Markup:
    """The viewer's special resources, usable now as the game waits for them."""
    rows = []
    for i, m in enumerate(_specials(view)):
        label = f"Use {name(m['card'])}" + (f" on {name(m['target'])}" if m["target"] else "")
        rows.append(markup("<li>{}</li>", _button(m, label, "", id=f"power-{i}")))
    if not rows:
        return EMPTY
    return markup(
        '<details class="mm-powers"><summary>Special resources you may use now</summary>'
        '<p class="explain">A special resource may be discarded for its power whenever'
        " the game waits for you, and at the end of every turn.</p>"
        '<ul class="mm-shop">{}</ul></details>',
        join(rows),
    )


def _button(move: MinisterMove, label: str, extra_class: str = "", **more: object) -> Markup:
    return markup(
        '<button type="button" class="mm-move {}" data-action="move"{}>{}</button>',
        extra_class,
        attrs(data_move=json.dumps(move, separators=(",", ":")), **more),
        label,
    )


def _waiting(view: MinisterView, ui: Ui) -> Markup:
    mine = view.get("my_vote")
    said = ""
    if mine:
        votes = {v["id"]: v for row in view["tables"][ui.viewer or 0] for v in row.get("votes", [])}
        if mine in votes:
            said = markup(
                "<p>Your vote: {} (secret until everyone has voted).</p>", vote_chip(votes[mine])
            )
    who = ui.cast.listing(view["waiting_for"]) or "nobody"
    return markup('<div class="waiting">{}<p>Waiting for {}…</p></div>', said, who)


def _proposal_on_table(view: MinisterView, ui: Ui) -> Markup:
    if not view["proposal"] or view["phase"] not in ("vote", "pick"):
        return EMPTY
    if view["phase"] == "pick" and view["legal_moves"]:
        return EMPTY  # the take buttons above are the proposal: each card shown once
    items = join(markup("<li>{}</li>", card_tile(c)) for c in view["proposal"])
    return markup(
        '<section class="mm-proposal" aria-labelledby="proposal-title">'
        '<h3 id="proposal-title">The proposal on the table</h3>'
        '<ul class="mm-cards">{}</ul></section>',
        items,
    )


def _hand(view: MinisterView, ui: Ui) -> Markup:
    if view["phase"] == "propose" and view["legal_moves"]:
        return EMPTY
    hand = view.get("hand") or []
    items = join(markup("<li>{}</li>", card_tile(c)) for c in hand)
    body = (
        markup('<ul class="mm-cards">{}</ul>', items)
        if hand
        else Markup("<p>Your hand is empty.</p>")
    )
    return markup(
        '<section class="mm-hand" aria-labelledby="hand-title">'
        '<h3 id="hand-title">Your hand</h3>{}</section>',
        body,
    )


def _propose(view: MinisterView, ui: Ui) -> Markup:
    chosen = set(_draft(ui).get("cards", []))
    items = join(
        markup(
            '<li><button type="button" class="mm-card mm-pick" data-action="draft" '
            'data-card="{}" id="card-{}"'
            "{}>"
            "{}</button></li>",
            c,
            c,
            # Named by its face (kind, name, sides in words): the name holds what is seen.
            attrs(aria_pressed=str(c in chosen).lower()),
            card_body(c),
        )
        for c in view["hand"]
    )
    sizes = sorted({len(m["cards"]) for m in _proposals(view)})
    ready = _matching(view, _draft(ui)) is not None
    hint = f"Choose {_either(sizes)} cards." if not ready else ""
    return markup(
        '<p class="explain">If the vote passes, its laws are enacted and its other cards'
        " taken green side up; if it fails, its laws are discarded and its other cards"
        " taken red side up.</p>"
        '<div class="mm-why" id="size-why">{}</div>'
        '<ul class="mm-cards mm-handpick" aria-label="Your hand">{}</ul>'
        '<p class="actions"><button type="button" class="primary big" data-action="submit"'
        ' id="submit"{}>'
        "Propose {}</button> "
        '<span id="submit-hint" class="hint">{}</span></p>',
        _explained(proposal_sizes_why(view, sizes)),
        items,
        attrs(disabled=not ready, aria_describedby="submit-hint size-why"),
        plural(len(chosen), "card"),
        hint,
    )


def _explained(lines: list[str]) -> Markup:
    """Explanations, a paragraph each: one that does not change is recognised once read."""
    return join(markup('<p class="explain">{}</p>', line) for line in lines)


def _either(sizes: list[int]) -> str:
    """2, 3 or 5: the sizes allowed, as a player reads them."""
    words = [str(n) for n in sizes] or ["some"]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def proposal_sizes_why(view: MinisterView, sizes: list[int]) -> list[str]:
    """Why these proposal sizes and no others, from the rules and the laws in force.

    The sizes themselves are on the Now line and the button's hint; this says the
    rule behind them, then what it means for this hand, one paragraph each: the rule
    reads the same until a law changes it, so it is read once.

    >>> view = {"hand": ["a"] * 5, "effects": {"proposal_min": 2, "proposal_max": 5}}
    >>> proposal_sizes_why(view, [2, 3, 5])[-1]
    'So not 4 of your 5.'
    """
    hand = len(view.get("hand") or [])
    low, high = view["effects"]["proposal_min"], view["effects"]["proposal_max"]
    rule = f"A proposal holds {low} to {high} cards"
    if high < 5:
        rule += " (a law in force lowers the most to " + str(high) + ")"
    rule += " and may not leave exactly one card in your hand."
    here = []
    if hand - 1 in range(low, high + 1) and hand - 1 not in sizes:
        here.append(f"not {hand - 1} of your {hand}")
    if hand < high:
        here.append(f"you hold only {hand}")
    return [rule] + (["So " + "; ".join(here) + "."] if here else [])


def _my_votes(view: MinisterView, ui: Ui) -> dict[str, OwnVote]:
    seat = _seat(view, ui)
    return {v["id"]: v for row in view["tables"][seat] for v in row.get("votes", [])}


def _seat(view: MinisterView, ui: Ui) -> int:
    """The seat whose votes and support a screen that asks for a move shows."""
    return ui.viewer if ui.viewer is not None else needed(view["seat"], "seat to move")


def _vote(view: MinisterView, ui: Ui) -> Markup:
    """Choose a vote (a toggle), then confirm it: one stray click never casts a vote."""
    votes = _my_votes(view, ui)
    chosen = _draft(ui).get("vote", "")
    offered = [m["vote"] for m in _votes(view)]
    buttons = join(
        markup(
            '<button type="button" class="mm-vote {}" data-action="draft" data-vote="{}"'
            ' id="vote-{}"{}>{}</button>',
            votes[v]["kind"],
            v,
            v,
            attrs(aria_pressed=str(v == chosen).lower()),
            vote_text(votes[v]),
        )
        for v in offered
    )
    ready = chosen in offered
    hint = f"You will cast {vote_text(votes[chosen])}." if ready else "Choose a vote first."
    why = vote_limits_why(view, ui, [votes[v]["kind"] for v in votes])
    order = ("highest", "lowest") if view["effects"]["reverse_order"] else ("lowest", "highest")
    # A law may turn ties into rejections: say the rule in force, not the base rule.
    tie = "A tie passes." if view["effects"]["tie_passes"] else "A tie is rejected (by law)."
    # Whose proposal it is changes every turn, the tie rule and the picking order
    # only when a law changes them: a paragraph each, so what did not change is
    # recognised at a glance once read. (The Now line says to pick a stored vote.)
    return markup(
        '<p class="explain">{} proposal is below.</p>'
        '<p class="explain">{}</p>'
        '<p class="explain">If it passes, voters take its cards in order of their vote'
        " numbers, {} first; if it fails, {} first.</p>"
        '<div class="mm-votes" role="group" aria-label="Your stored votes">{}</div>{}'
        '<p class="actions"><button type="button" class="primary big" data-action="submit"'
        ' id="cast-vote"{}>Cast this vote</button></p>'
        '<p id="cast-hint" class="hint">{}</p>',
        ui.cast.possessive(view["proposer"], start=True),
        tie,
        *order,
        buttons,
        (markup('<div class="mm-why" id="vote-why">{}</div>', _explained(why)) if why else EMPTY),
        attrs(disabled=not ready, aria_describedby="cast-hint"),
        hint,
    )


def vote_limits_why(view: MinisterView, ui: Ui, stored: list[str]) -> list[str]:
    """Why a kind of vote is missing from the choice, said where the player meets it.

    A player may cast only a vote stored on their own cards, and votes are drawn
    face down, so a proposer can hold no YES for their own proposal; a law may
    also forbid the proposer to abstain. One paragraph each: what is missing
    changes from turn to turn, the reason never does, so the reason is read once.
    """
    own = ui.viewer == view["proposer"]
    held = set(stored)
    missing = [kind for kind in ("yes", "no") if kind not in held]
    parts = []
    if missing:
        kinds = " or ".join(k.upper() for k in missing)
        whose = ", even on your own proposal" if own else ""
        parts.append(f"You hold no {kinds} vote to cast{whose}.")
        parts.append(
            "You can cast only a vote stored on your cards, and new votes are drawn face"
            " down when you collect."
        )
    if own and "abstain" in held and not view["effects"].get("proposer_may_abstain", True):
        parts.append("A law in force says the proposer may not abstain on their own proposal.")
    return parts


def _pick(view: MinisterView, ui: Ui) -> Markup:
    green = needed(view["reveal"], "reveal of the vote the cards come from")["accepted"]
    side = "green" if green else "red"
    items = []
    for m in _takes(view):
        card = m["card"]
        items.append(
            Markup("<li>")
            # The card as the proposal showed it (both sides), the side it lands on
            # marked: recognised at a glance, not read again.
            + _button(m, card_body(card), "mm-card " + tone(green), id="take-" + card)
            + Markup("</li>")
        )
    buttons = join(items)
    return markup(
        '<p class="explain">Take one card; it lands {} side up.</p><ul class="mm-cards">{}</ul>{}',
        side,
        buttons,
        picking_order(view, ui),
    )


def picking_order(view: MinisterView, ui: Ui) -> Markup:
    """The picking order as the reveal lists it, with whose pick it is now marked.

    The same numbered list as on the reveal, so the two line up; the order
    repeats from the top while cards are left (the cards left are the buttons
    above it: no count to read again after every pick).
    """
    if not view["picks"]:
        return EMPTY
    now = view["waiting_for"][0] if view["waiting_for"] else None
    rows = join(
        markup(
            "<li{}>{}{}</li>",
            attrs(class_="now" if s == now else None),
            ui.cast.object(s, start=True),
            " · picking now" if s == now else "",
        )
        for s in view["picks"]
    )
    return markup(
        '<h3>Picking order</h3><ol class="mm-order" aria-label="Picking order">{}</ol>'
        '<p class="hint">While cards are left, the order starts again from the top.</p>',
        rows,
    )


def _store(view: MinisterView, ui: Ui) -> Markup:
    """Where the drawn votes go: all at once where suggested, or one at a time.

    The suggested places are listed (a vote each) and one
    button stores them all; below them, folded, the first vote's cards, each a move
    of its own, so a player who wants another place chooses it vote by vote. One vote's
    choices at a time: a list of every drawn vote's cards would push the laws and
    the scores off the first screen.
    """
    seat = _seat(view, ui)
    legal = {(m["vote"], m["card"]) for m in view["legal_moves"] if m["type"] == "store"}
    drawn = view.get("drawn", [])
    rows = []
    first, rest = drawn[:1], drawn[1:]
    for vote in first:
        buttons = []
        for row in view["tables"][seat]:
            card = row["card"]
            ok = (vote["id"], card) in legal
            label = f"{name(card)} ({plural(row['room'], 'empty slot') if ok else 'full'})"
            move: MinisterMove = {"type": "store", "vote": vote["id"], "card": card}
            buttons.append(
                _button(move, label, "", id=f"store-{vote['id']}-{card}", disabled=not ok)
            )
        choices = markup('<div class="mm-choices">{}</div>', join(buttons))
        rows.append(markup("<li><p>Store {} on:</p>{}</li>", vote_chip(vote), choices))
    if rest:
        # The label apart from the votes it lists: only the votes change.
        later = join(vote_chip(v) for v in rest)
        rows.append(
            markup(
                '<li class="mm-later"><p class="hint">Still to store after it:</p>'
                '<div class="mm-votes">{}</div></li>',
                later,
            )
        )
    one_by_one = markup(
        '<p class="explain">A card holds only as many votes as its storage number;'
        " a full card takes no more.</p>"
        '<ul class="mm-store">{}</ul>',
        join(rows),
    )
    suggested = next((m for m in view["legal_moves"] if m["type"] == "store_all"), None)
    if suggested is None:
        return one_by_one
    chips = {v["id"]: v for v in drawn}
    # A row per vote, the vote apart from its card: each reads as it does on the
    # vote buttons and the cards' names as on the table, so only the pairing is new.
    places = join(
        markup('<tr><th scope="row">{}</th><td>{}</td></tr>', vote_chip(chips[v]), name(c))
        for v, c in zip(suggested["votes"], suggested["cards"], strict=True)
    )
    # The reason is the same every time, a paragraph of its own; only the places change.
    return (
        markup(
            '<p class="explain">Suggested: support cards first (trading a resource card'
            " discards its votes), then those with the most room.</p>"
            '<table class="mm-suggested"><caption class="sr-only">Suggested places</caption>'
            "<tbody>{}</tbody></table>",
            places,
        )
        + _button(
            suggested,
            "Store them as suggested" if len(suggested["votes"]) > 1 else "Store it as suggested",
            "primary big",
            id="store-all",
        )
        + markup(
            # Folded: the votes are listed just above; the cards to choose from are
            # there for a player who opens it.
            '<details class="mm-own-places" id="own-places"><summary>Or choose each'
            " vote's card yourself</summary>{}</details>",
            one_by_one,
        )
    )


def _collect(view: MinisterView, ui: Ui) -> Markup:
    if view["owed"]:
        votes = _my_votes(view, ui)
        buttons = join(
            _button(m, vote_text(votes[m["vote"]]), "", id=f"give-{m['vote']}")
            for m in _give_ups(view)
        )
        return markup(
            '<p class="explain">Your support is negative: give up {}'
            ' (your last vote is always kept).</p><div class="mm-votes">{}</div>',
            plural(view["owed"], "vote"),
            buttons,
        )
    trade = view["effects"]["trade_votes"]
    buttons = join(
        Markup("<li>")
        # The rate is said once, above; each button names only its card.
        + _button(
            m,
            f"Trade {name(m['card'])}",
            "",
            id="trade-" + m["card"],
            aria_label=f"Trade {name(m['card'])} for up to {trade} votes",
        )
        + Markup("</li>")
        for m in view["legal_moves"]
        if m["type"] == "trade"
    )
    support = view["support"][_seat(view, ui)]
    # The votes support gives change; the trading rule does not (see ``_vote``).
    return markup(
        '<p class="explain">New votes from your support: {}</p><p class="explain">Trading'
        " discards a won resource, and any votes on it, for {} more votes; you draw only as"
        " many votes as your cards can store.</p>"
        '<ul class="mm-trades">{}</ul>',
        max(0, support),
        trade,
        buttons,
    ) + _button({"type": "collect"}, "Collect my votes", "primary big", id="collect")


def _move(view: MinisterView, ui: Ui) -> Markup:
    votes = _my_votes(view, ui)
    chosen = [v for v in _draft(ui).get("votes", []) if v in votes]
    toggles = join(
        markup(
            '<button type="button" class="mm-vote {}" data-action="draft" '
            'data-vote="{}" id="pick-{}"'
            "{}>{}</button>",
            v["kind"],
            vid,
            vid,
            attrs(aria_pressed=str(vid in chosen).lower()),
            vote_text(v),
        )
        for vid, v in votes.items()
    )
    options = []
    for m in view["legal_moves"]:
        if m["type"] == "move_law" and chosen == [m["vote"]]:
            label = f"Put {vote_text(votes[m['vote']])} on {name(m['law'])}"
            options.append(_button(m, label, "", id=f"law-{m['law']}"))
        elif m["type"] == "move_card" and sorted(chosen) == sorted(m["votes"]):
            verb = "turn green" if votes[m["votes"][0]]["kind"] == "yes" else "remove"
            options.append(
                _button(m, f"Play both on {name(m['card'])} ({verb})", "", id=f"red-{m['card']}")
            )
    hint = "" if options else move_hint([votes[v]["kind"] for v in chosen], len(votes))
    return markup(
        '<p class="explain">Move votes: one vote onto an enacted law (more NO than YES'
        " disables it), or two equal votes onto any red card (YES turns it green, NO removes"
        " it). You always keep at least one vote.</p>"
        '<div class="mm-votes" role="group" aria-label="Choose votes to move">{}</div>'
        '<p class="hint">{}</p><div class="mm-choices">{}</div>',
        toggles,
        hint,
        join(options),
    ) + _button({"type": "pass"}, "Pass", "", id="pass")


def move_hint(chosen: list[str], stored: int) -> str:
    """What the chosen votes can do, or why they can do nothing, in the move-votes phase.

    >>> move_hint(["yes", "abstain"], 4).startswith("An ABSTAIN vote can go onto a law, but")
    True
    """
    if len(chosen) == 2:
        if "abstain" in chosen:
            return (
                "An ABSTAIN vote can go onto a law, but never onto a card:"
                " a card takes two YES or two NO votes."
            )
        if chosen[0] != chosen[1]:
            return "The two votes for a card must be alike: two YES or two NO."
        if stored < 3:
            return "Playing both would leave you no vote: you always keep at least one."
        return "No red card can take these two now (nobody may lose their last vote)."
    return "Choose one vote for a law, or two YES or two NO votes for a red card."


def _shop(view: MinisterView, ui: Ui) -> Markup:
    rows = []
    for i, m in enumerate(view["legal_moves"]):
        if m["type"] == "shop":
            paid = ", ".join(name(c) for c in m["pay"])
            label = f"{name(m['law'])}: pay {paid}"
        elif m["type"] == "special":
            label = f"Use {name(m['card'])}"
        else:
            continue  # done: the button under the list
        if m["target"]:
            label += f" on {name(m['target'])}"
        rows.append(markup("<li>{}</li>", _button(m, label, "", id=f"shop-{i}")))
    phase = view["phase"]
    done = {"shop_start": "Carry on to the proposal", "shop_end": "End my turn"}.get(
        phase, "Use none now"
    )
    why = (
        "Before the turn ends, everyone holding a special resource may use it, round the"
        " table, until a full round passes with none used; then the 25-point check."
        if phase == "powers"
        else "Shop laws trade whole won cards for rewards: pay with cards showing the"
        " price's icons (one card showing both icons of a two-icon price pays it alone;"
        " no spare card may be added). Special resources are discarded for their power."
    )
    return markup(
        '<p class="explain">{}</p><ul class="mm-shop">{}</ul>',
        why,
        join(rows),
    ) + _button({"type": "done"}, done, "primary", id="done")


# -- drafts ----------------------------------------------------------------------------


class MinisterDraft(TypedDict, total=False):
    """A move being built: the cards of a proposal, the vote to cast, the votes to move."""

    cards: list[str]
    vote: str
    votes: list[str]


def _draft(ui: Ui) -> MinisterDraft:
    """This device's draft: only ``update_draft`` below makes one (``render.Draft``)."""
    return cast(MinisterDraft, ui.draft)


def update_draft(view: MinisterView, draft: MinisterDraft, data: dict[str, str]) -> MinisterDraft:
    """A card toggled in or out of the proposal, or a vote chosen to move."""
    if "card" in data and data["card"] in (view.get("hand") or []):
        cards = list(draft.get("cards", []))
        cards = (
            [c for c in cards if c != data["card"]]
            if data["card"] in cards
            else [*cards, data["card"]]
        )
        return {**draft, "cards": cards}
    if "vote" in data and view["phase"] == "vote":
        if draft.get("vote") == data["vote"]:
            kept: MinisterDraft = {**draft}
            del kept["vote"]
            return kept
        return {**draft, "vote": data["vote"]}
    if "vote" in data:
        votes = list(draft.get("votes", []))
        votes = (
            [v for v in votes if v != data["vote"]]
            if data["vote"] in votes
            else [*votes, data["vote"]][-2:]
        )
        return {**draft, "votes": votes}
    return draft


def draft_move(view: MinisterView, draft: MinisterDraft) -> ProposeMove | VoteMove | None:
    """The proposal the draft describes (its cards in hand order), or the chosen vote."""
    if view["phase"] == "vote":
        return {"type": "vote", "vote": draft["vote"]} if draft.get("vote") else None
    if view["phase"] != "propose":
        return None
    chosen = set(draft.get("cards", []))
    return {"type": "propose", "cards": [c for c in view.get("hand") or [] if c in chosen]}


def _matching(view: MinisterView, draft: MinisterDraft) -> ProposeMove | VoteMove | None:
    move = draft_move(view, draft)
    return move if move in view["legal_moves"] else None


# -- the reveal ------------------------------------------------------------------------


def explain_milestone(view: MinisterView, index: int, cast: Cast) -> str:
    """The sentence a screen reader hears when the reveal is shown."""
    return _reveal_sentence(needed(view["reveal"], "reveal"), cast)


def _reveal_sentence(r: RevealSummary, cast: Cast) -> str:
    verdict = "accepted" if r["accepted"] else "rejected"
    order = cast.listing(r["order"]) or "nobody"
    return (
        f"Turn {r['turn']}: the proposal is {verdict}, {r['yes']} YES to {r['no']} NO."
        f" Cards are taken by {order}."
    )


def render_round_result(view: MinisterView, ui: Ui, index: int) -> Markup:
    """The reveal: every vote, the result, the picking order and the laws enacted."""
    r = needed(view["reveal"], "reveal")
    cast = ui.cast
    # Ballots turn over in the order of their numbers, as the rules reveal them.
    numbered = sorted(range(len(r["votes"])), key=lambda s: _ballot_number(r["votes"][s]))
    # A row per voter, the name apart from the ballot: the names are read once a
    # game, the ballots are what is new.
    votes = join(
        markup(
            '<tr><th scope="row">{}</th><td{}>{}</td></tr>',
            cast.object(s, start=True),
            reveal("turn", f"ballot-{index}-{s}", numbered.index(s)),
            vote_chip(v) if v else "no vote",
        )
        for s, v in enumerate(r["votes"])
    )
    order = join(markup("<li>{}</li>", cast.object(s, start=True)) for s in r["order"])
    enacted = join(markup("<li>{}</li>", card_tile(c)) for c in r["enacted"])
    laws = markup('<h3>Enacted</h3><ul class="mm-cards">{}</ul>', enacted) if r["enacted"] else ""
    verdict = "Accepted" if r["accepted"] else "Rejected"
    button = "See the final scores" if view.get("result") else "Continue"
    # The same column of points and laws as on the turn screens: the laws just
    # enacted and the scores they moved (each score's line names its latest change
    # and the laws behind it) are read beside the votes that did it. The result is
    # said once, in the heading and the two lists: the sentence that sums them up is
    # what a screen reader announces (``explain_milestone``), not more to read.
    return markup(
        '<div class="mm-board"><section class="round-result mm-reveal"'
        ' aria-labelledby="result-title">'
        '<h2 id="result-title" tabindex="-1" data-autofocus>{}: '
        "{} YES, {} NO</h2>"
        '<p class="mm-now"><strong>Now:</strong> read how the vote went, then press {}.</p>'
        '<h3>The votes</h3><table class="mm-reveal-votes"><tbody>{}</tbody></table>'
        '<h3>Picking order</h3><ol class="mm-order">{}</ol>{}'
        '<p class="actions"><button type="button" class="primary big" data-action="next" '
        'id="next">{}</button></p></section>{}</div>',
        verdict,
        r["yes"],
        r["no"],
        button,
        votes,
        order or Markup("<li>nobody</li>"),
        laws,
        button,
        glance(view, ui),
    )


def _ballot_number(vote: PublicVote | None) -> float:
    """Where a ballot comes in the reveal: by its number, no vote last."""
    return float(vote["number"]) if vote else float("inf")


# -- the log -------------------------------------------------------------------------------


RESULT_EVENTS = frozenset({"revealed"})
"""The event that opens a result the players step through: the log waits with it."""


def why(story: MinisterStory, cast: Cast) -> str | None:
    """How the game was won: the score reached by the last turn, and the newest law."""
    kind, law_card = story["kind"], story["law"]
    who, points = (
        cast.object(story["seat"], start=kind == "target"),
        plural(story["points"], "point"),
    )
    law = f", with “{name(law_card)}” the newest law" if law_card else ""
    if kind == "target":
        return f"{who} reached {points} by the end of turn {story['round']}{law}."
    # Nobody reached the target: the top score won, and it may have been shared.
    level = story["level"]
    if level:
        top = f"{cast.listing([story['seat'], *level])} level at the top on {points}"
    else:
        top = f"{who} ahead on {points}"
    return f"The decree cards ran out in turn {story['round']} with {top}{law}."


def describe(event: MinisterEvent, cast: Cast) -> str | None:
    """A log line for an event, or None for events not worth a line."""

    def does(seat: int, verb: str) -> str:
        return cast.subject(seat, verb, start=True)

    if event["kind"] == "turn_started":
        started = event["data"]
        return f"Turn {started['turn']}: {does(started['proposer'], 'propose')}."
    if event["kind"] == "proposed":
        proposed = event["data"]
        return f"{does(proposed['seat'], 'propose')} {plural(len(proposed['cards']), 'card')}."
    if event["kind"] == "revealed":
        return _reveal_sentence(event["data"], cast)
    if event["kind"] == "took":
        took = event["data"]
        side = "green" if took["green"] else "red"
        return f"{does(took['seat'], 'take')} {name(took['card'])} ({side} side up)."
    if event["kind"] == "collected":
        collected = event["data"]
        return f"{does(collected['seat'], 'collect')} {plural(collected['votes'], 'vote')}."
    if event["kind"] == "traded":
        traded = event["data"]
        return f"{does(traded['seat'], 'trade')} {name(traded['card'])} for votes."
    if event["kind"] == "gave_up_vote":
        return f"{does(event['data']['seat'], 'give')} up a vote for negative support."
    if event["kind"] == "moved_vote":
        moved = event["data"]
        vote = f"{moved['kind'].upper()} {moved['number']}"
        return f"{does(moved['seat'], 'put')} {vote} on {name(moved['law'])}."
    if event["kind"] == "moved_card":
        turned = event["data"]
        card = f"{cast.possessive(turned['owner'])} {name(turned['card'])}"
        if turned["kind"] == "yes":
            return f"{does(turned['seat'], 'turn')} {card} green."
        return f"{does(turned['seat'], 'remove')} {card}."
    if event["kind"] == "shopped":
        return f"{does(event['data']['seat'], 'use')} {name(event['data']['law'])}."
    if event["kind"] == "special":
        return f"{does(event['data']['seat'], 'use')} {name(event['data']['card'])}."
    if event["kind"] == "score_changed":
        return score_change(event["data"], cast)
    if event["kind"] == "game_over":
        return f"The game is over: {cast.listing(event['data']['winners'])} won."
    return None


def score_change(change: ScoreChanged, cast: Cast) -> str:
    """ "Your score goes from 8 to 21: +13 from Money Talks." (every law that moved it)."""
    causes = ", ".join(f"{c['points']:+d} from {c['title']}" for c in change["laws"])
    return (
        f"{cast.possessive(change['seat'], start=True)} score goes from {change['before']} to"
        f" {change['after']}" + (f": {causes}." if causes else ".")
    )


def gesture_move(view: MinisterView, data: dict[str, str]) -> MinisterMove | None:
    """This game has no gestures: every move is made with buttons."""
    return None
