"""The end screen's chart: every player's score after each round, drawn as SVG.

Our own few lines rather than a charting library: the chart is small (a line
per player, at most a few dozen rounds), must fit a 360 px phone, and must
read without colour and without sight. So each player has a colour *and* a
marker shape (the legend shows both, with the name), and the same numbers sit
in a table that screen readers read while the drawing itself is hidden from
them. Every name and number goes through ``markup``: a name typed on another
device is text here, never markup.

>>> chart = score_chart([[1, 0], [3, 2]], ["Ada", "Bo <b>"], "round", viewer=0)
>>> "<th scope=\\"col\\">Bo &lt;b&gt;</th>" in chart, "<td>3</td>" in chart
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence

from quandary.web.html import EMPTY, Markup, attrs, join, markup

WIDTH, HEIGHT = 340, 180
"""The drawing's own units; it scales to its box (never wider than a phone)."""
LEFT, RIGHT, TOP, BOTTOM = 34, 10, 10, 26
"""Room for the score axis on the left and the round axis below."""

COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#8a6d00", "#56b4e9")
"""The Okabe-Ito colours (told apart with colour-blindness), darkened to read on white."""
MARKERS = ("circle", "square", "triangle", "diamond", "cross", "bar")
"""One shape per seat, so the lines are told apart without colour too."""
MARKED_POINTS = 16
"""More rounds than this and only every few points carry a marker (the line stays whole)."""


def score_chart(
    history: Sequence[Sequence[int]], names: Sequence[str], unit: str, viewer: int | None
) -> Markup:
    """A figure with the chart, its legend and the same numbers as a table.

    ``history[i][seat]`` is ``seat``'s score after round ``i + 1``; ``unit`` is
    what the game calls a round ("round", "turn", "challenge"). Nothing when
    there is no round to show.
    """
    if not history:
        return EMPTY
    labels = [
        f"{n} (you)" if s == viewer and n.casefold() != "you" else n for s, n in enumerate(names)
    ]
    caption = f"Scores after each {unit}"
    return markup(
        '<figure class="score-chart">'
        '<figcaption class="chart-title">{}</figcaption>'
        '<svg viewBox="0 0 {} {}" class="chart" aria-hidden="true" focusable="false">{}</svg>'
        '<ul class="chart-legend" aria-hidden="true">{}</ul>'
        '<table class="sr-only chart-numbers"><caption>{}</caption>'
        '<thead><tr><th scope="col">{}</th>{}</tr></thead><tbody>{}</tbody></table>'
        "</figure>",
        caption,
        WIDTH,
        HEIGHT,
        _drawing(history, len(names), unit),
        join(_legend_item(seat, label) for seat, label in enumerate(labels)),
        caption,
        unit.capitalize(),
        join(markup('<th scope="col">{}</th>', label) for label in labels),
        join(
            markup(
                '<tr><th scope="row">{}</th>{}</tr>',
                number,
                join(markup("<td>{}</td>", score) for score in scores),
            )
            for number, scores in enumerate(history, start=1)
        ),
    )


def _drawing(history: Sequence[Sequence[int]], players: int, unit: str) -> Markup:
    """Axes, grid, one line and its markers per seat."""
    scale = _Scale(
        len(history), min(0, *(min(h) for h in history)), max(1, *(max(h) for h in history))
    )
    grid = join(
        markup(
            '<line class="grid" x1="{}" y1="{}" x2="{}" y2="{}"/>'
            '<text class="tick" x="{}" y="{}" text-anchor="end">{}</text>',
            LEFT,
            _fmt(scale.y(value)),
            WIDTH - RIGHT,
            _fmt(scale.y(value)),
            LEFT - 4,
            _fmt(scale.y(value) + 4),
            value,
        )
        for value in scale.y_ticks()
    )
    rounds = join(
        markup(
            '<text class="tick" x="{}" y="{}" text-anchor="middle">{}</text>',
            _fmt(scale.x(number)),
            HEIGHT - BOTTOM + 14,
            number,
        )
        for number in scale.x_ticks()
    )
    axis = markup(
        '<text class="axis" x="{}" y="{}" text-anchor="end">{}</text>',
        WIDTH - RIGHT,
        HEIGHT - 2,
        unit,
    )
    lines = join(_line(history, seat, scale) for seat in range(players))
    return grid + rounds + axis + lines


def _line(history: Sequence[Sequence[int]], seat: int, scale: _Scale) -> Markup:
    """One seat's scores as a line with its markers (every few, when rounds are many)."""
    points = [(scale.x(n), scale.y(h[seat])) for n, h in enumerate(history, start=1)]
    every = 1 + (len(points) - 1) // MARKED_POINTS
    marked = [p for i, p in enumerate(points) if i % every == 0 or i == len(points) - 1]
    colour = COLOURS[seat % len(COLOURS)]
    path = " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in points)
    return markup(
        '<g class="series"{}><polyline points="{}" fill="none" stroke-width="2"/>{}</g>',
        attrs(stroke=colour, fill=colour, data_seat=seat),
        path,
        join(_marker(MARKERS[seat % len(MARKERS)], x, y) for x, y in marked),
    )


def _marker(shape: str, x: float, y: float) -> Markup:
    """A small shape centred on (x, y), in the series' colour."""
    if shape == "circle":
        return markup('<circle cx="{}" cy="{}" r="3.5"/>', _fmt(x), _fmt(y))
    if shape == "square":
        return markup('<rect x="{}" y="{}" width="7" height="7"/>', _fmt(x - 3.5), _fmt(y - 3.5))
    corners = {
        "triangle": ((0, -4.5), (4.5, 3.5), (-4.5, 3.5)),
        "diamond": ((0, -4.5), (4.5, 0), (0, 4.5), (-4.5, 0)),
        "cross": (
            (-4, -1.5),
            (-1.5, -1.5),
            (-1.5, -4),
            (1.5, -4),
            (1.5, -1.5),
            (4, -1.5),
            (4, 1.5),
            (1.5, 1.5),
            (1.5, 4),
            (-1.5, 4),
            (-1.5, 1.5),
            (-4, 1.5),
        ),
        "bar": ((-4.5, -2), (4.5, -2), (4.5, 2), (-4.5, 2)),
    }[shape]
    return markup(
        '<polygon points="{}"/>', " ".join(f"{_fmt(x + dx)},{_fmt(y + dy)}" for dx, dy in corners)
    )


def _legend_item(seat: int, label: str) -> Markup:
    """A name beside its marker and a stroke of its colour."""
    colour = COLOURS[seat % len(COLOURS)]
    return markup(
        '<li><svg viewBox="-10 -6 20 12" width="24" height="14"{}>'
        '<line x1="-10" y1="0" x2="10" y2="0" stroke-width="2"/>{}</svg>{}</li>',
        attrs(stroke=colour, fill=colour),
        _marker(MARKERS[seat % len(MARKERS)], 0, 0),
        label,
    )


class _Scale:
    """From rounds and scores to the drawing's units (scores grow upwards)."""

    def __init__(self, rounds: int, low: int, high: int) -> None:
        self.rounds, self.low, self.high = rounds, low, high
        self.step = _nice_step(high - low)
        self.low = self.step * (low // self.step)
        self.high = self.step * -(-high // self.step)

    def x(self, number: int) -> float:
        span = WIDTH - LEFT - RIGHT - 8
        if self.rounds == 1:
            return LEFT + 4 + span / 2
        return LEFT + 4 + span * (number - 1) / (self.rounds - 1)

    def y(self, score: int) -> float:
        return TOP + (HEIGHT - TOP - BOTTOM) * (self.high - score) / (self.high - self.low)

    def y_ticks(self) -> range:
        return range(self.low, self.high + 1, self.step)

    def x_ticks(self) -> list[int]:
        """At most nine round numbers, the first and the last among them, never
        closer than the step between the others: on a phone two labels closer
        than that run into each other (9 and 10 of a ten-round game did).

        >>> _Scale(10, 0, 5).x_ticks(), _Scale(9, 0, 5).x_ticks(), _Scale(2, 0, 5).x_ticks()
        ([1, 3, 5, 7, 10], [1, 3, 5, 7, 9], [1, 2])
        """
        every = 1 + (self.rounds - 1) // 8
        ticks = list(range(1, self.rounds + 1, every))
        if ticks[-1] != self.rounds:
            # The last step is short: the final round takes the place of the tick before
            # it (never the first: with two rounds or more, there are two ticks here).
            ticks[-1] = self.rounds
        return ticks


def _nice_step(span: int) -> int:
    """A round step that cuts ``span`` into at most five parts: 1, 2, 5, 10, 20…

    >>> _nice_step(4), _nice_step(18), _nice_step(60)
    (1, 5, 20)
    """
    magnitude = 1
    while True:
        for factor in (1, 2, 5):
            if span <= 5 * factor * magnitude:
                return factor * magnitude
        magnitude *= 10


def _fmt(value: float) -> str:
    """A coordinate with one decimal at most: short markup, no visible rounding."""
    return f"{value:.1f}".removesuffix(".0")
