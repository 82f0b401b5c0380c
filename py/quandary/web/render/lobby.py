"""The lobby: pick a game, seat humans and bots, choose variants, continue a saved game."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from quandary.bots import levels
from quandary.catalog import entry
from quandary.engine import GameSpec, Option, round_words, specs
from quandary.web.html import EMPTY, Markup, attrs, join, markup
from quandary.web.phrases import ago, names_list
from quandary.web.saves import CAPACITY, DamagedSave, Entry


@dataclass
class SeatDraft:
    """A seat as the lobby form holds it before the game starts."""

    name: str
    kind: str = "bot"
    level: str = "heuristic"


def chosen(options: Mapping[str, object], key: str, default: object = None) -> list[str]:
    """The values a multiple-choice option holds: none when it holds anything but a list
    (a damaged save, a hostile host's setup), and only its texts."""
    value = options.get(key, default)
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


@dataclass
class LobbyForm:
    """Everything the setup form shows; survives re-renders."""

    game: str
    seats: list[SeatDraft]
    options: dict[str, object]
    error: str | None = None
    confirm_delete: str | None = None
    """The saved game whose Delete was pressed once: the next press must confirm."""
    notices: list[str] = field(default_factory=list)
    extra: Markup = EMPTY
    """A game's own part of its options (The Game of Dilemmas' own card packs)."""
    blocked: str | None = None
    """Why Start cannot start this game as it is set (shown by Start, which is off)."""


@dataclass
class TurnDraft:
    """The TURN server a room this device creates will name, as typed (kept on the device)."""

    urls: str = ""
    username: str = ""
    credential: str = ""


def render_lobby(
    specs: list[GameSpec],
    form: LobbyForm,
    saves: list[Entry],
    now: float,
    turn: TurnDraft | None = None,
    speed: str = "normal",
    record_error: str | None = None,
) -> Markup:
    """The whole lobby screen; ``now`` (seconds since the epoch) dates the saved games.

    ``record_error``: why the game record the player chose cannot be shown."""
    spec = next(s for s in specs if s.id == form.game)
    return (
        Markup(
            '<section class="lobby" aria-labelledby="lobby-title">'
            '<h1 id="lobby-title" tabindex="-1" data-autofocus>Pick a dilemma</h1>'
            '<p class="lede">Party games about impossible choices. Play alone against bots'
            " or pass one device around the table.</p>"
        )
        + join(markup('<p class="notice" role="alert">{}</p>', n) for n in form.notices)
        + (in_progress(saves, form.confirm_delete, now) if saves else "")
        + game_list(specs, form.game)
        + _friends(turn or TurnDraft())
        + open_record(record_error)
        + setup_form(spec, form, speed)
        + Markup("</section>")
    )


def _friends(turn: TurnDraft) -> Markup:
    return Markup(
        '<div class="friends" role="region" aria-label="Play with friends">'
        "<p><strong>Play with friends</strong>, each on their own device: open a room and"
        " share its link. No account, no server: the game runs on the host's device.</p>"
        '<button type="button" data-action="create-room" id="create-room">Create a room'
        "</button>"
    ) + markup(
        "<details{}><summary>Connection settings</summary>"
        '<p class="explain">Some networks (strict firewalls, some mobile carriers) keep'
        " devices from reaching each other directly. A TURN server relays their"
        " connection; the room's link carries it, with its username and password, so"
        " everyone who has the link can use it.</p>"
        '<label>TURN server <input type="text" id="turn-urls" data-field="turn-urls"'
        ' placeholder="turn:turn.example.org:3478" autocomplete="off"{}></label>'
        '<label>Username <input type="text" id="turn-user" data-field="turn-user"'
        ' autocomplete="off"{}></label>'
        '<label>Password <input type="text" id="turn-pass" data-field="turn-pass"'
        ' autocomplete="off"{}></label></details></div>',
        attrs(open=bool(turn.urls)),
        attrs(value=turn.urls),
        attrs(value=turn.username),
        attrs(value=turn.credential),
    )


RECORD_BYTES = 400_000
"""The most of a chosen file the page reads (``quandary.replay.MAX_CHARS``): a larger
one is refused as too large without being read whole."""


def open_record(error: str | None) -> Markup:
    """A file input that opens a downloaded game record as a replay, and why one did not."""
    return markup(
        '<div class="open-record" role="region" aria-label="Watch a game record">'
        '<label for="record-file"><strong>Watch a finished game</strong> from a record'
        " someone downloaded:</label> "
        '<input type="file" id="record-file" accept=".json,application/json"{}>{}</div>',
        attrs(data_file="record", data_limit=str(RECORD_BYTES)),
        markup('<p class="form-error" role="alert" id="record-error">{}</p>', error)
        if error
        else EMPTY,
    )


def in_progress(saves: list[Entry], confirm: str | None, now: float) -> Markup:
    """Every saved game with Continue and Delete; a damaged one with its reason."""
    full = (
        markup(
            '<p class="hint">This device keeps {} games in progress: delete one to start'
            " another.</p>",
            CAPACITY,
        )
        if len(saves) >= CAPACITY
        else ""
    )
    return markup(
        '<section class="saves" aria-labelledby="saves-title">'
        '<h2 id="saves-title">Games in progress</h2>{}<ul class="save-list">{}</ul></section>',
        full,
        join(_saved_item(e, e.id == confirm, now) for e in saves),
    )


def _round_word(title: str) -> str:
    """What the game of this title calls a round ("challenge 10" in Dilemma)."""
    return next((s.round_word for s in specs() if s.title == title), "round")


def _saved_item(entry: Entry, confirm: bool, now: float) -> Markup:
    about = "save-about-" + entry.id
    if isinstance(entry, DamagedSave):
        text = markup(
            '<p id="{}"><strong>A saved game that cannot be continued.</strong> {}</p>',
            about,
            entry.reason,
        )
        continue_button = EMPTY
    else:
        when = "a while ago" if entry.played is None else ago(now - entry.played)
        text = markup(
            '<p id="{}"><strong>{}</strong> · {} · {} · <span class="when">last played {}'
            "</span></p>",
            about,
            entry.title,
            round_words(entry.round, entry.round_limit, _round_word(entry.title)),
            names_list(list(entry.names)),
            when,
        )
        continue_button = markup(
            '<button type="button" class="primary" data-action="continue" data-save="{}"'
            ' id="continue-{}" aria-describedby="{}">Continue</button> ',
            entry.id,
            entry.id,
            about,
        )
    if confirm:
        # "Keep it" takes the Delete button's id, so the keyboard focus stays on the
        # safe choice: a second Enter keeps the game rather than deleting it.
        buttons = markup(
            '<p class="confirm">Delete this game for good?'
            ' <button type="button" class="danger" data-action="delete-confirm" data-save="{}"'
            ' id="delete-yes-{}" aria-describedby="{}">Yes, delete</button>'
            ' <button type="button" data-action="delete-cancel" id="delete-{}">Keep it</button>'
            "</p>",
            entry.id,
            entry.id,
            about,
            entry.id,
        )
    else:
        buttons = markup(
            '<p class="actions">{}<button type="button" data-action="delete-save" data-save="{}"'
            ' id="delete-{}" aria-describedby="{}">Delete</button></p>',
            continue_button,
            entry.id,
            entry.id,
            about,
        )
    return markup(
        "<li{}>{}{}</li>",
        attrs(class_="save damaged" if isinstance(entry, DamagedSave) else "save"),
        text,
        buttons,
    )


def game_list(specs: list[GameSpec], chosen: str) -> Markup:
    """Every game as a card to choose. The build paints the same list into the page,
    so it shows the same games in the same order from its first paint, and a card
    chosen before Python is ready is kept (static/js/boot.entry.js) and opened then."""
    items = [
        markup(
            '<li><button type="button" class="game-card"'
            "{}"
            ' data-action="choose-game" data-game="{}"><strong>{}</strong>'
            "{}<span>{}</span><small>{}-{} players</small>"
            "</button></li>",
            attrs(aria_pressed=str(s.id == chosen).lower()),
            s.id,
            s.title,
            _credit(s.id),
            s.tagline,
            s.min_players,
            s.max_players,
        )
        for s in specs
    ]
    return markup('<ul class="game-list" aria-label="Games">{}</ul>', join(items))


def _credit(game: str) -> Markup:
    """The game's makers, named on its card: the designers' game, not ours."""
    credit = entry(game).credit
    return markup('<em class="credit">{}</em>', credit) if credit else EMPTY


SPEED_CHOICES = (
    ("relaxed", "Relaxed: bots take their time"),
    ("normal", "Normal: bots take a moment"),
    ("instant", "Instant: bots answer at once"),
)


def speed_field(speed: str) -> Markup:
    """How long bots take over a move, kept on this device for every game."""
    choices = join(
        markup("<option{}>{}</option>", attrs(value=value, selected=value == speed), label)
        for value, label in SPEED_CHOICES
    )
    return markup(
        '<label class="choice"><strong>Bot speed</strong> '
        '<select data-field="bot-speed" id="bot-speed" aria-describedby="bot-speed-help">'
        '{}</select> <small id="bot-speed-help">A relaxed or normal bot thinks for a'
        " moment, so you can see who the table is waiting for.</small></label>",
        choices,
    )


def length_line(game: str, players: int) -> Markup:
    """How long a game of this size lasts and why, for a game whose length is worth a word.

    Said wherever a table is being set, the lobby's setup and a room's, so a room's
    guests read it too before the host starts.
    """
    note = entry(game).length_note
    return markup('<p class="explain game-length">{}</p>', note(players)) if note else EMPTY


def setup_form(spec: GameSpec, form: LobbyForm, speed: str = "normal") -> Markup:
    counts = join(
        markup("<option{}>{}</option>", attrs(value=n, selected=n == len(form.seats)), n)
        for n in range(spec.min_players, spec.max_players + 1)
    )
    seats = join(_seat_row(i, s, form.game) for i, s in enumerate(form.seats))
    flags = join(
        markup(
            '<label class="check"><input type="checkbox" data-field="option" '
            'data-key="{}"{}>'
            " <span><strong>{}</strong> <small>{}</small></span></label>",
            o.key,
            attrs(checked=bool(form.options.get(o.key))),
            o.label,
            o.help,
        )
        for o in spec.options
        if o.kind == "flag"
    )
    flags += join(choice_field(o, form.options[o.key], "choice") for o in spec.options)
    multis = join(
        markup("<fieldset><legend>{}</legend>", o.label)
        + join(
            markup(
                '<label class="check"><input type="checkbox" data-field="multi" '
                'data-key="{}" data-value="{}"'
                "{}> {}</label>",
                o.key,
                value,
                attrs(checked=value in chosen(form.options, o.key)),
                label,
            )
            for value, label in o.choices
        )
        + Markup("</fieldset>")
        for o in spec.options
        if o.kind == "multi"
    )
    error = markup('<p class="form-error" role="alert">{}</p>', form.error) if form.error else ""
    # A game without flags or choices gets no empty "Variants" box.
    variants = markup("<fieldset><legend>Variants</legend>{}</fieldset>", flags) if flags else EMPTY
    length = length_line(spec.id, len(form.seats))
    # Start stays on the first screen (a phone's too): what a newcomer can leave as it is
    # folds into one line that says what is chosen, opened by those who want to change it.
    more = markup(
        '<details class="more" id="setup-more"><summary>'
        '<span class="more-title">Options</span> <span class="more-chosen">{}</span>'
        "</summary>{}{}{}{}</details>",
        options_summary(spec, form.options, speed),
        speed_field(speed),
        variants,
        multis,
        form.extra,
    )
    blocked = (
        markup('<p class="form-error" id="start-blocked">{}</p>', form.blocked)
        if form.blocked
        else EMPTY
    )
    return markup(
        '<div class="setup" role="group" aria-labelledby="setup-title">'
        '<div class="setup-head"><h2 id="setup-title">Set up {}</h2>'
        '<p class="rules-link"><a href="./static/rules/{}"'
        ' target="_blank" rel="noopener">How to play {}</a></p></div>'
        "<fieldset><legend>Players</legend>"
        '<label>Seats <select id="seat-count" data-field="seat-count">{}</select></label>'
        '<ol class="seats">{}</ol>{}</fieldset>'
        "{}{}{}"
        '<button type="button" class="primary big" data-action="start" id="start"{}>'
        "Start game</button>{}</div>",
        spec.title,
        entry(spec.id).rules_page,
        spec.title,
        counts,
        seats,
        length,
        more,
        blocked,
        error,
        attrs(disabled=True, aria_describedby="start-blocked") if form.blocked else EMPTY,
        _practice(spec),
    )


def _practice(spec: GameSpec) -> Markup:
    """A game played by gesture (Dilemma's throw) has a practice arena, open any time."""
    if not spec.timed_moves:
        return EMPTY
    return Markup(
        ' <button type="button" class="quiet" data-action="practice" id="practice">'
        "Practise throwing</button>"
    )


def options_summary(spec: GameSpec, options: Mapping[str, object], speed: str | None = None) -> str:
    """The folded options in one line ("Bots: normal · no variants · Card packs: Base"),
    so a player sees what the game will be without opening them.

    >>> from quandary.games.minister.spec import SPEC
    >>> options_summary(SPEC, {"wildcard": True}, "relaxed")
    'Bots: relaxed · Wildcard'
    """
    parts = [f"Bots: {speed}"] if speed in dict(SPEED_CHOICES) else []
    flags = [o.label for o in spec.options if o.kind == "flag" and options.get(o.key)]
    if any(o.kind == "flag" for o in spec.options):
        parts.append(", ".join(flags) or "no variants")
    for o in spec.options:
        if o.kind == "choice":
            label = dict(o.choices).get(str(options.get(o.key, o.default)), "")
            parts.append(f"{o.label}: {_short(label)}")
        elif o.kind == "multi":
            picked = chosen(options, o.key, o.default)
            names = [label for value, label in o.choices if value in picked]
            parts.append(f"{o.label}: {', '.join(names) or 'none'}")
        elif o.kind == "data" and o.summary is not None:
            parts.append(o.summary(options.get(o.key, o.default)))
    parts = [p for p in parts if p]
    return " · ".join(parts)


def _short(label: str) -> str:
    """A choice's name without its explanation ("Relaxed, for newcomers: 4 s..." → "relaxed")."""
    return label.split(":")[0].split(",")[0].strip().lower()


def _seat_row(index: int, seat: SeatDraft, game: str) -> Markup:
    current = "human" if seat.kind == "human" else f"bot:{seat.level}"
    options = seat_menu(levels(game), current)
    return markup(
        '<li class="seat"><input type="text" maxlength="20" id="seat-name-{}" '
        'data-field="seat-name" data-seat="{}" value="{}" '
        'aria-label="Name of seat {}" autocomplete="off">'
        '<select id="seat-kind-{}" data-field="seat-kind" data-seat="{}" '
        'aria-label="Who plays seat {}">{}</select></li>',
        index,
        index,
        seat.name,
        index + 1,
        index,
        index,
        index + 1,
        options,
    )


def seat_menu(labels: dict[str, str], current: str) -> Markup:
    """The options of a seat's menu: a human, or a bot of each level under one "Bots" heading.

    The heading says "bot" once, so each level reads as its own label
    ("Builder: always builds") rather than "Bot (builder (always builds))".
    """
    human = markup(
        "<option{}>Human player</option>", attrs(value="human", selected=current == "human")
    )
    bots = join(
        markup("<option{}>{}</option>", attrs(value=f"bot:{k}", selected=current == f"bot:{k}"), v)
        for k, v in labels.items()
    )
    return human + markup('<optgroup label="Bots">{}</optgroup>', bots)


def choice_field(option: Option, current: object, field: str) -> Markup:
    """A single-choice option as a labelled select (empty for other kinds of option)."""
    if option.kind != "choice":
        return EMPTY
    choices = join(
        markup("<option{}>{}</option>", attrs(value=value, selected=value == current), label)
        for value, label in option.choices
    )
    return markup(
        '<label class="choice"><strong>{}</strong> '
        '<select data-field="{}" data-key="{}" id="{}-{}"'
        ' aria-describedby="{}-{}-help">{}</select>'
        ' <small id="{}-{}-help">{}</small></label>',
        option.label,
        field,
        option.key,
        field,
        option.key,
        field,
        option.key,
        choices,
        field,
        option.key,
        option.help,
    )
