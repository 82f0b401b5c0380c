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

// The kept snapshot's bytes, as a promise (Pyodide reads them while it loads its
// runtime), or null when none is kept. Finding it reads only the cache's index.
export async function cachedSnapshot(folder) {
  const key = snapshotKey(folder);
  try {
    const cache = await caches.open(SNAPSHOTS);
    for (const request of await cache.keys()) {
      if (request.url !== key) cache.delete(request); // an older build's, gone in the background
    }
    const response = await cache.match(key);
    if (!response) return null;
    const bytes = response.arrayBuffer().then((buffer) => new Uint8Array(buffer));
    bytes.catch(() => {}); // a failed read is the restore's to hear (it starts fresh)
    return bytes;
  } catch {
    return null; // no Cache API here (a private window): a fresh start
  }
}

export async function keepSnapshot(folder, bytes) {
  if (bytes.byteLength > SNAPSHOT_LIMIT) return false;
  try {
    const cache = await caches.open(SNAPSHOTS);
    await cache.put(snapshotKey(folder), new Response(bytes));
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
