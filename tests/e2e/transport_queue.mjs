// Runs the room transport's outbox queue as it ships (the built room.mjs, whose
// `perPeer` static/js/room.entry.js exports) over steps that finish late or at once,
// and writes the order in which they finished: tests/e2e/test_transport_queue.py
// checks it.
//
//   node tests/e2e/transport_queue.mjs dist/static/v/<hash>/room.mjs < steps.json
//
// A step: [peer, name, ms]: it finishes ``ms`` after it starts (0: at once); a name
// starting "fail" throws instead.
import { pathToFileURL } from "node:url";
import { readFileSync } from "node:fs";

const { perPeer } = await import(pathToFileURL(process.argv[2]).href);
const steps = JSON.parse(readFileSync(0, "utf8"));
const queue = perPeer();
const finished = [];
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
await Promise.all(
  steps.map(([peer, name, ms]) =>
    queue(peer, async () => {
      await wait(ms);
      if (name.startsWith("fail")) throw new Error(name);
      finished.push(name);
    }),
  ),
);
process.stdout.write(JSON.stringify(finished));
