// Precompile the Python package to bytecode for the browser's Python (Pyodide's,
// which is newer than the build machine's), so the page skips compiling on
// every start and downloads no source. Runs Pyodide itself in Node, offline, from node_modules.
//
//   node scripts/pyc.mjs IN.zip OUT.zip
import { readFileSync, writeFileSync } from "node:fs";
import { loadPyodide } from "pyodide";
const [source, target] = process.argv.slice(2);
// Without column ranges (PYTHONNODEBUGRANGES): a quarter less to download, and a
// traceback still names the file and the line.
const pyodide = await loadPyodide({ env: { PYTHONNODEBUGRANGES: "1" } });
pyodide.FS.writeFile("/tmp/in.zip", readFileSync(source));
pyodide.runPython(`
import shutil, zipfile
shutil.unpack_archive("/tmp/in.zip", "/tmp/pkg", "zip")
# Unchecked hash-based .pyc files stay valid whatever the unpacked files' times are.
# Each is written where its source was, and the source is dropped: the browser
# imports the bytecode alone, so every visitor downloads less (a traceback still
# names the file and line).
import ast, importlib.util, pathlib

def without_docstrings(tree):
    """The module with its docstrings taken out (they say why, for readers of the
    source; the browser never reads them). Asserts stay, unlike with -OO."""
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                and body and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str)):
            node.body = body[1:] or [ast.copy_location(ast.Pass(), body[0])]
    return tree

def without_signature_types(tree):
    """The module with the types of its functions' parameters and results taken out
    (they are for mypy; 47 KB of the download). Nothing reads them at run time: the
    types read there are classes' (a dataclass's fields, a TypedDict's keys), kept."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            node.returns = None
            args = node.args
            for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
                if arg is not None:
                    arg.annotation = None
    return tree

for source in sorted(pathlib.Path("/tmp/pkg").rglob("*.py")):
    text = source.read_bytes()
    tree = without_signature_types(without_docstrings(ast.parse(text, str(source))))
    code = compile(tree, str(source), "exec", dont_inherit=True)
    data = importlib._bootstrap_external._code_to_hash_pyc(code, importlib.util.source_hash(text), False)
    source.with_suffix(".pyc").write_bytes(data)
    source.unlink()
# The archive: its files alone (unpacking makes their folders), in order, dated
# 1980, each deflated at the highest level (2% smaller than the default level,
# and as quick to unpack).
with zipfile.ZipFile("/tmp/out.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
    for path in sorted(p for p in pathlib.Path("/tmp/pkg").rglob("*") if p.is_file()):
        entry = zipfile.ZipInfo(path.relative_to("/tmp/pkg").as_posix())
        entry.compress_type, entry.external_attr = zipfile.ZIP_DEFLATED, 0o644 << 16
        out.writestr(entry, path.read_bytes(), compresslevel=9)
`);
writeFileSync(target, pyodide.FS.readFile("/tmp/out.zip"));
console.log(`precompiled ${source} for Python ${pyodide.version}`);
