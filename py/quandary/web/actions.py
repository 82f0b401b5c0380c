"""What a player can do on the page, and what the controller asks the page to do.

Actions arrive from the DOM as strings (``data-action="submit"``); they are
parsed into ``Action`` once, at the door, so a misspelt action is an error a
test sees instead of a click that silently does nothing. Effects are typed
values the page glue (``app.py``) carries out: the controller never touches the
browser, and a test can read exactly what it asked for.

>>> Action.parse("choose-game")
<Action.CHOOSE_GAME: 'choose-game'>
>>> Action.parse("chose-game")
Traceback (most recent call last):
...
quandary.web.actions.UnknownAction: There is no action called 'chose-game'.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from quandary.net.link import RoomLink


class UnknownAction(ValueError):
    """A page element named an action nobody handles: a bug in a renderer."""


class Action(StrEnum):
    """Every action a page element may name; the value is what HTML writes."""

    # The lobby and the games in progress.
    FIELD = "field"
    CHOOSE_GAME = "choose-game"
    START = "start"
    CONTINUE = "continue"
    DELETE_SAVE = "delete-save"
    DELETE_CANCEL = "delete-cancel"
    DELETE_CONFIRM = "delete-confirm"
    # The Game of Dilemmas' own card packs, in its setup (web/own_packs.py).
    OWN_NEW = "own-new"
    OWN_EDIT = "own-edit"
    OWN_SAVE = "own-save"
    OWN_CANCEL = "own-cancel"
    OWN_DELETE = "own-delete"
    OWN_DELETE_CONFIRM = "own-delete-confirm"
    OWN_EXPORT = "own-export"
    # A table, whoever holds its authority.
    REVEAL = "reveal"
    DRAFT = "draft"
    GESTURE = "gesture"
    MOVE = "move"
    SUBMIT = "submit"
    NEXT = "next"
    AGAIN = "again"
    DOWNLOAD_LOG = "download-log"
    UNDO = "undo"
    LEAVE = "leave"
    LOBBY = "lobby"
    # Dilemma's practice arena: opened (from the lobby or a game), and left or done.
    PRACTICE = "practice"
    PRACTICE_DONE = "practice-done"
    # Replays and game records (quandary/replay.py, web/replay_screen.py).
    WATCH_REPLAY = "watch-replay"
    REPLAY_STEP = "replay-step"
    REPLAY_SEAT = "replay-seat"
    REPLAY_CLOSE = "replay-close"
    REPLAY_LINK = "replay-link"
    DOWNLOAD_RECORD = "download-record"
    OPEN_RECORD = "open-record"
    # Rooms.
    CREATE_ROOM = "create-room"
    LEAVE_ROOM = "leave-room"
    ROOM_SIT = "room-sit"
    ROOM_STAND = "room-stand"
    ROOM_START = "room-start"
    COPY_LINK = "copy-link"
    SHARE_LINK = "share-link"
    COVER_SEAT = "cover-seat"
    ROOM_REMOVE = "room-remove"
    ROOM_MUTE = "room-mute"
    # A room's chat (web/render/chat.py): a line typed, a reaction tapped, the panel
    # opened or closed by the player (its unread count starts again from there).
    CHAT_SEND = "chat-send"
    CHAT_REACT = "chat-react"
    CHAT_OPEN = "chat-open"

    @classmethod
    def parse(cls, name: str) -> Action:
        """The action called ``name``; ``UnknownAction`` if there is none."""
        try:
            return cls(name)
        except ValueError:
            raise UnknownAction(f"There is no action called {name!r}.") from None


TABLE_ACTIONS = frozenset(
    {
        Action.REVEAL,
        Action.DRAFT,
        Action.GESTURE,
        Action.MOVE,
        Action.SUBMIT,
        Action.NEXT,
        Action.AGAIN,
        Action.DOWNLOAD_LOG,
        Action.UNDO,
    }
)
"""Actions a table controller handles the same way for local and room tables."""


@dataclass(frozen=True)
class SetHash:
    """Replace the address's fragment (empty: none) without reloading."""

    fragment: str


@dataclass(frozen=True)
class MakeHostKey:
    """Make a new Ed25519 key pair for a room this device is about to create.

    The page answers with ``Controller.host_key_made``: the browser's WebCrypto
    makes the key, so the private half never needs Python's help.
    """


@dataclass(frozen=True)
class OpenRoom:
    """Open the transport of this room (the room controller already exists).

    ``signing_key`` (PKCS#8, base64url) is set only on the host's device: the
    transport signs every message with it, and guests verify them against the
    link's host key, or against a key in ``trusted`` (a successor's, which this
    device followed before; or, on a host, its heirs', to hear that one of them
    carried the room on while it was away).
    """

    link: RoomLink
    signing_key: str | None = None
    trusted: tuple[str, ...] = ()


@dataclass(frozen=True)
class CloseRoom:
    """Leave the open room's transport."""


@dataclass(frozen=True)
class CopyText:
    """Put text on the clipboard and select the field that shows it."""

    text: str
    field: str


@dataclass(frozen=True)
class ShareLink:
    """Open the device's share sheet for a link."""

    title: str
    url: str


@dataclass(frozen=True)
class SaveRoom:
    """Save the room soon, after the new screen is painted (saving can take a while)."""


@dataclass(frozen=True)
class DownloadText:
    """Save ``text`` as a file called ``name`` on this device (the game's log).

    The text is made here, in Python; the page only hands it to the browser,
    from memory, so it works offline and needs nothing from any server.
    """

    name: str
    text: str


@dataclass(frozen=True)
class MakeReplayLink:
    """Make a replay link of ``text`` (a game record): the page compresses it with the
    browser's ``CompressionStream`` and answers with ``Controller.replay_link_made``."""

    text: str


@dataclass(frozen=True)
class ClearField:
    """Empty a text field once what was typed in it is sent (a chat line).

    The page keeps what a player types in a focused field whatever the screen
    says (``paint`` in static/js/app.entry.js), so only this empties it; a line
    that was not sent stays there to send again. The field is emptied only if it
    still holds ``text``: a player who typed on meanwhile keeps the new line.
    """

    field: str
    text: str


Effect = (
    DownloadText
    | MakeReplayLink
    | SetHash
    | MakeHostKey
    | OpenRoom
    | CloseRoom
    | CopyText
    | ShareLink
    | SaveRoom
    | ClearField
)
