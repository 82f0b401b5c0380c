// The transport's first look at what a peer sends: before Trystero puts a
// message together from its chunks, before it is decoded, parsed as JSON or has
// its signature checked. A peer over its rate, or a message bigger than any the
// room sends, is dropped unread, a chunk at a time, so a flood or a 30 MB message
// costs the receiver a few header reads per chunk rather than a frozen page.
// The limits are the room's own (py/quandary/net/limits.json, read by Python too).
//
// Trystero's framing: every frame on the channel starts with a byte for its kind:
// 2, a room's presence (a few bytes); 1, a chunk of a message, after a 2-byte
// length and the room's token. A chunk (its action wire) has 32 bytes of
// action type, a 2-byte nonce (the message's number), a tag byte (bit 0: the last
// chunk), a progress byte (how much of the message has been sent once this chunk
// is, out of 255), then at most CHUNK bytes of the message. The first chunk's
// progress therefore declares the message's size: a message that declares more
// than the room allows is dropped from its first chunk, and Trystero never holds
// any of it. A peer whose message runs past what it declared, or that sends many
// messages interleaved, breaks the framing on purpose: its connection is closed.

import limits from "../../py/quandary/net/limits.json";

const ROOM_FRAME = 1;
const PRESENCE_FRAME = 2;
const MOST_TOKEN = 256; // a room token is a short hash
const HEADER = 36;
const CHUNK = 16 * 1024 - HEADER;
const NONCE = 32;
const TAG = 34;
const PROGRESS = 35;
const MOST_CHUNKS = Math.ceil(limits.envelope_bytes / CHUNK);
// The first chunk's progress byte of the largest message allowed.
const LEAST_FIRST_PROGRESS = Math.round(255 / MOST_CHUNKS);

/**
 * A gate for one peer's channel: `admit(data)` says whether a chunk may go on to
 * Trystero; `violated(reason)` is called when the peer breaks the framing.
 */
export function makeGate(violated, now = () => performance.now()) {
  let tokens = limits.transport_burst;
  let at = now();
  const open = new Map(); // a message still arriving (type and nonce) -> its state
  // One token a message begun, or a room presence said (a few bytes, but work for
  // Trystero all the same): whether there is one left, and spend it.
  function spend() {
    const t = now();
    tokens = Math.min(limits.transport_burst, tokens + ((t - at) / 1000) * limits.transport_rate_per_second);
    at = t;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  }
  return function admit(data) {
    if (!(data instanceof ArrayBuffer) || data.byteLength < 4) return false;
    const frame = new Uint8Array(data, 0, 3);
    if (frame[0] === PRESENCE_FRAME) return data.byteLength <= 4 + MOST_TOKEN && spend();
    const token = (frame[1] << 8) | frame[2];
    const start = 3 + token;
    const size = data.byteLength - start;
    if (frame[0] !== ROOM_FRAME || token > MOST_TOKEN || size < HEADER || size > HEADER + CHUNK) {
      return false; // not a frame Trystero could have sent
    }
    const head = new Uint8Array(data, start, HEADER);
    const key = `${head[NONCE]},${head[NONCE + 1]},${String.fromCharCode(...head.subarray(0, 8))}`;
    const last = (head[TAG] & 1) === 1;
    let message = open.get(key);
    if (!message) {
      message = { bytes: 0, allowed: spend() && head[PROGRESS] >= LEAST_FIRST_PROGRESS };
      if (!last) {
        if (open.size >= limits.transport_open_messages) {
          violated("too many messages at once");
          return false;
        }
        open.set(key, message);
      }
    }
    message.bytes += size - HEADER;
    if (last) open.delete(key);
    if (message.allowed && message.bytes > limits.envelope_bytes) {
      message.allowed = false;
      violated("a message longer than it declared");
    }
    return message.allowed;
  };
}

const onmessage = globalThis.RTCDataChannel
  ? Object.getOwnPropertyDescriptor(RTCDataChannel.prototype, "onmessage")
  : undefined;

/** Put a gate in front of the channel's message handler (Trystero sets `onmessage`). */
export function guard(channel) {
  if (!onmessage) return channel;
  const admit = makeGate(() => channel.close());
  Object.defineProperty(channel, "onmessage", {
    configurable: true,
    get: () => onmessage.get.call(channel),
    set: (handler) =>
      onmessage.set.call(
        channel,
        handler && ((event) => (admit(event.data) ? handler.call(channel, event) : undefined)),
      ),
  });
  return channel;
}
