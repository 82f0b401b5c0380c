// Replay links: a finished game's record (py/quandary/replay.py) carried in the
// address's fragment, `#replay=<deflate-raw, base64url>`, so a friend who opens the
// link lands in the replay. The fragment never reaches any server. It is kept
// apart from room links (`#r=`, py/quandary/net/link.py) by its name, and bounded
// both ways: a link longer than MAX_CODE is not made (download the record
// instead), and one that inflates past MAX_TEXT is refused without being read whole.

export const PREFIX = "#replay=";
export const MAX_CODE = 60_000; // characters of the fragment: what chat apps and browsers keep
const MAX_TEXT = 400_000; // py/quandary/replay.py MAX_CHARS
export const DAMAGED = "This replay link is damaged: it cannot be read. Ask for the link again, or for the record as a file.";

export function isReplayFragment(hash) {
  return hash.startsWith(PREFIX);
}

export async function makeReplayLink(text) {
  const packed = await through(new TextEncoder().encode(text), new CompressionStream("deflate-raw"), Infinity);
  const code = toBase64url(packed);
  if (code.length > MAX_CODE) {
    return { url: "", reason: "This game is too long for a link: download the record and send the file instead." };
  }
  return { url: `${location.origin}${location.pathname}${location.search}${PREFIX}${code}`, reason: "" };
}

// The record's text, or an Error with a sentence for the player.
export async function readReplayLink(hash) {
  const code = hash.slice(PREFIX.length);
  if (!code || code.length > MAX_CODE || !/^[A-Za-z0-9_-]+$/.test(code)) throw new Error(DAMAGED);
  let bytes;
  try {
    bytes = await through(fromBase64url(code), new DecompressionStream("deflate-raw"), MAX_TEXT * 4);
  } catch (error) {
    throw new Error(error.message === "too large" ? "This replay link holds too large a record to open." : DAMAGED);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new Error(DAMAGED);
  }
}

// Bytes through a (de)compression stream, stopping once more than `limit` came out.
async function through(bytes, transform, limit) {
  const reader = new Blob([bytes]).stream().pipeThrough(transform).getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      reader.cancel().catch(() => {});
      throw new Error("too large");
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

function toBase64url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(code) {
  const binary = atob(code.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}
