// Runs tools/site/pyc.py inside Pyodide under Node: node pyc.mjs PYODIDE_DIR JOBS_JSON
// (paths absolute; the host's file system is mounted at /host inside Pyodide).
import { pathToFileURL } from "node:url";
import path from "node:path";

const [pyodideDir, jobs] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: pyodideDir + "/", stdout: console.log, stderr: console.error });
py.FS.mkdir("/host");
py.FS.mount(py.FS.filesystems.NODEFS, { root: "/" }, "/host");
const here = path.dirname(new URL(import.meta.url).pathname);
py.globals.set("HERE", "/host" + here);
py.globals.set("JOBS", "/host" + jobs);
py.runPython(`
import json, sys
sys.path.insert(0, HERE)
import pyc
jobs = json.loads(open(JOBS).read())
for job in jobs:
    job["src"], job["dest"] = "/host" + job["src"], "/host" + job["dest"]
open(JOBS, "w").write(json.dumps(jobs))
pyc.main([JOBS])
`);
