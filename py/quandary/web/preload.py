"""What the warm-start snapshot holds: every module of the package.

A warm start restores the interpreter from a snapshot taken after this import
(``static/js/snapshot.worker.js``), so a module imported here costs nothing on
later starts; one left out would have to be read from files when first used, and
a restored engine has none (``static/js/runtime.entry.js`` leaves the archive
unfetched). Walking the package means a new module is never forgotten.

PyScript's own package (``pyscript``, its Python API for the DOM) is not held: the
engine does not use it, and its starts skip the prologue that imports it. The
standard library modules that package imports (``asyncio``, ``inspect`` and the
like) would add about 4 MB to the snapshot that every start reads.
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
