"""What a game is, as data: its spec, its options, and the functions it provides.

A game declares its nature (player range, variants, whether moves are
simultaneous, whether information is hidden) as a ``GameSpec`` and implements
the ``Game`` protocol. The generic engine (``engine.core``) wraps the protocol
with the checks every game shares, so each game only states its own rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from .errors import BadSetup
from .rng import Rng
from .view import Progress, Result, Story

Move = dict[str, Any]
"""A move is a JSON object with a ``type``; moves compare by value."""

Json = Any

Chooser = Callable[[Any, int], Move]
"""Who makes a secret choice again when it is dealt anew (``Game.redeal``): given a
state in which ``seat``'s earlier choice was taken back, the move it now makes."""


@dataclass(frozen=True)
class Event:
    """Something public that happened, for the log and for animations."""

    kind: str
    data: Json


@dataclass(frozen=True)
class Option:
    """One setup choice: a variant flag, a single choice, a multiple choice, or data.

    A ``data`` option (The Game of Dilemmas' own card packs) is JSON the game
    itself checks: ``parse`` returns the value as the game keeps it or raises
    ``BadSetup``, so a room's host cannot hand its guests anything unchecked."""

    key: str
    label: str
    help: str
    kind: Literal["flag", "choice", "multi", "data"]
    default: Json
    choices: tuple[tuple[str, str], ...] = ()
    newcomer: Json = None
    """The value a device's first game of this kind starts with in the setup (None:
    the default's), until a game of it was finished there: a first game's pace is
    not a practised player's."""
    parse: Callable[[Json], Json] | None = None
    """How a ``data`` option's value is checked and normalised (``BadSetup`` if not)."""
    summary: Callable[[Json], str] | None = None
    """A ``data`` option's value in a few words for the setup's folded line ("": none)."""

    def check(self, value: Json) -> Json:
        """The value if it is allowed for this option, else ``BadSetup``."""
        allowed = [c for c, _ in self.choices]
        if self.kind == "data":
            assert self.parse is not None, "a data option needs its parse"
            return self.parse(value)
        if self.kind == "flag":
            if not isinstance(value, bool):
                raise BadSetup(f"{self.label} must be on or off.")
            return value
        if self.kind == "choice":
            if value not in allowed:
                raise BadSetup(f"{self.label} must be one of {', '.join(allowed)}.")
            return value
        if (
            not isinstance(value, list)
            or not value
            or any(v not in allowed for v in value)
            or len(set(value)) != len(value)
        ):
            raise BadSetup(f"Choose at least one of {', '.join(allowed)} for {self.label}.")
        return [c for c in allowed if c in value]


@dataclass(frozen=True)
class GameSpec:
    """A game's nature as data."""

    id: str
    title: str
    tagline: str
    min_players: int
    max_players: int
    options: tuple[Option, ...]
    simultaneous: bool
    hidden_information: bool
    max_moves_per_seat: int
    """An upper bound on moves per seat in a whole game; the conformance suite
    checks that every game ends within ``max_moves_per_seat * players``."""
    secret_moves: frozenset[str] | None = None
    """Move types that stay secret until their phase resolves; None means every
    move of a simultaneous game (a thrown card, by contrast, is seen at once)."""
    authority_moves: frozenset[str] = frozenset()
    """Move types only the authority makes, when its clock says so (closing a
    timed window): never offered to a player or a bot, refused from a peer."""
    timed_moves: frozenset[str] = frozenset()
    """Move types with an ``at`` field (milliseconds since the window opened) that
    the authority stamps from its own clock; a peer cannot claim a time."""
    round_word: str = "round"
    """What players call a round of this game ("challenge" in Dilemma), for the
    lobby's games in progress and the screen reader's announcements."""
    retired_fields: frozenset[str] = frozenset()
    """State fields an earlier Quandary saved and this one no longer keeps: a save
    holding them still loads (they are dropped before the state is checked)."""
    added_fields: frozenset[str] = frozenset()
    """State fields this Quandary keeps and an earlier one did not save: a save
    without them still loads (the replayed moves fill them in before the check)."""

    def is_secret(self, move_type: str) -> bool:
        """Whether a move of this type must stay hidden until its phase resolves."""
        if self.secret_moves is None:
            return self.simultaneous
        return move_type in self.secret_moves

    def normalise_options(self, options: Mapping[str, Json] | None) -> dict[str, Json]:
        """Every option filled in: defaults where missing, checked where given."""
        given = dict(options or {})
        known = {o.key for o in self.options}
        unknown = sorted(set(given) - known)
        if unknown:
            raise BadSetup(f"{self.title} has no option called {unknown[0]!r}.")
        return {o.key: o.check(given.get(o.key, o.default)) for o in self.options}

    def check_players(self, players: int) -> None:
        """Refuse a table size the game does not support."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise BadSetup("The number of players must be a whole number.")
        if not self.min_players <= players <= self.max_players:
            raise BadSetup(
                f"{self.title} is for {self.min_players} to {self.max_players} players,"
                f" not {players}."
            )


@dataclass(frozen=True)
class Clock:
    """A real-time window that the authority times, as a game declares it.

    The rules have no clock: they say when the window ends (``deadline``, in
    milliseconds after it opened) and which move ends it. The authority counts
    time from the moment it first saw ``window`` open, and when ``deadline`` has
    passed it submits ``due`` for ``seat`` with ``at`` set to the time elapsed.
    ``floor`` is the latest time already recorded in the state, so an authority
    that reloads mid-window goes on counting from there instead of from zero.
    """

    window: int
    deadline: int
    floor: int
    seat: int
    due: Move
    lead: int = 0
    """A countdown, in ms, before the window opens: the authority starts counting
    ``lead`` ms after it first saw the window, and refuses timed moves until then,
    so every device can show "3, 2, 1, go" before the race starts. Not part of
    the rules' time (``at`` still counts from the end of the countdown), so
    records made before there was a countdown replay unchanged."""


@dataclass(frozen=True)
class GameState:
    """The bookkeeping every game's state begins with: each game's state dataclass
    extends this one, so the engine's words are declared once and every game keeps
    them alike. A saved game stores them first, in this order, as it always has.

    Each state also keeps its own public ``log`` of events (``Event``), declared
    where its game wants it among its own fields.
    """

    game: str
    """The game's id (``GameSpec.id``): which rules the state belongs to."""
    version: int
    """How many moves the state has taken: views, records and rooms name a moment by it."""
    rng: int
    """The seeded random generator's state (``Rng``), so a replay draws the same cards."""
    players: int
    """How many seats the table has."""
    options: dict[str, Any]
    """The table's options, normalised (``GameSpec.normalise_options``)."""


class Game(Protocol):
    """The rules of one game. Every function is pure: no DOM, no clock, no globals.

    Two more functions are optional, and the engine adds what they give to a
    finished game's result (``view.Result``) for every viewer alike:
    ``score_history(state)``, every seat's public score after each round (or
    turn, or challenge), oldest first; and ``story(state)``, the public facts
    of the deciding moment as JSON, with a ``kind`` that says which facts they
    are (the game's renderer tells them in a sentence).
    """

    spec: GameSpec
    state_type: type[Any]

    def setup(self, players: int, options: dict[str, Json], rng: Rng) -> Any:
        """A fresh state at version 0 (``rng`` already seeded; store ``rng.state``)."""
        ...

    def legal_moves(self, state: Any, seat: int) -> list[Move]:
        """Every move ``seat`` may make now; empty when it has nothing to do.

        The clock's own move (one of ``spec.authority_moves``) may be listed for
        the clock's seat, since the game alone knows when it is legal; the engine
        never shows it to a seat and accepts it only through ``apply_authority``.
        """
        ...

    def check_shape(self, move: Move) -> None:
        """Raise ``MalformedMove`` if ``move`` is not shaped like a move of this game."""
        ...

    def explain_illegal(self, state: Any, seat: int, move: Move) -> str:
        """A sentence saying why a well-formed ``move`` is not allowed now."""
        ...

    def transition(self, state: Any, seat: int, move: Move) -> Any:
        """The state after a legal move (the engine bumps the version)."""
        ...

    def progress(self, state: Any) -> Progress:
        """Phase, round, the bound on rounds and the scores: the header every view shares."""
        ...

    def view(self, state: Any, seat: int | None) -> dict[str, Json]:
        """What ``seat`` may know (``None``: a spectator), as JSON.

        Only the game's own keys: the engine adds the header (``engine.view``),
        and a game view that sets a header key is refused as a programming error.
        """
        ...

    def waiting_for(self, state: Any) -> list[int]:
        """The seats that still have to act."""
        ...

    def result(self, state: Any) -> Result[Story] | None:
        """``{"scores": [...], "winners": [...]}`` once the game is over, else None."""
        ...

    def cards(self, state: Any) -> list[str]:
        """Every card id in every zone, for the conservation check."""
        ...

    def secrets(self, state: Any, seat: int | None) -> set[str]:
        """Strings that must never appear in ``view(state, seat)``."""
        ...

    def redeal(self, state: Any, keep: frozenset[int], rng: Rng, choose: Chooser) -> Any:
        """The table as a dealer would set it again for the seats in ``keep``.

        Every card no seat in ``keep`` has seen (the draw piles, the hidden cards
        of every other seat) is pooled by kind, put in a fixed order, shuffled
        with ``rng`` and dealt back in the same numbers to the same places;
        cards a seat in ``keep`` has seen stay where they are. Each other seat's
        secret choice not yet revealed is taken back and made again by
        ``choose``; the generator of future draws comes from ``rng``. Version
        and log stay: for every seat in ``keep`` the result cannot be told from
        ``state``, and it depends on nothing that ``keep`` could not know, so it
        may be handed to one of them (a room's heir) or be how a successor deals.
        """
        ...

    def hidden(self, state: Any, seat: int) -> Json:
        """``seat``'s own hidden part as JSON: what its owner tells a new dealer.

        Its hidden cards and its secret choices not yet revealed: exactly what
        ``reinstate`` puts back, and what a room commits to in public.
        """
        ...

    def reinstate(self, state: Any, parts: Mapping[int, Json]) -> Any:
        """``state`` with each seat's hidden part as its owner says (``parts``).

        The cards a part names are taken from the zones of the seats not in
        ``parts`` and from the draw piles, and what they displace goes where they
        were, so every zone keeps its size. ``CorruptState`` if a part is not
        one the seat could hold (a card none of those zones holds, a wrong count,
        a choice the seat cannot make).
        """
        ...
