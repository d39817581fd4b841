import { defineConfig } from "vite";

// The app is served by the local stack (go run ./emulator) from web/dist, on
// the same origin as the functions; `npm run dev` proxies them to it instead.
// Each page is its own chunk (main.ts imports them with import()); the
// manifest (dist/.vite/manifest.json) lists them, and TestBundleSize
// (emulator/browser/bundle_test.go) sums each page's chunks from it.
export default defineConfig({
  base: "./",
  build: { outDir: "dist", emptyOutDir: true, chunkSizeWarningLimit: 1000, manifest: true },
  server: {
    proxy: Object.fromEntries(
      ["/Auth", "/DashDice", "/PartyBoard", "/TileRace", "/HexDice", "/CodeBowl", "/config.json"].map((p) => [
        p,
        process.env.MEEPLE_FUNCTIONS ?? "http://127.0.0.1:8090",
      ]),
    ),
  },
});
