// The transport's first look at what a peer sends: before Trystero puts a
// message together from its chunks, before it is decoded, parsed as JSON or has
// its signature checked. A peer over its rate has its messages dropped unread, a
// chunk at a time, and a message bigger than any the room sends closes the peer's
// connection, so a flood or a 30 MB message costs the receiver a few header reads
// rather than a frozen page.
// The limits are the room's own (py/quandary/net/limits.json, read by Python too).
//
// Trystero's framing: every frame on the channel starts with a byte for its kind:
// 2, a room's presence (a few bytes); 1, a chunk of a message, after a 2-byte
// length and the room's token. A chunk (its action wire) has 32 bytes of
// action type, a 2-byte nonce (the message's number), a tag byte (bit 0: the last
// chunk), a progress byte (how much of the message has been sent once this chunk
// is, out of 255), then at most CHUNK bytes of the message. The first chunk's
// progress therefore declares the message's size: a message that declares more
// than the room allows (no honest peer sends one: the protocol's messages are far
// smaller) closes the peer's connection at its first chunk, so the rest of it is
// never even delivered to the page (a 30 MB message was 1,800 chunks, each an event
// on the receiver's main thread: 58-80 ms of it), and Trystero never holds any of
// it. So does a message that runs past what it declared, or many messages
// interleaved: framing this page's transport never writes (it hands one peer its
// messages one at a time, static/js/room.entry.js).

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
  let broken = false; // the peer broke the framing: nothing more of it is read
  const open = new Map(); // a message still arriving (type and nonce) -> its state
  function fail(reason) {
    broken = true;
    violated(reason);
    return false;
  }
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
    if (broken || !(data instanceof ArrayBuffer) || data.byteLength < 4) return false;
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
      if (head[PROGRESS] < LEAST_FIRST_PROGRESS) return fail("a message bigger than the room takes");
      message = { bytes: 0, allowed: spend() };
      if (!last) {
        if (open.size >= limits.transport_open_messages) return fail("too many messages at once");
        open.set(key, message);
      }
    }
    message.bytes += size - HEADER;
    if (last) open.delete(key);
    if (message.bytes > limits.envelope_bytes) return fail("a message longer than it declared");
    return message.allowed;
  };
}

const handlers = globalThis.RTCDataChannel
  ? {
      onmessage: Object.getOwnPropertyDescriptor(RTCDataChannel.prototype, "onmessage"),
      onerror: Object.getOwnPropertyDescriptor(RTCDataChannel.prototype, "onerror"),
    }
  : null;

// Trystero's handler set as `name` on the channel, called only while `passes(event)`.
function wrap(channel, name, passes) {
  const { get, set } = handlers[name];
  Object.defineProperty(channel, name, {
    configurable: true,
    get: () => get.call(channel),
    set: (handler) =>
      set.call(channel, handler && ((event) => (passes(event) ? handler.call(channel, event) : undefined))),
  });
}

/**
 * Put a gate in front of the channel's message handler (Trystero sets `onmessage`).
 * A peer that breaks the framing loses its whole connection (`connection`, the
 * channel's RTCPeerConnection), not just the channel: a channel closed alone
 * left the connection's ICE, DTLS and SCTP running, one more for each time a
 * hostile peer came back and did it again. A channel the gate closes mid-message
 * (the rest of a 30 MB message still in flight) is aborted, and the browser
 * reports that abort as the channel's error: it is this page's own doing, so
 * Trystero does not hear it as one (it would log it as a peer's failure); it is
 * told the channel closed (a closed connection fires no event of its own), and
 * lets the peer go.
 */
export function guard(channel, connection = null) {
  if (!handlers?.onmessage) return channel;
  let closed = false;
  const admit = makeGate(() => {
    closed = true; // once: a broken gate reads nothing more
    const told = channel.onclose;
    channel.close();
    connection?.close();
    told?.call(channel, new Event("close"));
  });
  wrap(channel, "onmessage", (event) => admit(event.data));
  wrap(channel, "onerror", () => !closed);
  return channel;
}
