"""Build the served site into dist/: our files plus the pinned runtime from node_modules.

Nothing here downloads: Pyodide and PyScript come from the npm packages pinned
in package.json (``npm ci`` puts them in node_modules). The Python package is
shipped as one zip that PyScript unpacks into Pyodide's file system (``[files]``
in pyscript.toml), so the browser fetches one file instead of one per module.

    python scripts/build.py [--out dist] [--if-stale]

A build for the tests alone may carry games that live in the tests (``games``:
``tests.fifth``, see docs/adding-a-game.md): their package goes into the archive
beside ``quandary`` and the engine imports it first, so it registers as the four
games do. The site's own build never has any.

The build writes a hash of its inputs into ``dist/.source-hash``;
``ensure_built`` (the browser tests, ``make build``) rebuilds only when that
hash differs from the sources', under a lock so two test workers never build
into the same folder at once.
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import json
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scripts.icons import write_icons
from scripts.shell import ASSETS

ROOT = Path(__file__).resolve().parent.parent
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)


SNAPSHOT_RESTORE = "return Module.HEAP8.set(t),l"
"""Where Pyodide's runtime copies a memory snapshot into its heap (pyodide.asm.mjs)."""
SNAPSHOT_RESTORE_GROWN = (
    "return t.length>Module.HEAP8.length&&Module._emscripten_resize_heap(t.length),"
    "Module.HEAP8.set(t),l"
)


def _restore_into_any_heap(runtime: Path) -> None:
    """Let Pyodide restore a snapshot bigger than its initial 30 MiB heap (pyodide#6254).

    Pyodide copies the snapshot's memory into the heap the runtime starts with,
    and a snapshot taken after the heap grew does not fit there ("offset is out
    of bounds"): the warm start was lost as soon as the package, the games' data
    and the standard library modules PyScript needs passed 30 MiB. The heap is
    grown first, with the runtime's own function for it. A new Pyodide whose code
    differs stops the build here, rather than quietly losing every warm start.
    """
    text = runtime.read_text()
    if text.count(SNAPSHOT_RESTORE) != 1:
        sys.exit(f"{runtime.name}: the snapshot restore to patch is not there (pyodide#6254).")
    runtime.write_text(text.replace(SNAPSHOT_RESTORE, SNAPSHOT_RESTORE_GROWN))


INPUTS = ("py", "static", "index.html", "pyscript.toml", "package-lock.json", "scripts")
"""Everything a build reads from the repository (node_modules is pinned by the lock file)."""
STAMP = ".source-hash"


def source_hash(games: tuple[str, ...] = ()) -> str:
    """A hash of every input file's path and bytes (caches and the vendor copy aside),
    test-only games' packages included."""
    digest = hashlib.sha256()
    for name in (*INPUTS, *(game.replace(".", "/") for game in games)):
        top = ROOT / name
        files = sorted(p for p in top.rglob("*") if p.is_file()) if top.is_dir() else [top]
        for path in files:
            rel = path.relative_to(ROOT)
            if (
                "__pycache__" in rel.parts
                or path.suffix == ".pyc"
                or rel.parts[:2]
                == (
                    "static",
                    "vendor",
                )
            ):
                continue
            digest.update(rel.as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def is_current(out: Path, games: tuple[str, ...] = ()) -> bool:
    """Whether ``out`` holds a finished build of the sources as they are now."""
    stamp = out / STAMP
    return stamp.is_file() and stamp.read_text(encoding="utf-8").strip() == source_hash(games)


def ensure_built(out: Path, games: tuple[str, ...] = ()) -> None:
    """Build ``out`` unless it is current; one process at a time builds or checks it.

    The lock is a file beside ``out``: test workers that start together wait for
    the one that builds, then find the build current.
    """
    out.parent.mkdir(parents=True, exist_ok=True)
    with (out.parent / f".{out.name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not is_current(out, games):
            build(out, games)


def build(out: Path, games: tuple[str, ...] = ()) -> None:
    """Write the whole site into ``out`` (emptied first), stamped with its inputs' hash;
    with the test-only ``games`` (dotted package names), a build for the tests alone."""
    inputs = source_hash(games)
    modules = ROOT / "node_modules"
    if not (modules / "pyodide").is_dir() or not (modules / "@pyscript/core").is_dir():
        sys.exit("node_modules is missing: run `npm ci` first (make build does).")
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    shutil.copytree(
        ROOT / "static", out / "static", ignore=shutil.ignore_patterns("vendor", "*.entry.js")
    )
    staging = out / "static" / "v" / "staging"
    (staging / "pyodide").mkdir(parents=True)
    for name in PYODIDE_FILES:
        shutil.copy2(modules / "pyodide" / name, staging / "pyodide" / name)
    _restore_into_any_heap(staging / "pyodide" / "pyodide.asm.mjs")
    shutil.copytree(
        modules / "@pyscript/core/dist",
        staging / "pyscript",
        ignore=shutil.ignore_patterns("*.map"),
    )
    _zip_package(ROOT / "py" / "quandary", staging / "quandary.zip")
    for game in games:
        _zip_package(ROOT.joinpath(*game.split(".")), staging / "quandary.zip", ROOT)
    # Bytecode for the browser's Python, compiled by Pyodide itself in Node: the part
    # of the standard library the engine imports (read from the package's source),
    # then the package.
    zipped = str(staging / "quandary.zip")
    stdlib = str(staging / "pyodide" / "python_stdlib.zip")
    script = str(ROOT / "scripts/stdlib.mjs")
    subprocess.run(["node", script, stdlib, stdlib, zipped], check=True, cwd=ROOT)
    subprocess.run(["node", str(ROOT / "scripts/pyc.mjs"), zipped, zipped], check=True, cwd=ROOT)
    # PyScript's script for the engine's worker (index.html's <script type="py" worker>).
    (staging / "main.py").write_text(_engine_script(games), "utf-8")
    _bundle(ROOT / "static/js/room.entry.js", staging / "room.mjs")
    _bundle(ROOT / "static/js/boot.entry.js", staging / "boot.mjs")
    _bundle(ROOT / "static/js/throw.entry.js", staging / "throw.mjs")
    _bundle(ROOT / "static/js/app.entry.js", staging / "app.mjs")
    # PyScript's core and Pyodide stay the files copied beside these, as they are.
    _bundle(ROOT / "static/js/engine.entry.js", staging / "engine.mjs", "./pyscript/core.js")
    pyodide = "./pyodide/pyodide.mjs"
    _bundle(ROOT / "static/js/runtime.entry.js", staging / "runtime.mjs", pyodide)
    _bundle(ROOT / "static/js/snapshot.worker.js", staging / "snapshot.mjs", pyodide)
    _bundle(ROOT / "static/js/moments.entry.js", staging / "moments.mjs")
    assets = staging.with_name(_digest(staging))
    staging.rename(assets)
    text = _shell(games)
    folder = f"./static/v/{assets.name}/"
    (out / "index.html").write_text(text.replace(ASSETS, folder), "utf-8")
    config = (ROOT / "pyscript.toml").read_text(encoding="utf-8")
    (out / "pyscript.toml").write_text(config.replace(ASSETS, folder), "utf-8")
    rules = "static/rules/index.html"
    (out / rules).write_text(_shell(("--rules",), rules), "utf-8")
    write_icons(out / "static" / "icons")
    # Last: the service worker's precache list is the finished site, hashed.
    write_service_worker(out)
    # After everything: a build that stopped half way has no stamp, so it is redone.
    (out / STAMP).write_text(inputs + "\n", encoding="utf-8")


PRECACHE = re.compile(r"\.(html|js|mjs|css|svg|png|json|zip|wasm|toml|py|webmanifest)$")
NOT_PRECACHED = re.compile(r"(^sw\.js$|^bench|/pyscript/(codemirror|xterm|.*\.map$|.*\.css$))")
"""PyScript's core is the app's loader and is kept offline with the plugins it
imports at every start; its editors' and terminals' libraries (CodeMirror,
xterm.js) load only with an editor or a terminal on the page, which Quandary has
not, so the offline copy leaves them out."""


def precache_manifest(out: Path) -> list[dict[str, str | None]]:
    """Every file the app may need offline, with the hash of its content.

    Files in the content-hashed folder are versioned by their URL (revision None),
    so Workbox fetches them by their plain URL and the HTTP cache can answer.
    """
    entries: list[dict[str, str | None]] = []
    for path in sorted(p for p in out.rglob("*") if p.is_file()):
        url = path.relative_to(out).as_posix()
        if not PRECACHE.search(url) or NOT_PRECACHED.search(url):
            continue
        revision = (
            None
            if url.startswith("static/v/")
            else (hashlib.md5(path.read_bytes(), usedforsecurity=False).hexdigest())
        )
        entries.append({"url": url, "revision": revision})
    return entries


def write_service_worker(out: Path) -> None:
    """Bundle the service worker with Workbox and give it this build's manifest."""
    target = out / "sw.js"
    _bundle(ROOT / "static/js/sw.entry.js", target)
    code = target.read_text(encoding="utf-8")
    if code.count("self.__WB_MANIFEST") != 1:
        raise SystemExit("the service worker must name self.__WB_MANIFEST exactly once")
    manifest = json.dumps(precache_manifest(out), separators=(",", ":"))
    target.write_text(code.replace("self.__WB_MANIFEST", manifest), encoding="utf-8")


def _digest(folder: Path) -> str:
    """A short hash of every file's path and bytes: the folder's version."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(path.relative_to(folder).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _bundle(entry: Path, target: Path, *external: str) -> None:
    """Bundle an ES module and its npm imports into one file (Trystero imports by bare name);
    ``external`` imports are left for the browser to load."""
    esbuild = ROOT / "node_modules/.bin/esbuild"
    subprocess.run(
        [
            str(esbuild),
            str(entry),
            "--bundle",
            "--format=esm",
            "--minify",
            "--target=es2022",
            "--log-level=warning",
            f"--outfile={target}",
            *(f"--external:{name}" for name in external),
        ],
        check=True,
    )


def _zip_package(package: Path, target: Path, base: Path | None = None) -> None:
    """Zip the package's sources and data, without caches, at the archive's root, or
    (``base``) added to the archive under its path from ``base``, with the
    ``__init__.py`` of every package above it, so it imports by its dotted name."""
    top = package.parent if base is None else base
    with zipfile.ZipFile(target, "w" if base is None else "a", zipfile.ZIP_DEFLATED) as archive:
        parents = package.relative_to(top).parents if base is not None else ()
        for parent in sorted(top / p for p in parents if p != Path(".")):
            if (parent / "__init__.py").is_file():
                archive.write(parent / "__init__.py", (parent / "__init__.py").relative_to(top))
        for path in sorted(package.rglob("*")):
            if (
                path.is_file()
                and "__pycache__" not in path.parts
                and path.suffix in (".py", ".json")
            ):
                archive.write(path, path.relative_to(top).as_posix())


def _shell(games: tuple[str, ...], page: str = "index.html") -> str:
    """index.html filled in with the game list (``scripts/shell.py``), in a Python of its
    own: it lists the site's games and ``games``, never what the caller registered.
    ``games`` ("--rules",) and ``page`` static/rules/index.html: the rules index."""
    done = subprocess.run(
        [sys.executable, "-m", "scripts.shell", *games],
        input=(ROOT / page).read_bytes(),
        capture_output=True,
        cwd=ROOT,
        check=False,
    )
    if done.returncode:
        raise SystemExit(f"filling {page} failed:\n{done.stderr.decode('utf-8', 'replace')}")
    return done.stdout.decode("utf-8")


def _engine_script(games: tuple[str, ...]) -> str:
    """``py/main.py``, which PyScript runs in the engine's worker; in a build for the
    tests, importing their games first (each registers itself on import)."""
    script = (ROOT / "py" / "main.py").read_text(encoding="utf-8")
    future = "from __future__ import annotations\n"
    imports = "".join(
        f"import {game}  # a game of the tests: a build for them alone\n" for game in games
    )
    if games and future not in script:
        raise SystemExit("py/main.py must open with its __future__ import: games follow it")
    return script.replace(future, future + imports, 1)


def main() -> None:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist")
    parser.add_argument(
        "--if-stale", action="store_true", help="build only if the sources changed since"
    )
    args = parser.parse_args()
    if args.if_stale:
        ensure_built(args.out)
    else:
        build(args.out)


if __name__ == "__main__":
    main()
