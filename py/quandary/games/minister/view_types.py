"""What a seat sees of a game of Maybe Minister, as types: the contract with its screens.

``views.view`` builds a ``MinisterOwnView``; the engine adds the header every
game shares (``engine.ViewOf``, with its moves), which makes a ``MinisterView``. The
renderer (``web/render/minister*.py``) reads nothing else, so mypy follows each
field to the screen, and ``read_view`` checks a view from another device against
these same declarations (its legal moves too) before anything is drawn from it.
Pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NotRequired, TypedDict, cast

from quandary.engine import GameOver, Logged, Redealt, ViewOf
from quandary.engine.typed import Changed, PerSeat, Seat, check_view

VoteKind = Literal["yes", "no", "abstain"]


class PublicVote(TypedDict):
    """A vote face up (on a law, at the reveal): its number and kind, never its id."""

    kind: VoteKind
    number: int


class OwnVote(PublicVote):
    """A vote its owner sees: stored on their cards, or drawn and still to store."""

    id: str


class ScoreLine(TypedDict):
    """One reason in a score: which law (``title``, its card's name) gave how many points."""

    law: str
    title: str
    points: int
    because: str


class LawInForce(TypedDict):
    """An enacted law; with Undecided Voters, the votes moved onto it (face up)."""

    card: str
    active: bool
    yes: NotRequired[int]
    no: NotRequired[int]
    votes: NotRequired[list[PublicVote]]


class WonCard(TypedDict):
    """A card won, the side up, how many votes it stores and its free room;
    ``votes`` only on the viewer's own table."""

    card: str
    green: bool
    stored: int
    room: int
    votes: NotRequired[list[OwnVote]]


class RevealSummary(TypedDict):
    """How a vote went, as the log keeps it too (``revealed`` events)."""

    turn: int
    yes: int
    no: int
    accepted: bool
    order: list[Seat]


class PublicReveal(RevealSummary):
    """A reveal: every seat's vote by number and kind (None: no vote), the proposal
    and the laws it enacted (``turn.reveal_json``)."""

    proposer: Seat
    proposal: list[str]
    votes: list[PublicVote | None]
    enacted: list[str]


class MinisterReveal(PublicReveal):
    """The last reveal, as the view shows it: ``index`` counts reveals from 0."""

    index: int


class MinisterEffects(TypedDict):
    """How the laws in force change play (``laws.Effects``), as far as a screen tells it."""

    hand_size: int
    proposal_min: int
    proposal_max: int
    tie_passes: bool
    reverse_order: bool
    proposer_weight: int
    trade_votes: int
    collect_bonus: int
    abstain_counts_as: str | None
    abstain_takes: str | None
    proposer_may_abstain: bool


class MinisterOptions(TypedDict):
    """The expansions in play (a save from before an expansion existed may lack its key)."""

    wildcard: NotRequired[bool]
    abstain: NotRequired[bool]
    undecided: NotRequired[bool]
    advanced: NotRequired[bool]


# -- the moves ---------------------------------------------------------------------------


class ProposeMove(TypedDict):
    """Propose these cards from the hand."""

    type: Literal["propose"]
    cards: list[str]


class VoteMove(TypedDict):
    """Cast one of the stored votes, in secret."""

    type: Literal["vote"]
    vote: str


class TakeMove(TypedDict):
    """Take a card from the proposal."""

    type: Literal["take"]
    card: str


class DiscardVoteMove(TypedDict):
    """Give up a stored vote (negative support)."""

    type: Literal["discard_vote"]
    vote: str


class TradeMove(TypedDict):
    """Discard a won resource for votes."""

    type: Literal["trade"]
    card: str


class CollectMove(TypedDict):
    """Collect the votes support gives."""

    type: Literal["collect"]


class StoreMove(TypedDict):
    """Store a drawn vote on a won card."""

    type: Literal["store"]
    vote: str
    card: str


class StoreAllMove(TypedDict):
    """Store every drawn vote at once, each on the card at the same place in ``cards``
    (the suggested places: ``upkeep.suggested_storage``)."""

    type: Literal["store_all"]
    votes: list[str]
    cards: list[str]


class MoveLawMove(TypedDict):
    """Move a vote onto an enacted law (Undecided Voters)."""

    type: Literal["move_law"]
    vote: str
    law: str


class MoveCardMove(TypedDict):
    """Move two equal votes onto a red card (Undecided Voters)."""

    type: Literal["move_card"]
    votes: list[str]
    card: str


class PassMove(TypedDict):
    """Move no votes."""

    type: Literal["pass"]


class ShopMove(TypedDict):
    """Use a shop law, paying with won cards (Advanced Politics)."""

    type: Literal["shop"]
    law: str
    pay: list[str]
    target: str | None


class SpecialMove(TypedDict):
    """Discard a special resource for its power (Advanced Politics)."""

    type: Literal["special"]
    card: str
    target: str | None


class DoneMove(TypedDict):
    """Shop no more, or use no special resource now."""

    type: Literal["done"]


MinisterMove = (
    ProposeMove
    | VoteMove
    | TakeMove
    | DiscardVoteMove
    | TradeMove
    | CollectMove
    | StoreMove
    | StoreAllMove
    | MoveLawMove
    | MoveCardMove
    | PassMove
    | ShopMove
    | SpecialMove
    | DoneMove
)
"""Every move of Maybe Minister, told apart by its ``type``."""


class MinisterStory(TypedDict):
    """How a game was won: the winner's score by the last turn (``target``: it reached
    the target; ``deck``: the decrees ran out first), the newest law in force, and the
    seats ``level`` with the winner."""

    kind: Literal["target", "deck"]
    seat: Seat
    round: int
    points: int
    law: str | None
    level: list[Seat]


# -- the view ----------------------------------------------------------------------------


class MinisterOwnView(TypedDict):
    """Maybe Minister's own part of a view. Every list by seat has one entry a seat;
    a spectator gets no ``hand``, ``my_vote`` nor ``drawn``."""

    title: str
    turn: int
    proposer: Seat
    actor: Seat
    options: MinisterOptions
    target: int
    explain: list[list[ScoreLine]]
    hand_counts: PerSeat[int]
    deck: int
    discard: int
    vote_deck: int
    vote_discard: int
    laws: list[LawInForce]
    tables: PerSeat[list[WonCard]]
    support: PerSeat[int]
    starters: list[str]
    abstains: PerSeat[int]
    bonus: PerSeat[int]
    proposal: list[str]
    submitted: list[bool]
    reveal: MinisterReveal | None
    reveals: int
    picks: list[Seat]
    pick_at: int
    drawn_count: int
    owed: int
    traded: int
    effects: MinisterEffects
    hand: NotRequired[list[str]]
    my_vote: NotRequired[str | None]
    drawn: NotRequired[list[OwnVote]]


# -- the log ----------------------------------------------------------------------------


class TurnStarted(TypedDict):
    """A turn begins, and who proposes in it."""

    turn: int
    proposer: Seat


class Proposed(TypedDict):
    """The proposer laid these cards before everyone."""

    seat: Seat
    cards: list[str]


class Took(TypedDict):
    """A seat took a proposed card, green side up if the proposal passed."""

    seat: Seat
    card: str
    green: bool


class SeatActed(TypedDict):
    """A seat gave up a stored vote for negative support."""

    seat: Seat


class Traded(TypedDict):
    """A seat traded a card away for votes."""

    seat: Seat
    card: str


class Collected(TypedDict):
    """A seat drew this many votes."""

    seat: Seat
    votes: int


class MovedVote(TypedDict):
    """Undecided Voters: a seat put a stored vote face up on a law."""

    seat: Seat
    law: str
    kind: VoteKind
    number: int


class MovedCard(TypedDict):
    """Undecided Voters: two YES votes turned ``owner``'s card green, two NO removed it."""

    seat: Seat
    card: str
    owner: Seat
    kind: VoteKind


class Shopped(TypedDict):
    """A seat paid cards to a shop law for its reward (``target``: the card it turned)."""

    seat: Seat
    law: str
    paid: list[str]
    target: str | None


class Special(TypedDict):
    """A seat used a special resource for its power."""

    seat: Seat
    card: str
    target: str | None


class ScoreCause(TypedDict):
    """One law's share of a score's change."""

    law: str
    title: str
    points: int


class ScoreChanged(TypedDict):
    """A seat's score moved, and every law that moved it (``board.score_changes``)."""

    seat: Seat
    before: int
    after: int
    laws: list[ScoreCause]


MinisterEvent = (
    Logged[Literal["turn_started"], TurnStarted]
    | Logged[Literal["proposed"], Proposed]
    | Logged[Literal["revealed"], RevealSummary]
    | Logged[Literal["took"], Took]
    | Logged[Literal["gave_up_vote"], SeatActed]
    | Logged[Literal["traded"], Traded]
    | Logged[Literal["collected"], Collected]
    | Logged[Literal["moved_vote"], MovedVote]
    | Logged[Literal["moved_card"], MovedCard]
    | Logged[Literal["shopped"], Shopped]
    | Logged[Literal["special"], Special]
    | Logged[Literal["score_changed"], ScoreChanged]
    | GameOver
    | Redealt
)
"""Every event a game of Maybe Minister logs, told apart by its ``kind``."""


class MinisterView(MinisterOwnView, ViewOf[MinisterMove, MinisterStory, MinisterEvent]):
    """A whole view of a game of Maybe Minister: its own part and the shared header."""


def read_view(view: Mapping[str, object], changed: Changed | None = None) -> MinisterView:
    """``view`` as a ``MinisterView``, every field and legal move checked (or only
    those ``changed`` since a view checked whole: ``check_view``); ``BadView`` says what
    is wrong."""
    check_view(view, MinisterView, "Maybe Minister table", changed)
    return cast(MinisterView, view)
