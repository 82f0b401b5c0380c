"""The room screens: the link to share, who is here, seats, and the host's settings."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from quandary import engine
from quandary.bots import levels
from quandary.net.guest import REPLACED
from quandary.net.heir import Handover
from quandary.net.lobby import LobbyMember, LobbySeat, RoomLobby
from quandary.web.html import EMPTY, Markup, attrs, join, markup, stamped
from quandary.web.render.lobby import choice_field, length_line, options_summary


def status_line(
    role: str,
    status: str,
    error: str | None,
    notice: str | None,
    handover: Handover | None = None,
    names: dict[str, str] | None = None,
) -> Markup:
    """One sentence about the connection, in a live region.

    ``handover``: this guest holds a backup of the room and the host is away, so a
    player's device carries the game on (net/succession.py); the sentence says
    whose, and what it still waits for. ``names``: member id → name.
    """
    if error:
        text, cls = error, "form-error"
    elif role == "host":
        text, cls = "You are the host: the game runs on this device. Keep this page open.", "ok"
    elif status == "joined":
        text, cls = "Connected to the room.", "ok"
    elif status == "replaced":
        text, cls = REPLACED, "notice"
    elif status == "removed":
        text, cls, notice = notice or "You are no longer in this room.", "notice", None
    elif status == "searching" and notice:
        # Found, but not let in (the room is closed to newcomers, or full): say why.
        text, cls, notice = notice, "notice", None
    elif status == "away":
        text, cls = "The host is away: the game is paused until they come back.", "notice"
        if handover is not None:
            text = handover_text(handover, names or {})
    else:
        text, cls = "Looking for the room…", "notice"
    extra = markup('<p class="notice" id="room-notice">{}</p>', notice) if notice else ""
    # What stops the game (the host away, this page out of the room) stays in view
    # wherever the player has scrolled to: on a phone the table is far below. So does
    # any notice, which answers something the player just did down there ("The host is
    # away: your move was not sent").
    urgent = role != "host" and status in ("away", "replaced", "removed")
    if urgent:
        cls += " urgent"
    return markup(
        '<div{}><p class="room-status {}" role="status" id="room-status">{}</p>{}</div>',
        attrs(class_="room-notices urgent" if urgent or notice else "room-notices"),
        cls,
        text,
        extra,
    )


def handover_text(handover: Handover, names: dict[str, str]) -> str:
    """Who takes the game on while the host is away, and what it waits for."""

    def device(member: str | None) -> str:
        return f"{names[member]}'s device" if member in names else "a player's device"

    me = handover.successor is not None and handover.successor not in handover.heirs
    who = "this device" if me else device(handover.successor)
    if not handover.waited:
        return (
            "The host is away: the game is paused."
            f" If they are not back soon, {who} takes the game on."
        )
    if handover.successor is None:
        return (
            "The host has gone, and no device that can carry the game on is here."
            " The game goes on when one of its players comes back through the link."
        )
    if handover.partners:
        return f"The host has gone: {who} is taking the game on…"
    if me and handover.heirs:
        partners = " or ".join(device(m) for m in handover.heirs)
        return (
            f"The host has gone. This device takes the game on as soon as it reaches {partners}:"
            " it takes most of the players' devices, so that two groups that cannot reach"
            " each other never both carry the game on. Keep this page open; it keeps trying."
        )
    if me:
        return (
            "The host has gone, and most of the players' devices are needed to carry the"
            " game on. The game goes on when the host or another player comes back."
        )
    return f"The host has gone: {who} takes the game on once it reaches most players' devices."


def share_box(url: str, can_share: bool) -> Markup:
    """The link, a copy button, the share sheet where there is one, and a QR code."""
    share = (
        Markup('<button type="button" data-action="share-link" id="share-link">Share…</button>')
        if can_share
        else ""
    )
    return markup(
        '<section class="share" aria-labelledby="share-title">'
        '<h2 id="share-title">Invite your friends</h2>'
        '<label for="room-link">Room link (anyone with it can join)</label>'
        '<div class="share-row"><input type="text" id="room-link" readonly value="{}">'
        '<button type="button" data-action="copy-link" id="copy-link">Copy</button>'
        "{}</div>"
        # Folded: it is for a friend beside the host, and would push the seats and
        # "Start the game" off a phone's first screen.
        '<details class="more" id="room-qr-more"><summary>QR code, for a phone nearby</summary>'
        '<div id="room-qr" class="qr" role="img" aria-label="QR code of the room link"'
        ' data-link="{}"></div></details></section>',
        url,
        share,
        url,
    )


def room_lobby(
    lobby: RoomLobby,
    me: str | None,
    is_host: bool,
    name: str,
    own: Markup = EMPTY,
    blocked: str | None = None,
    muted: Collection[str] = (),
    bubbles: Mapping[str, Markup] | None = None,
) -> Markup:
    """Seats, members and (for the host) the game's settings.

    ``own``: the game's own card packs, and ``blocked``, why they keep the game
    from starting; ``muted``: the members the host muted (the host's own screen);
    ``bubbles``: a reaction to show by a member's name (web/render/chat.py)."""
    seats = join(_seat(i, s, lobby, me, is_host) for i, s in enumerate(lobby["seats"]))
    bubbles = bubbles or {}
    members = join(
        markup(
            '<li>{}{}{}{} · <span class="{}">{}</span>{}{}</li>',
            m["name"],
            bubbles.get(m["id"], ""),
            " (you)" if m["id"] == me else "",
            " · host" if m["id"] == lobby["host"] else "",
            "on" if m["connected"] else "off",
            "here" if m["connected"] else "away",
            "" if m["seat"] is not None else " · watching",
            _host_buttons(m, m["id"] in muted) if is_host and m["id"] != lobby["host"] else "",
        )
        for m in lobby["members"]
    )
    empty = sum(1 for s in lobby["seats"] if s["kind"] == "open" and s["member"] is None)
    if is_host:
        start = markup(
            '<p class="actions"><button type="button" class="primary big" data-action="room-start"'
            ' id="room-start"{}>Start the game</button>'
            ' <span class="hint">{}</span></p>',
            attrs(disabled=empty > 0 or blocked is not None),
            _waiting(empty),
        )
    else:
        start = markup('<p class="hint">The host starts the game. {}</p>', _waiting(empty))
    return (
        markup(
            '<section class="room-lobby" aria-labelledby="room-title">'
            '<h2 id="room-title" tabindex="-1" data-autofocus>{} · room</h2>',
            lobby["title"],
        )
        # Start (and what it waits for) leads the room's lobby: the seats and the
        # members below it grow as people arrive, and would push it off a phone's
        # first screen.
        + start
        + markup(
            '<label class="room-you">Your name <input type="text" id="room-name"'
            ' data-field="room-name" maxlength="20" value="{}" autocomplete="off"></label>',
            name,
        )
        + (_settings(lobby) if is_host else _settings_summary(lobby))
        + own
        + length_line(lobby["game"], len(lobby["seats"]))
        + markup('<h3>Seats</h3><ol class="room-seats">{}</ol>', seats)
        + markup('<h3>In the room</h3><ul class="members">{}</ul>', members)
        + Markup("</section>")
    )


def _host_buttons(member: LobbyMember, muted: bool) -> Markup:
    """What the host may do about a member: mute their chat, or remove them."""
    return _mute_button(member, muted) + _remove_button(member)


def _mute_button(member: LobbyMember, muted: bool) -> Markup:
    """The host silences a member's chat and reactions (or lets them speak again)."""
    return markup(
        ' <button type="button" class="quiet" data-action="room-mute" data-member="{}"'
        ' data-muted="{}" id="mute-{}" aria-pressed="{}" aria-label="{} {}">{}</button>',
        member["id"],
        "false" if muted else "true",
        member["id"],
        "true" if muted else "false",
        "Let speak" if muted else "Mute",
        member["name"],
        "Muted" if muted else "Mute",
    )


def _remove_button(member: LobbyMember) -> Markup:
    """The host's way to take someone out of the room (a stranger, a cheat)."""
    return markup(
        ' <button type="button" class="quiet" data-action="room-remove" data-member="{}"'
        ' id="remove-{}" aria-label="Remove {} from the room">Remove</button>',
        member["id"],
        member["id"],
        member["name"],
    )


def _door(locked: bool) -> Markup:
    """The host closes the room to newcomers (those already in come and go as before)."""
    return markup(
        '<label class="check"><input type="checkbox" data-field="room-locked" id="room-locked"{}>'
        " <span><strong>Closed to newcomers</strong> <small>Only people already in the room"
        " can come back; nobody new gets in with the link.</small></span></label>",
        attrs(checked=locked),
    )


def _waiting(empty: int) -> str:
    if not empty:
        return "Every seat is ready."
    return f"Waiting for {empty} more player{'s' if empty != 1 else ''} (or make seats bots)."


def _seat(i: int, seat: LobbySeat, lobby: RoomLobby, me: str | None, host: bool) -> Markup:
    mine = seat["member"] is not None and seat["member"] == me
    if seat["kind"] == "bot":
        label = levels(lobby["game"]).get(seat["level"], seat["level"])
        who = f"{seat['name']} · bot · {label}"
    elif seat["member"] is not None:
        who = str(seat["name"]) + (" (you)" if mine else "")
    else:
        who = "Open seat"
    button = ""
    if seat["kind"] == "open" and seat["member"] is None:
        button = markup(
            '<button type="button" data-action="room-sit" data-seat="{}" id="sit-{}">'
            "Sit here</button>",
            i,
            i,
        )
    elif mine:
        button = Markup(
            '<button type="button" data-action="room-stand" id="stand">Stand up</button>'
        )
    kind = ""
    if host:
        current = "open" if seat["kind"] == "open" else f"bot:{seat['level']}"
        bots = join(
            markup(
                "<option{}>{}</option>", attrs(value=f"bot:{k}", selected=current == f"bot:{k}"), v
            )
            for k, v in levels(lobby["game"]).items()
        )
        options = markup(
            '<option{}>Player</option><optgroup label="Bots">{}</optgroup>',
            attrs(value="open", selected=current == "open"),
            bots,
        )
        kind = markup(
            '<select data-field="room-seat-kind" data-seat="{}" id="room-seat-kind-{}"'
            ' aria-label="Who plays seat {}">{}</select>',
            i,
            i,
            i + 1,
            options,
        )
    return markup(
        '<li class="room-seat"><span>Seat {}: {}</span>{}{}</li>', i + 1, who, kind, button
    )


def _settings(lobby: RoomLobby) -> Markup:
    spec = engine.spec_of(lobby["game"])
    counts = join(
        markup("<option{}>{}</option>", attrs(value=n, selected=n == len(lobby["seats"])), n)
        for n in range(lobby["min"], lobby["max"] + 1)
    )
    games = join(
        markup(
            "<option{}>{}</option>",
            attrs(value=g.id, selected=g.id == lobby["game"]),
            g.title,
        )
        for g in engine.specs()
    )
    flags = join(
        markup(
            '<label class="check"><input type="checkbox" data-field="room-option" '
            'data-key="{}"{}>'
            " <span><strong>{}</strong> <small>{}</small></span></label>",
            o.key,
            attrs(checked=bool(lobby["options"].get(o.key))),
            o.label,
            o.help,
        )
        for o in spec.options
        if o.kind == "flag"
    )
    flags += join(choice_field(o, lobby["options"].get(o.key), "room-choice") for o in spec.options)
    multis = join(
        markup(
            '<label class="check"><input type="checkbox" data-field="room-multi" '
            'data-key="{}" data-value="{}"'
            "{}> {}</label>",
            o.key,
            value,
            attrs(checked=_among(value, lobby["options"].get(o.key))),
            label,
        )
        for o in spec.options
        if o.kind == "multi"
        for value, label in o.choices
    )
    patience = lobby["patience"]
    chosen = options_summary(spec, lobby["options"])
    waits = f"a bot offered after {PATIENCE_LABELS.get(patience, '').split(' (')[0]}"
    door = "closed to newcomers" if lobby["locked"] else ""
    # The game and its seats stay in view; the rest folds into one line that says what
    # is chosen, so "Start the game" stays on a phone's first screen.
    return markup(
        '<div class="room-game">'
        '<label>Game <select data-field="room-game" id="room-game">{}</select></label> '
        '<label>Seats <select data-field="room-seat-count" id="room-seat-count">{}</select>'
        "</label></div>"
        '<details class="more" id="room-more"><summary>'
        '<span class="more-title">Settings</span> <span class="more-chosen">{}</span>'
        "</summary>{}{}{}{}</details>",
        games,
        counts,
        " · ".join(p for p in (chosen, waits, door) if p),
        flags,
        multis,
        _patience(patience),
        _door(bool(lobby.get("locked"))),
    )


PATIENCE_LABELS = {
    "short": "20 seconds (a bot takes over after 1 minute)",
    "normal": "45 seconds (a bot takes over after 2 minutes)",
    "long": "90 seconds (a bot takes over after 5 minutes)",
}


def _patience(current: str) -> Markup:
    """How long the room waits for a player who left before offering a bot for them."""
    options = join(
        markup("<option{}>{}</option>", attrs(value=key, selected=key == current), label)
        for key, label in PATIENCE_LABELS.items()
    )
    return markup(
        '<label class="patience">When a player leaves, offer a bot for their seat after '
        '<select data-field="room-patience" id="room-patience">{}</select></label>'
        '<p class="explain">Sooner on their own turn. They get their seat back the moment'
        " they return. If you, the host, are gone that long, the first guest who sat down"
        " carries the game on (it takes two seated guests), and a bot plays for you until"
        " you are back.</p>",
        options,
    )


def absent_offers(names: dict[int, str]) -> Markup:
    """The host's offer of a bot for each seat whose player has been away a while."""
    return join(
        markup(
            '<p class="absent" role="status">{} has been away for a while. '
            '<button type="button" data-action="cover-seat" data-seat="{}" id="cover-{}">'
            "Let a bot play for {}</button></p>",
            name,
            seat,
            seat,
            name,
        )
        for seat, name in sorted(names.items())
    )


def _among(value: str, chosen: object) -> bool:
    """Whether a multi-choice option's ``chosen`` values (a list, if anything) hold ``value``."""
    return isinstance(chosen, list) and value in chosen


def _settings_summary(lobby: RoomLobby) -> Markup:
    spec = engine.spec_of(lobby["game"])
    if not any(o.kind == "flag" for o in spec.options):
        return Markup("")  # a game without variants gets no "Variants: none" line
    chosen = [o.label for o in spec.options if o.kind == "flag" and lobby["options"].get(o.key)]
    return markup('<p class="explain">Variants: {}.</p>', ", ".join(chosen) or "none")


def presence(
    lobby: RoomLobby,
    is_host: bool = False,
    muted: Collection[str] = (),
    bubbles: Mapping[str, Markup] | None = None,
) -> Markup:
    """Who is in the room during a game, and who is away (the host may mute or remove
    anyone). ``bubbles``: reactions of members who have no seat on the scoreboard."""
    bubbles = bubbles or {}
    items = join(
        markup(
            '<li class="{}">{}{}{}{}{}</li>',
            "on" if m["connected"] else "off",
            m["name"],
            bubbles.get(m["id"], ""),
            " (host)" if m["id"] == lobby["host"] else "",
            "" if m["connected"] else " · away",
            _host_buttons(m, m["id"] in muted) if is_host and m["id"] != lobby["host"] else "",
        )
        for m in lobby["members"]
    )
    return stamped(markup('<ul class="presence" aria-label="In the room">{}</ul>', items))


def deal_check(verdict: str) -> Markup:
    """Whether the successor that dealt again when the host left kept its word, as this
    device found once the game was over ("" if it did; else why not)."""
    if verdict:
        return markup(
            '<p class="form-error deal-check" role="alert">Warning: when the host left,'
            " the new host did not deal as promised ({}), so it may have chosen the cards"
            " it dealt.</p>",
            verdict,
        )
    return Markup(
        '<p class="notice deal-check" role="status">Checked: when the host left, the cards'
        " nobody had seen were shuffled with every player's share, as promised.</p>"
    )
