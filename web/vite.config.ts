import { defineConfig } from "vite";

// The app is served by the local stack (go run ./emulator) from web/dist, on
// the same origin as the functions; `npm run dev` proxies them to it instead.
export default defineConfig({
  base: "./",
  build: { outDir: "dist", emptyOutDir: true, chunkSizeWarningLimit: 1000 },
  server: {
    proxy: Object.fromEntries(
      ["/Auth", "/DashDice", "/PartyBoard", "/TileRace", "/HexDice", "/CodeBowl", "/config.json"].map((p) => [
        p,
        process.env.MEEPLE_FUNCTIONS ?? "http://127.0.0.1:8090",
      ]),
    ),
  },
});
