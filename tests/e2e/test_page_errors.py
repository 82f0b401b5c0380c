"""The error net every browser test stands on: each way a page can go wrong is caught.

Each fault is planted on purpose, seen as unexpected, then declared expected so
the test itself passes (the fixture's teardown fails any test left with an
unexpected one).
"""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .conftest import PageErrors, open_app


def quiet_page(new_page, base_url: str) -> Page:
    """A static page of the site (a rules page): no Python, so it loads at once."""
    page = new_page()
    page.goto(base_url + "static/rules/index.html")
    return page


def kinds(page_errors: PageErrors) -> list[str]:
    return [e.kind for e in page_errors.unexpected()]


def test_a_console_error_is_caught(new_page, base_url, page_errors) -> None:
    page = quiet_page(new_page, base_url)
    with page.expect_console_message(lambda m: m.type == "error"):
        page.evaluate("console.error('planted console error')")
    assert kinds(page_errors) == ["console"]
    page_errors.expect("planted console error")
    assert not page_errors.unexpected()


def test_an_uncaught_exception_is_caught(new_page, base_url, page_errors) -> None:
    page = quiet_page(new_page, base_url)
    with page.expect_event("pageerror"):
        page.evaluate("setTimeout(() => { throw new Error('planted uncaught error'); })")
    assert kinds(page_errors) == ["pageerror"]
    page_errors.expect("planted uncaught error")
    assert not page_errors.unexpected()


def test_a_bug_in_the_apps_python_is_caught(new_page, base_url, page_errors) -> None:
    """A button no handler knows: the engine's bridge (in its worker) answers with a
    sentence the page shows and a traceback it logs."""
    page = open_app(new_page(), base_url)
    page.evaluate(
        "document.querySelector('.lobby').insertAdjacentHTML('afterbegin',"
        " '<button id=planted data-action=planted-nonsense>Planted</button>')"
    )
    with page.expect_console_message(lambda m: m.type == "error"):
        page.click("#planted")
    expect(page.get_by_role("alert")).to_contain_text("Something went wrong")
    assert kinds(page_errors) == ["console"]
    assert "Traceback" in page_errors.unexpected()[0].text
    page_errors.expect("planted-nonsense")
    assert not page_errors.unexpected()


def test_a_bug_in_the_event_glue_is_shown_as_a_sentence(new_page, base_url, page_errors) -> None:
    """A page event the glue cannot read (a throw with no detail: null where it expects
    an object) meets the one error boundary of every page event: a sentence for the
    player, the error in the console, no uncaught error, and the page plays on."""
    page = open_app(new_page(), base_url)
    with page.expect_console_message(lambda m: m.type == "error"):
        page.evaluate(
            "document.querySelector('#screen').dispatchEvent("
            "new CustomEvent('quandary:throw', {detail: null}))"
        )
    expect(page.get_by_role("alert")).to_contain_text("Something went wrong")
    page.click('[data-action="choose-game"][data-game="royal"]')
    expect(page.locator("#setup-title")).to_have_text("Set up Royal Dilemma")
    assert kinds(page_errors) == ["console"]
    page_errors.expect("Cannot convert undefined or null")
    assert not page_errors.unexpected()
