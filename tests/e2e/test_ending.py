"""The end of a game in the real page: why the winner won, the chart, the whole log.

One short game (The Game of Dilemmas against two bots) to its end screen: the
why-sentence and the chart are there, the log opened during play stays open
across redraws, lists the game oldest first, and downloads as a text file
under the page's own Content-Security-Policy.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import expect

from .conftest import open_app
from .play import acknowledge_round, build_first, set_seats, vote_first_allowed


def chart_numbers(chart) -> list[list[int]]:
    """The scores after each round, as the chart's table gives them to screen readers."""
    rows = chart.locator("table.chart-numbers tbody tr")
    return [
        [int(n) for n in rows.nth(i).locator("td").all_inner_texts()] for i in range(rows.count())
    ]


def expected_why(history: list[list[int]]) -> re.Pattern[str]:
    """The why-sentence the page must show, worked out here from the chart's numbers alone.

    The story is the first top scorer's (the viewer, Robin, is seat 0: "you"): the
    round from which they were never behind, what they scored in it, and whether
    they were alone at the top since; a lead taken in round 5 is the last round's.
    Whether that round's best dilemma was tied the chart cannot tell: both forms pass.
    """
    final = history[-1]
    seat = final.index(max(final))
    who, them = ["You", "Bot Ada", "Bot Bo"][seat], ["you", "Bot Ada", "Bot Bo"][seat]
    was = "were" if seat == 0 else "was"
    since = next(
        n
        for n in range(1, len(history) + 1)
        if all(row[seat] == max(row) for row in history[n - 1 :])
    )
    alone = all(
        all(v < row[seat] for s, v in enumerate(row) if s != seat) for row in history[since - 1 :]
    )
    points = history[since - 1][seat] - (history[since - 2][seat] if since > 1 else 0)
    if points <= 0:  # nothing scored in round 1: everyone level, nobody led
        return re.compile(re.escape(f"{who} {was} never behind, from round {since} to the end."))
    top = "ahead" if alone else "level at the top"
    if since == len(history):
        tail = f", the last, which {'moved' if alone else 'brought'} {them} {top}"
    else:
        tail = ", and led alone from then on" if alone else f", and {was} never behind from then on"
    return re.compile(
        re.escape(f"{who} scored {points} point{'s' if points != 1 else ''} with ")
        + "(the most controversial dilemma|a dilemma tied for the most controversial)"
        + re.escape(f" of round {since}{tail}.")
    )


def test_the_end_screen_tells_the_story_and_the_log_downloads(new_page, base_url) -> None:
    page = open_app(new_page(viewport={"width": 360, "height": 740}), base_url)
    set_seats(page, [("Robin", "human"), ("Bot Ada", "bot:random"), ("Bot Bo", "bot:random")])
    page.click("#start")
    log = page.locator("details#log")
    for number in range(1, 6):
        build_first(page)
        if number == 1:
            page.locator("#log summary").click()
            expect(log).to_have_attribute("open", "")
        vote_first_allowed(page)
        # The result is on screen, not yet stepped through: the log does not tell it.
        expect(page.get_by_role("heading", name=f"Round {number}: the votes")).to_be_visible()
        expect(log).to_have_attribute("open", "")  # redrawn twice since it was opened
        expect(log.locator("li", has_text=f"Round {number}:")).to_have_count(0)
        acknowledge_round(page, number)
        expect(log.locator("li", has_text=f"Round {number}:")).to_have_count(1)
    final = page.locator(".final")
    expect(final).to_be_visible()
    expect(final.locator(".why")).to_contain_text(".")
    chart = final.locator(".score-chart")
    expect(chart.locator("svg.chart polyline")).to_have_count(3)
    expect(chart.locator("table.chart-numbers tbody tr")).to_have_count(5)
    expect(chart.get_by_role("table")).to_have_count(1)
    expect(final.locator(".why")).to_have_text(expected_why(chart_numbers(chart)))
    assert chart.locator("svg.chart").bounding_box()["width"] <= 360
    expect(page.locator("#leave")).to_have_count(0)  # no "Save and leave" at the end
    expect(final.get_by_role("button", name="Play again")).to_be_visible()
    expect(log).to_have_attribute("open", "")
    expect(log.locator("li").first).to_have_text("Round 1 begins.")
    expect(log.locator("li").last).to_contain_text("The game is over")
    with page.expect_download() as info:
        page.get_by_role("button", name="Download the log").click()
    download = info.value
    assert download.suggested_filename == "the-game-of-dilemmas-log.txt"
    text = Path(download.path()).read_text(encoding="utf-8")
    assert text.startswith("The Game of Dilemmas\nPlayers: Robin, Bot Ada and Bot Bo\n")
    assert "\n1. Round 1 begins.\n" in text
    assert text.rstrip().splitlines()[-1].split(". ", 1)[1].startswith("The game is over")
