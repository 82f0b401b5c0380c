"""A room's chat panel and reaction bubbles (net/chat.py keeps what they show).

Names and lines come from other devices: they are hostile text, and only ever
reach the page through ``markup`` and ``attrs``. The panel is a ``details``
the player opens and closes (the page opens it at first on a wide screen and
keeps it as the player leaves it); a polite live region says each new line, so
a screen reader hears it with the panel closed too.
"""

from __future__ import annotations

from collections.abc import Sequence

from quandary.net.chat import MAX_CHAT, REACTION_NAMES, REACTIONS, Line, Reaction
from quandary.web.html import EMPTY, Markup, attrs, join, markup, stamped


def reaction_bubble(reaction: Reaction) -> Markup:
    """A reaction by its sender's name; a new id for each, so the page shows it anew."""
    return markup(
        '<span class="reaction" id="reaction-{}" role="img" aria-label="{} reacts: {}">{}</span>',
        reaction.n,
        reaction.name,
        REACTION_NAMES.get(reaction.emoji, "a reaction"),
        reaction.emoji,
    )


def chat_panel(
    lines: Sequence[Line],
    me: str | None,
    unread: int,
    note: str | None,
    muted: bool,
) -> Markup:
    """The reactions, and the panel of lines with the field to say one.

    ``unread``: lines that arrived while the panel was closed (the badge).
    ``note``: why this device's last line or reaction was not sent.
    """
    buttons = join(
        markup(
            '<button type="button" class="react" data-action="chat-react" data-emoji="{}"'
            ' id="react-{}" title="{}" aria-label="React: {}"{}>{}</button>',
            emoji,
            i,
            REACTION_NAMES[emoji],
            REACTION_NAMES[emoji],
            attrs(disabled=muted),
            emoji,
        )
        for i, emoji in enumerate(REACTIONS)
    )
    items = join(
        markup(
            '<li{}><span class="chat-name">{}</span>: <span class="chat-text">{}</span></li>',
            attrs(class_="chat-line mine" if line.member == me else "chat-line"),
            line.name,
            line.text,
        )
        for line in lines
    )
    badge = (
        markup(
            ' <span class="chat-unread" id="chat-unread">{}<span class="sr-only"> unread</span>'
            "</span>",
            unread,
        )
        if unread
        else EMPTY
    )
    said = (
        markup('<ol class="chat-lines" id="chat-lines">{}</ol>', items)
        if lines
        else Markup('<p class="chat-empty">Nothing said yet.</p>')
    )
    newest = lines[-1] if lines else None
    live = markup("{}: {}", newest.name, newest.text) if newest is not None else EMPTY
    return stamped(
        markup(
            '<section class="chat-box" aria-label="Chat">'
            '<div class="reactions" role="group" aria-label="Reactions">{}</div>'
            '<details class="chat" id="chat"><summary>Chat{}</summary>'
            '<div class="chat-scroll">{}</div>'
            '<form class="chat-form" id="chat-form" data-action="chat-send">'
            '<input type="text" id="chat-text" name="text" autocomplete="off"'
            ' aria-label="Your message" placeholder="Say something…"{}>'
            '<button type="submit" id="chat-send"{}>Send</button></form></details>'
            '<p class="chat-note" id="chat-note" role="status">{}</p>'
            '<p class="sr-only" id="chat-live" aria-live="polite">{}</p></section>',
            buttons,
            badge,
            said,
            attrs(maxlength=MAX_CHAT, disabled=muted),
            attrs(disabled=muted),
            note or "",
            live,
        )
    )
