// Precompile the part of Pyodide's standard library that the engine's start imports.
//
// Pyodide ships its standard library as Python source (python_stdlib.zip holds .py
// files only), so every first start compiled each module it imported, about 150 of
// them, in WebAssembly: 2 of the 3.5 s Pyodide's start took on two cores. This writes the
// same archive with those modules as bytecode for Pyodide's own Python (compiled
// by Pyodide itself, in Node, offline, from node_modules), and every other module
// left as it was (compiled if ever imported, as before). Nothing else changes: the
// same modules, the same docstrings and asserts, so the same behaviour.
//
// Which modules: those Pyodide's own start imports, those a start's refresh of the
// import caches imports, and those imported (at once or
// later, by any import statement) by the Python in the given zip archives (the
// quandary package's source), with all they import. PyScript's own Python
// package is not among them: the engine's start skips it (static/js/runtime.entry.js).
//
//   node scripts/stdlib.mjs STDLIB.zip OUT.zip SOURCES.zip...
import { readFileSync, writeFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const [stdlib, target, ...sources] = process.argv.slice(2);

// Without column ranges (PYTHONNODEBUGRANGES), as the package's bytecode: a
// traceback still names the file and the line.
const pyodide = await loadPyodide({ env: { PYTHONNODEBUGRANGES: "1" } });
pyodide.FS.mkdirTree("/tmp/sources");
for (const [index, path] of sources.entries()) {
  pyodide.FS.writeFile(`/tmp/sources/${index}.zip`, readFileSync(path));
}
pyodide.FS.writeFile("/tmp/stdlib.zip", readFileSync(stdlib));
const count = pyodide.runPython(`
import ast, importlib, importlib.util, pathlib, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

ZIP = next(p for p in sys.path if p.endswith(".zip"))  # where Pyodide mounts its stdlib

def texts():
    for path in sorted(pathlib.Path("/tmp/sources").iterdir()):
        with zipfile.ZipFile(path) as archive:
            yield from (archive.read(n) for n in archive.namelist() if n.endswith(".py"))

def imported_names(text):
    """Every module an import statement in this source may load (relative ones
    are the package's own, never the standard library's)."""
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)

def in_stdlib(name):
    try:
        spec = importlib.util.find_spec(name.partition(".")[0])
    except (ImportError, ValueError):
        return False
    return spec is not None and (spec.origin or "").startswith(ZIP)

# As each start does once the package is unpacked (PyScript for the engine, and
# static/js/snapshot.worker.js), which imports importlib.metadata and its own.
importlib.invalidate_caches()
for name in sorted({n for text in texts() for n in imported_names(text)}):
    if in_stdlib(name):
        try:
            importlib.import_module(name)
        except ImportError:  # "from package import name" where name is no module
            pass

# Frozen modules (os, io, codecs, importlib's own...) name a file in the archive
# but are never read from it: they stay as they were.
wanted = {
    module.__file__.removeprefix(ZIP + "/")
    for module in list(sys.modules.values())
    if (getattr(module, "__file__", None) or "").startswith(ZIP + "/")
    and getattr(module.__spec__, "origin", None) != "frozen"
}
# Unchecked hash-based .pyc files (as the package's): valid whatever the archive's
# dates, never checked against a source, which is not shipped beside them.
with zipfile.ZipFile("/tmp/stdlib.zip") as source, zipfile.ZipFile(
    "/tmp/out.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9
) as out:
    for info in source.infolist():
        data = source.read(info)
        if info.filename in wanted:
            # Named as the source would be when imported from the archive, so a
            # traceback names the file where Pyodide's own copy would.
            code = compile(data, f"{ZIP}/{info.filename}", "exec", dont_inherit=True)
            entry = zipfile.ZipInfo(info.filename[:-3] + ".pyc", info.date_time)
            data = _code_to_hash_pyc(code, importlib.util.source_hash(data), False)
        else:
            entry = zipfile.ZipInfo(info.filename, info.date_time)
        entry.compress_type, entry.external_attr = zipfile.ZIP_DEFLATED, info.external_attr
        out.writestr(entry, data, compresslevel=9)
len(wanted)
`);
writeFileSync(target, pyodide.FS.readFile("/tmp/out.zip"));
console.log(`precompiled ${count} modules of the standard library for Pyodide ${pyodide.version}`);
