"""The log of one game as this device tells it: complete, in order, never ahead of the screen.

A view carries only the last few events, each numbered in the whole game; a
device gathers them view after view (and, holding the game itself, takes the
whole log at once), so the "What happened" panel can list everything from the
first event, oldest first. A round result the players have not stepped through
yet is not in the list: the panel would otherwise tell the outcome before its
screen does. The same lines make the text file a player can download.

>>> log = GameLog()
>>> log.gather([{"kind": "a", "data": {}, "index": 1}, {"kind": "b", "data": {}, "index": 2}], 5)
>>> [e["index"] for e in log.shown(0, frozenset())], log.complete()
([1, 2], False)
>>> log.gather([{"kind": "start", "data": {}, "index": 0}], 0)  # a new game: the old one goes
>>> [e["kind"] for e in log.shown(0, frozenset())], log.complete()
(['start'], True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import count

from quandary.engine import LogEntry

from .html import EMPTY, Markup, join, markup, stamped
from .phrases import Cast, names_list

_REVISIONS = count()
"""Every log's revisions, from one count: a new log never repeats an old one's."""


class GameLog:
    """Every event of one game this device has seen, by its index in the game."""

    def __init__(self) -> None:
        self.entries: dict[int, LogEntry] = {}
        self.version = -1
        self.revision = next(_REVISIONS)
        """Changes with every event kept that was not here as it is, and differs from
        every other log's: what the panel drawn from it was made of (``Remembered``)."""
        self._said: tuple[object, dict[int, tuple[LogEntry, str | None]]] = (None, {})
        """Each event's line as last told, with the words it was told in (``lines``)."""

    def gather(self, entries: Iterable[LogEntry], version: int) -> None:
        """Keep the entries of a view (or the whole log) at ``version`` of the game.

        A version lower than one already seen is a new game (the table restarted
        it): the old game's events go.
        """
        if version < self.version:
            self.entries = {}
            self.revision = next(_REVISIONS)
        self.version = version
        for entry in entries:
            index = entry["index"]
            if self.entries.get(index) != entry:
                self.entries[index] = entry
                self.revision = next(_REVISIONS)

    def lines(
        self, unseen: int, result_events: frozenset[str], describe: Describe, cast: Cast
    ) -> list[str]:
        """The lines of the events ``shown``, in words (``lines``).

        Each event is told once for the same words and names: the panel is drawn
        again after every move, and telling every event of the game again was most
        of its time. An event kept anew (another object) is told anew.
        """
        words = (describe, tuple(cast.names), cast.viewer)
        if self._said[0] != words:
            self._said = (words, {})
        said = self._said[1]
        out = []
        for entry in self.shown(unseen, result_events):
            told = said.get(entry["index"])
            if told is None or told[0] is not entry:
                told = (entry, line_of(entry, describe, cast))
                said[entry["index"]] = told
            if told[1]:
                out.append(told[1])
        return out

    def complete(self) -> bool:
        """Whether every event since the game's first is here (a late joiner misses some)."""
        return not self.entries or (
            min(self.entries) == 0 and max(self.entries) == len(self.entries) - 1
        )

    def shown(self, unseen: int, result_events: frozenset[str]) -> list[LogEntry]:
        """The events to show, oldest first, stopping before the ``unseen`` last results.

        ``result_events`` are the kinds that open a result the players step
        through (a reveal of votes, of choices): the ``unseen`` last of them,
        and everything after, wait until the players have seen those results.
        """
        ordered = [self.entries[i] for i in sorted(self.entries)]
        if unseen <= 0:
            return ordered
        starts = [n for n, e in enumerate(ordered) if e["kind"] in result_events]
        cut = starts[-unseen] if len(starts) >= unseen else (starts[0] if starts else len(ordered))
        return ordered[:cut]


Describe = Callable[[LogEntry, Cast], str | None]


REDEALT = (
    "The host left: the cards none of the players still here had seen were shuffled"
    " and dealt again."
)
"""The line for a room successor's deal (net/succession.py), the same in every game."""


def lines(entries: Sequence[LogEntry], describe: Describe, cast: Cast) -> list[str]:
    """The entries worth a line, in words (``describe`` is the game's; a successor's
    deal is every game's alike)."""
    return [line for e in entries if (line := line_of(e, describe, cast))]


def line_of(entry: LogEntry, describe: Describe, cast: Cast) -> str | None:
    """One entry in words, or None if it is not worth a line."""
    return REDEALT if entry["kind"] == "redealt" else describe(entry, cast)


MISSING = "Earlier events happened before this device joined the game."


def log_panel(shown: list[str], complete: bool) -> Markup:
    """Everything that happened, oldest first, and the button to save it as a text file.

    The panel keeps one id whatever the screen, so the page can keep it open
    across redraws while the player reads it (see ``static/js/draw.entry.js``).
    """
    if not shown:
        return EMPTY
    items = join(markup("<li>{}</li>", line) for line in shown)
    return stamped(
        markup(
            '<details class="log" id="log"><summary>What happened</summary>{}'
            # Focusable: it scrolls, and a keyboard must be able to scroll it too.
            '<ol class="log-lines" id="log-lines" tabindex="0" aria-label="The whole game">{}</ol>'
            '<p class="log-tools"><button type="button" class="quiet" data-action="download-log"'
            ' id="download-log">Download the log</button></p></details>',
            EMPTY if complete else markup('<p class="hint">{}</p>', MISSING),
            items,
        )
    )


def log_text(title: str, names: Sequence[str], shown: list[str], complete: bool) -> str:
    """The log as a plain text file: the game, who played, then one numbered line each.

    >>> print(log_text("Royal Dilemma", ["Ada", "Bo"], ["Round 1 begins.", "Ada wins."], True))
    Royal Dilemma
    Players: Ada and Bo
    <BLANKLINE>
    1. Round 1 begins.
    2. Ada wins.
    <BLANKLINE>
    """
    head = [title, f"Players: {names_list(list(names))}", ""]
    if not complete:
        head.append(MISSING)
    body = [f"{n}. {line}" for n, line in enumerate(shown, start=1)]
    return "\n".join(head + body) + "\n"


def log_file_name(title: str) -> str:
    """A file name from the game's title: "royal-dilemma-log.txt".

    >>> log_file_name("The Game of Dilemmas")
    'the-game-of-dilemmas-log.txt'
    """
    words = "".join(c if c.isalnum() else " " for c in title.casefold()).split()
    return "-".join([*words, "log"]) + ".txt"
