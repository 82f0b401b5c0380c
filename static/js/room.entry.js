// The room transport, bundled by the build with Trystero and a QR encoder into
// static/vendor/room.mjs. Python (py/quandary/web/transport.py) is its only
// user: it sends and receives text; everything else is the room protocol's job.

import { joinRoom, selfId } from "trystero";
import qrcode from "qrcode-generator";

const APP_ID = "quandary-rooms-v1";

export function openRoom({ roomId, secret, relays }, handlers) {
  const config = { appId: APP_ID, password: secret };
  if (relays && relays.length) config.relayConfig = { urls: relays };
  const room = joinRoom(config, roomId, {
    onJoinError: (details) =>
      handlers.onError(String((details && details.error) || "join failed")),
  });
  const channel = room.makeAction("q");
  channel.onMessage = (data, { peerId }) => {
    // The end-to-end tests define this hook to audit every message a peer receives.
    if (globalThis.__quandaryRecord) globalThis.__quandaryRecord(peerId, String(data));
    handlers.onMessage(peerId, String(data));
  };
  room.onPeerJoin = (peerId) => handlers.onJoin(peerId);
  room.onPeerLeave = (peerId) => handlers.onLeave(peerId);
  return {
    selfId,
    send(peerId, text) {
      return channel.send(text, { target: peerId });
    },
    leave() {
      return room.leave();
    },
  };
}

export function qrSvg(text) {
  const qr = qrcode(0, "M");
  qr.addData(text);
  qr.make();
  return qr.createSvgTag({ cellSize: 4, margin: 2, scalable: true });
}
