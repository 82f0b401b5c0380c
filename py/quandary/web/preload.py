"""What the warm-start snapshot holds: every module of the package, and the standard
library modules PyScript's own package imports.

A warm start restores the interpreter from a snapshot taken after this import
(``static/js/snapshot.worker.js``), so a module imported here costs nothing on
later starts; one left out would be read from the unpacked files when first
used, at the player's expense. Walking the package means a new module is never
forgotten.

PyScript's own package (``pyscript``) cannot be in the snapshot: it needs the JS
modules PyScript registers once the interpreter exists, and a snapshot holds no
JS object. But the standard library modules it imports (``asyncio``, ``inspect``
and the like, about 150 ms to import at every start) can be: they are found in
the bytecode of PyScript's package that the build ships (``scripts/pyc.mjs``), so
a PyScript upgrade that imports something new is followed without a change here.
"""

from __future__ import annotations

import dis
import importlib
import marshal
import pkgutil
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import CodeType

import quandary

PYC_HEADER = 16
"""Bytes before the code object in a .pyc file (magic, flags, hash or date, size)."""


def import_all() -> list[str]:
    """Import every module of ``quandary``; their names, in order."""
    names = [m.name for m in pkgutil.walk_packages(quandary.__path__, "quandary.")]
    for name in names:
        importlib.import_module(name)
    return names


def imported_names(code: CodeType) -> Iterator[str]:
    """Every module name ``code`` imports, at any depth (functions, classes)."""
    stack = [code]
    while stack:
        current = stack.pop()
        for instruction in dis.get_instructions(current):
            if instruction.opname == "IMPORT_NAME":
                yield str(instruction.argval)
        stack.extend(c for c in current.co_consts if isinstance(c, CodeType))


def stdlib_imports(codes: Iterable[CodeType]) -> list[str]:
    """The standard library's top-level modules that ``codes`` import, sorted."""
    names = {name.split(".")[0] for code in codes for name in imported_names(code)}
    return sorted(n for n in names if n in sys.stdlib_module_names and n != "__future__")


def import_pyscript_needs(bytecode: Path) -> list[str]:
    """Import the standard library modules PyScript's package imports (its .pyc files
    in ``bytecode``); their names. A module this Python cannot import is skipped."""
    codes = [marshal.loads(p.read_bytes()[PYC_HEADER:]) for p in sorted(bytecode.glob("*.pyc"))]
    imported = []
    for name in stdlib_imports(codes):
        try:
            importlib.import_module(name)
        except ImportError:
            continue
        imported.append(name)
    return imported


MODULES = import_all()
