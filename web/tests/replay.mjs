// Browser test of the replay page: a finished game of every kind, replayed
// and drawn frame by frame by the game's own page, read-only.
//
// DashDice: Alice (a browser) and Bob (the test, through the functions) play
// a seeded match to its end; Alice's lobby lists it among her results, its
// link opens the replay; Alice opens #/replay/<id>: the server's replay
// matched the stored game, the slider spans every frame, "step" moves one
// frame, "play" runs to the last frame, whose version is the game's, and the
// slider goes back to the start; each frame is the DashDice page (its dice
// and players, no JSON dump on show). A game not finished is refused with a
// message saying so.
//
// Party Board, CodeBowl, Hex & Dice (a fog game, alternating) and Tile Race:
// each is played to its end through the functions (random legal moves, then
// a move that ends it; a race by one team completing every tile), and its
// replay draws that game's board at the first frame, after a step and at the
// end (Party Board's tiles, CodeBowl's pitch, the hex map, the 56 tiles), and
// axe finds no serious or critical violation on it mid-replay.
//
// Fog: the Hex & Dice game is played in fog of war. In Ann's replay every
// frame before the end draws Ann's own view: no troop of Ben's on a hex Ann
// does not see then; a spectator's replay (Vi) draws no troop at all until
// the end; the last frame draws the whole board to both.
//
// Started by emulator/browser (go test); by hand:
//
//   MEEPLE_URL=http://127.0.0.1:8090/ node tests/replay.mjs
//
// Prints BROWSER-METRICS {json}: replayMs, from opening the DashDice replay
// to the replay shown, and frames and ms to draw per kind.

import AxeBuilder from "@axe-core/playwright";
import { readFileSync } from "node:fs";
import { api, check, player, run, shot, signIn, text, token, url } from "./lib.mjs";

const stamp = Date.now().toString(36);
const boardFile = JSON.parse(readFileSync(new URL("./tiny-board.json", import.meta.url), "utf8"));

/** The moves that end a game at once: random play keeps them for when it has gone on long enough. */
const ENDERS = new Set(["forfeit", "surrender", "removePlayer"]);

/**
 * randomPlay plays game id of function fn to its end by legal moves of the
 * players (tokens): a seeded random pick among every player's moves, only
 * enders after `long` actions; returns how many actions it took.
 */
async function randomPlay(fn, id, tokens, long, seed = 7) {
  let x = seed;
  const pick = (n) => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x % n;
  };
  for (let n = 0; n < 2000; n++) {
    let all = [];
    const end = [];
    for (const tok of tokens) {
      const legal = await api(fn, { gameId: id, type: "legal", actionId: "l" }, tok);
      for (const m of legal.result.moves ?? []) (ENDERS.has(m.type) ? end : all).push({ tok, m });
    }
    if (n >= long && end.length) all = end;
    if (!all.length) all = end;
    if (!all.length) return n;
    const o = all[pick(all.length)];
    const out = await api(fn, { gameId: id, actionId: `r${n}-${stamp}`, type: o.m.type, ...(o.m.payload ?? {}) }, o.tok);
    if ((out.events ?? []).some((e) => e.type === "gameOver")) return n + 1;
  }
  throw new Error(`${fn} game ${id} did not end`);
}

/** slideTo moves the replay's slider to frame i (0-based), as a user's drag does. */
const slideTo = (p, i) =>
  p.page.locator("#replay-slider").evaluate((el, i) => {
    el.value = String(i);
    el.dispatchEvent(new Event("input"));
  }, i);

/**
 * opensReplay opens game id's replay on p's page and checks the game's own
 * page draws it (sel inside #replay-game) at the first frame, after one
 * step and at the last frame, with no JSON on show; returns the frame count.
 */
async function opensReplay(p, id, what, sel, metrics) {
  const t0 = Date.now();
  console.log(`${new Date().toISOString()} ${what}: opening the replay`);
  await p.page.goto(`${url}#/replay/${id}`);
  await p.page.locator("#replay-verified").waitFor();
  const ok = (await p.page.locator("#replay-verified").getAttribute("data-verified")) === "true";
  check(ok, `${what}: the replay matched the stored game: ${await text(p, "#replay-status")}`);
  await p.page.locator(`#replay-game ${sel}`).first().waitFor();
  const frames = Number(await p.page.locator("#replay-slider").getAttribute("max")) + 1;
  metrics[`${what}Frames`] = frames;
  metrics[`${what}Ms`] = Date.now() - t0;
  check((await p.page.locator(`#replay-game ${sel}`).count()) > 0, `${what}: the first frame is drawn by the game's page (${sel})`);
  check(frames >= 3, `${what}: the slider spans ${frames} frames`);
  check(!(await p.page.locator("#replay-state").isVisible()) && (await p.page.locator("#replay-game pre").count()) === 0, `${what}: no JSON on show (it is in the closed details)`);
  await p.page.locator("#replay-step").click();
  check((await text(p, "#replay-frame")).startsWith("frame 2 of"), `${what}: step moves one frame`);
  check((await p.page.locator(`#replay-game ${sel}`).count()) > 0, `${what}: the second frame is drawn`);
  // Mid-game, the page with the game's board in it is axe-clean (as checks.mjs holds every page).
  await slideTo(p, Math.floor(frames / 2));
  const axe = await new AxeBuilder({ page: p.page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const bad = axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  check(bad.length === 0, `${what}: axe finds no serious or critical violation mid-replay${bad.length ? ": " + bad.map((v) => `${v.id} ${v.nodes[0]?.target}`).join("; ") : ""}`);
  await slideTo(p, frames - 1);
  check((await text(p, "#replay-frame")).startsWith(`frame ${frames} of`), `${what}: the slider goes to the last frame`);
  check((await p.page.locator(`#replay-game ${sel}`).count()) > 0, `${what}: the last frame is drawn`);
  return frames;
}

/** troops reads the troops the hex map draws and each hex's fog state ("q,r" → 0/1/2; none without fog). */
const troops = (p) =>
  p.page.evaluate(() => {
    const b = document.querySelector("#replay-game #hd-board");
    const fog = {};
    for (const x of b.querySelectorAll(".hd-hex[data-fog]")) fog[`${x.getAttribute("data-q")},${x.getAttribute("data-r")}`] = x.getAttribute("data-fog");
    const ts = [...b.querySelectorAll(".hd-troop")].map((t) => ({ owner: t.getAttribute("data-owner"), at: `${t.getAttribute("data-q")},${t.getAttribute("data-r")}` }));
    return { fogOn: b.getAttribute("data-fog"), fog, troops: ts, phase: document.querySelector("#replay-game #phase")?.textContent };
  });

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
  const tp = Date.now();
  const actions = await playOut(id, [aliceTok, bob.token]);
  metrics.dashdicePlayMs = Date.now() - tp;
  metrics.actions = actions;

  // Alice's lobby lists the match among her results (the game end's record,
  // found with the query only she may make: docs/firestore.md, "A player's
  // results"), a private match too, with a link to its replay.
  // (Her page shows the lobby since she signed in, before the match: load it again.)
  await alice.page.goto(url + "#/");
  await alice.page.reload();
  await alice.page.locator(`#results li[data-game="${id}"]`).waitFor();
  const line = alice.page.locator(`#results li[data-game="${id}"]`);
  const result = await line.getAttribute("data-result");
  check(result === "win" || result === "loss", `Alice's results list the match she just played: ${await line.textContent()}`);
  check((await line.textContent()).includes("DashDice (classic)"), "the line names the game and its mode");
  // Her totals (players/{id}.stats) say the same: one match, won or lost as the line says.
  const totals = await text(alice, `#totals [data-kind="dashdice"]`);
  check(totals.includes(`DashDice: 1 played, ${result === "win" ? "1 won, 0 lost" : "0 won, 1 lost"}`), `her totals count the match: ${totals}`);
  await line.getByRole("link", { name: "replay", exact: true }).click();
  await alice.page.locator("#replay-verified").waitFor();
  check(alice.page.url().endsWith(`#/replay/${id}`), "its replay link opens the match's replay");

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
  await alice.page.locator("#replay-game #dice").waitFor();
  check((await alice.page.locator("#replay-game #host, #replay-game #opponent").count()) === 2 && (await alice.page.locator("#replay-game pre").count()) === 0, "the frame is the DashDice page (dice, both players), not JSON");
  check(!(await alice.page.locator("#replay-state").isVisible()), "the raw JSON is in a closed <details>");
  await alice.page.locator("#replay-step").click();
  check((await text(alice, "#replay-frame")).startsWith("frame 2 of"), "step moves one frame");
  check((await text(alice, "#replay-events")).length > 0, "a frame lists its steps' event words: " + (await text(alice, "#replay-events")).slice(0, 80));

  await alice.page.locator("#replay-speed").selectOption("0.25 s");
  await alice.page.locator("#replay-play").click();
  await alice.page.waitForFunction((n) => document.querySelector("#replay-frame")?.textContent?.startsWith(`frame ${n} of`), max + 1, { timeout: 250 * (max + 1) + 10_000 });
  const game = await api("DashDice", { gameId: id, type: "legal", actionId: "l" }, aliceTok);
  check(Number(await text(alice, "#replay-version")) === game.version, `play runs to the last frame, the game's version ${game.version}`);
  // The game's own words for its gameOver ("Alice wins: …", or a draw).
  check(/ wins: |a draw|gameOver/.test(await text(alice, "#replay-events")), "the last frame ends the game: " + (await text(alice, "#replay-events")).slice(-80));
  check((await text(alice, "#replay-play")).includes("play"), "play stops at the end");

  await alice.page.locator("#replay-slider").evaluate((el) => {
    el.value = "0";
    el.dispatchEvent(new Event("input"));
  });
  check((await text(alice, "#replay-frame")).startsWith("frame 1 of"), "the slider goes back to the start");
  check(Number(await text(alice, "#replay-game #version")) === 0, "the DashDice page shows the first frame's version");
  await alice.page.locator("#replay-raw summary").click();
  // The <details> draws on its toggle event, which fires in a task after the click.
  await alice.page.waitForFunction(() => document.querySelector("#replay-state")?.textContent?.includes('"phase"'), null, { timeout: 10_000 }).catch(() => {});
  check((await text(alice, "#replay-state")).includes('"phase"'), "opening the details shows the frame's state as JSON");
  await shot(alice, "replay.png");

  // Party Board: three guests on the tiny board, played to the end.
  {
    const ps = await Promise.all(["Pa", "Pb", "Pc"].map((n) => api("Auth", { type: "guest", nickname: n })));
    const up = await api("PartyBoard", { type: "uploadBoard", name: "Tiny replay board", board: boardFile }, ps[0].token);
    const made = await api("PartyBoard", { type: "create", actionId: `pb-${stamp}`, board: up.result.id, seed: `replay-pb-${stamp}` }, ps[0].token);
    for (const p of ps.slice(1)) await api("PartyBoard", { type: "join", actionId: `pbj-${stamp}`, roomCode: made.result.roomCode }, p.token);
    await api("PartyBoard", { type: "start", actionId: `pbs-${stamp}`, gameId: made.gameId }, ps[0].token);
    const t = Date.now();
    metrics.partyboardActions = await randomPlay("PartyBoard", made.gameId, ps.map((p) => p.token), 60, 11);
    metrics.partyboardPlayMs = Date.now() - t;
    await opensReplay(alice, made.gameId, "partyboard", "#pb-board .pb-tile", metrics);
    await shot(alice, "replay-partyboard.png");
  }

  // CodeBowl: two registered coaches with a team each, played to the end.
  {
    const coach = async (name) => {
      const s = await api("Auth", { type: "register", username: `${name.toLowerCase()}_r${stamp}`, password: "replay-pw-1", nickname: name });
      const players = Array.from({ length: 7 }, (_, i) => ({ name: `${name} ${i + 1}`, st: 3, ag: 3, mv: 6 }));
      const team = (await api("CodeBowl", { type: "createTeam", actionId: `t-${name}-${stamp}`, name: `${name}s`, players }, s.token)).result;
      return { tok: s.token, team: team.id };
    };
    const reds = await coach("Red"), blues = await coach("Blue");
    const made = await api("CodeBowl", { type: "create", actionId: `cb-${stamp}`, teamId: reds.team, turnsPerHalf: 2 }, reds.tok);
    await api("CodeBowl", { type: "join", actionId: `cbj-${stamp}`, roomCode: made.result.roomCode, teamId: blues.team }, blues.tok);
    const t = Date.now();
    metrics.codebowlActions = await randomPlay("CodeBowl", made.gameId, [reds.tok, blues.tok], 30, 40);
    metrics.codebowlPlayMs = Date.now() - t;
    await opensReplay(alice, made.gameId, "codebowl", "#cb-pitch", metrics);
    await shot(alice, "replay-codebowl.png");
  }

  // Tile Race: one team completes every tile (each task needs one player).
  {
    const mia = await api("Auth", { type: "guest", nickname: "Mia" });
    const race = await api("TileRace", { actionId: `race-${stamp}`, type: "create", name: "Mia", password: "master-pass", seed: `replay-race-${stamp}` }, mia.token);
    const rid = race.gameId;
    const act = (body, tok = race.result.session.token) => api("TileRace", { gameId: rid, actionId: `${body.type}-${Math.random().toString(36).slice(2)}`, ...body }, tok);
    await act({ type: "createTeam", name: "Red Dragons", members: ["Zezima", "Lynx"], password: "red-pass" });
    await act({ type: "createTeam", name: "Blue Moons", members: ["Woox"], password: "blue-pass" });
    const tasks = ["easy", "medium", "hard"].flatMap((d) => Array.from({ length: 40 }, (_, i) => `${d} task ${i + 1},${d},1,1`)).join("\n");
    await act({ type: "importTasks", data: tasks });
    await act({ type: "randomiseDifficulties", fill: true });
    await act({ type: "start" });
    const red = await api("Auth", { type: "teamLogin", gameId: rid, team: "red dragons", password: "red-pass" });
    let pos = 1;
    const t = Date.now();
    for (let n = 0; n < 80; n++) {
      const out = await act({ type: "complete", tile: pos, recorded: 0, players: ["Zezima"], complete: true }, red.token);
      if (out.result?.won) break;
      pos = out.result?.position ?? pos + 1;
    }
    metrics.tileracePlayMs = Date.now() - t;
    // A race whose id began with "b" once replayed with its create alone
    // (its records were taken for history batches: store.isBatch); the
    // replay must match and span the race.
    const frames = await opensReplay(alice, rid, "tilerace", ".tr-tile", metrics);
    check((await alice.page.locator("#replay-game .tr-tile").count()) === 56, "the race's last frame draws the 56 tiles");
    check((await alice.page.locator("#replay-game .tr-tile.hidden").count()) === 0, "at the end every tile is revealed");
    await slideTo(alice, Math.min(frames - 1, 8));
    const hidden = await alice.page.locator("#replay-game .tr-tile.hidden").count();
    check(hidden > 0, `early in the race the fog hides ${hidden} tiles`);
    await shot(alice, "replay-tilerace.png");
  }

  // Hex & Dice in fog of war: Ann and Ben play it out; Ann's replay draws
  // her own view frame by frame, a spectator's the public account.
  {
    const ann = await player(browser, "Ann");
    await signIn(ann);
    const annTok = await token(ann);
    const ben = await api("Auth", { type: "guest", nickname: "Ben" });
    const made = await api("HexDice", { type: "create", actionId: `hd-${stamp}`, size: "small", mode: "alternating", fog: true, private: true, seed: "replay-fog" }, annTok);
    const hid = made.result.gameId;
    await api("HexDice", { type: "join", actionId: `hdj-${stamp}`, roomCode: made.result.roomCode }, ben.token);
    const t = Date.now();
    metrics.hexdiceActions = await randomPlay("HexDice", hid, [annTok, ben.token], 24, 3);
    metrics.hexdicePlayMs = Date.now() - t;
    const frames = await opensReplay(ann, hid, "hexdice", "#hd-board .hd-hex", metrics);
    // The turn clock of a frame reads what it read then: Ben's join starts
    // the first turn, of the game's 90 s, at the join's own time.
    await slideTo(ann, 1);
    check((await text(ann, "#replay-game #timer")) === "90 s", `the join's frame shows the first turn's full 90 s (${await text(ann, "#replay-game #timer")})`);
    // Ann made the room: she sits in seat 0, Ben (who joined) in seat 1.
    let seen = 0, own = 0;
    for (let i = 0; i < frames - 1; i++) {
      await slideTo(ann, i);
      const b = await troops(ann);
      if (b.phase !== "playing") continue;
      if (b.fogOn !== "on") check(false, `frame ${i + 1}: Ann's replay draws the fog`);
      const theirs = b.troops.filter((t) => t.owner !== "0");
      own += b.troops.length - theirs.length;
      seen += theirs.length;
      const hidden = theirs.filter((t) => b.fog[t.at] !== "2");
      if (hidden.length) check(false, `frame ${i + 1}: Ben's troops drawn on hexes Ann does not see now: ${JSON.stringify(hidden)}`);
    }
    check(true, `no frame of Ann's replay draws a troop of Ben's outside her vision (${seen} in sight over the frames)`);
    metrics.hexdiceFogOwnTroops = own;
    metrics.hexdiceFogEnemyInSight = seen;
    check(own > 0, `Ann's replay draws her own troops (${own} over the frames) from her view`);
    await shot(ann, "replay-hexdice-fog.png");

    const vi = await player(browser, "Vi");
    await signIn(vi);
    await opensReplay(vi, hid, "hexdiceWatch", "#hd-board .hd-hex", metrics);
    let spectatorTroops = 0;
    for (let i = 0; i < frames - 1; i += 3) {
      await slideTo(vi, i);
      const b = await troops(vi);
      if (b.phase === "playing") spectatorTroops += b.troops.length;
    }
    check(spectatorTroops === 0, "a spectator's replay draws no troop while the fog game is played");
    await slideTo(vi, frames - 1);
    const end = await troops(vi);
    check(end.fogOn === "off" && end.troops.length > 0, `the last frame draws the whole final board (${end.troops.length} troops, no fog)`);
    metrics.hexdiceBenTroopsAtEnd = end.troops.filter((t) => t.owner === "1").length;
  }
});
