"""The room screens: the link to share, who is here, seats, and the host's settings."""

from __future__ import annotations

from typing import Any

from quandary import engine
from quandary.bots import levels
from quandary.net.guest import REPLACED
from quandary.web.html import attrs, esc, join
from quandary.web.render.lobby import choice_field


def status_line(role: str, status: str, error: str | None, notice: str | None) -> str:
    """One sentence about the connection, in a live region."""
    if error:
        text, cls = error, "form-error"
    elif role == "host":
        text, cls = "You are the host: the game runs on this device. Keep this page open.", "ok"
    elif status == "joined":
        text, cls = "Connected to the room.", "ok"
    elif status == "replaced":
        text, cls = REPLACED, "notice"
    elif status == "away":
        text, cls = "The host is away: the game is paused until they come back.", "notice"
    else:
        text, cls = "Looking for the room…", "notice"
    extra = f'<p class="notice">{esc(notice)}</p>' if notice else ""
    return f'<p class="room-status {cls}" role="status" id="room-status">{esc(text)}</p>{extra}'


def share_box(url: str, can_share: bool) -> str:
    """The link, a copy button, the share sheet where there is one, and a QR code."""
    share = (
        '<button type="button" data-action="share-link" id="share-link">Share…</button>'
        if can_share
        else ""
    )
    return (
        '<section class="share" aria-labelledby="share-title">'
        '<h2 id="share-title">Invite your friends</h2>'
        '<label for="room-link">Room link (anyone with it can join)</label>'
        f'<div class="share-row"><input type="text" id="room-link" readonly value="{esc(url)}">'
        '<button type="button" data-action="copy-link" id="copy-link">Copy</button>'
        f"{share}</div>"
        f'<div id="room-qr" class="qr" role="img" aria-label="QR code of the room link"'
        f' data-link="{esc(url)}"></div></section>'
    )


def room_lobby(lobby: dict[str, Any], me: str | None, is_host: bool, name: str) -> str:
    """Seats, members and (for the host) the game's settings."""
    seats = join(_seat(i, s, lobby, me, is_host) for i, s in enumerate(lobby["seats"]))
    members = join(
        f"<li>{esc(m['name'])}{' (you)' if m['id'] == me else ''}"
        f"{' · host' if m['id'] == lobby['host'] else ''}"
        f' · <span class="{"on" if m["connected"] else "off"}">'
        f"{'here' if m['connected'] else 'away'}</span>"
        f"{'' if m['seat'] is not None else ' · watching'}</li>"
        for m in lobby["members"]
    )
    empty = sum(1 for s in lobby["seats"] if s["kind"] == "open" and s["member"] is None)
    if is_host:
        start = (
            '<p class="actions"><button type="button" class="primary big" data-action="room-start"'
            f' id="room-start"{attrs(disabled=empty > 0)}>Start the game</button>'
            f' <span class="hint">{_waiting(empty)}</span></p>'
        )
    else:
        start = f'<p class="hint">The host starts the game. {_waiting(empty)}</p>'
    return (
        f'<section class="room-lobby" aria-labelledby="room-title">'
        f'<h2 id="room-title" tabindex="-1" data-autofocus>{esc(lobby["title"])} · room</h2>'
        f'<label>Your name <input type="text" id="room-name" data-field="room-name"'
        f' maxlength="20" value="{esc(name)}" autocomplete="off"></label>'
        + (_settings(lobby) if is_host else _settings_summary(lobby))
        + f'<h3>Seats</h3><ol class="room-seats">{seats}</ol>'
        + f'<h3>In the room</h3><ul class="members">{members}</ul>'
        + start
        + "</section>"
    )


def _waiting(empty: int) -> str:
    if not empty:
        return "Every seat is ready."
    return f"Waiting for {empty} more player{'s' if empty != 1 else ''} (or make seats bots)."


def _seat(i: int, seat: dict[str, Any], lobby: dict[str, Any], me: str | None, host: bool) -> str:
    mine = seat["member"] is not None and seat["member"] == me
    if seat["kind"] == "bot":
        label = levels(lobby["game"]).get(seat["level"], seat["level"])
        who = f"{esc(seat['name'])} · bot ({esc(label.lower())})"
    elif seat["member"] is not None:
        who = esc(seat["name"]) + (" (you)" if mine else "")
    else:
        who = "Open seat"
    button = ""
    if seat["kind"] == "open" and seat["member"] is None:
        button = (
            f'<button type="button" data-action="room-sit" data-seat="{i}" id="sit-{i}">'
            "Sit here</button>"
        )
    elif mine:
        button = '<button type="button" data-action="room-stand" id="stand">Stand up</button>'
    kind = ""
    if host:
        current = "open" if seat["kind"] == "open" else f"bot:{seat['level']}"
        choices = [("open", "Player")] + [
            (f"bot:{k}", f"Bot ({v.lower()})") for k, v in levels(lobby["game"]).items()
        ]
        options = join(
            f"<option{attrs(value=v, selected=v == current)}>{esc(label)}</option>"
            for v, label in choices
        )
        kind = (
            f'<select data-field="room-seat-kind" data-seat="{i}" id="room-seat-kind-{i}"'
            f' aria-label="Who plays seat {i + 1}">{options}</select>'
        )
    return f'<li class="room-seat"><span>Seat {i + 1}: {who}</span>{kind}{button}</li>'


def _settings(lobby: dict[str, Any]) -> str:
    spec = engine.get(lobby["game"]).spec
    counts = join(
        f"<option{attrs(value=n, selected=n == len(lobby['seats']))}>{n}</option>"
        for n in range(lobby["min"], lobby["max"] + 1)
    )
    games = join(
        f"<option{attrs(value=g.spec.id, selected=g.spec.id == lobby['game'])}>"
        f"{esc(g.spec.title)}</option>"
        for g in engine.all_games()
    )
    flags = join(
        f'<label class="check"><input type="checkbox" data-field="room-option" '
        f'data-key="{esc(o.key)}"{attrs(checked=bool(lobby["options"].get(o.key)))}>'
        f" <span><strong>{esc(o.label)}</strong> <small>{esc(o.help)}</small></span></label>"
        for o in spec.options
        if o.kind == "flag"
    )
    flags += join(choice_field(o, lobby["options"].get(o.key), "room-choice") for o in spec.options)
    multis = join(
        f'<label class="check"><input type="checkbox" data-field="room-multi" '
        f'data-key="{esc(o.key)}" data-value="{esc(value)}"'
        f"{attrs(checked=value in lobby['options'].get(o.key, []))}> {esc(label)}</label>"
        for o in spec.options
        if o.kind == "multi"
        for value, label in o.choices
    )
    return (
        "<fieldset><legend>Game</legend>"
        f'<label>Game <select data-field="room-game" id="room-game">{games}</select></label> '
        f'<label>Seats <select data-field="room-seat-count" id="room-seat-count">{counts}</select>'
        f"</label>{flags}{multis}</fieldset>"
    )


def _settings_summary(lobby: dict[str, Any]) -> str:
    spec = engine.get(lobby["game"]).spec
    chosen = [o.label for o in spec.options if o.kind == "flag" and lobby["options"].get(o.key)]
    return f'<p class="explain">Variants: {esc(", ".join(chosen) or "none")}.</p>'


def presence(lobby: dict[str, Any]) -> str:
    """Who is in the room during a game, and who is away."""
    items = join(
        f'<li class="{"on" if m["connected"] else "off"}">{esc(m["name"])}'
        f"{' (host)' if m['id'] == lobby['host'] else ''}"
        f"{'' if m['connected'] else ' · away'}</li>"
        for m in lobby["members"]
    )
    return f'<ul class="presence" aria-label="In the room">{items}</ul>'
