"""Benchmark: how long a newcomer's first Maybe Minister game takes, screen by screen.

Run as ``.venv/bin/python -m bench.minister_newcomer [--games N] [--wpm W]`` (with
``PYTHONPATH=py`` in a worktree whose .venv belongs to another checkout, or that
checkout's code is measured). Plays N seeded games through the app's real
``Controller``, as the lobby sets a first game up (you and two bots, Maybe
Minister's defaults, the page's bot speed "normal"), and clicks every step the way
the page's buttons do. The heuristic bot chooses the newcomer's moves, so the game
lasts as long as a sensible player's; the newcomer's time comes from the screens
actually drawn, on a virtual clock (an earlier model priced each kind of decision
at a fixed number of seconds and never looked at a screen: it could not see what
reading costs, which is most of a first game):

reading   the words on a screen the newcomer acts on (a turn step, or a reveal to
          read and Continue from) that they have not read yet, at
          ``WORDS_PER_MINUTE``. Words are those a sighted player sees: tags,
          screen-reader-only text, closed ``<details>`` (their summary excepted)
          and hidden elements are dropped; each icon counts as one word. The
          screen is cut into blocks (a paragraph, a list item, a button, a card):
          a block read on an earlier screen, unchanged, is recognised wherever it
          stands now and costs nothing; of the other blocks only the words that
          changed since the previous screen acted on count (a word diff), so a
          count going from 64 to 63 is one word to read, and a sentence repeated
          unchanged on every screen is paid for once.
deciding  ``DECIDE_BASE_S + DECIDE_PER_BIT_S * log2(n)`` for a choice among the n
          moves the screen offers (Hick-Hyman law): the proposals its hand can be
          drafted into, its stored votes, or its enabled buttons that are whole
          moves; nothing for a single button. The heuristic bot chooses among
          those same n moves.
clicking  ``CLICK_S`` per click the real UI needs for the move: a card drafted per
          card then Propose, a vote then Cast, one button for the other steps, one
          Continue per reveal.
waiting   the time the newcomer has nothing to do while bots take their moment
          (``Table.think_time`` at the page's speed, the same seeded moments the page
          waits; a bot's moment runs on while the newcomer reads), plus each reveal's
          animation (``REVEAL_MS`` and its steps: the ballots turn over before they can
          be read; the page never blocks a click for any other motion).

Reading never overlaps waiting: text shown only while bots think is read on the
next screen the newcomer acts on, if it is still there. Scrolling, looking for a
button and reading the rules page are not modelled; the Undo button is never used.
Prints and writes ``bench/results-minister-newcomer.json`` (git-ignored, as every
bench result): per game and per kind of step where the minutes go, and the mean,
median and max over the games.
"""

from __future__ import annotations

import argparse
import difflib
import html
import json
import math
import re
import statistics
import time
from collections import defaultdict
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import quandary.games  # noqa: F401  (fills the game and bot registries)
from quandary.bots import bot_rng
from quandary.games.minister.bots import HeuristicBot
from quandary.table import BotSpeed
from quandary.web.controller import Controller
from quandary.web.render.table import REVEAL_LAST_STEP, REVEAL_MS, REVEAL_STEP_MS
from quandary.web.storage import MemoryStorage

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results-minister-newcomer.json"
WORDS_PER_MINUTE = 200
"""A newcomer reading a game's instructions carefully (adults read prose at 200-250)."""
DECIDE_BASE_S = 1.0
DECIDE_PER_BIT_S = 2.0
"""Hick-Hyman: seconds to weigh a choice among n moves are base + per bit * log2(n).
The per-bit cost is a newcomer's weighing of game consequences, ten times a
reaction-time experiment's 0.2 s: choosing a proposal among 21 takes 9.8 s."""
CLICK_S = 1.0
"""One pointer action: move to a button and press it."""
REVEAL_ANIMATION_MS = REVEAL_MS + REVEAL_LAST_STEP * REVEAL_STEP_MS
Block = tuple[str, ...]
"""The words of one block of text, as seen."""
CATEGORIES = ("reading", "deciding", "clicking", "waiting")
SPEED: BotSpeed = "normal"
"""The bot speed the page starts with (``web/bridge.py``)."""


# -- what a sighted player sees -------------------------------------------------------


VOID = frozenset(
    {"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
)
BLOCKS = frozenset(
    {"p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "div", "section", "aside", "ol", "ul"}
    | {"button", "summary", "details", "label", "legend", "table", "tr", "td", "th", "small"}
)
"""Elements that start a new block of text: a block is what the eye takes as one piece."""


class _Seen(HTMLParser):
    """Visible blocks of words of a page, in order: each icon (an ``svg``) is one word."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[Block] = []
        self.block: list[str] = []
        # (tag, visible inside it, visible around it): the second is what its children see.
        self.stack: list[tuple[str, bool, bool]] = []

    @property
    def visible(self) -> bool:
        return self.stack[-1][1] if self.stack else True

    def _break(self) -> None:
        if self.block:
            self.blocks.append(tuple(self.block))
            self.block = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VOID:
            return
        if tag in BLOCKS:
            self._break()
        a = dict(attrs)
        around = self.visible
        inside = around
        classes = (a.get("class") or "").split()
        if "sr-only" in classes or "hidden" in a or tag in ("script", "style", "template"):
            inside = False
        elif tag == "details" and "open" not in a:
            inside = False  # only its summary shows
        elif tag == "summary" and self.stack and self.stack[-1][0] == "details":
            inside = self.stack[-1][2]
        if tag == "svg" and around:
            self.block.append("[icon]")
            inside = False
        self.stack.append((tag, inside, around))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "svg" and self.visible:
            self.block.append("[icon]")

    def handle_endtag(self, tag: str) -> None:
        if tag in BLOCKS:
            self._break()
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        if self.visible:
            self.block.extend(data.split())


def seen_blocks(page: str) -> list[Block]:
    """The blocks of words a sighted player sees on ``page``, in reading order.

    >>> seen_blocks('<p>Hi <span class="sr-only">secret</span><b>there</b></p><p>you</p>')
    [('Hi', 'there'), ('you',)]
    >>> seen_blocks("<details><summary>Log</summary><ol><li>old news</li></ol></details>")
    [('Log',)]
    """
    parser = _Seen()
    parser.feed(page)
    parser.close()
    parser._break()
    return parser.blocks


def new_words(before: list[Block], after: list[Block], known: set[Block]) -> int:
    """How many words of the blocks ``after`` the newcomer has not read yet.

    A block read before (in ``known``), wherever it stands now, is recognised; of
    the others, only the words that changed since the blocks ``before`` count (a
    word diff: a count going from 64 to 63 is one word to read).

    >>> old = [("Turn", "1"), ("Deck:", "64")]
    >>> new_words(old, [("Deck:", "63"), ("Turn", "1"), ("Vote", "now")], set(old))
    3
    """
    return sum(n for _, n in new_words_by_block(before, after, known))


def new_words_by_block(
    before: list[Block], after: list[Block], known: set[Block]
) -> list[tuple[Block, int]]:
    """``new_words`` block by block: each unread block of ``after`` and its new words.

    >>> old = [("Turn", "1"), ("Deck:", "64")]
    >>> new_words_by_block(old, [("Deck:", "63"), ("Vote", "now")], set(old))
    [(('Deck:', '63'), 1), (('Vote', 'now'), 2)]
    """
    fresh = [b for b in after if b not in known]
    stale = [w for b in before if b not in set(after) for w in b]
    words = [w for b in fresh for w in b]
    owner = [i for i, b in enumerate(fresh) for _ in b]
    matcher = difflib.SequenceMatcher(None, stale, words, autojunk=False)
    paid = [0] * len(fresh)
    for op, _, _, j1, j2 in matcher.get_opcodes():
        if op in ("insert", "replace"):
            for j in range(j1, j2):
                paid[owner[j]] += 1
    return [(b, n) for b, n in zip(fresh, paid, strict=True) if n]


DIGITS = re.compile(r"\d+")


def pattern(block: Block, width: int = 90) -> str:
    """A block with its numbers as ``#``: the same sentence with another count is one row.

    >>> pattern(("Deck:", "63", "left"))
    'Deck: # left'
    """
    text = DIGITS.sub("#", " ".join(block))
    return text if len(text) <= width else text[: width - 1] + "…"


def decide_seconds(options: int) -> float:
    """Hick-Hyman: the time to weigh ``options`` moves (nothing for a single button)."""
    if options <= 1:
        return 0.0
    return DECIDE_BASE_S + DECIDE_PER_BIT_S * math.log2(options)


# -- the game, click by click ---------------------------------------------------------


def clicks_for(move: dict[str, Any]) -> list[tuple[str, dict[str, str]]]:
    """The page's clicks (action, data) that make ``move``, as its buttons send them."""
    if move["type"] == "propose":
        drafts = [("draft", {"card": card}) for card in move["cards"]]
        return [*drafts, ("submit", {})]
    if move["type"] == "vote":
        return [("draft", {"vote": move["vote"]}), ("submit", {})]
    return [("move", {"move": json.dumps(move, separators=(",", ":"))})]


MOVE_BUTTON = re.compile(r'<button[^>]*data-action="move"[^>]*>')


def choices(view: dict[str, Any], page: str) -> list[dict[str, Any]]:
    """The moves the screen offers the newcomer: every proposal the hand's cards can
    be drafted into, every stored vote, or else the enabled buttons that are whole
    moves (the store screen offers one drawn vote at a time, say)."""
    legal: list[dict[str, Any]] = view["legal_moves"]
    drafted = [m for m in legal if m["type"] in ("propose", "vote")]
    if drafted:
        for m in drafted:
            key, value = ("card", m["cards"][0]) if m["type"] == "propose" else ("vote", m["vote"])
            assert f'data-{key}="{value}"' in page, m
        return drafted
    shown = []
    for tag in MOVE_BUTTON.findall(page):
        found = re.search(r'data-move="([^"]*)"', tag)
        if found and " disabled" not in tag:
            shown.append(json.loads(html.unescape(found.group(1))))
    assert shown and all(m in legal for m in shown), (shown, legal)
    return shown


class Newcomer:
    """One first game at a newcomer's pace; ``steps`` holds what each screen cost."""

    def __init__(self, seed: int, wpm: float = WORDS_PER_MINUTE) -> None:
        self.seed = seed
        self.wpm = wpm
        self.clock = 0.0
        self.c = Controller(MemoryStorage(), lambda: seed, now=lambda: self.clock, speed=SPEED)
        self.c.dispatch("choose-game", {"game": "minister"})
        self.c.dispatch("start", {})
        self.before: list[Block] = []
        self.known: set[Block] = set()
        self.steps: list[dict[str, Any]] = []
        self.paid: list[tuple[str, str, int]] = []
        """(kind of step, block pattern, new words) for every block paid for."""
        self.bot = HeuristicBot()

    def play(self, limit: int = 5000) -> dict[str, Any]:
        """Play to the end screen; returns the game's summary."""
        for _ in range(limit):
            if self._finished():
                return self.summary()
            if self._reading_reveal() or self.c.awaited():
                self._act()
            else:
                self._wait()
        raise RuntimeError(f"seed {self.seed}: no end after {limit} screens")

    def _finished(self) -> bool:
        table = self.c.table
        assert table is not None
        return table.over and bool(self.c.seen >= table.state.reveals)

    def _reading_reveal(self) -> bool:
        table = self.c.table
        assert table is not None
        return bool(self.c.seen < table.state.reveals)

    def _wait(self) -> None:
        """Nothing for the newcomer to do: the clock runs to the next bot's move."""
        wake = self.c.next_wakeup()
        assert wake is not None, f"seed {self.seed}: the game waits for nobody"
        self._step("waiting", {"waiting": max(0.0, wake - self.clock) / 1000}, 0, 0)
        self.clock = max(self.clock, wake)
        self.c.on_clock()

    def _act(self) -> None:
        """Read what is new, decide, click; bots take their moments meanwhile."""
        page = str(self.c.render())
        blocks = seen_blocks(page)
        paid = new_words_by_block(self.before, blocks, self.known)
        fresh = sum(n for _, n in paid)
        self.before = blocks
        self.known.update(blocks)
        cost = {"reading": fresh * 60 / self.wpm, "deciding": 0.0, "clicking": CLICK_S}
        clicks: list[tuple[str, dict[str, str]]] = [("next", {})]
        if self._reading_reveal():
            kind = "reveal"
            cost["waiting"] = REVEAL_ANIMATION_MS / 1000
            options = 1
        else:
            table = self.c.table
            assert table is not None
            view = table.view(0)
            shown = choices(view, page)
            chooser = {**view, "legal_moves": shown}
            move = self.bot.choose(chooser, bot_rng(self.seed, 0, table.state.version))
            kind, clicks, options = move["type"], clicks_for(move), len(shown)
            cost["deciding"] = decide_seconds(options)
            cost["clicking"] = CLICK_S * len(clicks)
        self._step(kind, cost, fresh, options)
        self.paid.extend((kind, pattern(b), n) for b, n in paid)
        self._pass_time(sum(cost.values()))
        for action, data in clicks:
            self.c.dispatch(action, data)
            assert self.c.error is None, f"seed {self.seed}: {self.c.error}"

    def _pass_time(self, seconds: float) -> None:
        """The newcomer reads and chooses for ``seconds``; bots due meanwhile move."""
        end = self.clock + seconds * 1000
        while (wake := self.c.next_wakeup()) is not None and wake <= end:
            self.clock = max(self.clock, wake)
            self.c.on_clock()
        self.clock = end

    def _step(self, kind: str, cost: dict[str, float], words: int, options: int) -> None:
        row = {c: round(cost.get(c, 0.0), 3) for c in CATEGORIES}
        self.steps.append({"kind": kind, "words": words, "options": options, **row})

    def summary(self) -> dict[str, Any]:
        """Seconds by category and by kind of step, and the game's length."""
        by_kind: dict[str, dict[str, float]] = defaultdict(lambda: dict.fromkeys(CATEGORIES, 0.0))
        counts: dict[str, int] = defaultdict(int)
        words: dict[str, int] = defaultdict(int)
        for step in self.steps:
            counts[step["kind"]] += 1
            words[step["kind"]] += step["words"]
            for c in CATEGORIES:
                by_kind[step["kind"]][c] += step[c]
        totals = {c: sum(k[c] for k in by_kind.values()) for c in CATEGORIES}
        table = self.c.table
        assert table is not None
        return {
            "seed": self.seed,
            "turns": table.state.turn,
            "minutes": self.clock / 60_000,
            "seconds": totals,
            "steps": {
                k: {"count": counts[k], "words": words[k], **by_kind[k]} for k in sorted(by_kind)
            },
        }


def play(seed: int, wpm: float = WORDS_PER_MINUTE) -> dict[str, Any]:
    """One first game to its end screen, with where its minutes went, and (under
    ``"paid"``) every block read and its new words, for ``top_blocks``."""
    newcomer = Newcomer(seed, wpm)
    return {**newcomer.play(), "paid": newcomer.paid}


def top_blocks(games: list[dict[str, Any]], n: int) -> list[dict[str, Any]]:
    """The ``n`` block patterns that cost the most new words over ``games``: their
    words, how often they were paid for, and on which kinds of step."""
    words: dict[str, int] = defaultdict(int)
    times: dict[str, int] = defaultdict(int)
    kinds: dict[str, set[str]] = defaultdict(set)
    for g in games:
        for kind, text, count in g["paid"]:
            words[text] += count
            times[text] += 1
            kinds[text].add(kind)
    rows = sorted(words, key=lambda t: -words[t])[:n]
    return [
        {"block": t, "words": words[t], "times": times[t], "kinds": sorted(kinds[t])} for t in rows
    ]


# -- the report -----------------------------------------------------------------------


def spread(values: list[float]) -> dict[str, float]:
    """Mean, median and max, rounded for reading."""
    return {
        "mean": round(statistics.mean(values), 1),
        "median": round(statistics.median(values), 1),
        "max": round(max(values), 1),
    }


def report(games: list[dict[str, Any]]) -> dict[str, Any]:
    """The summary over ``games``: minutes, the share of each category, and per kind."""
    n = len(games)
    kinds = sorted({k for g in games for k in g["steps"]})
    per_kind = {}
    for k in kinds:
        rows = [g["steps"].get(k) for g in games]
        per_kind[k] = {
            "count": round(sum(r["count"] for r in rows if r) / n, 1),
            "words": round(sum(r["words"] for r in rows if r) / n, 1),
            **{c: round(sum(r[c] for r in rows if r) / n / 60, 2) for c in CATEGORIES},
        }
        per_kind[k]["minutes"] = round(sum(per_kind[k][c] for c in CATEGORIES), 2)
    return {
        "games": n,
        "model": {
            "words_per_minute": WORDS_PER_MINUTE,
            "decide_s": f"{DECIDE_BASE_S} + {DECIDE_PER_BIT_S} * log2(options), 0 for one",
            "click_s": CLICK_S,
            "bot_speed": SPEED,
            "reveal_animation_ms": REVEAL_ANIMATION_MS,
        },
        "minutes": spread([g["minutes"] for g in games]),
        "turns": spread([g["turns"] for g in games]),
        "minutes_by_category": {
            c: spread([g["seconds"][c] / 60 for g in games]) for c in CATEGORIES
        },
        "mean_minutes_by_kind": per_kind,
        "per_game": [
            {
                "seed": g["seed"],
                "turns": g["turns"],
                "minutes": round(g["minutes"], 1),
                **{c: round(g["seconds"][c] / 60, 1) for c in CATEGORIES},
            }
            for g in games
        ],
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Run the benchmark, print a summary and write the JSON results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="seeded games (default 20)")
    parser.add_argument("--wpm", type=float, default=WORDS_PER_MINUTE, help="reading speed")
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument(
        "--top", type=int, default=0, metavar="N", help="print the N blocks read the most"
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    games = [play(seed, args.wpm) for seed in range(1, args.games + 1)]
    out = report(games)
    out["model"]["words_per_minute"] = args.wpm
    out["took_s"] = round(time.perf_counter() - start, 1)
    if args.top:
        out["top_blocks"] = top_blocks(games, args.top)
    m = out["minutes"]
    print(
        f"{args.games} first games: minutes mean {m['mean']}, median {m['median']}, max {m['max']}"
    )
    for c, s in out["minutes_by_category"].items():
        print(f"  {c:9} mean {s['mean']:5.1f}  median {s['median']:5.1f}  max {s['max']:5.1f}")
    print("  per kind of step (mean minutes: reading / deciding / clicking / waiting):")
    for k, row in sorted(out["mean_minutes_by_kind"].items(), key=lambda kv: -kv[1]["minutes"]):
        parts = " / ".join(f"{row[c]:.2f}" for c in CATEGORIES)
        print(
            f"    {k:13} x{row['count']:5.1f} {row['minutes']:5.2f} min ({parts})"
            f" {row['words']:.0f} words"
        )
    if args.top:
        total = sum(count for g in games for _, _, count in g["paid"])
        print(f"  top {args.top} blocks of {total} new words read (numbers shown as #):")
        for row in out["top_blocks"]:
            print(
                f"    {row['words']:6} words x{row['times']:4} [{','.join(row['kinds'])}]"
                f" {row['block']}"
            )
    print(f"took {out['took_s']} s")
    if not args.no_write:
        RESULTS.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {RESULTS.relative_to(ROOT)}")
    return out


if __name__ == "__main__":
    main()
