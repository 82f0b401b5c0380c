"""Taking back a move against bots on this device, never past a moment something hidden showed.

Undo is for one person playing against bots on this device: it takes back that
person's last move and every bot move after it, back to the moment they were
to act. In a room every move stands (other people saw it), and with several
people on one device a move taken back may already have been seen behind
another's privacy screen, so there it is not offered at all.

The one question that matters is whether the person learnt anything hidden
between that moment (the *checkpoint*) and now: a card drawn, a hand or a
secret vote shown, a bot's choice that came from its cards or its dice. If
they did, taking the move back would let them play it again knowing it. This
module answers it without any game's list of its secrets: from the checkpoint
it deals again everything the person has not seen (``engine.dealing.redeal``,
the deal a room's heir gets), in several worlds, and plays the same span in
each. The person's own moves are the same; each bot move is either a secret
choice made again at random (when a random alternative leaves the person's view
as it was) or the bot deciding again from its seat's view in that world, with
dice of that world. If the person's view differs at any step in any world,
something hidden reached them: undo stops there. Timed play (Dilemma's throws)
is never taken back: its moves depend on a real clock.

The verdict depends only on the table's record, so a reloaded save gets the same
verdict as the page had: nothing is kept beside the save to get around. It tells
the person nothing hidden either: it reads only their own views, and worlds that
``redeal`` makes from what they may know (never from the real hidden cards).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from quandary import engine
from quandary.bots import make_bot
from quandary.engine import Chooser, GameError, Move, OutOfTurn, Record, Rng, dealing, moves

WORLDS = 8
"""Worlds dealt again per verdict. Secret choices are made again in turn, not at
random (world ``n`` takes a seat's ``n``-th option), so a choice of two or more
options that shows differs in some world for certain; a card that shows from a
shuffled pool of ``p`` unseen cards is the same in every world with chance
``p ** -WORLDS`` (1 in 256 for the smallest pool that hides anything, two cards).
Few enough that a verdict stays quick in the browser (one per move)."""
LONGEST = 40
"""The most moves a span may hold to be checked; a longer one is not offered."""

ROOM = "Undo is only for games on this device: in a room every move stands."
NOT_ALONE = "Undo is only for one person playing against bots on this device."
NOTHING = "You have no move to take back yet."
OVER = "The game is over."
REAL_TIME = "Throws happen in real time: they cannot be taken back."
REVEALED = "Cards or choices were revealed since your move."
TOO_LONG = "Too much has happened since your move."


@dataclass(frozen=True)
class Worlds:
    """The worlds an offered verdict dealt and played, as they stood after the record's
    last move, with the real state then: when bots add moves, the next verdict plays
    on from here (``verdict``'s ``kept``) instead of dealing and replaying the whole
    span again at every bot move. Each world is its state and its dice's state.
    """

    played: int
    """How many moves of the span (from the checkpoint) the worlds have played."""
    real: Any
    worlds: tuple[tuple[Any, int], ...]
    levels: tuple[str, ...]
    """The bot levels the worlds' bots decided at: another level deals again."""


@dataclass(frozen=True)
class Verdict:
    """Whether ``seat``'s last move can be taken back now, and if not, why.

    ``to`` is how many of the record's moves stay (the checkpoint), set when offered.
    ``worlds`` are the worlds that found nothing shown, kept for the next verdict (not
    part of the verdict's value).
    """

    seat: int
    reason: str = ""
    to: int | None = None
    worlds: Worlds | None = field(default=None, compare=False, repr=False)

    @property
    def offered(self) -> bool:
        """Whether the Undo control is live."""
        return self.to is not None


StateAt = Callable[[int], Any]
"""The state after the record's first ``n`` moves (replayed, or kept by the table)."""


def person(kinds: Sequence[str]) -> int | None:
    """The one person at a table of one person and bots (``kinds``: each seat's kind
    as views tell it), else None: nobody to offer undo to."""
    humans = [seat for seat, kind in enumerate(kinds) if kind == "human"]
    if len(humans) != 1 or "bot" not in kinds:
        return None
    return humans[0]


def last_own_move(record: Record, seat: int) -> int | None:
    """The index in ``record.moves`` of ``seat``'s last move (never the clock's, which
    the record keeps under some seat too), or None if it has made none."""
    clock_only = engine.spec_of(record.game).authority_moves
    for index in range(len(record.moves) - 1, -1, -1):
        who, move = record.moves[index]
        if who == seat and move.get("type") not in clock_only:
            return index
    return None


def verdict(
    record: Record,
    state: Any,
    seat: int,
    levels: Sequence[str],
    state_at: StateAt,
    kept: tuple[Record, Verdict] | None = None,
) -> Verdict:
    """Whether ``seat`` (the one person) may take back its last move in ``state``.

    ``levels`` are the seats' bot levels (a person's is not read). The verdict is
    a function of the record alone: the worlds' seeds come from it too. ``kept``
    is the last verdict made at this table, with its record: a reveal it found is
    not looked for again (``stands``), and when it offered undo from the same
    checkpoint, its worlds only play the moves added since (``Worlds``): each
    world's dice run on as they would have, so the verdict is the same.
    """
    if engine.result(state) is not None:
        return Verdict(seat, OVER)
    if engine.clock(state) is not None:
        return Verdict(seat, REAL_TIME)
    start = last_own_move(record, seat)
    if start is None:
        return Verdict(seat, NOTHING)
    span = record.moves[start:]
    spec = engine.spec_of(record.game)
    if any(m.get("type") in spec.timed_moves | spec.authority_moves for _, m in span):
        return Verdict(seat, REAL_TIME)
    if len(span) > LONGEST:
        return Verdict(seat, TOO_LONG)
    if kept is not None and stands(kept[1], kept[0], record):
        return kept[1]
    worlds = _kept_worlds(kept, record, seat, start, levels)
    if worlds is not None:
        worlds = _play_on(worlds, record.moves[start + worlds.played :], seat)
    else:
        seed = Rng.from_seed(record.seed).fork(start).next64()
        worlds = _dealt(state_at(start), span, seat, tuple(levels), seed)
    if worlds is None:
        return Verdict(seat, REVEALED)
    return Verdict(seat, to=start, worlds=worlds)


def _extends(then: Record, now: Record) -> bool:
    """Whether record ``now`` is record ``then`` with moves added (or the same)."""
    if len(now.moves) < len(then.moves) or (now.seed, now.start) != (then.seed, then.start):
        return False
    return now.moves[: len(then.moves)] == then.moves


def _kept_worlds(
    kept: tuple[Record, Verdict] | None,
    record: Record,
    seat: int,
    start: int,
    levels: Sequence[str],
) -> Worlds | None:
    """The worlds of a kept verdict that ``record`` only extends: the same seat and
    checkpoint, the same bot levels, every move the worlds played still there."""
    if kept is None:
        return None
    then, known = kept
    worlds = known.worlds
    if worlds is None or known.seat != seat or known.to != start:
        return None
    if worlds.levels != tuple(levels):
        return None
    return worlds if _extends(then, record) else None


def stands(known: Verdict, then: Record, now: Record) -> bool:
    """Whether ``known``, the verdict on record ``then``, holds for ``now`` unchanged.

    A reveal since the person's move stays a reveal while only later moves are
    added (the worlds replay the same steps the same way, so they part at the same
    step). A table asks after every bot move: a reveal is not looked for again.
    """
    if known.reason != REVEALED or not _extends(then, now):
        return False
    return last_own_move(now, known.seat) == last_own_move(then, known.seat)


def _dealt(
    before: Any,
    span: Sequence[tuple[int, Move]],
    seat: int,
    levels: tuple[str, ...],
    seed: int,
) -> Worlds | None:
    """The ``WORLDS`` worlds dealt again for ``seat`` from ``before``, each having
    played ``span``: None as soon as ``seat``'s view in one, at some step, is not
    what it really saw (something hidden showed). A world in which the span cannot
    be played counts as such a difference (a bot played a card its hand there does
    not hold: the move showed that card). World by world, so a reveal is found by
    the first world it shows in."""
    real, seen = _seen(before, span, seat)
    shown = engine.view(before, seat)
    dealt: list[tuple[Any, int]] = []
    for number in range(WORLDS):
        rng = Rng.from_seed(seed).fork(number)
        try:
            world = dealing.redeal(before, {seat}, rng.next64(), _in_turn(number, rng))
        except GameError:
            return None
        if engine.view(world, seat) != shown:
            return None
        world = _played(world, rng, span, seen, seat, levels, number)
        if world is None:
            return None
        dealt.append((world, rng.state))
    return Worlds(len(span), real, tuple(dealt), levels)


def _play_on(worlds: Worlds, steps: Sequence[tuple[int, Move]], seat: int) -> Worlds | None:
    """``worlds`` after each plays ``steps`` too: None as soon as ``seat``'s view in
    one is not what it really saw (or a step cannot be played there)."""
    real, seen = _seen(worlds.real, steps, seat)
    played: list[tuple[Any, int]] = []
    for number, (world, dice) in enumerate(worlds.worlds):
        rng = Rng(dice)
        after = _played(world, rng, steps, seen, seat, worlds.levels, number, worlds.played)
        if after is None:
            return None
        played.append((after, rng.state))
    return Worlds(worlds.played + len(steps), real, tuple(played), worlds.levels)


def _seen(
    before: Any, steps: Sequence[tuple[int, Move]], seat: int
) -> tuple[Any, list[dict[str, Any]]]:
    """The real state after ``steps`` from ``before``, and what ``seat`` saw after each."""
    real, seen = before, []
    for who, move in steps:
        real = engine.apply(real, who, move)
        seen.append(engine.view(real, seat))
    return real, seen


def _played(
    world: Any,
    rng: Rng,
    steps: Sequence[tuple[int, Move]],
    seen: list[dict[str, Any]],
    seat: int,
    levels: Sequence[str],
    number: int,
    played: int = 0,
) -> Any | None:
    """World ``number`` after ``steps`` (the span's moves after its first ``played``),
    or None as soon as ``seat`` sees there what it did not really see."""
    try:
        for step, ((who, move), shown) in enumerate(zip(steps, seen, strict=True), played + 1):
            if who == seat:
                world = engine.apply(world, who, move)
            else:
                world = _other_move(world, who, levels[who], seat, shown, number + step, rng)
            if engine.view(world, seat) != shown:
                return None
    except GameError:
        return None
    return world


def _option(options: list[Move], number: int, rng: Rng) -> Move:
    """The ``number``-th of ``options`` (round and round), its ranges filled at random."""
    return moves.concrete(options[number % len(options)], rng.randint)


def _in_turn(number: int, rng: Rng) -> Chooser:
    """How world ``number`` makes a secret choice not yet revealed again: the seat's
    ``number``-th option, so the worlds between them make every choice it had (or as
    many as there are worlds), and one that shows differs somewhere."""

    def choose(state: Any, who: int) -> Move:
        options = engine.legal_moves(state, who)
        if not options:
            raise OutOfTurn("A secret choice had no options in this world.")
        return _option(options, number + who, rng)

    return choose


def _other_move(
    world: Any, who: int, level: str, seat: int, shown: dict[str, Any], number: int, rng: Rng
) -> Any:
    """The world after bot ``who`` moves in it.

    An alternative that leaves ``seat``'s view as ``shown`` was a secret choice:
    in this world the bot made that one (taken in turn like ``_in_turn``'s), so if
    it is revealed later the views part there. Otherwise the move showed itself,
    and the bot decides it again from its view of this world, with this world's
    dice: a move that came from its cards or its luck then differs in some world.
    """
    options = engine.legal_moves(world, who)
    if not options:
        raise OutOfTurn("The bot had nothing to do in this world.")
    after = engine.apply(world, who, _option(options, number, rng))
    if engine.view(after, seat) == shown:
        return after
    choice = make_bot(world.game, level).choose(engine.view(world, who), Rng(rng.next64()))
    if choice is None:
        raise OutOfTurn("The bot would not move in this world.")
    return engine.apply(world, who, choice)
