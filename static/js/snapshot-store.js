// Where the engine's warm-start snapshot is kept: the Cache API, under this build's
// asset folder, so a deploy (a new Pyodide, a new package) never restores an old
// interpreter. Shared by the runtime (static/js/runtime.entry.js), which restores
// it, and the worker that makes it (static/js/snapshot.worker.js).

const SNAPSHOTS = "quandary-snapshots";
// Pyodide restores a snapshot only into its initial 30 MiB heap (pyodide#6254):
// a bigger one would fail to load, so it is never stored.
const SNAPSHOT_LIMIT = 32 * 1024 * 1024;

export const snapshotKey = (folder) => new URL("engine.snapshot", folder).href;

export async function cachedSnapshot(folder) {
  const key = snapshotKey(folder);
  try {
    const cache = await caches.open(SNAPSHOTS);
    for (const request of await cache.keys()) {
      if (request.url !== key) await cache.delete(request); // an older build's
    }
    const response = await cache.match(key);
    return response ? new Uint8Array(await response.arrayBuffer()) : null;
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
