"""The Game of Dilemmas' own card packs on this device: kept, edited, chosen, shared.

The packs are kept in one storage key (``KEY``) as JSON; each is checked by the
rules' own ``own_cards.parse_pack`` when it is read, saved or imported, so a
damaged entry or file never reaches a game. Which of them a game uses, and
how, becomes the game's ``own`` option: the packs' text itself, so a room's
guests play them without having them.

No ``js`` here: the controller hands this desk the setup's fields and actions,
and carries out the downloads it asks for.
"""

from __future__ import annotations

import contextlib
import json
import re
from dataclasses import dataclass, field
from typing import Any

from quandary.engine import BadSetup
from quandary.games.dilemmas.own_cards import (
    MAX_PACKS,
    NO_OWN,
    USES,
    OwnPack,
    pack_file,
    parse_pack,
    read_pack_file,
)

from .actions import Action, DownloadText
from .storage import Storage

GAME = "dilemmas"
"""The game whose setup has own packs."""
KEY = "quandary.packs.dilemmas"
"""Where this device keeps its own packs."""
OWN_ACTIONS = frozenset(
    {
        Action.OWN_NEW,
        Action.OWN_EDIT,
        Action.OWN_SAVE,
        Action.OWN_CANCEL,
        Action.OWN_DELETE,
        Action.OWN_DELETE_CONFIRM,
        Action.OWN_EXPORT,
    }
)
OWN_FIELDS = frozenset(
    {"own-pack", "own-use", "own-import", "own-name", "own-positive", "own-negative"}
)
MAX_KEPT = 30
"""The most packs one device keeps: enough for anyone, and a bounded storage entry."""
MAX_FILE = 200_000
"""The longest file text read as a pack (the page cuts anything longer first)."""


@dataclass
class Draft:
    """A pack being written: the name and one card per line, as typed."""

    id: str | None
    name: str = ""
    positive: str = ""
    negative: str = ""


@dataclass
class PackDesk:
    """The own packs, the one being edited and the ones chosen for the next game."""

    storage: Storage
    packs: dict[str, OwnPack] = field(default_factory=dict)
    chosen: list[str] = field(default_factory=list)
    use: str = "mix"
    draft: Draft | None = None
    error: str | None = None
    notice: str | None = None
    confirm_delete: str | None = None

    def __post_init__(self) -> None:
        self.packs = _load(self.storage)

    # -- what a game gets ---------------------------------------------------------

    def option(self) -> dict[str, Any]:
        """The ``own`` option for a game: the chosen packs' text, and how it is used."""
        packs = [_card_pack(self.packs[i]) for i in self.chosen if i in self.packs]
        if not packs and self.use == "mix":
            return dict(NO_OWN)
        # "Instead" with no pack chosen is refused by the rules, with the reason.
        return {"use": self.use, "packs": packs}

    # -- the setup's fields -------------------------------------------------------

    def change(self, name: str, data: dict[str, str]) -> bool:
        """A setup field of the own packs changed; returns whether to draw again."""
        value = data.get("value", "")
        self.notice = None
        if name == "own-pack":
            pack = data.get("pack", "")
            self.chosen = [c for c in self.chosen if c != pack]
            if data.get("checked") == "true" and pack in self.packs:
                if len(self.chosen) >= MAX_PACKS:
                    self.error = f"Choose at most {MAX_PACKS} of your own packs for one game."
                    return True
                self.chosen.append(pack)
            self.error = None
            return True
        if name == "own-use":
            self.use = value if value in USES else "mix"
            return True
        if name == "own-import":
            self._import(value)
            return True
        if self.draft is not None and name in ("own-name", "own-positive", "own-negative"):
            setattr(self.draft, name.removeprefix("own-"), value[:MAX_FILE])
        return False

    # -- the setup's buttons -------------------------------------------------------

    def act(self, action: Action, data: dict[str, str]) -> DownloadText | None:
        """One of the own packs' buttons was pressed; a download, if it asks for one."""
        pack = data.get("pack", "")
        if action == Action.OWN_NEW:
            self.new()
        elif action == Action.OWN_EDIT:
            self.edit(pack)
        elif action == Action.OWN_SAVE:
            self.save()
        elif action == Action.OWN_CANCEL:
            self.cancel()
        elif action == Action.OWN_DELETE:
            self.delete(pack)
        elif action == Action.OWN_DELETE_CONFIRM:
            self.delete_confirm(pack, data.get("yes") == "true")
        elif action == Action.OWN_EXPORT:
            return self.export(pack)
        return None

    def new(self) -> None:
        """Start writing a new pack."""
        self.draft, self.error, self.notice = Draft(None), None, None

    def edit(self, pack_id: str) -> None:
        """Open a kept pack to change it."""
        pack = self.packs.get(pack_id)
        if pack is not None:
            self.draft = Draft(
                pack_id,
                pack["name"],
                "\n".join(pack["positive"]),
                "\n".join(pack["negative"]),
            )
            self.error, self.notice = None, None

    def cancel(self) -> None:
        """Close the pack being written without keeping it."""
        self.draft, self.error = None, None

    def save(self) -> None:
        """Keep the pack being written, if it is a valid pack (else say why)."""
        draft = self.draft
        if draft is None:
            return
        raw = {
            "name": draft.name,
            "positive": _lines(draft.positive),
            "negative": _lines(draft.negative),
        }
        try:
            pack = parse_pack(raw)
        except BadSetup as exc:
            self.error = exc.message
            return
        pack_id = draft.id or self._new_id()
        if draft.id is None and len(self.packs) >= MAX_KEPT:
            self.error = f"This device keeps {MAX_KEPT} packs: delete one to make another."
            return
        if self._keep({**self.packs, pack_id: pack}):
            self.draft, self.error = None, None
            self.notice = f"The pack {pack['name']} is kept on this device."
            if draft.id is None and len(self.chosen) < MAX_PACKS:
                self.chosen.append(pack_id)

    def delete(self, pack_id: str) -> None:
        """The first press asks; ``delete_confirm`` deletes."""
        if pack_id in self.packs:
            self.confirm_delete = pack_id

    def delete_confirm(self, pack_id: str, yes: bool) -> None:
        """Delete the pack (``yes``), or keep it after all."""
        if yes and pack_id == self.confirm_delete and pack_id in self.packs:
            packs = {k: v for k, v in self.packs.items() if k != pack_id}
            if self._keep(packs):
                self.chosen = [c for c in self.chosen if c != pack_id]
                if self.draft is not None and self.draft.id == pack_id:
                    self.draft = None
        self.confirm_delete = None

    def export(self, pack_id: str) -> DownloadText | None:
        """The pack as a file to download."""
        pack = self.packs.get(pack_id)
        if pack is None:
            return None
        slug = re.sub(r"[^a-z0-9]+", "-", pack["name"].casefold()).strip("-") or "pack"
        return DownloadText(f"{slug}.dilemmas-pack.json", pack_file(_card_pack(pack)))

    # -- keeping ------------------------------------------------------------------

    def _import(self, text: str) -> None:
        """Keep the pack in a file's text; a damaged or foreign file changes nothing."""
        try:
            # The page sends nothing for a file it would not read (too large, unreadable).
            if len(text) > MAX_FILE or not text.strip():
                raise BadSetup("That file is empty or too large to be a card pack.")
            pack = read_pack_file(text)
        except BadSetup as exc:
            self.error = exc.message
            return
        if len(self.packs) >= MAX_KEPT:
            self.error = f"This device keeps {MAX_KEPT} packs: delete one to import another."
            return
        names = {p["name"].casefold() for p in self.packs.values()}
        base, n = pack["name"], 2
        while pack["name"].casefold() in names:
            pack["name"] = f"{base[:35]} ({n})"
            n += 1
        pack_id = self._new_id()
        if self._keep({**self.packs, pack_id: pack}):
            self.error = None
            self.notice = f"The pack {pack['name']} was imported."

    def _new_id(self) -> str:
        numbers = [int(k[1:]) for k in self.packs if k[1:].isdigit()]
        return f"p{max(numbers, default=0) + 1}"

    def _keep(self, packs: dict[str, OwnPack]) -> bool:
        """Store ``packs``; a full storage keeps the old ones and says so."""
        try:
            self.storage.set(KEY, json.dumps(packs, ensure_ascii=False))
        except Exception:  # noqa: BLE001 - quota errors differ by browser
            self.error = "This device's storage is full: the pack is not kept."
            return False
        self.packs = packs
        return True


def _card_pack(pack: OwnPack) -> OwnPack:
    """A kept pack as the game option holds it (name and cards, nothing else)."""
    return {"name": pack["name"], "positive": pack["positive"], "negative": pack["negative"]}


def _lines(text: str) -> list[str]:
    """One card per line; blank lines are nothing."""
    return [line for line in text.splitlines() if line.strip()]


def _load(storage: Storage) -> dict[str, OwnPack]:
    """The kept packs; an unreadable entry keeps none, an unreadable pack is left out."""
    out: dict[str, OwnPack] = {}
    with contextlib.suppress(ValueError, TypeError, AttributeError):
        data = json.loads(storage.get(KEY) or "{}")
        for pack_id, pack in dict(data).items():
            with contextlib.suppress(BadSetup):
                if isinstance(pack_id, str) and len(out) < MAX_KEPT:
                    out[pack_id] = parse_pack(pack)
    return out
