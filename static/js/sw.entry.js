// The service worker: Workbox's precaching over every file of the build, each
// keyed by a content hash the build computed (it replaces self.__WB_MANIFEST
// below). Old builds' caches are dropped. A new worker waits until the page
// asks it to take over (the "new version is ready" prompt), so a page never
// mixes files of two builds. Bundled by the build into dist/sw.js.

import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
} from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// Any page address (a room link included) opens the app shell, also offline.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL("index.html"), { denylist: [/\/static\//] }),
);

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "SKIP_WAITING") self.skipWaiting();
});
