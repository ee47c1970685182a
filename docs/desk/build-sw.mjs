// The dispute desk's service worker, built with Workbox (workbox-build, from npm) at the
// end of the docs build (docs/_ext/castlerules_desk.py runs: node build-sw.mjs OUTDIR).
// It precaches the desk's runtime (Pyodide), the wheels, the case index and the site's
// pages, so that the desk opens and answers without a network after one visit.
// Prints one line of JSON: the files precached and their bytes.
import { generateSW } from "workbox-build";

const outdir = process.argv[2];
if (!outdir) {
  console.error("usage: node build-sw.mjs OUTDIR");
  process.exit(2);
}
const { count, size, warnings } = await generateSW({
  globDirectory: outdir,
  globPatterns: ["**/*.{html,css,js,mjs,svg,png,webmanifest,woff,woff2,json,whl,wasm,zip}"],
  // Not kept: the highlighted sources, the reST sources, downloads and the worker itself.
  globIgnores: ["_modules/**", "_sources/**", "_downloads/**", "sw.js", "workbox-*.js", "**/*.map"],
  swDest: `${outdir}/sw.js`,
  // Sphinx links its scripts and styles with ?v=CHECKSUM: the same file for the worker.
  ignoreURLParametersMatching: [/^v$/, /^utm_/, /^fbclid$/],
  maximumFileSizeToCacheInBytes: 32 * 1024 * 1024, // Pyodide's WebAssembly is about 8 MiB
  skipWaiting: true,
  clientsClaim: true,
  cleanupOutdatedCaches: true,
  sourcemap: false,
  mode: "production",
});
console.log(JSON.stringify({ count, size, warnings }));
