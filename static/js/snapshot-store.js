// Where the engine's warm-start snapshot is kept: the Cache API, under this build's
// asset folder, so a deploy (a new Pyodide, a new package) never restores an old
// interpreter. Shared by the runtime (static/js/runtime.entry.js), which restores
// it, and the worker that makes it (static/js/snapshot.worker.js).

const SNAPSHOTS = "quandary-snapshots";
// Pyodide restores a snapshot only into its initial 30 MiB heap (pyodide#6254);
// the build lets it grow the heap first (scripts/build.py, _restore_into_any_heap).
// A snapshot is still bounded: one far bigger than the engine needs is not kept.
const SNAPSHOT_LIMIT = 96 * 1024 * 1024;

export const snapshotKey = (folder) => new URL("engine.snapshot", folder).href;

// A snapshot is kept without its empty stretches. About 45% of a booted heap is
// zero bytes, in a score of long runs (memory the interpreter reserved and never
// used): kept whole, each warm start read all of them from the cache. Kept packed,
// a warm start reads the rest (about 21 of 38 MB) and lays it out again into
// zeroed memory with one copy per run.
//
// Packed form: the non-empty runs' bytes, back to back (the first run starts at
// byte 0, so Pyodide's own header leads the file as in a plain snapshot), then one
// (offset, length) pair per run, then the number of runs, the snapshot's length
// and MAGIC: 32-bit little-endian words.
const PAGE = 4096;
const MAGIC = 0x31504e53; // "SNP1"

export function packSnapshot(bytes) {
  const runs = [];
  for (let at = 0; at < bytes.byteLength; at += PAGE) {
    const end = Math.min(at + PAGE, bytes.byteLength);
    let empty = true;
    for (let i = at; i < end; i++) {
      if (bytes[i] !== 0) {
        empty = false;
        break;
      }
    }
    if (empty) continue;
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === at) last[1] += end - at;
    else runs.push([at, end - at]);
  }
  const body = runs.reduce((sum, [, length]) => sum + length, 0);
  const packed = new Uint8Array(body + 4 * (2 * runs.length + 3));
  let to = 0;
  for (const [at, length] of runs) {
    packed.set(bytes.subarray(at, at + length), to);
    to += length;
  }
  const words = new DataView(packed.buffer, body);
  runs.forEach(([at, length], i) => {
    words.setUint32(8 * i, at, true);
    words.setUint32(8 * i + 4, length, true);
  });
  words.setUint32(8 * runs.length, runs.length, true);
  words.setUint32(8 * runs.length + 4, bytes.byteLength, true);
  words.setUint32(8 * runs.length + 8, MAGIC, true);
  return packed;
}

// The snapshot a packed one holds; an Error for anything that is not one whole
// (a damaged or truncated cache entry): the start goes on fresh.
export function unpackSnapshot(packed) {
  const bad = () => new Error("the kept snapshot is damaged");
  if (packed.byteLength < 12) throw bad();
  const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  const tail = packed.byteLength - 12;
  const count = view.getUint32(tail, true);
  const length = view.getUint32(tail + 4, true);
  if (view.getUint32(tail + 8, true) !== MAGIC || length > SNAPSHOT_LIMIT) throw bad();
  const table = tail - 8 * count;
  if (count > length / PAGE + 1 || table < 0) throw bad();
  const bytes = new Uint8Array(length);
  let from = 0;
  let after = 0; // runs are in order and apart
  for (let i = 0; i < count; i++) {
    const at = view.getUint32(table + 8 * i, true);
    const size = view.getUint32(table + 8 * i + 4, true);
    if (at < after || size === 0 || at + size > length || from + size > table) throw bad();
    bytes.set(packed.subarray(from, from + size), at);
    from += size;
    after = at + size;
  }
  if (from !== table) throw bad();
  return bytes;
}

// The kept snapshot's bytes, or null when none is kept (or no Cache API is here:
// a private window) and the start goes on fresh. A kept one that does not unpack
// is dropped, so the fresh start keeps a new one.
export async function cachedSnapshot(folder) {
  const key = snapshotKey(folder);
  let cache = null;
  try {
    cache = await caches.open(SNAPSHOTS);
    for (const request of await cache.keys()) {
      if (request.url !== key) cache.delete(request); // an older build's, gone in the background
    }
    const response = await cache.match(key);
    if (!response) return null;
    return unpackSnapshot(new Uint8Array(await response.arrayBuffer()));
  } catch (error) {
    if (cache) {
      console.warn(`The warm-start snapshot could not be read: ${error}`);
      await cache.delete(key).catch(() => {});
    }
    return null;
  }
}

export async function keepSnapshot(folder, bytes) {
  if (bytes.byteLength > SNAPSHOT_LIMIT) return false;
  try {
    const cache = await caches.open(SNAPSHOTS);
    await cache.put(snapshotKey(folder), new Response(packSnapshot(bytes)));
    return true;
  } catch (error) {
    console.warn(`The warm-start snapshot was not kept: ${error}`);
    return false;
  }
}

export async function forgetSnapshot(folder) {
  try {
    await (await caches.open(SNAPSHOTS)).delete(snapshotKey(folder));
  } catch {
    // nothing kept, nothing to forget
  }
}
