// The room transport, bundled by the build with Trystero and a QR encoder into
// static/vendor/room.mjs. Python (py/quandary/web/app.py) is its only user: it
// sends and receives text; everything else is the room protocol's job, except
// one thing only this side can do quickly: proving who the host is.
//
// The room's creator holds an Ed25519 key (WebCrypto); its public half is in
// the room link. The host's transport signs every message it sends as an
// envelope {m: text, n: counter, s: signature} over
//   room \n from \n to \n counter \n text
// so a message is bound to this room, to the host's connection, to one
// recipient and to its place in order. A receiver hands Python fromHost=true
// only for an envelope that verifies against the link's key, from the
// connection it names, to this connection, with a counter above the last one:
// a guest can neither forge, redirect nor replay the host's words.
// tests/net/memnet.py does the same with Python's `cryptography` package.

import { joinRoom, selfId } from "trystero";
import qrcode from "qrcode-generator";

const APP_ID = "quandary-rooms-v1";
const ED25519 = { name: "Ed25519" };
const encoder = new TextEncoder();

function toB64(bytes) {
  let text = "";
  for (const byte of new Uint8Array(bytes)) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromB64(text) {
  const plain = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(plain, (c) => c.charCodeAt(0));
}

function payload(roomId, from, to, counter, text) {
  return encoder.encode(`${roomId}\n${from}\n${to}\n${counter}\n${text}`);
}

// A new room's key pair: the public half (raw, base64url) goes into the link,
// the private half (PKCS#8, base64url) stays in this device's storage.
export async function makeHostKey() {
  const pair = await crypto.subtle.generateKey(ED25519, true, ["sign", "verify"]);
  const [pub, priv] = await Promise.all([
    crypto.subtle.exportKey("raw", pair.publicKey),
    crypto.subtle.exportKey("pkcs8", pair.privateKey),
  ]);
  return { public: toB64(pub), private: toB64(priv) };
}

// The envelope's parts if `data` is one, else null.
function envelope(data) {
  if (typeof data !== "string" || !data.startsWith('{"m":')) return null;
  try {
    const value = JSON.parse(data);
    const keys = Object.keys(value).sort().join();
    if (keys !== "m,n,s" || typeof value.m !== "string") return null;
    if (!Number.isSafeInteger(value.n) || typeof value.s !== "string") return null;
    return value;
  } catch {
    return null;
  }
}

export function openRoom({ roomId, secret, relays, turn, hostKey, signingKey }, handlers) {
  const config = { appId: APP_ID, password: secret };
  if (relays && relays.length) config.relayConfig = { urls: relays };
  // TURN servers named by the room's link relay the connection of peers that
  // cannot reach each other directly (Trystero adds them to its STUN servers).
  if (turn && turn.length) config.turnConfig = turn;
  const room = joinRoom(config, roomId, {
    onJoinError: (details) =>
      handlers.onError(String((details && details.error) || "join failed")),
  });
  const channel = room.makeAction("q");
  const verifier = crypto.subtle.importKey("raw", fromB64(hostKey), ED25519, false, ["verify"]);
  const signer = signingKey
    ? crypto.subtle.importKey("pkcs8", fromB64(signingKey), ED25519, false, ["sign"])
    : null;
  const sent = new Map(); // peer -> last counter used
  const heard = new Map(); // peer -> last counter accepted
  const inbox = new Map(); // peer -> promise chain, so verification keeps the order
  let outbox = Promise.resolve();

  async function receive(data, peerId) {
    const text = String(data);
    const sealed = envelope(text);
    if (!sealed) {
      handlers.onMessage(peerId, text, false);
      return;
    }
    const valid = await crypto.subtle.verify(
      ED25519,
      await verifier,
      fromB64(sealed.s),
      payload(roomId, peerId, selfId, sealed.n, sealed.m),
    );
    if (!valid || sealed.n <= (heard.get(peerId) || 0)) return; // forged or replayed
    heard.set(peerId, sealed.n);
    handlers.onMessage(peerId, sealed.m, true);
  }

  channel.onMessage = (data, { peerId }) => {
    // The end-to-end tests define this hook to audit every message a peer receives.
    if (globalThis.__quandaryRecord) globalThis.__quandaryRecord(peerId, String(data));
    const chain = (inbox.get(peerId) || Promise.resolve())
      .then(() => receive(data, peerId))
      .catch(() => {}); // a message that cannot be checked is no message
    inbox.set(peerId, chain);
  };
  room.onPeerJoin = (peerId) => handlers.onJoin(peerId);
  room.onPeerLeave = (peerId) => {
    inbox.delete(peerId);
    heard.delete(peerId);
    sent.delete(peerId);
    handlers.onLeave(peerId);
  };
  const api = {
    selfId,
    send(peerId, text) {
      if (!signer) return channel.send(text, { target: peerId });
      const counter = (sent.get(peerId) || 0) + 1;
      sent.set(peerId, counter);
      // Signing is asynchronous: one queue keeps the host's messages in order.
      outbox = outbox
        .then(async () => {
          const signature = await crypto.subtle.sign(
            ED25519,
            await signer,
            payload(roomId, selfId, peerId, counter, text),
          );
          const sealed = JSON.stringify({ m: text, n: counter, s: toB64(signature) });
          // Handed over in order, but not awaited: waiting for one delivery
          // before signing the next would queue every peer behind the slowest.
          channel.send(sealed, { target: peerId }).catch(() => {});
        })
        .catch(() => {}); // a peer that left meanwhile
      return outbox;
    },
    leave() {
      return room.leave();
    },
  };
  // The end-to-end tests play a hostile guest with this device's own transport:
  // anyone controls their own browser anyway, so this hands an attacker nothing.
  if (globalThis.__quandaryRecord) {
    globalThis.__quandaryTransport = { ...api, broadcast: (text) => channel.send(text) };
  }
  return api;
}

export function qrSvg(text) {
  const qr = qrcode(0, "M");
  qr.addData(text);
  qr.make();
  return qr.createSvgTag({ cellSize: 4, margin: 2, scalable: true });
}
