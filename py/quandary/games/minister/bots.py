"""Bots for Maybe Minister: a heuristic player that decides from its view alone.

Points come from the laws in force applied to the cards in front of you, so the
heuristic asks one question everywhere: what does this do to my score, and to
everyone else's? It scores hypothetical tables with the same law engine the
rules use (``laws.score``), from what the view shows:
  propose  the proposal whose laws help it most relative to the others, with a
           little extra for cards it would like to take;
  vote     YES if acceptance (laws enacted, cards taken green) beats rejection
           (laws discarded, cards taken red) for it, NO otherwise; the vote's
           number is chosen to pick early in the order that outcome uses;
  pick     the card that raises its score most on the side it will show;
  collect  trades only resources worth less to it than the votes they would
           really bring (storage caps the draw) minus those stored on them;
           stores votes on its safest cards (all at once where the table
           suggests); gives up its least useful votes;
  move     a NO vote onto the law that hurts it most, or votes that turn its own
           red card green, when that pays; else passes;
  shop     a shop law or special power when the reward beats the cards paid.
"""

from __future__ import annotations

from collections.abc import Sequence

from quandary.bots import seat_of, sent
from quandary.engine import Move, Rng

from . import laws
from .laws import Holding
from .material import CARDS, VOTES, power_amount
from .view_types import (
    MinisterMove,
    MinisterView,
    MoveCardMove,
    MoveLawMove,
    ProposeMove,
    ShopMove,
    SpecialMove,
    StoreMove,
    TakeMove,
    TradeMove,
    VoteMove,
    WonCard,
)

VOTE_WORTH = 0.6
"""Points a stored vote is worth to the bot: more say in later proposals."""
DECREE_WORTH = 0.4
"""Points a decree card in hand is worth: a future proposal."""
SUGGESTED = 0.05
"""What storing every drawn vote in one move, where the table suggests, is worth beyond
its placements: one move instead of several, so the others wait less."""
PACE = 0.6
"""Points a bot sees in each card it proposes: more cards on the table each turn make
the scores move and the game end sooner, so a newcomer against bots is not kept
waiting through many turns of two-card proposals."""


def active(view: MinisterView) -> list[str]:
    """The laws in force, in order."""
    return [law["card"] for law in view["laws"] if law["active"]]


def holding(view: MinisterView, seat: int, change: dict[str, bool | None] | None = None) -> Holding:
    """A seat's holding, with cards added (True green, False red) or removed (None)."""
    cards = {row["card"]: row["green"] for row in view["tables"][seat]}
    for card, side in (change or {}).items():
        if side is None:
            cards.pop(card, None)
        else:
            cards[card] = side
    return Holding(tuple(cards.items()), view["abstains"][seat], view["bonus"][seat])


def points(
    view: MinisterView,
    seat: int,
    law_ids: Sequence[str],
    change: dict[str, bool | None] | None = None,
) -> int:
    """``seat``'s score under ``law_ids`` with a changed table."""
    return laws.score(law_ids, holding(view, seat, change))[0]


class HeuristicBot:
    """Plays for its own score under the laws in force (see the module docstring)."""

    name = "heuristic"

    def choose(self, view: MinisterView, rng: Rng) -> Move:
        """One of ``view["legal_moves"]``, the very object."""
        legal = view["legal_moves"]
        if not legal:
            raise ValueError("The bot was asked to move but has no legal move.")
        if len(legal) == 1:
            return sent(legal[0])
        judge = _Judge(view)
        order = rng.shuffled(range(len(legal)))
        best = max(order, key=lambda i: judge.value(legal[i]))
        return sent(legal[best])


class _Judge:
    """Values of moves for the view's seat, in points (higher is better)."""

    def __init__(self, view: MinisterView) -> None:
        self.view = view
        self.me = seat_of(view["seat"])
        self.laws = active(view)
        self.players = view["players"]
        self.base = [points(view, s, self.laws) for s in range(self.players)]

    def value(self, move: MinisterMove) -> float:
        """What ``move`` is worth to the view's seat (a move with no choice in it: 0)."""
        if move["type"] == "propose":
            return self._propose(move)
        if move["type"] == "vote":
            return self._vote(move)
        if move["type"] == "take":
            return self._take(move)
        if move["type"] == "store":
            return self._store(move)
        if move["type"] == "store_all":
            # Every vote placed at once: worth each placement, and at equal worth
            # taken over placing the same votes one move at a time.
            return SUGGESTED + sum(
                self._store({"type": "store", "vote": v, "card": c})
                for v, c in zip(move["votes"], move["cards"], strict=True)
            )
        if move["type"] == "discard_vote":
            return self._discard_vote(move["vote"])
        if move["type"] == "trade":
            return self._trade(move)
        if move["type"] == "move_law":
            return self._move_law(move)
        if move["type"] == "move_card":
            return self._move_card(move)
        if move["type"] == "shop":
            return self._shop(move)
        if move["type"] == "special":
            return self._special(move)
        return 0.0  # collect, pass, done

    # -- helpers ----------------------------------------------------------------------

    def _relative(self, law_ids: list[str]) -> float:
        """My gain minus the others' average gain if ``law_ids`` were in force."""
        mine = points(self.view, self.me, law_ids) - self.base[self.me]
        others = [
            points(self.view, s, law_ids) - self.base[s]
            for s in range(self.players)
            if s != self.me
        ]
        return mine - (sum(others) / len(others) if others else 0.0)

    def _card_gain(self, card: str, green: bool, law_ids: list[str] | None = None) -> float:
        law_ids = self.laws if law_ids is None else law_ids
        before = points(self.view, self.me, law_ids)
        gain = points(self.view, self.me, law_ids, {card: green}) - before
        return gain + 0.3 * CARDS[card].capacity

    def _proposal_laws(self, cards: list[str]) -> list[str]:
        return self.laws + [c for c in cards if CARDS[c].kind == "law"]

    # -- phases ---------------------------------------------------------------------------

    def _propose(self, move: ProposeMove) -> float:
        cards = move["cards"]
        with_laws = self._proposal_laws(cards)
        value = self._relative(with_laws) if len(with_laws) > len(self.laws) else 0.0
        others = [c for c in cards if CARDS[c].kind != "law"]
        if others:
            value += 0.5 * max(self._card_gain(c, True, with_laws) for c in others)
        return value + PACE * len(cards)

    def _outcomes(self) -> tuple[float, float]:
        """How much acceptance and rejection of the proposal are worth to me."""
        cards = self.view["proposal"]
        with_laws = self._proposal_laws(cards)
        accept = self._relative(with_laws) if len(with_laws) > len(self.laws) else 0.0
        others = [c for c in cards if CARDS[c].kind != "law"]
        if others:
            accept += max(self._card_gain(c, True, with_laws) for c in others)
            reject = max(self._card_gain(c, False) for c in others)
        else:
            reject = 0.0
        return accept, reject

    def _vote(self, move: VoteMove) -> float:
        vote = VOTES[move["vote"]]
        accept, reject = self._outcomes()
        if vote.kind == "abstain":
            return -abs(accept - reject) * 0.5 - 0.5
        favoured = "yes" if accept >= reject else "no"
        weight = abs(accept - reject) + 1.0
        # Accepted proposals are picked low to high, rejected ones high to low.
        early = (67 - vote.number) / 67 if vote.kind == "yes" else vote.number / 67
        return (weight if vote.kind == favoured else -weight) + 0.5 * early

    def _take(self, move: TakeMove) -> float:
        reveal = self.view["reveal"]
        return self._card_gain(move["card"], True if reveal is None else reveal["accepted"])

    def _store(self, move: StoreMove) -> float:
        rows = {row["card"]: row for row in self.view["tables"][self.me]}
        row = rows.get(move["card"])
        green = row is not None and row["green"]
        safe = 2.0 if move["card"] in self.view["starters"] else 1.0 if green else 0.0
        return safe + 0.1 * (0 if row is None else row["room"])

    def _discard_vote(self, vote_id: str) -> float:
        vote = VOTES[vote_id]
        if vote.kind == "abstain":
            return 1.0
        return -abs(vote.number - 33) / 33

    def _trade(self, move: TradeMove) -> float:
        loss = points(self.view, self.me, self.laws, {move["card"]: None}) - self.base[self.me]
        rows = {row["card"]: row for row in self.view["tables"][self.me]}
        traded = rows[move["card"]]
        lost = traded["stored"]
        return loss + VOTE_WORTH * (self._trade_votes(traded) - lost) - 1.0

    def _trade_votes(self, traded: WonCard) -> int:
        """Votes a trade would really bring: storage caps the draw, so maybe fewer."""
        fx = self.view["effects"]
        rate = fx["trade_votes"]
        room = sum(row["room"] for row in self.view["tables"][self.me]) - traded["room"]
        pending = max(0, self.view["support"][self.me]) + fx["collect_bonus"]
        pending += self.view["traded"] * rate
        return max(0, min(rate, room - pending))

    def _move_law(self, move: MoveLawMove) -> float:
        vote = VOTES[move["vote"]]
        if vote.kind == "abstain":
            return -1.0  # on a law it counts for neither side (RULINGS §3): nothing changes
        law = next(entry for entry in self.view["laws"] if entry["card"] == move["law"])
        yes, no = law.get("yes", 0), law.get("no", 0)
        yes, no = (yes + 1, no) if vote.kind == "yes" else (yes, no + 1)
        now_active = no <= yes
        if now_active == law["active"]:
            return -1.0
        law_ids = [c for c in self.laws if c != move["law"]]
        if now_active:
            law_ids = [*self.laws, move["law"]]
        return self._relative(law_ids) - VOTE_WORTH - 0.5

    def _move_card(self, move: MoveCardMove) -> float:
        card = move["card"]
        owner = next(
            s for s in range(self.players) if any(r["card"] == card for r in self.view["tables"][s])
        )
        kind = VOTES[move["votes"][0]].kind
        change: dict[str, bool | None] = {card: True if kind == "yes" else None}
        gain = points(self.view, owner, self.laws, change) - self.base[owner]
        value = gain if owner == self.me else -gain / max(1, self.players - 1)
        return value - 2 * VOTE_WORTH - 0.5

    def _shop(self, move: ShopMove) -> float:
        _, reward = laws.shop(move["law"])
        change: dict[str, bool | None] = dict.fromkeys(move["pay"])
        if move["target"] is not None:
            change[move["target"]] = True
        loss = points(self.view, self.me, self.laws, change) - self.base[self.me]
        worth = {"votes": VOTE_WORTH, "points": 1.0, "decrees": DECREE_WORTH, "flip": 0.0}
        return loss + worth[reward["kind"]] * int(reward["amount"]) - 0.5

    def _special(self, move: SpecialMove) -> float:
        power = CARDS[move["card"]].power
        change: dict[str, bool | None] = {move["card"]: None}
        target = move["target"]
        kind = None if power is None else power["type"]
        if kind == "flip_own" and target is not None:
            change[target] = True
        gain: float = points(self.view, self.me, self.laws, change) - self.base[self.me]
        amount = 2 if power is None else power_amount(power, 2)
        if kind == "bonus_points":
            gain += amount
        elif kind in ("draw_votes", "votes_per_icon"):
            gain += VOTE_WORTH * amount
        elif kind == "draw_decrees":
            gain += DECREE_WORTH * amount
        elif kind == "flip_other" and target is not None:
            victim = next(
                s
                for s in range(self.players)
                if any(r["card"] == target for r in self.view["tables"][s])
            )
            hurt = points(self.view, victim, self.laws, {target: False}) - self.base[victim]
            gain -= hurt
        return gain - 0.5
