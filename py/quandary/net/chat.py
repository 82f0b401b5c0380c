"""Chat and reactions in a room: what each device keeps, and the host's rules for them.

Chat travels beside the game, never inside it: a guest sends ``chat`` or
``react`` to the host, which cleans the text, stamps who said it (from the
connection it came on, never from the message) and sends the line to everyone.
Guests believe only lines the verified host sends, so nobody can put words in
another player's mouth. Each peer may say ``LINES`` lines and send ``LINES``
reactions per ``WINDOW_MS``; whatever is refused is answered with a sentence for
the sender, never dropped in silence. The host keeps the last ``HISTORY`` lines
for whoever joins late. Pure: the standard library only.

>>> clean_chat("  hi\\u202e there\\n\\u0007 ")
'hi there'
>>> limit = Window(2, 1000)
>>> [limit.wait("a", t) for t in (0.0, 10.0, 20.0, 1001.0)]
[0.0, 0.0, 980.0, 0.0]
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Literal, TypedDict

from ..text import clean_line

MAX_CHAT = 280
"""Characters a line may hold (after cleaning)."""
HISTORY = 50
"""Lines the host keeps and sends to whoever joins."""
CHUNK = 25
"""Lines per message: 25 of the longest (280 four-byte characters, names and ids
included) stay far under the 64 KiB a message may hold."""
LINES = 5
WINDOW_MS = 10_000.0
"""At most ``LINES`` lines (and as many reactions) per peer in any ``WINDOW_MS``."""
SHOWN_MS = 2_000.0
"""How long a reaction's bubble is shown by its sender's name."""
REACTIONS: tuple[str, ...] = ("👍", "👏", "😂", "😮", "😢", "😬", "🤔", "🎉")
"""The only reactions there are: one tap each, and nothing else to validate."""
REACTION_NAMES: dict[str, str] = dict(
    zip(
        REACTIONS,
        ("thumbs up", "applause", "laughing", "surprised", "sad", "awkward", "thinking", "party"),
        strict=True,
    )
)


def clean_chat(text: str) -> str:
    """A chat line as everyone shows it: one clean line of at most ``MAX_CHAT``,
    emoji joined as typed (``quandary.text``). Cleaned where it arrives, like
    names, so no renderer has to remember to."""
    return clean_line(text, MAX_CHAT, joiners=True)


class Window:
    """A sliding window per key: at most ``count`` events in any ``span_ms``.

    Only what is let through counts, so a sender who is refused is not kept
    waiting longer for having tried.
    """

    def __init__(self, count: int = LINES, span_ms: float = WINDOW_MS) -> None:
        self.count, self.span_ms = count, span_ms
        self._times: dict[str, deque[float]] = {}

    def wait(self, key: str, now: float) -> float:
        """0 if ``key`` may go now (and it is counted), else how long (ms) to wait."""
        times = self._times.setdefault(key, deque(maxlen=self.count))
        while times and now - times[0] >= self.span_ms:
            times.popleft()
        if len(times) >= self.count:
            return times[0] + self.span_ms - now
        times.append(now)
        return 0.0

    def forget(self, key: str) -> None:
        """A member gone for good: its window goes with it."""
        self._times.pop(key, None)


def slow_down(wait_ms: float, what: str = "lines") -> str:
    """The sentence a sender over the limit reads."""
    seconds = max(1, -(-int(wait_ms) // 1000))
    return (
        f"Slow down: at most {LINES} {what} every {int(WINDOW_MS // 1000)} seconds."
        f" Not sent; try again in {seconds} s."
    )


MUTED = "The host has muted you: your lines and reactions are not shown to the room."


class LineJson(TypedDict):
    """One chat line as the protocol carries it (``Line``)."""

    n: int
    member: str
    name: str
    seat: int | None
    text: str


class ChatLines(TypedDict):
    """Lines the host sends (``whole``: they replace what the guest kept)."""

    t: Literal["chat"]
    lines: list[LineJson]
    whole: bool


@dataclass(frozen=True)
class Line:
    """One line said in the room, as the host stamped it."""

    n: int
    """The host's serial: lines are shown in this order, each once."""
    member: str
    name: str
    seat: int | None
    text: str

    def to_json(self) -> LineJson:
        """As the protocol carries it."""
        return {
            "n": self.n,
            "member": self.member,
            "name": self.name,
            "seat": self.seat,
            "text": self.text,
        }

    @staticmethod
    def from_json(data: LineJson) -> Line:
        """A line the parser already checked (``messages._lines``)."""
        return Line(data["n"], data["member"], data["name"], data["seat"], data["text"])


@dataclass(frozen=True)
class Reaction:
    """A reaction shown for ``SHOWN_MS`` by its sender's name (``until``: this device's clock)."""

    n: int
    """This device's own count, so each reaction is drawn as a new bubble."""
    member: str
    name: str
    seat: int | None
    emoji: str
    until: float


@dataclass
class ChatLog:
    """What one device shows of the room's chat: lines, live reactions, its own notes."""

    lines: list[Line] = field(default_factory=list)
    reactions: list[Reaction] = field(default_factory=list)
    note: str | None = None
    """Why this device's last line or reaction was not sent (for its player alone)."""
    muted: bool = False
    """The host muted this device."""
    _reacted: int = 0

    def add(self, lines: list[Line], whole: bool = False) -> None:
        """Lines from the host; ``whole``: the history, which replaces what was kept."""
        if whole:
            self.lines = []
        last = self.lines[-1].n if self.lines else -1
        self.lines += [line for line in lines if line.n > last]
        del self.lines[:-HISTORY]

    def react(self, member: str, name: str, seat: int | None, emoji: str, now: float) -> None:
        """Show a reaction for ``SHOWN_MS`` (a newer one from the same member replaces it)."""
        self._reacted += 1
        bubble = Reaction(self._reacted, member, name, seat, emoji, now + SHOWN_MS)
        self.reactions = [r for r in self.live(now) if r.member != member] + [bubble]

    def live(self, now: float) -> list[Reaction]:
        """The reactions still shown at ``now``."""
        return [r for r in self.reactions if r.until > now]

    def next_wakeup(self) -> float | None:
        """When the next bubble is to go (the page redraws then)."""
        return min((r.until for r in self.reactions), default=None)

    def expire(self, now: float) -> bool:
        """Forget the bubbles whose time is over; whether any went."""
        live = self.live(now)
        gone = len(live) != len(self.reactions)
        self.reactions = live
        return gone


class Refused(Exception):
    """A line or reaction the host does not pass on, with the sentence for its sender."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


@dataclass
class ChatRoom:
    """The host's side: the history, the limits per member, who is muted.

    ``log`` is what the host's own screen shows; ``say`` and ``react`` judge a
    member's line or reaction and return what to send everyone.
    """

    log: ChatLog = field(default_factory=ChatLog)
    muted: set[str] = field(default_factory=set)
    said: Window = field(default_factory=Window)
    reacted: Window = field(default_factory=Window)
    serial: int = 0

    def say(self, member: str, name: str, seat: int | None, text: str, now: float) -> Line:
        """A member's line, cleaned and stamped; ``Refused`` says why not."""
        if member in self.muted:
            raise Refused("chat-muted", MUTED)
        text = clean_chat(text)
        if not text:
            raise Refused("chat-empty", "That line holds nothing to show.")
        wait = self.said.wait(member, now)
        if wait:
            raise Refused("chat-slow", slow_down(wait))
        self.serial += 1
        line = Line(self.serial, member, name, seat, text)
        self.log.add([line])
        return line

    def react(self, member: str, emoji: str, now: float) -> None:
        """Whether a member's reaction goes out; ``Refused`` says why not."""
        if member in self.muted:
            raise Refused("chat-muted", MUTED)
        if emoji not in REACTIONS:
            raise Refused("chat-reaction", "There is no such reaction.")
        wait = self.reacted.wait(member, now)
        if wait:
            raise Refused("chat-slow", slow_down(wait, "reactions"))

    def history(self) -> list[ChatLines]:
        """The kept lines as ``chat`` messages for a newcomer: the first replaces
        whatever it held, the rest follow (none when nothing was said)."""
        lines = [line.to_json() for line in self.log.lines]
        return [
            {"t": "chat", "lines": lines[i : i + CHUNK], "whole": i == 0}
            for i in range(0, len(lines), CHUNK)
        ]

    def carry_on(self, log: ChatLog) -> None:
        """A successor keeps the lines its guest side was shown, and counts on from them."""
        self.log.lines = list(log.lines)
        self.serial = max((line.n for line in log.lines), default=0)
