// The web page's transport, run for real: Pyodide (from npm, the version pyxel's web
// runtime loads) under Node, the room's client inside it, a real room outside.
//
//   node [--experimental-websocket] tests/web/web_transport_check.mjs MODULES URL BOT CLOSED_PORT
//
// MODULES is the node_modules folder scripts/node_deps.sh installed; URL the room's
// address; BOT the name of a room bot waiting there; CLOSED_PORT a port nobody listens
// on. The browser's WebSocket is Node's own (Node 22, or 20 with --experimental-websocket)
// or else ws's, set as globalThis.WebSocket before Pyodide starts: Pyodide's `js` module
// is globalThis. The client's modules and tests/web/driver.py are written into Pyodide's
// file system; the driver prints one JSON line per step, and its summary last
// (tests/room/test_web_transport.py reads them).
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const [modules, url, bot, closedPort] = process.argv.slice(2);
const top = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
// port.client's imports, all of them: the client and the protocol (which needs the
// cards), and the package's __init__ (which installs the old import paths). The
// standard library is Pyodide's own.
const FILES = ["port/__init__.py", "port/_aliases.py", "port/cards.py", "port/protocol.py", "port/client.py"];

// An error thrown in a socket's listener (a freed proxy called) is not the page's to
// crash on, but it is a fault: kept, and said in the summary.
const uncaught = [];
process.on("uncaughtException", (error) => uncaught.push(String(error.message || error).split("\n")[0]));

// A page that waits for ever fails no test: give up after 60 s, saying so.
setTimeout(() => {
  console.log(JSON.stringify({ error: "the page gave up after 60 s" }));
  process.exit(1);
}, 60_000).unref();

let websocket = "node";
if (typeof globalThis.WebSocket === "undefined") {
  const ws = await import(pathToFileURL(join(modules, "ws", "wrapper.mjs")).href);
  globalThis.WebSocket = ws.WebSocket;
  websocket = "ws";
}

const t0 = performance.now();
const { loadPyodide, version } = await import(pathToFileURL(join(modules, "pyodide", "pyodide.mjs")).href);
const pyodide = await loadPyodide({
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});
const loaded = (performance.now() - t0) / 1000;
console.log(JSON.stringify({ step: "loaded", pyodide: version, seconds: Number(loaded.toFixed(2)) }));

pyodide.FS.mkdirTree("/app/port");
for (const name of [...FILES, "tests/web/driver.py"]) {
  const into = name.startsWith("tests/") ? "/app/room_driver.py" : `/app/${name}`;
  pyodide.FS.writeFile(into, readFileSync(join(top, name)));
}
pyodide.globals.set("ARGS", pyodide.toPy([url, bot, Number(closedPort)]));
try {
  const summary = await pyodide.runPythonAsync(`
import sys
sys.path.insert(0, "/app")
import room_driver
await room_driver.main(*ARGS)
`);
  const out = JSON.parse(summary);
  out.pyodide = version;
  out.node = process.version;
  out.websocket = websocket;
  out.load_seconds = Number(loaded.toFixed(2));
  out.uncaught = uncaught;
  console.log(JSON.stringify({ summary: out }));
  process.exit(0);
} catch (error) {
  console.log(JSON.stringify({ error: String(error.message || error) }));
  process.exit(1);
}
