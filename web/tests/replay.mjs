// Browser test of the replay page. Alice (a browser) and Bob (the test, through
// the functions) play a seeded DashDice match to its end; Alice opens
// #/replay/<id>: the server's replay matched the stored game, the slider
// spans every frame, "step" moves one frame, "play" runs to the last frame,
// whose version is the game's, and the slider goes back to the start. A
// game not finished is refused with a message saying so. Started by
// emulator/browser (go test); by hand:
//
//   MEEPLE_URL=http://127.0.0.1:8090/ node tests/replay.mjs
//
// Prints BROWSER-METRICS {json}: replayMs, from opening the page to the
// replay shown.

import { api, check, player, run, shot, signIn, text, token, url } from "./lib.mjs";

const stamp = Date.now().toString(36);

/** playOut plays match id to its end by legal moves: roll a few times, then bank; forfeit after many actions. */
async function playOut(id, players) {
  for (let n = 0; n < 400; n++) {
    let moved = false;
    for (const tok of players) {
      const legal = await api("DashDice", { gameId: id, type: "legal", actionId: "l" }, tok);
      const moves = legal.result.moves.map((m) => m.type);
      if (moves.length === 0 || (moves.length === 1 && moves[0] === "forfeit" && n < 300)) continue;
      let m = moves.find((t) => t === "call") ?? (n % 4 === 3 && moves.includes("bank") ? "bank" : moves.includes("roll") ? "roll" : moves[0]);
      if (n >= 300) m = "forfeit";
      const body = { gameId: id, type: m, actionId: `p${n}-${stamp}` };
      if (m === "call") body.call = "odd";
      const out = await api("DashDice", body, tok);
      moved = true;
      if ((out.events ?? []).some((e) => e.type === "gameOver")) return n + 1;
      break;
    }
    if (!moved) return n;
  }
  throw new Error(`match ${id} did not end`);
}

await run("replay", async (browser, metrics) => {
  const alice = await player(browser, "Alice");
  await signIn(alice);
  const aliceTok = await token(alice);
  const bob = await api("Auth", { type: "guest", nickname: "Bob" });

  const made = await api("DashDice", { type: "create", actionId: `c-${stamp}`, mode: "classic", turnSeconds: 0, private: true, seed: `replay-${stamp}` }, aliceTok);
  const id = made.result.gameId;
  await api("DashDice", { type: "join", actionId: `j-${stamp}`, roomCode: made.result.roomCode }, bob.token);
  const actions = await playOut(id, [aliceTok, bob.token]);
  metrics.actions = actions;

  // An unfinished game is refused, saying why.
  const open = await api("DashDice", { type: "create", actionId: `o-${stamp}`, mode: "classic", private: true }, aliceTok);
  await alice.page.goto(`${url}#/replay/${open.result.gameId}`);
  await alice.page.locator(".error").filter({ hasText: "not finished" }).waitFor();
  check(true, "an unfinished game's replay is refused: " + (await text(alice, ".error")));

  const t0 = Date.now();
  await alice.page.goto(`${url}#/replay/${id}`);
  await alice.page.locator("#replay-verified").waitFor();
  metrics.replayMs = Date.now() - t0;
  check((await alice.page.locator("#replay-verified").getAttribute("data-verified")) === "true", "the replay matched the stored game");
  const max = Number(await alice.page.locator("#replay-slider").getAttribute("max"));
  metrics.frames = max + 1;
  check(max >= 3, `the slider spans ${max + 1} frames`);
  check((await text(alice, "#replay-frame")).startsWith("frame 1 of"), "the replay opens on the create");
  await alice.page.locator("#replay-step").click();
  check((await text(alice, "#replay-frame")).startsWith("frame 2 of"), "step moves one frame");
  check((await text(alice, "#replay-events")).length > 0, "a frame lists its steps' event words: " + (await text(alice, "#replay-events")).slice(0, 80));

  await alice.page.locator("#replay-speed").selectOption("0.25 s");
  await alice.page.locator("#replay-play").click();
  await alice.page.waitForFunction((n) => document.querySelector("#replay-frame")?.textContent?.startsWith(`frame ${n} of`), max + 1, { timeout: 250 * (max + 1) + 10_000 });
  const game = await api("DashDice", { gameId: id, type: "legal", actionId: "l" }, aliceTok);
  check(Number(await text(alice, "#version")) === game.version, `play runs to the last frame, the game's version ${game.version}`);
  // The game's own words for its gameOver ("Alice wins: …", or a draw).
  check(/ wins: |a draw|gameOver/.test(await text(alice, "#replay-events")), "the last frame ends the game: " + (await text(alice, "#replay-events")).slice(-80));
  check((await text(alice, "#replay-play")).includes("play"), "play stops at the end");

  await alice.page.locator("#replay-slider").evaluate((el) => {
    el.value = "0";
    el.dispatchEvent(new Event("input"));
  });
  check((await text(alice, "#replay-frame")).startsWith("frame 1 of"), "the slider goes back to the start");
  await shot(alice, "replay.png");
});
