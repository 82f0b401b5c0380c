"""The playing cards of Royal Dilemma: faces, suits, value cards and their names.

A card id is its rank followed by its suit letter: "7H" is the Seven of Hearts,
"10S" the Ten of Spades, "QH" the Queen of Hearts. Seats sit as the Ace of
Spades, the Jack of Clubs, the Queen of Hearts and the King of Diamonds, in
that order (static/rules/royal-dilemma.html). Each seat holds one *target
card* per player in the game: the faces of the players in its own suit, so the Ace of Spades at a
three-player table holds AS, JS and QS, and playing JS targets the Jack of Clubs.

>>> rank_of("10S"), suit_of("10S")
(10, 'S')
>>> target_seat("QS"), card_name("QS")
(2, 'Queen of Spades')
>>> value_deck()[:3]
('2S', '3S', '4S')
"""

from __future__ import annotations

SUITS = ("S", "C", "H", "D")
"""Suit letters, in seat order: seat ``i`` plays suit ``SUITS[i]``."""
FACES = ("A", "J", "Q", "K")
"""Face letters, in seat order: seat ``i`` is the face ``FACES[i]``."""
SUIT_NAMES = {"S": "Spades", "C": "Clubs", "H": "Hearts", "D": "Diamonds"}
SUIT_SYMBOLS = {"S": "♠", "C": "♣", "H": "♥", "D": "♦"}
FACE_NAMES = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
RANK_NAMES = {
    2: "Two",
    3: "Three",
    4: "Four",
    5: "Five",
    6: "Six",
    7: "Seven",
    8: "Eight",
    9: "Nine",
    10: "Ten",
}
RANKS = tuple(range(2, 11))


def value_deck() -> tuple[str, ...]:
    """The 36 numbered cards 2-10 of all four suits, in a fixed order."""
    return tuple(f"{rank}{suit}" for suit in SUITS for rank in RANKS)


def suit_of(card: str) -> str:
    """The suit letter of any card id."""
    return card[-1]


def rank_of(card: str) -> int:
    """The face value of a value card (2-10)."""
    return int(card[:-1])


def is_value_card(card: str) -> bool:
    """Whether ``card`` is a numbered card (not a face)."""
    return card[:-1].isdigit()


def seat_face(seat: int) -> str:
    """The face id a seat plays as: "AS", "JC", "QH" or "KD"."""
    return FACES[seat] + SUITS[seat]


def seat_title(seat: int) -> str:
    """The seat's royal name: "Queen of Hearts"."""
    return card_name(seat_face(seat))


def target_cards(seat: int, players: int) -> tuple[str, ...]:
    """The target cards a seat holds: every player's face in the seat's own suit."""
    return tuple(FACES[other] + SUITS[seat] for other in range(players))


def target_seat(card: str) -> int:
    """Which seat a target card points at (its face decides, not its suit)."""
    return FACES.index(card[:-1])


def card_name(card: str) -> str:
    """A card's English name: "Seven of Hearts", "Jack of Clubs"."""
    head = card[:-1]
    rank = FACE_NAMES[head] if head in FACE_NAMES else RANK_NAMES[int(head)]
    return f"{rank} of {SUIT_NAMES[suit_of(card)]}"


def short_name(card: str) -> str:
    """A card's short face: "7♥", "Q♠"."""
    return card[:-1] + SUIT_SYMBOLS[suit_of(card)]


def suit_seat(card: str) -> int:
    """The seat whose suit the card is in: a Heart belongs to the Queen of Hearts."""
    return SUITS.index(suit_of(card))


def card_points(card: str, owner: int) -> int:
    """What a card in play is worth to the seat controlling it: own suit counts double.

    >>> card_points("7H", 2), card_points("7H", 0)
    (14, 7)
    """
    return rank_of(card) * (2 if suit_of(card) == SUITS[owner] else 1)


def capture_gain(card: str, me: int, victim: int) -> int:
    """What capturing ``card`` swings: its points for me plus its points lost by the victim.

    >>> capture_gain("7H", 0, 2)
    21
    """
    return card_points(card, me) + card_points(card, victim)


def strength(card: str, seat: int, other: int) -> tuple[int, bool]:
    """A value card's strength between two seats, and whether it was doubled.

    >>> strength("7H", 0, 2)  # the Ace of Spades plays 7♥ against the Queen of Hearts
    (14, True)
    >>> strength("7H", 0, 1)
    (7, False)
    """
    doubled = suit_of(card) in (SUITS[seat], SUITS[other])
    return rank_of(card) * (2 if doubled else 1), doubled
