"""One suite for every game in the registry: the engine contract, checked by playouts.

For each game: 200 random playouts (each (players x options) cell once in ``make
test``, 500 in ``make monkey``: ``conftest.py``) over every player count and
option combination. At every step twins stay identical, cards are conserved and
no view leaks a secret; the state's trip through JSON and each view's declared
type are checked at every step of the first playout of each chunk (25 a game)
and, in the rest, at step 0, the powers of
two, every 16th step and the end; at sampled steps every kind of bad move is tried
and must raise a typed error and change nothing, and every view (each seat's
and the spectator's) must stay the same when what that viewer cannot know is
resampled by the tests' own reading of the rules (``resample``), so a leak is
found even when a game's ``secrets`` list forgets it.
"""

from __future__ import annotations

import copy
import math
import pickle
import random
from collections import Counter
from typing import Any

import pytest

from quandary import catalog, engine
from quandary.engine import GameError, IllegalMove, MalformedMove, OutOfTurn

from .playout import covering, pick_move, play, roundtrip, tables
from .resample import check_resampled_views

GAMES = engine.all_games()
PLAYOUTS: int | None = 200
"""Playouts per game; None: each game's cells once, in whole chunks (``conftest.py``)."""
CHUNKS = 25
"""Small enough chunks that two workers finish together (Maybe Minister's are longest).
Playout ``i`` goes to chunk ``i % CHUNKS``: consecutive playouts are one option
combination at each player count, and some combinations play far longer than
others, so dealing them round the chunks keeps each chunk's length near the mean."""
RESAMPLE_RATE = 1 / 10
"""The share of steps whose views are resample-checked: each check costs a few views
per viewer, so only a sample, drawn at random so that short playouts (Royal Dilemma
ends within a dozen steps) are checked at every stage across the suite."""
# Keys of a view that may change when another seat submits a secret choice.
PROGRESS_KEYS = {"version", "waiting_for", "log", "submitted"}


def _ids(game: engine.Game) -> str:
    return game.spec.id


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("game", GAMES, ids=_ids)
def test_random_playouts_keep_the_contract(game: engine.Game, chunk: int) -> None:
    count = covering(game, CHUNKS) if PLAYOUTS is None else PLAYOUTS // CHUNKS * CHUNKS
    mine = list(tables(game, count))[chunk::CHUNKS]
    for i, (seed, players, options) in enumerate(mine):
        _playout(game, seed, players, options, every_step=i == 0)


SAMPLE_EVERY = 16
"""Besides step 0 and the powers of two (every stage of the opening), a sampled
playout checks every 16th step from an offset of its own, so the late rounds of
long games are checked too, each phase at some step across the suite."""


def _sampled(step: int, offset: int) -> bool:
    """Step 0, the powers of two and every ``SAMPLE_EVERY``th step from ``offset``."""
    return step & (step - 1) == 0 or step % SAMPLE_EVERY == offset


def _playout(
    game: engine.Game, seed: int, players: int, options: dict[str, Any], every_step: bool = True
) -> None:
    """One random playout, checking the contract as it goes.

    With ``every_step`` false, the two costliest checks (the state's trip through
    JSON and each view's declared type: nearly half the time of a step) are made
    at step 0, the powers of two, every ``SAMPLE_EVERY``th step and the end only.
    Both check the shape of what a step produces, which the full playouts (the
    first of every chunk, on every player count and phase) check at every step;
    every other check, the leaks first, stays at every step of every playout.
    """
    state = engine.setup(game.spec.id, players, options, seed)
    twin = engine.setup(game.spec.id, players, options, seed)
    assert state == twin
    cards = Counter(game.cards(state))
    assert max(cards.values(), default=1) == 1, "a card is duplicated at setup"
    chooser = random.Random(seed)
    # Its own generator: resampling must not change which moves the playout makes.
    resampler = random.Random(-seed)
    record = engine.Record(game.spec.id, players, game.spec.normalise_options(options), seed)
    bound = game.spec.max_moves_per_seat * players
    view = _ViewsOfOneState()
    for step in range(bound + 1):
        full = every_step or _sampled(step, seed % SAMPLE_EVERY)
        _check_views(game, state, view, typed=full)
        if full:
            assert roundtrip(state) == state
        if step % 7 == 3:
            _try_bad_moves(game, state, chooser)
        if resampler.random() < RESAMPLE_RATE:
            check_resampled_views(state, resampler)
        picked = pick_move(state, chooser)
        if picked is None:
            break
        seat, move = picked
        before = {s: view(state, s) for s in [*range(players), None] if s != seat}
        state = play(state, seat, move)
        twin = play(twin, seat, copy.deepcopy(move))
        record = record.with_move(seat, move)
        assert state == twin
        # dict's comparison, in C: Counter's runs in Python, at every step of every
        # playout. The same here, as a Counter built from cards holds no zero counts.
        assert dict.__eq__(Counter(game.cards(state)), cards), "a card was lost or duplicated"
        if game.spec.is_secret(move["type"]) and phase_of(view(state, None)) == before_phase(
            before
        ):
            _check_secret_submission(state, before, view)
    else:
        pytest.fail(f"{game.spec.id} did not end within {bound} moves")
    if not full:  # the end, with its scores, is checked in every playout
        _check_views(game, state, view, typed=True)
        assert roundtrip(state) == state
    assert engine.result(state) is not None, "no seat can act but the game is not over"
    assert record.replay() == state


def phase_of(view: dict[str, Any]) -> tuple[Any, Any]:
    """A phase is one stage of one round: the next round's choosing is a new phase."""
    return view.get("phase"), view.get("round")


def before_phase(views: dict[int | None, dict[str, Any]]) -> Any:
    """The phase the other seats saw before the move (None if nobody else)."""
    return phase_of(next(iter(views.values()), {}))


class _ViewsOfOneState:
    """``engine.view``, each seat's computed once per state: a step's checks ask for the
    same views several times, and views are the suite's largest cost.

    It also remembers what ``plain_contents`` found in each top-level value of
    this state's views: the seats' views share most values with the spectator's
    (the same objects), so each is walked once per state. The remembered values
    are kept alive with their contents, so an ``id`` is never reused meanwhile.
    """

    def __init__(self) -> None:
        self.state: Any = None
        self.views: dict[int | None, dict[str, Any]] = {}
        self.walked: dict[int, tuple[Any, set[Any]]] = {}

    def __call__(self, state: Any, seat: int | None) -> dict[str, Any]:
        self._at(state)
        if seat not in self.views:
            self.views[seat] = engine.view(state, seat)
        return self.views[seat]

    def contents(self, state: Any, view: dict[str, Any]) -> set[Any]:
        """Every key and scalar in ``view`` (see ``plain_contents``), checked for the RNG.

        The random generator's state must not show, as a number or spelt out in a
        text: each value is checked once, when it is first walked.
        """
        self._at(state)
        found: set[Any] = set()
        scalars: set[Any] = set()
        for key, value in view.items():
            if type(key) is not str:
                raise AssertionError(f"a view's key must be a string, not {key!r}")
            kind = type(value)
            if kind is str or kind is int or kind is bool or value is None:
                scalars.add(value)
                continue
            known = self.walked.get(id(value))
            if known is None:
                inside = plain_contents(value)
                _no_rng(state.rng, inside)
                known = self.walked[id(value)] = (value, inside)
            found |= known[1]
        _no_rng(state.rng, scalars)
        found |= scalars
        found.update(view)
        return found

    def _at(self, state: Any) -> None:
        if state is not self.state:
            self.state, self.views, self.walked = state, {}, {}


def _no_rng(rng: int, shown: set[Any]) -> None:
    assert rng not in shown, "a view shows the random generator's state"
    spelt = str(rng)
    assert not any(spelt in s for s in shown if type(s) is str), "a view spells out the RNG"


def _finite(value: float) -> float:
    assert math.isfinite(value), f"a view holds {value}, which is not JSON"
    return value


def plain_contents(value: Any, found: set[Any] | None = None) -> set[Any]:
    """Every object key and scalar within ``value``, which must be plain JSON.

    Plain JSON means exactly what survives a trip through JSON text unchanged:
    dicts with string keys, lists, strings, whole numbers, finite floats, booleans
    and None (not tuples, not subclasses, nothing else). Strings come back whole,
    as the values they are, so a secret like "a-1" never matches inside "a-12";
    numbers come back too, so a secret number (the RNG) is found however it is
    shown. One walk replaces dumping, parsing back and scanning the text.
    """
    found = set() if found is None else found
    kind = type(value)
    if kind is dict:
        for key in value:
            if type(key) is not str:
                raise AssertionError(f"a view's key must be a string, not {key!r}")
        found.update(value)
        items: Any = value.values()
    elif kind is list:
        items = value
    elif kind is str or kind is int or kind is bool or value is None:
        found.add(value)
        return found
    elif kind is float:
        found.add(_finite(value))
        return found
    else:
        raise AssertionError(f"a view must be plain JSON, not hold a {kind.__name__}")
    for item in items:
        kind = type(item)
        if kind is str or kind is int or kind is bool or item is None:
            found.add(item)
        elif kind is float:
            found.add(_finite(item))
        else:
            plain_contents(item, found)
    return found


def _check_secret_submission(
    state: Any, before: dict[int | None, dict[str, Any]], view: Any = engine.view
) -> None:
    """While a simultaneous phase is open, another seat's submission shows only as progress.

    The spectator (``None``) is compared too: it must learn no more than a seat.
    """
    for seat, old in before.items():
        new = view(state, seat)
        for key in set(old) | set(new):
            if key not in PROGRESS_KEYS:
                assert old.get(key) == new.get(key), f"seat {seat} learnt something via {key}"


def _check_views(
    game: engine.Game, state: Any, views: _ViewsOfOneState | None = None, typed: bool = True
) -> None:
    """No view leaks a secret or the RNG, each is plain JSON with the state's legal
    moves and, if ``typed``, is what its game declares it to be."""
    views = _ViewsOfOneState() if views is None else views
    for seat in [None, *range(state.players)]:
        view = views(state, seat)
        # Every string and number in the view (keys too), matched whole, never as a part.
        shown = views.contents(state, view)
        leaked = set(game.secrets(state, seat)) & shown
        assert not leaked, f"seat {seat} can see the secrets {sorted(leaked)[:3]}"
        if typed:
            catalog.read_view(view)  # the view is what its game declares it to be (typed views)
        if seat is not None:
            assert view["legal_moves"] == engine.legal_moves(state, seat)
        else:
            assert view["legal_moves"] == []


def _try_bad_moves(game: engine.Game, state: Any, chooser: random.Random) -> None:
    frozen = pickle.loads(pickle.dumps(state))  # a deep copy, made in C
    templates = {s: engine.legal_moves(state, s) for s in range(state.players)}
    legal = {
        s: [engine.moves.concrete(m, chooser.randint) for m in ms] for s, ms in templates.items()
    }
    all_ids = sorted(set(game.cards(state)))
    for seat in range(state.players):
        attempts: list[tuple[Any, Any, type[GameError]]] = [
            (seat, "build", MalformedMove),
            (seat, {"no": "type"}, MalformedMove),
            (seat, {"type": "no-such-move"}, MalformedMove),
            (state.players, {"type": "x"}, MalformedMove),
            (-1, {"type": "x"}, MalformedMove),
            (True, {"type": "x"}, MalformedMove),
        ]
        for move in legal[seat][:3]:
            for key in [k for k in move if k != "type"]:
                attempts.append((seat, move | {key: 3.5}, MalformedMove))
                attempts.append((seat, move | {key: chooser.choice(all_ids or ["x"])}, GameError))
            attempts.append((seat, move | {"extra": 1}, MalformedMove))
        for template in templates[seat][:3]:
            for key, value in template.items():
                if engine.moves.is_range(value):
                    base = engine.moves.concrete(template, chooser.randint)
                    attempts.append((seat, base | {key: value["max"] + 1}, GameError))
                    attempts.append((seat, base | {key: value["min"] - 1}, GameError))
        for other in range(state.players):
            for move in legal[other][:2]:
                if not engine.moves.allowed(templates[seat], move):
                    attempts.append((seat, move, GameError))
        for who, move, expected in attempts:
            if isinstance(move, dict) and engine.moves.allowed(templates.get(who, []), move):
                continue
            kept = copy.deepcopy(move)
            with pytest.raises(expected) as info:
                engine.apply(state, who, move)
            assert isinstance(info.value, IllegalMove | MalformedMove | OutOfTurn)
            assert info.value.message.endswith((".", "!")) and len(info.value.message) > 10
            assert move == kept, "apply must not change the move it was given"
            assert state == frozen, "a refused move changed the state"


def _own_pack(number: int, size: int) -> dict[str, Any]:
    """A pack of ``size`` good and "but" cards whose texts appear nowhere else."""
    return {
        "name": f"Own pack {number}",
        "positive": [f"Own good card {number} qz {i} xv" for i in range(size)],
        "negative": [f"own but card {number} jk {i} wy" for i in range(size)],
    }


OWN_TABLES = [
    (players, use, flags)
    for players in range(3, 7)
    for use in ("mix", "instead")
    for flags in ({}, {"coop": True, "supervotes": True}, {"neutral": True})
    if not (use == "instead" and flags.get("neutral"))
]


@pytest.mark.parametrize(("players", "use", "flags"), OWN_TABLES)
def test_dilemmas_with_own_packs_keeps_the_contract(
    players: int, use: str, flags: dict[str, bool]
) -> None:
    """The Game of Dilemmas with players' own packs, mixed in and alone: the same
    contract (no own card lost, duplicated or leaked), exactly enough cards alone.
    The first seed's playout checks the JSON trip and the view types at every step,
    the second at sampled steps (as in the suite above)."""
    game = next(g for g in GAMES if g.spec.id == "dilemmas")
    size = 8 * players
    packs = [_own_pack(1, size - 5), _own_pack(2, 5)] if use == "instead" else [_own_pack(1, 7)]
    options = {**flags, "own": {"use": use, "packs": packs}}
    for seed in (7, 8):
        _playout(game, seed + players, players, options, every_step=seed == 7)
