// Precompile the Python package to bytecode for the browser's Python (Pyodide's,
// which is newer than the build machine's), so the page skips compiling on
// every start and downloads no source. Runs Pyodide itself in Node, offline, from node_modules.
//
//   node scripts/pyc.mjs IN.zip OUT.zip
import { readFileSync, writeFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const [source, target] = process.argv.slice(2);
const pyodide = await loadPyodide();
pyodide.FS.writeFile("/tmp/in.zip", readFileSync(source));
pyodide.runPython(`
import compileall, py_compile, shutil, zipfile
shutil.unpack_archive("/tmp/in.zip", "/tmp/pkg", "zip")
# Unchecked hash-based .pyc files stay valid whatever the unpacked files' times are.
# Each is written where its source was (legacy=True) and the source is dropped:
# the browser imports the bytecode alone, and every visitor downloads a third less
# (a traceback still names the file and line).
ok = compileall.compile_dir("/tmp/pkg", quiet=1, legacy=True,
    invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
assert ok, "compiling failed"
import pathlib
for source in pathlib.Path("/tmp/pkg").rglob("*.py"):
    source.unlink()
shutil.make_archive("/tmp/out", "zip", "/tmp/pkg")
`);
writeFileSync(target, pyodide.FS.readFile("/tmp/out.zip"));
console.log(`precompiled ${source} for Python ${pyodide.version}`);
