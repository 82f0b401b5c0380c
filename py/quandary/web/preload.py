"""What the warm-start snapshot holds: every module of the package, the standard
library modules PyScript's own package imports, and that package's bytecode.

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
The bytecode itself is kept in memory too, with a finder that serves it: a
restored engine imports PyScript's package without reading a file, and so needs
none of the archive's files (``static/js/runtime.entry.js``).
"""

from __future__ import annotations

import dis
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import marshal
import pkgutil
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import CodeType, ModuleType

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


class BytecodeFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports one package's modules from code objects held in memory.

    First on ``sys.meta_path``, so the files PyScript writes for its package at
    every start are never read: the code is the build's compilation of those very
    sources (``scripts/pyc.mjs``), and the snapshot it lives in belongs to one build.
    """

    def __init__(self, package: str, folder: Path, codes: dict[str, CodeType]) -> None:
        self.package = package
        self.folder = folder
        self.codes = codes

    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        """A spec for a module of the package held here; None for any other."""
        if fullname not in self.codes:
            return None
        is_package = fullname == self.package
        name = "__init__.py" if is_package else fullname.rpartition(".")[2] + ".py"
        spec = importlib.util.spec_from_loader(fullname, self, is_package=is_package)
        assert spec is not None
        spec.origin = str(self.folder / name)
        spec.has_location = True
        if is_package:
            spec.submodule_search_locations = [str(self.folder)]
        return spec

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        """The default module object."""
        return None

    def exec_module(self, module: ModuleType) -> None:
        """Run the module's code in it."""
        exec(self.codes[module.__name__], module.__dict__)


def hold_pyscript(bytecode: Path, package: str = "pyscript") -> BytecodeFinder:
    """Keep PyScript's package bytecode (its .pyc files in ``bytecode``) in memory and
    serve it first; the standard library modules it imports are imported now."""
    import_pyscript_needs(bytecode)
    codes: dict[str, CodeType] = {}
    for path in sorted(bytecode.glob("*.pyc")):
        stem = path.name.split(".")[0]
        name = package if stem == "__init__" else f"{package}.{stem}"
        codes[name] = marshal.loads(path.read_bytes()[PYC_HEADER:])
    finder = BytecodeFinder(package, bytecode.parent, codes)
    sys.meta_path.insert(0, finder)
    return finder


MODULES = import_all()
