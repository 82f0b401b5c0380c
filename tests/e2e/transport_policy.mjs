// Runs the room transport's receiving policy as it ships (the built room.mjs, whose
// `receiver` static/js/room.entry.js exports) over cases read as JSON from standard
// input, and writes what it decided for each step: tests/e2e/test_transport_policy.py
// compares it with the in-memory network's copy (tests/net/memnet.py).
//
//   node tests/e2e/transport_policy.mjs dist/static/v/<hash>/room.mjs < cases.json
//
// A case: {roomId, selfId, hostKey, trusted, steps}; a step: ["open", peer, text],
// ["trust", key] or ["forget", peer]. Each step answers `open`'s result (null, or
// [text, fromHost, heirKey]), or null for the others.
import { pathToFileURL } from "node:url";
import { readFileSync } from "node:fs";

const { receiver } = await import(pathToFileURL(process.argv[2]).href);
const cases = JSON.parse(readFileSync(0, "utf8"));
const out = [];
for (const { steps, ...options } of cases) {
  const policy = receiver(options);
  const answers = [];
  for (const [op, ...args] of steps) {
    if (op === "open") answers.push(await policy.open(...args));
    else {
      policy[op](...args);
      answers.push(null);
    }
  }
  out.push(answers);
}
process.stdout.write(JSON.stringify(out));
