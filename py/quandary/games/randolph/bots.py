"""A heuristic bot for Dilemma: throws like a person, duels by expected value.

It decides only from its seat's view. Its three decisions:

- Challenge card: a card nobody answers is kept as winnings, an answered one is
  usually given away for a low card. So the bot estimates from the rounds so
  far how often challenges are answered, and places its highest card when they
  mostly are not, its lowest when they mostly are.
- Reaction: it answers with its lowest card of another value when the
  expected duel is worth more than keeping the card, and only while no other
  valid card is already on its way. It throws a human reaction time after the
  window opens or the latest landing (``reaction_ms``: slower at the relaxed
  table a newcomer plays, quick at the quick one), aiming at the centre with a
  human hand's error (usually flat, sometimes not).
- Duel: peace or conflict by expected value, with the opponent's chance of
  conflict taken from their past duels and their card, a life block valued by
  how many cards its owner still holds (lives are worth nothing at the end),
  and the opponent's gains weighed against the bot's own.
"""

from __future__ import annotations

from quandary.bots import sent
from quandary.engine import Move, Rng, moves

from .view import ArenaEntry, ChallengeMove, DuelMove, RandolphView, Span, ThrowMove, ThrowOffer

CARD_KEEP_VALUE = 0.8
"""What holding a card is worth: one more chance to take part later."""
TYPICAL_ANSWER = 3.0
"""The value a challenge is usually answered with (players answer low)."""

REACTIONS: dict[str, dict[str, tuple[int, int]]] = {
    "heuristic": {
        "first": (3000, 6500),
        "relaxed": (1800, 4000),
        "standard": (700, 2200),
        "quick": (300, 1500),
    },
    "random": {
        "first": (3500, 8000),
        "relaxed": (2500, 6000),
        "standard": (1000, 4000),
        "quick": (500, 3000),
    },
}
"""Bots' reaction times in ms (fastest, slowest) by level and table setting.

At the relaxed table a newcomer who needs 1.5 s to react and 1 s to aim still
gets a card down every time (bench/randolph_newcomer.py measures it) and beats
the clever bot to the arena about half the time; at the quick one the clever bot
is as fast as a practised player."""


def reaction_ms(level: str, window: str, rng: Rng) -> int:
    """How long a bot of ``level`` takes to react at a table with this window setting.

    A sum of two uniform draws (most reactions near the middle), from the bot's
    own generator, so it is fixed by the table's seed like every bot choice.
    """
    table = REACTIONS.get(level, REACTIONS["random"])
    low, high = table.get(window, table["relaxed"])
    half = (high - low) // 2
    return low + rng.randint(0, half) + rng.randint(0, high - low - half)


class TimedThrow(ThrowMove):
    """A throw as a bot makes it: the gesture and when to let go (``at``, in ms from the
    window's opening). The page leaves ``at`` to the table's clock; a bot's table plans
    the throw for that moment instead."""

    at: int


BotMove = ChallengeMove | TimedThrow | DuelMove
"""A concrete move of this game, as the bots build them."""


def _as_move(move: BotMove | None) -> Move | None:
    """``move`` as the ``Bot`` protocol returns it."""
    return None if move is None else sent(move)


class HeuristicBot:
    """Clever: human-like throws, challenges and duels chosen by expected value."""

    name = "heuristic"

    def choose(self, view: RandolphView, rng: Rng) -> Move | None:
        """One move for this seat (``None`` in a reaction window means: do not throw now)."""
        return _as_move(_heuristic(view, rng))


def _heuristic(view: RandolphView, rng: Rng) -> BotMove | None:
    """The heuristic's move; each phase offers moves of its own type only."""
    legal, seat = view["legal_moves"], view["seat"]
    if not legal or seat is None:
        return None
    if view["phase"] == "challenge":
        return _challenge(view, [m for m in legal if m["type"] == "challenge"])
    if view["phase"] == "react":
        return _react(view, seat, [m for m in legal if m["type"] == "throw"], rng)
    if view["phase"] == "duel":
        return _duel(view, seat, [m for m in legal if m["type"] == "duel"])
    return None


def _challenge(view: RandolphView, legal: list[ChallengeMove]) -> ChallengeMove:
    """The highest card when challenges tend to go unanswered, else the lowest."""
    cards = sorted(m["card"] for m in legal)
    answered = _answer_rate(view)
    slope = (1.0 - answered) - answered * _rival_weight(view)
    if slope > 0.1:
        card = cards[-1]
    elif slope < -0.1:
        card = cards[0]
    else:
        card = cards[len(cards) // 2]
    return {"type": "challenge", "card": card}


def _react(view: RandolphView, seat: int, legal: list[ThrowOffer], rng: Rng) -> TimedThrow | None:
    """Throw the lowest card of another value if answering is worth it, else wait."""
    challenge, window = view["challenge"], view["window"]
    if challenge is None or window is None:
        return None  # nothing to answer (a reaction window always has both)
    number = 2 if window["second"] else 1
    current = [e for e in view["arena"] if e["window"] == number]
    mine = [e for e in current if e["seat"] == seat]
    if any(e["leading"] for e in current) or len(mine) >= 2:
        return None
    candidates = sorted(m["card"] for m in legal if m["card"] != challenge)
    if not candidates:
        return None
    card = candidates[0]
    if _answer_value(view, seat, challenge, card) <= CARD_KEEP_VALUE:
        return None
    template = next(m for m in legal if m["card"] == card)
    at = _release(view, template, current, reaction_ms("heuristic", _setting(view), rng))
    if at is None:
        return None
    return {
        "type": "throw",
        "card": card,
        "aim": _clamp(round(_noise(rng) * 8), template["aim"]),
        "power": _clamp(round(50 + _noise(rng) * 10), template["power"]),
        "spin": _clamp(round(_noise(rng) * 18), template["spin"]),
        "at": at,
    }


class RandomThrower:
    """The random level: any legal move, but thrown at a human reaction time.

    The common random bot would fill a throw's time uniformly, as early as the
    window's first millisecond: faster than any person, and a newcomer's first
    windows would be gone before they could move.
    """

    name = "random"

    def choose(self, view: RandolphView, rng: Rng) -> Move | None:
        """A uniformly random legal move; a throw waits for the reaction time."""
        legal = view["legal_moves"]
        if not legal:
            return None
        # The spans of a throw are filled as every game's random bot fills them; the offer
        # is read as the plain JSON object it is at run time.
        move = moves.concrete(sent(rng.choice(legal)), rng.randint)
        if move["type"] != "throw":
            return move
        window = view["window"]
        if window is None:
            return None  # no window to throw into (a throw is only offered in one)
        number = 2 if window["second"] else 1
        current = [e for e in view["arena"] if e["window"] == number]
        template = next(m for m in legal if m["type"] == "throw" and m["card"] == move["card"])
        at = _release(view, template, current, reaction_ms("random", _setting(view), rng))
        return None if at is None else move | {"at": at}


def _setting(view: RandolphView) -> str:
    """The table's window setting (the view holds the game's options)."""
    return view["options"]["window"]


def _release(
    view: RandolphView, template: ThrowOffer, current: list[ArenaEntry], reaction: int
) -> int | None:
    """When to let go: ``reaction`` ms after the window opened or the latest landing."""
    base = max((e["land_at"] for e in current), default=0)
    at = max(template["at"]["min"], base + reaction)
    return None if at > template["at"]["max"] else int(at)


def _answer_value(view: RandolphView, seat: int, challenge: int, card: int) -> float:
    """The expected worth of taking up the challenge with ``card`` (peace or conflict later)."""
    provocateur = view["provocateur"]
    w = _rival_weight(view)
    q = _conflict_chance(view, provocateur, challenge)
    peace = (1 - q) * (challenge - w * card) - q * w * (challenge + card)
    if view["lives"][seat] == 0:
        return peace
    life = _life_value(view, seat, len(view["hands"][seat]) - 1)
    their_life = _life_value(view, provocateur, len(view["hands"][provocateur]))
    conflict = (1 - q) * (challenge + card - life) + q * (w * their_life - life)
    return max(peace, conflict)


def _duel(view: RandolphView, seat: int, legal: list[DuelMove]) -> DuelMove:
    """Conflict when its expected worth beats peace's, given the opponent's habits."""
    duel = view["duel"]
    if duel is None or duel["challenge"] is None:
        return {"type": "duel", "choice": "peace"}  # no stakes to weigh (a duel has them)
    provocateur, opponent = duel["seats"]
    other = opponent if seat == provocateur else provocateur
    mine = duel["challenge"] if seat == provocateur else duel["card"]
    theirs = duel["card"] if seat == provocateur else duel["challenge"]
    if not any(m["choice"] == "conflict" for m in legal):
        return {"type": "duel", "choice": "peace"}
    w = _rival_weight(view)
    q = _conflict_chance(view, other, theirs)
    life = _life_value(view, seat, len(view["hands"][seat]))
    their_life = _life_value(view, other, len(view["hands"][other]))
    peace = (1 - q) * (theirs - w * mine) + q * (w * their_life - w * (mine + theirs))
    conflict = (1 - q) * (mine + theirs - life) + q * (w * their_life - life)
    return {"type": "duel", "choice": "conflict" if conflict > peace else "peace"}


def _conflict_chance(view: RandolphView, seat: int, card: int) -> float:
    """How likely ``seat`` chooses conflict with its ``card`` at stake.

    Its past duels say how bold it is; a high card of its own makes conflict
    more tempting; without a life block it cannot choose conflict at all.
    """
    if view["lives"][seat] == 0:
        return 0.0
    bold, duels = 0, 0
    for r in view["history"]:
        duel = r["duel"]
        if duel is not None and seat in duel["seats"]:
            duels += 1
            bold += duel["choices"][duel["seats"].index(seat)] == "conflict"
    habit = (bold + 1.0) / (duels + 2.0)
    return min(0.95, max(0.02, habit + 0.04 * (card - 5.5)))


def _life_value(view: RandolphView, seat: int, cards_left: int) -> float:
    """A life block is worth the conflicts it still allows: more with more cards left."""
    if cards_left <= 0:
        return 0.2
    value = 0.8 + 0.3 * cards_left
    return value * 1.3 if view["lives"][seat] == 1 else value


def _answer_rate(view: RandolphView) -> float:
    """How often a challenge has led to a duel so far (starting from an even guess)."""
    history = view["history"]
    duels = sum(1 for r in history if r["duel"] is not None)
    return (duels + 1.0) / (len(history) + 2.0)


def _rival_weight(view: RandolphView) -> float:
    """How much a point for one opponent counts against a point for the bot."""
    players = view["players"]
    return 1.0 / max(1, players - 1)


def _clamp(value: int, bounds: Span) -> int:
    return min(bounds["max"], max(bounds["min"], value))


def _noise(rng: Rng) -> float:
    """Roughly normal noise, mean 0 and spread 1 (a sum of four uniforms)."""
    total = rng.random() + rng.random() + rng.random() + rng.random()
    return (total - 2.0) * 1.7320508075688772
