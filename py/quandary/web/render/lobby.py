"""The lobby: pick a game, seat humans and bots, choose variants, resume a save."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from quandary.bots import levels
from quandary.catalog import entry
from quandary.engine import GameSpec, Option, RoundLimit, round_words
from quandary.web.html import attrs, esc, join, names_list


@dataclass
class SeatDraft:
    """A seat as the lobby form holds it before the game starts."""

    name: str
    kind: str = "bot"
    level: str = "heuristic"


@dataclass
class LobbyForm:
    """Everything the setup form shows; survives re-renders."""

    game: str
    seats: list[SeatDraft]
    options: dict[str, Any]
    error: str | None = None
    confirm_abandon: bool = False
    notices: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class SavedGame:
    """A one-line summary of the saved game, for the resume banner."""

    title: str
    round: int
    round_limit: RoundLimit | None
    """None for games with no fixed length (they end on a score or an empty deck)."""
    names: list[str]


def render_lobby(specs: list[GameSpec], form: LobbyForm, saved: SavedGame | None) -> str:
    """The whole lobby screen."""
    spec = next(s for s in specs if s.id == form.game)
    return (
        '<section class="lobby" aria-labelledby="lobby-title">'
        '<h1 id="lobby-title" tabindex="-1" data-autofocus>Pick a dilemma</h1>'
        '<p class="lede">Party games about impossible choices. Play alone against bots'
        " or pass one device around the table.</p>"
        + join(f'<p class="notice" role="alert">{esc(n)}</p>' for n in form.notices)
        + (_resume(saved, form.confirm_abandon) if saved else "")
        + game_list(specs, form.game)
        + _friends()
        + _setup(spec, form)
        + "</section>"
    )


def _friends() -> str:
    return (
        '<div class="friends" role="region" aria-label="Play with friends">'
        "<p><strong>Play with friends</strong>, each on their own device: open a room and"
        " share its link. No account, no server: the game runs on the host's device.</p>"
        '<button type="button" data-action="create-room" id="create-room">Create a room'
        "</button></div>"
    )


def _resume(saved: SavedGame, confirm: bool) -> str:
    buttons = (
        '<p>Abandon it for good? <button type="button" class="danger" '
        'data-action="abandon-confirm">Yes, abandon</button> '
        '<button type="button" data-action="abandon-cancel">Keep it</button></p>'
        if confirm
        else '<button type="button" class="primary" data-action="resume" id="resume">'
        'Resume</button> <button type="button" data-action="abandon" id="abandon">'
        "Abandon</button>"
    )
    return (
        '<div class="resume" role="region" aria-label="Game in progress">'
        f"<p><strong>{esc(saved.title)}</strong> is in progress:"
        f" {esc(round_words(saved.round, saved.round_limit))}"
        + f" with {esc(names_list(saved.names))}.</p>{buttons}</div>"
    )


def game_list(specs: list[GameSpec], chosen: str, ready: bool = True) -> str:
    """Every game as a card to choose; the build paints it disabled before Python is ready,
    so the page shows the same games in the same order from its first paint."""
    items = [
        f'<li><button type="button" class="game-card"'
        f"{attrs(aria_pressed=str(s.id == chosen).lower(), disabled=not ready)}"
        f' data-action="choose-game" data-game="{esc(s.id)}"><strong>{esc(s.title)}</strong>'
        f"<span>{esc(s.tagline)}</span><small>{s.min_players}-{s.max_players} players</small>"
        "</button></li>"
        for s in specs
    ]
    return f'<ul class="game-list" aria-label="Games">{join(items)}</ul>'


def _setup(spec: GameSpec, form: LobbyForm) -> str:
    counts = join(
        f"<option{attrs(value=n, selected=n == len(form.seats))}>{n}</option>"
        for n in range(spec.min_players, spec.max_players + 1)
    )
    seats = join(_seat_row(i, s, form.game) for i, s in enumerate(form.seats))
    flags = join(
        f'<label class="check"><input type="checkbox" data-field="option" '
        f'data-key="{esc(o.key)}"{attrs(checked=bool(form.options.get(o.key)))}>'
        f" <span><strong>{esc(o.label)}</strong> <small>{esc(o.help)}</small></span></label>"
        for o in spec.options
        if o.kind == "flag"
    )
    flags += join(choice_field(o, form.options[o.key], "choice") for o in spec.options)
    multis = join(
        f"<fieldset><legend>{esc(o.label)}</legend>"
        + join(
            f'<label class="check"><input type="checkbox" data-field="multi" '
            f'data-key="{esc(o.key)}" data-value="{esc(value)}"'
            f"{attrs(checked=value in form.options.get(o.key, []))}> {esc(label)}</label>"
            for value, label in o.choices
        )
        + "</fieldset>"
        for o in spec.options
        if o.kind == "multi"
    )
    error = f'<p class="form-error" role="alert">{esc(form.error)}</p>' if form.error else ""
    return (
        f'<div class="setup" role="group" aria-labelledby="setup-title">'
        f'<h2 id="setup-title">Set up {esc(spec.title)}</h2>'
        f'<p class="rules-link"><a href="./static/rules/{esc(entry(spec.id).rules_page)}"'
        f' target="_blank" rel="noopener">How to play {esc(spec.title)}</a></p>'
        "<fieldset><legend>Players</legend>"
        f'<label>Seats <select id="seat-count" data-field="seat-count">{counts}</select></label>'
        f'<ol class="seats">{seats}</ol></fieldset>'
        f"<fieldset><legend>Variants</legend>{flags}</fieldset>{multis}{error}"
        '<button type="button" class="primary big" data-action="start" id="start">'
        "Start game</button></div>"
    )


def _seat_row(index: int, seat: SeatDraft, game: str) -> str:
    current = "human" if seat.kind == "human" else f"bot:{seat.level}"
    choices = [("human", "Human player")] + [
        (f"bot:{level}", f"Bot ({label.lower()})") for level, label in levels(game).items()
    ]
    options = join(
        f"<option{attrs(value=v, selected=v == current)}>{esc(label)}</option>"
        for v, label in choices
    )
    return (
        f'<li class="seat"><input type="text" maxlength="20" id="seat-name-{index}" '
        f'data-field="seat-name" data-seat="{index}" value="{esc(seat.name)}" '
        f'aria-label="Name of seat {index + 1}" autocomplete="off">'
        f'<select id="seat-kind-{index}" data-field="seat-kind" data-seat="{index}" '
        f'aria-label="Who plays seat {index + 1}">{options}</select></li>'
    )


def choice_field(option: Option, current: Any, field: str) -> str:
    """A single-choice option as a labelled select (empty for other kinds of option)."""
    if option.kind != "choice":
        return ""
    choices = join(
        f"<option{attrs(value=value, selected=value == current)}>{esc(label)}</option>"
        for value, label in option.choices
    )
    return (
        f'<label class="choice"><strong>{esc(option.label)}</strong> '
        f'<select data-field="{field}" data-key="{esc(option.key)}" id="{field}-{esc(option.key)}"'
        f' aria-describedby="{field}-{esc(option.key)}-help">{choices}</select>'
        f' <small id="{field}-{esc(option.key)}-help">{esc(option.help)}</small></label>'
    )
