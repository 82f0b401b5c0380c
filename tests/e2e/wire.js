// The room tests' tap on a page's WebRTC data channels, run as an init script
// before the page's own modules: the page carries no test hook of its own, so
// the tests read and write Trystero's frames themselves, as anyone can in their
// own browser.
//
//   window.__quandaryInbox     every room message this device received, in order
//                               (the texts on the room's action, as Trystero
//                               hands them to static/js/room.entry.js);
//   window.__quandaryChannels  the device's data channels, each with the room
//                               token seen on it;
//   window.__quandaryBroadcast(text)  sends `text` on the room's action to every
//                               open channel, framed as Trystero frames a string
//                               (a hostile guest's raw words);
//   window.__quandarySelf      this device's Trystero id, as it announces itself
//                               to the relay.
//
// The framing (static/js/gate.js, and Trystero's action-wire.mjs): a room frame
// is byte 1, a 2-byte token length, the room's token, then a chunk: 32 bytes of
// action type (its name, zero padded), a 2-byte nonce (the message's number for
// that action), a tag byte (bit 0: the last chunk; 1: metadata; 2: binary; 3:
// JSON; none of 1-3: a string, UTF-8) and a progress byte (round((i + 1) / n *
// 255) for chunk i of n), then at most 16 KiB - 36 bytes of the message. A
// presence frame is byte 2, a byte for present or not, a 2-byte token length and
// the token. Trystero's own actions are named "@_..."; the room's text action is
// the one other (room.entry.js makes one), learnt from the frames seen.
//
// What is recorded is what the page's gate (static/js/gate.js) lets through to
// Trystero: the gate puts itself on each channel with Object.defineProperty
// (an own `onmessage` accessor in front of the prototype's); the tap wraps the
// handler Trystero gives that accessor, so it sees a frame exactly when Trystero
// does. A frame the gate drops (a flood, a message too large) is not recorded,
// as Trystero never reads it.
(() => {
  if (!globalThis.RTCDataChannel) return;
  const ROOM_FRAME = 1;
  const PRESENCE_FRAME = 2;
  const TYPE = 32;
  const NONCE = 32;
  const TAG = 34;
  const PROGRESS = 35;
  const HEADER = 36;
  const CHUNK = 16 * 1024 - HEADER;
  const LAST = 1;
  const NOT_A_STRING = 2 | 4 | 8; // metadata, binary or JSON
  const FIRST_NONCE = 40000; // far above the page's own, which count from 0
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const inbox = (window.__quandaryInbox = []);
  const channels = (window.__quandaryChannels = []);
  let roomType = null; // the room's text action, 32 bytes, once seen
  const entries = new WeakMap();
  const send = RTCDataChannel.prototype.send;

  function entryOf(channel) {
    let entry = entries.get(channel);
    if (!entry) {
      entry = { channel, token: null, arriving: new Map(), nonce: FIRST_NONCE };
      entries.set(channel, entry);
      channels.push(entry);
    }
    return entry;
  }

  function bytesOf(data) {
    if (data instanceof ArrayBuffer) return new Uint8Array(data);
    if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    return null;
  }

  // A frame's room token, and its chunk if it is a room frame; null if neither.
  function read(bytes) {
    if (!bytes || bytes.length < 4) return null;
    if (bytes[0] === PRESENCE_FRAME) {
      const size = (bytes[2] << 8) | bytes[3];
      return bytes.length >= 4 + size ? { token: bytes.slice(4, 4 + size), chunk: null } : null;
    }
    if (bytes[0] !== ROOM_FRAME) return null;
    const size = (bytes[1] << 8) | bytes[2];
    if (bytes.length < 3 + size + HEADER) return null;
    return { token: bytes.slice(3, 3 + size), chunk: bytes.subarray(3 + size) };
  }

  const nameOf = (chunk) => decoder.decode(chunk.subarray(0, TYPE)).replace(/\0+$/, "");
  const isRoomText = (chunk) => !nameOf(chunk).startsWith("@_") && !(chunk[TAG] & NOT_A_STRING);

  // Learns the channel's token, and the room's text action, from a frame.
  function learn(entry, frame) {
    if (frame.token.length) entry.token = frame.token;
    if (frame.chunk && !roomType && isRoomText(frame.chunk)) roomType = frame.chunk.slice(0, TYPE);
    return frame.chunk;
  }

  // One frame Trystero received: a chunk of the room's text goes into its message;
  // the message's last chunk puts the whole message, decoded, in the inbox.
  function received(channel, data) {
    const frame = read(bytesOf(data));
    const chunk = frame && learn(entryOf(channel), frame);
    if (!chunk || !isRoomText(chunk)) return;
    const { arriving } = entryOf(channel);
    const key = `${nameOf(chunk)}/${(chunk[NONCE] << 8) | chunk[NONCE + 1]}`;
    const parts = arriving.get(key) || [];
    parts.push(chunk.slice(HEADER));
    if (!(chunk[TAG] & LAST)) {
      arriving.set(key, parts);
      return;
    }
    arriving.delete(key);
    const whole = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
    parts.reduce((at, part) => (whole.set(part, at), at + part.length), 0);
    inbox.push(decoder.decode(whole));
  }

  const define = Object.defineProperty;
  Object.defineProperty = function (target, key, descriptor) {
    if (key === "onmessage" && target instanceof RTCDataChannel && descriptor && descriptor.set) {
      const put = descriptor.set;
      descriptor = {
        ...descriptor,
        set(handler) {
          const channel = this;
          const heard =
            typeof handler === "function"
              ? function (event) {
                  received(channel, event.data);
                  return handler.call(this, event);
                }
              : handler;
          return put.call(this, heard);
        },
      };
    }
    return define(target, key, descriptor);
  };

  RTCDataChannel.prototype.send = function (data) {
    const frame = read(bytesOf(data));
    if (frame) learn(entryOf(this), frame);
    return send.call(this, data);
  };

  // Resolves once the channel's buffer is low again (as Trystero waits), or it closed.
  function drained(channel) {
    if (channel.bufferedAmount <= channel.bufferedAmountLowThreshold) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        channel.removeEventListener("bufferedamountlow", done);
        channel.removeEventListener("close", done);
        resolve();
      };
      channel.addEventListener("bufferedamountlow", done);
      channel.addEventListener("close", done);
    });
  }

  // `text` as Trystero sends a string on the room's action, to every open channel.
  window.__quandaryBroadcast = async (text) => {
    if (!roomType) throw new Error("no room message seen yet: the room's action is unknown");
    const message = encoder.encode(text);
    const count = Math.ceil(message.length / CHUNK) || 1;
    const open = channels.filter((e) => e.token && e.channel.readyState === "open");
    await Promise.all(
      open.map(async (entry) => {
        const { channel, token } = entry;
        const nonce = entry.nonce;
        entry.nonce = nonce === 0xffff ? FIRST_NONCE : nonce + 1;
        for (let i = 0; i < count; i++) {
          const part = message.subarray(i * CHUNK, (i + 1) * CHUNK);
          const frame = new Uint8Array(3 + token.length + HEADER + part.length);
          frame.set([ROOM_FRAME, token.length >> 8, token.length & 0xff]);
          frame.set(token, 3);
          const chunk = frame.subarray(3 + token.length);
          chunk.set(roomType);
          chunk.set([nonce >> 8, nonce & 0xff], NONCE);
          chunk[TAG] = i === count - 1 ? LAST : 0;
          chunk[PROGRESS] = Math.round(((i + 1) / count) * 255);
          chunk.set(part, HEADER);
          await drained(channel);
          if (channel.readyState !== "open") return;
          send.call(channel, frame);
        }
      }),
    );
  };

  // Trystero announces itself to the relay as {"peerId": its id, ...}, in the
  // content (a JSON string) of a Nostr event.
  const socketSend = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (!window.__quandarySelf && typeof data === "string") {
      const found = /peerId\\*"\s*:\s*\\*"([0-9A-Za-z]+)/.exec(data);
      if (found) window.__quandarySelf = found[1];
    }
    return socketSend.call(this, data);
  };
})();
