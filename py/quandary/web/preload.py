"""Import every module of the package, before the worker's memory snapshot.

A warm start restores the interpreter from a snapshot taken right after this
import (``static/js/engine.worker.js``), so a module imported here costs nothing
on later starts; one left out would be read from the unpacked files when first
used, at the player's expense. Walking the package means a new module is never
forgotten.
"""

from __future__ import annotations

import importlib
import pkgutil

import quandary


def import_all() -> list[str]:
    """Import every module of ``quandary``; their names, in order."""
    names = [m.name for m in pkgutil.walk_packages(quandary.__path__, "quandary.")]
    for name in names:
        importlib.import_module(name)
    return names


MODULES = import_all()
