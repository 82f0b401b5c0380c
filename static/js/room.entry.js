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
//
// The host also seals a backup of the room on the seated guests
// (py/quandary/net/succession.py): AES-GCM under a fresh key, the key split
// 2-of-n with Shamir's secret sharing (`shamir-secret-sharing`, audited), each
// guest sent the ciphertext and its own share. A successor opens it with two
// shares and from then on signs with the room's key it found inside.

import { joinRoom, selfId } from "trystero";
import qrcode from "qrcode-generator";
import { combine, split } from "shamir-secret-sharing";
import { guard } from "./gate.js";

const APP_ID = "quandary-rooms-v1";
const ROUND_TRIP_EVERY_MS = 3000;
const ED25519 = { name: "Ed25519" };
const AES = { name: "AES-GCM", length: 128 };
const IV_BYTES = 12;
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

// Trystero keeps a pool of connections with their offers made in advance, and
// renews an offer older than about a minute before it sends it: it rolls the
// offer back and restarts ICE. In Chromium that renewal races the connection's
// own renegotiation and ends with an offer that gathers nothing, so a device that
// has been in the room for a minute can no longer connect to anyone whose id
// sorts after its own (tests/e2e/test_rooms.py, the late arrival). An offer that
// was never answered needs no renewal: its candidates stay valid as long as its
// connection lives. So a pooled offer is sent as it is.
const PooledPeerConnection = !globalThis.RTCPeerConnection
  ? undefined // no WebRTC here: the room says it cannot connect, as before
  : class extends globalThis.RTCPeerConnection {
    // An offer of the pool: made, never answered.
    unanswered() {
      return this.signalingState === "have-local-offer" && !this.remoteDescription;
    }
    restartIce() {
      if (!this.unanswered()) super.restartIce();
    }
    createOffer(options) {
      if (this.unanswered() && this.localDescription) return Promise.resolve(this.localDescription);
      return super.createOffer(options);
    }
    setLocalDescription(description) {
      const kept = this.unanswered() && this.localDescription;
      if (kept && description && (description.type === "rollback" || description.sdp === kept.sdp)) {
        return Promise.resolve();
      }
      return super.setLocalDescription(description);
    }
    // Every data channel, made here or by the peer, is read through the gate
    // (static/js/gate.js) before Trystero sees a byte of it.
    createDataChannel(...args) {
      return guard(super.createDataChannel(...args));
    }
    get ondatachannel() {
      return super.ondatachannel;
    }
    set ondatachannel(handler) {
      super.ondatachannel = handler && ((event) => {
        guard(event.channel);
        return handler.call(this, event);
      });
    }
  };

// What openRoom throws in a browser with no WebRTC (WebKitGTK, some embedded
// browsers): the page passes the error's text on as the room's failure, and Python
// (py/quandary/web/bridge.py, NO_WEBRTC) says in words which browsers can join.
export const NO_WEBRTC = "quandary:no-webrtc";

export function openRoom({ roomId, secret, relays, turn, hostKey, signingKey }, handlers) {
  if (typeof RTCPeerConnection === "undefined") throw new Error(NO_WEBRTC);
  const config = { appId: APP_ID, password: secret, rtcPolyfill: PooledPeerConnection };
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
  const importSigner = (key) =>
    crypto.subtle.importKey("pkcs8", fromB64(key), ED25519, false, ["sign"]);
  let signer = signingKey ? importSigner(signingKey) : null;
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
  // The host times each connection by the browser's own measure (the ICE checks
  // of the pair in use): the latency credit a guest gets for a throw is capped by
  // it, since the pongs that measure it otherwise are the guest's to delay.
  async function measureRoundTrips() {
    if (!signer || !handlers.onRoundTrip) return;
    for (const [peerId, connection] of Object.entries(room.getPeers())) {
      try {
        for (const report of (await connection.getStats()).values()) {
          if (report.type === "candidate-pair" && report.nominated && report.state === "succeeded"
            && typeof report.currentRoundTripTime === "number") {
            handlers.onRoundTrip(peerId, Math.round(report.currentRoundTripTime * 1000));
            break;
          }
        }
      } catch {
        // a connection closing as it is asked: its next measure, or none
      }
    }
  }
  const measuring = setInterval(measureRoundTrips, ROUND_TRIP_EVERY_MS);
  room.onPeerJoin = (peerId) => handlers.onJoin(peerId);
  room.onPeerLeave = (peerId) => {
    inbox.delete(peerId);
    heard.delete(peerId);
    sent.delete(peerId);
    handlers.onLeave(peerId);
  };
  // Signs and hands over one message; run only inside the outbox queue, which
  // numbers and sends the host's messages in the order they were made.
  async function signAndSend(key, peerId, text) {
    const counter = (sent.get(peerId) || 0) + 1;
    sent.set(peerId, counter);
    const signature = await crypto.subtle.sign(
      ED25519,
      key,
      payload(roomId, selfId, peerId, counter, text),
    );
    const sealed = JSON.stringify({ m: text, n: counter, s: toB64(signature) });
    // Handed over in order, but not awaited: waiting for one delivery
    // before signing the next would queue every peer behind the slowest.
    channel.send(sealed, { target: peerId }).catch(() => {});
  }

  function queue(step) {
    outbox = outbox.then(step).catch(() => {}); // a peer that left meanwhile
    return outbox;
  }

  const api = {
    selfId,
    send(peerId, text) {
      if (!signer) return channel.send(text, { target: peerId });
      const key = signer;
      return queue(async () => signAndSend(await key, peerId, text));
    },
    // Seal `text` for `holders`: each gets `template` (a JSON object's text)
    // with the ciphertext and its own share of the key added, queued before
    // anything the host sends after this call.
    backup(text, holders, template) {
      if (!signer) return outbox;
      const key = signer;
      return queue(async () => {
        const aes = await crypto.subtle.generateKey(AES, true, ["encrypt"]);
        const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
        const cipher = await crypto.subtle.encrypt({ name: AES.name, iv }, aes, encoder.encode(text));
        const raw = new Uint8Array(await crypto.subtle.exportKey("raw", aes));
        const shares = await split(raw, holders.length, 2);
        raw.fill(0);
        const sealed = new Uint8Array(IV_BYTES + cipher.byteLength);
        sealed.set(iv);
        sealed.set(new Uint8Array(cipher), IV_BYTES);
        const blob = JSON.stringify(toB64(sealed));
        const signing = await key;
        for (let i = 0; i < holders.length; i++) {
          const share = JSON.stringify(toB64(shares[i]));
          await signAndSend(signing, holders[i], `${template.slice(0, -1)},"blob":${blob},"share":${share}}`);
        }
      });
    },
    // A backup's text from its blob and two shares; rejects if they do not fit.
    async unseal(blob, shares) {
      const raw = await combine(shares.map(fromB64));
      const aes = await crypto.subtle.importKey("raw", raw, AES.name, false, ["decrypt"]);
      const sealed = fromB64(blob);
      const plain = await crypto.subtle.decrypt(
        { name: AES.name, iv: sealed.slice(0, IV_BYTES) },
        aes,
        sealed.slice(IV_BYTES),
      );
      return new TextDecoder().decode(plain);
    },
    // The successor signs with the room's key from now on; a host that was
    // succeeded stops signing and speaks as a guest.
    becomeHost(key) {
      signer = importSigner(key);
    },
    stepDown() {
      signer = null;
    },
    leave() {
      clearInterval(measuring);
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
