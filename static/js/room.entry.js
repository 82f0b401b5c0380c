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
// The room's key never leaves the host's device. When the host leaves for good
// (py/quandary/net/succession.py), a guest carries the room on and signs with
// its own device's key, which the host named in the order of succession; each
// guest that follows it tells this transport to trust that key (`trust`), so
// the successor's envelopes verify like the host's. A device that never saw the
// succession (a newcomer, a player back later) checks the successor's greeting
// by its chain of mandates: each signed by the host before (the first by the
// link's key) over "mandate \n room \n text", naming its heirs' keys; the
// greeting must be signed by one of the last mandate's keys. Python is told
// which (`certified`) and decides whether to follow it.

import { joinRoom, selfId } from "trystero";
import qrcode from "qrcode-generator";
import { guard } from "./gate.js";

const APP_ID = "quandary-rooms-v1";
const ROUND_TRIP_EVERY_MS = 3000;
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

const MANDATES = 8; // py/quandary/net/succession.py, MANDATES
const MANDATE_CHARS = 4096;

function mandatePayload(roomId, text) {
  return encoder.encode(`mandate\n${roomId}\n${text}`);
}

async function verifiesWith(keys, signature, signed) {
  for (const key of keys) {
    try {
      const verifier = await key;
      if (verifier && (await crypto.subtle.verify(ED25519, verifier, signature, signed))) return key;
    } catch {
      // a key that cannot be read verifies nothing
    }
  }
  return null;
}

// The heirs' keys (base64url) at the end of a host greeting's chain of mandates,
// each mandate signed by a key the one before names (the first by `keys`); [] if
// the text is no such greeting or any link fails.
async function mandated(roomId, keys, text, importVerifier) {
  let chain;
  try {
    const greeting = JSON.parse(text);
    chain = greeting && greeting.t === "host" ? greeting.chain : null;
  } catch {
    return [];
  }
  if (!Array.isArray(chain) || chain.length === 0 || chain.length > MANDATES) return [];
  let current = keys;
  let named = [];
  for (const link of chain) {
    if (!Array.isArray(link) || link.length !== 2) return [];
    const [mandate, signature] = link;
    if (typeof mandate !== "string" || mandate.length > MANDATE_CHARS || typeof signature !== "string") return [];
    let heirs;
    try {
      const found = await verifiesWith(current, fromB64(signature), mandatePayload(roomId, mandate));
      if (!found) return [];
      heirs = JSON.parse(mandate).heirs;
    } catch {
      return [];
    }
    if (!Array.isArray(heirs) || heirs.length > 16) return [];
    named = heirs.map((heir) => (Array.isArray(heir) ? heir[1] : null)).filter((k) => typeof k === "string");
    current = named.map(importVerifier);
  }
  return named;
}

// A key that cannot be read (a hostile guest's in a mandate) is no key: null.
function importVerifier(key) {
  try {
    return crypto.subtle.importKey("raw", fromB64(key), ED25519, false, ["verify"]).catch(() => null);
  } catch {
    return Promise.resolve(null);
  }
}

// What this connection (`selfId`) takes from its peers: the policy that decides who
// speaks for the host, apart from the wire so that it is tested as it ships
// (tests/e2e/test_transport_policy.py runs it in Node against the in-memory network's
// copy, tests/net/memnet.py). `open` answers [text, fromHost, heirKey] for what goes
// to Python, or null for an envelope dropped: replayed, or signed by no key it knows.
export function receiver({ roomId, selfId, hostKey, trusted }) {
  // The link's key, and the one successor this device follows (if any).
  const linkVerifier = importVerifier(hostKey);
  let verifiers = [linkVerifier, ...(trusted || []).slice(-1).map(importVerifier)];
  const heard = new Map(); // peer -> last counter accepted
  return {
    async open(peerId, data) {
      const text = String(data);
      const sealed = envelope(text);
      if (!sealed) return [text, false, null];
      if (sealed.n <= (heard.get(peerId) || 0)) return null; // replayed
      const signed = payload(roomId, peerId, selfId, sealed.n, sealed.m);
      let signature;
      try {
        signature = fromB64(sealed.s);
      } catch {
        return null; // no signature at all
      }
      if (await verifiesWith(verifiers, signature, signed)) {
        heard.set(peerId, sealed.n);
        return [sealed.m, true, null];
      }
      // Not the host's, nor a successor's this device follows: perhaps a successor
      // it never saw take over, greeting with the mandates that name its key.
      const named = await mandated(roomId, verifiers, sealed.m, importVerifier);
      for (const key of named) {
        if (await verifiesWith([importVerifier(key)], signature, signed)) {
          heard.set(peerId, sealed.n);
          return [sealed.m, false, key];
        }
      }
      return null;
    },
    // From now on an envelope signed with `key` is the host's too: the successor
    // this guest follows, once it waited out the host. It replaces any successor
    // followed before: a key trusted once is not trusted for ever.
    trust(key) {
      verifiers = [linkVerifier, importVerifier(key)];
    },
    forget(peerId) {
      heard.delete(peerId);
    },
  };
}

// A key pair: a new room's (the public half, raw, base64url, goes into the link,
// the private half, PKCS#8, base64url, stays in this device's storage), or a
// device's own, named in a room's order of succession.
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
      return guard(super.createDataChannel(...args), this);
    }
    get ondatachannel() {
      return super.ondatachannel;
    }
    set ondatachannel(handler) {
      super.ondatachannel = handler && ((event) => {
        guard(event.channel, this);
        return handler.call(this, event);
      });
    }
  };

// One queue per peer: each peer's steps run one after another, different peers' side
// by side, and a step that fails (a peer that left meanwhile, a message that cannot
// be checked) holds up nothing. openRoom keeps three: what arrives from a peer is
// checked in order, what goes to it is handed over whole in order, and the host signs
// in order: a move's views to every guest are signed at once (each signature waits
// for the browser's crypto, off the page's thread), not one after the other, while
// each peer's messages keep the order their counters say.
export function perPeer() {
  const chains = new Map(); // peer -> its last step
  const queue = (peerId, step) => {
    const done = (chains.get(peerId) ?? Promise.resolve()).then(step).catch(() => {});
    chains.set(peerId, done);
    return done;
  };
  queue.forget = (peerId) => chains.delete(peerId);
  return queue;
}

// What openRoom throws in a browser with no WebRTC (WebKitGTK, some embedded
// browsers): the page passes the error's text on as the room's failure, and Python
// (py/quandary/web/bridge.py, NO_WEBRTC) says in words which browsers can join.
export const NO_WEBRTC = "quandary:no-webrtc";

export function openRoom({ roomId, secret, relays, turn, hostKey, signingKey, trusted }, handlers) {
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
  const policy = receiver({ roomId, selfId, hostKey, trusted });
  const importSigner = (key) =>
    crypto.subtle.importKey("pkcs8", fromB64(key), ED25519, false, ["sign"]);
  let signer = signingKey ? importSigner(signingKey) : null;
  const sent = new Map(); // peer -> last counter used
  const inbox = perPeer(); // checks each peer's messages in the order they came
  const delivering = perPeer(); // hands each peer's messages over whole, in order (deliver)
  const outbox = perPeer(); // signs each peer's messages in order (signAndSend)

  async function receive(data, peerId) {
    const opened = await policy.open(peerId, data);
    if (opened === null) return;
    const [text, fromHost, heir] = opened;
    if (heir) handlers.onMessage(peerId, text, fromHost, heir);
    else handlers.onMessage(peerId, text, fromHost);
  }

  // A message that cannot be checked is no message.
  channel.onMessage = (data, { peerId }) => inbox(peerId, () => receive(data, peerId));
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
    inbox.forget(peerId);
    policy.forget(peerId);
    sent.delete(peerId);
    delivering.forget(peerId);
    outbox.forget(peerId);
    handlers.onLeave(peerId);
  };
  // Signs and hands over one message; run only inside its peer's outbox queue, which
  // numbers and sends the host's messages to that peer in the order they were made.
  async function signAndSend(key, peerId, text) {
    const counter = (sent.get(peerId) || 0) + 1;
    sent.set(peerId, counter);
    const signature = await crypto.subtle.sign(
      ED25519,
      key,
      payload(roomId, selfId, peerId, counter, text),
    );
    const sealed = JSON.stringify({ m: text, n: counter, s: toB64(signature) });
    // Handed over in order, but not awaited: waiting for one delivery before
    // signing the next would queue every peer behind the slowest.
    deliver(peerId, sealed);
  }

  // Every message to one peer, a host's or a guest's, waits for the one before it to
  // be handed over whole: Trystero sends a long message chunk by chunk as the channel
  // drains, and messages sent at once would interleave their chunks, which the
  // receiving gate (static/js/gate.js) takes for a hostile peer's framing past a few
  // at a time. Peers are still served side by side.
  function deliver(peerId, text) {
    return delivering(peerId, () => channel.send(text, { target: peerId }));
  }

  const api = {
    selfId,
    send(peerId, text) {
      if (!signer) return deliver(peerId, text);
      const key = signer;
      return outbox(peerId, async () => signAndSend(await key, peerId, text));
    },
    // From now on an envelope signed with `key` is the host's too: the successor
    // this guest follows, once it waited out the host. It replaces any successor
    // followed before: a key trusted once is not trusted for ever.
    trust(key) {
      policy.trust(key);
    },
    // Sign a mandate (py/quandary/net/succession.py, mandate_text) with the key
    // this device signs with; resolves to the signature, base64url.
    async certify(text) {
      if (!signer) throw new Error("only a host certifies its heirs");
      const signature = await crypto.subtle.sign(ED25519, await signer, mandatePayload(roomId, text));
      return toB64(signature);
    },
    // A successor signs with its own device key from now on; a host that was
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
  return api;
}

export function qrSvg(text) {
  const qr = qrcode(0, "M");
  qr.addData(text);
  qr.make();
  return qr.createSvgTag({ cellSize: 4, margin: 2, scalable: true });
}
