"""The Game of Dilemmas' setup for the players' own card packs, and why Start waits.

Pack names and card text are anybody's writing (an imported file's too): they
reach the page only as escaped values through ``markup`` and ``attrs``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from quandary.engine import BadSetup, GameSpec
from quandary.engine import spec_of as engine_spec
from quandary.games.dilemmas.own_cards import (
    MAX_NAME,
    MAX_TEXT,
    OwnPack,
    shortfall,
    shortfall_text,
)
from quandary.web.html import EMPTY, Markup, attrs, join, markup
from quandary.web.own_packs import PackDesk

if TYPE_CHECKING:  # the room protocol is imported when a room opens, not for the lobby
    from quandary.net.lobby import RoomLobby

USE_CHOICES = (
    ("mix", "Mixed into the built-in packs chosen above"),
    ("instead", "Instead of the built-in packs"),
)


def own_section(desk: PackDesk) -> Markup:
    """The own packs: choose, make, edit, delete, export and import."""
    items = join(_pack_item(desk, pack_id, pack) for pack_id, pack in desk.packs.items())
    listed = (
        markup('<ul class="own-packs">{}</ul>', items)
        if desk.packs
        else Markup('<p class="hint">No packs of your own on this device yet.</p>')
    )
    use = join(
        markup("<option{}>{}</option>", attrs(value=v, selected=v == desk.use), label)
        for v, label in USE_CHOICES
    )
    error = (
        markup('<p class="form-error" role="alert" id="own-error">{}</p>', desk.error)
        if desk.error
        else EMPTY
    )
    notice = (
        markup('<p class="notice" role="status" id="own-notice">{}</p>', desk.notice)
        if desk.notice
        else EMPTY
    )
    return markup(
        '<fieldset class="own-cards" id="own-cards"><legend>Your own cards</legend>'
        "{}{}{}"
        '<label class="choice"><strong>Your packs are played</strong> '
        '<select data-field="own-use" id="own-use">{}</select></label>'
        '<p class="own-tools"><button type="button" data-action="own-new" id="own-new">'
        "Make a pack</button> "
        '<label class="file">Import a pack <input type="file" id="own-import"'
        ' data-field="own-import" accept=".json,application/json"></label></p>'
        "{}</fieldset>",
        error,
        notice,
        listed,
        use,
        _editor(desk) if desk.draft is not None else EMPTY,
    )


def _pack_item(desk: PackDesk, pack_id: str, pack: OwnPack) -> Markup:
    about = f"own-about-{pack_id}"
    if desk.confirm_delete == pack_id:
        buttons = markup(
            'Delete this pack for good? <button type="button" class="danger"'
            ' data-action="own-delete-confirm" data-pack="{}" data-yes="true"'
            ' id="own-delete-yes-{}">Yes, delete</button>'
            ' <button type="button" data-action="own-delete-confirm" data-pack="{}"'
            ' id="own-delete-{}">Keep it</button>',
            pack_id,
            pack_id,
            pack_id,
            pack_id,
        )
    else:
        buttons = markup(
            '<button type="button" data-action="own-edit" data-pack="{}" id="own-edit-{}"'
            ' aria-describedby="{}">Edit</button>'
            ' <button type="button" data-action="own-export" data-pack="{}"'
            ' id="own-export-{}" aria-describedby="{}">Export</button>'
            ' <button type="button" data-action="own-delete" data-pack="{}"'
            ' id="own-delete-{}" aria-describedby="{}">Delete</button>',
            *(pack_id, pack_id, about) * 3,
        )
    return markup(
        '<li class="own-pack"><label class="check"><input type="checkbox"'
        ' data-field="own-pack" data-pack="{}" id="own-use-{}"{}>'
        ' <span id="{}"><strong>{}</strong> <small>{} good · {} “but”</small></span></label>'
        ' <span class="own-actions">{}</span></li>',
        pack_id,
        pack_id,
        attrs(checked=pack_id in desk.chosen),
        about,
        pack["name"],
        len(pack["positive"]),
        len(pack["negative"]),
        buttons,
    )


def _editor(desk: PackDesk) -> Markup:
    draft = desk.draft
    assert draft is not None
    return markup(
        '<div class="own-editor" role="group" aria-labelledby="own-editor-title">'
        '<h3 id="own-editor-title">{}</h3>'
        '<label>Pack name <input type="text" id="own-name" data-field="own-name"'
        ' autocomplete="off"{}></label>'
        "<label>Good cards, one a line (at most {} characters each)"
        ' <textarea id="own-positive" data-field="own-positive" rows="6">{}</textarea></label>'
        "<label>“… but” cards, one a line (at most {} characters each)"
        ' <textarea id="own-negative" data-field="own-negative" rows="6">{}</textarea></label>'
        '<p><button type="button" class="primary" data-action="own-save" id="own-save">'
        "Keep the pack</button>"
        ' <button type="button" data-action="own-cancel" id="own-cancel">Cancel</button></p>'
        "</div>",
        "Edit the pack" if draft.id else "A new pack",
        attrs(maxlength=MAX_NAME, value=draft.name),
        MAX_TEXT,
        draft.positive,
        MAX_TEXT,
        draft.negative,
    )


def start_blocked(spec: GameSpec, players: int, options: Mapping[str, object]) -> str | None:
    """Why a game with these options cannot start (None: it can): too few cards,
    or options the rules refuse."""
    try:
        normal = spec.normalise_options(options)
    except BadSetup as exc:
        return exc.message
    missing = shortfall(players, normal)
    return shortfall_text(players, missing) if missing else None


def room_own_cards(lobby: RoomLobby, desk: PackDesk | None) -> tuple[Markup, str | None]:
    """A room's own packs, and why its game cannot start (None: it can).

    The host (``desk``: this device's packs) chooses among its own packs; every
    guest reads which packs the host chose, by name and size, from the room's
    lobby, which comes from the host: anything unlike a checked option reads as
    no own packs, never as an error on the page.
    """
    try:
        spec = engine_spec(str(lobby["game"]))
        options = spec.normalise_options(lobby["options"])
        chosen = options["own"]
        players = len(lobby["seats"])
    except (BadSetup, KeyError, TypeError, ValueError, AttributeError):
        return EMPTY, None
    missing = shortfall(players, options)
    blocked = shortfall_text(players, missing) if missing else None
    named = join(
        markup(
            "<li>{} <small>{} good · {} “but”</small></li>",
            p["name"],
            len(p["positive"]),
            len(p["negative"]),
        )
        for p in chosen["packs"]
    )
    how = dict(USE_CHOICES)[chosen["use"]].lower() if chosen["packs"] else ""
    listed = (
        markup('<p class="explain">Own cards, {}:</p><ul class="own-chosen">{}</ul>', how, named)
        if chosen["packs"]
        else EMPTY
    )
    choose = EMPTY
    if desk is not None:
        boxes = join(
            markup(
                '<label class="check"><input type="checkbox" data-field="room-own-pack"'
                ' data-pack="{}" id="room-own-{}"{}> {} <small>{} good · {} “but”</small></label>',
                pack_id,
                pack_id,
                attrs(checked=pack_id in desk.chosen),
                pack["name"],
                len(pack["positive"]),
                len(pack["negative"]),
            )
            for pack_id, pack in desk.packs.items()
        )
        use = join(
            markup("<option{}>{}</option>", attrs(value=v, selected=v == desk.use), label)
            for v, label in USE_CHOICES
        )
        choose = (
            markup(
                '<fieldset class="own-cards"><legend>Your own cards</legend>{}'
                '<label class="choice">Played <select data-field="room-own-use"'
                ' id="room-own-use">{}</select></label></fieldset>',
                boxes,
                use,
            )
            if desk.packs
            else EMPTY
        )
    warning = (
        markup('<p class="form-error" id="room-start-blocked">{}</p>', blocked)
        if blocked
        else EMPTY
    )
    return choose + listed + warning, blocked
