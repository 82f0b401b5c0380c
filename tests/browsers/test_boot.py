"""The real page boots in Firefox and WebKit with no error."""

from __future__ import annotations


def test_the_page_boots_to_its_lobby(new_tab, site_url) -> None:
    tab = new_tab().open(site_url)
    tab.shown("#start")
    assert tab.evaluate("() => localStorage.getItem('quandary:bot-speed')") == "instant"


def test_a_page_reloaded_while_its_engine_starts_says_nothing_and_starts_again(
    new_tab, site_url, page_errors
) -> None:
    """Leaving a page while its engine boots is not a failure: the page being left
    shows no failure screen, and the reloaded one boots. (Firefox reports, for the
    page being left, that its worker could not finish importing Pyodide's runtime;
    nothing of it reaches the page that replaces it; so, for the page being left, of
    any of its own modules still coming, such as PyScript's settings reader.)"""
    page_errors.expect(
        r"error loading dynamically imported module: \S*/static/v/[0-9a-f]+/\S+\.m?js$"
    )
    tab = new_tab()
    tab.goto(site_url)
    tab.wait("() => document.querySelector('#boot-progress')?.value >= 5")
    tab.reload()
    tab.ready()
    tab.shown("#start")
    assert tab.evaluate("() => document.getElementById('boot-error').hidden") is True
