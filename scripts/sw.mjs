// Generate dist/sw.js with Workbox: precache every file of the built site,
// keyed by a content hash computed now, and drop caches of older builds.
// The new worker waits until the page asks it to take over (the "new version
// is ready" prompt), so one page never mixes files of two builds.
//
//   node scripts/sw.mjs dist
import { generateSW } from "workbox-build";

const dist = process.argv[2] || "dist";
const { count, size, warnings } = await generateSW({
  globDirectory: dist,
  globPatterns: ["**/*.{html,js,mjs,css,svg,png,json,zip,wasm,toml,py,webmanifest}"],
  // PyScript's editor and terminal plugins (CodeMirror, xterm) and MicroPython are
  // never loaded by Quandary: leave them out of the offline copy.
  globIgnores: [
    "sw.js",
    "workbox-*.js",
    "bench*",
    "**/codemirror*",
    "**/xterm*",
    "**/mpy-*",
    "**/pyodide_graph*",
  ],
  // Files in the content-hashed folder are versioned by their URL: fetch them by
  // their plain URL, so the browser's HTTP cache answers instead of downloading
  // the runtime twice. Every other file gets a revision hash of its content.
  dontCacheBustURLsMatching: /\/static\/v\//,
  swDest: `${dist}/sw.js`,
  maximumFileSizeToCacheInBytes: 64 * 1024 * 1024,
  cleanupOutdatedCaches: true,
  skipWaiting: false,
  clientsClaim: false,
  inlineWorkboxRuntime: true,
  navigateFallback: "index.html",
  navigateFallbackDenylist: [/\/static\//],
  mode: "production",
  sourcemap: false,
});
for (const warning of warnings) console.warn(warning);
console.log(`service worker precaches ${count} files, ${(size / 1048576).toFixed(1)} MiB`);
