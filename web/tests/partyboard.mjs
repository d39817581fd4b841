// Browser test of the Party Board page: three players (three browser
// contexts) play a seeded game on a tiny uploaded board (tests/tiny-board.json:
// eight tiles, every one between start and finish a mandatory stop, so every
// kind of input — starter, roll, confirm, choose, target, challenge,
// groupRoll, a rule's dice — comes up for every player) to the end by
// clicking the buttons the page offers. A refused action shows the API's
// message. Started by emulator/browser (go test); by hand:
//
//   MEEPLE_URL=http://127.0.0.1:8090/ node tests/partyboard.mjs
//
// Prints BROWSER-METRICS {json}: click → the other players' pages latency.

import AxeBuilder from "@axe-core/playwright";
import { readFileSync } from "node:fs";
import { api, check, player, quantiles, run, shot, signIn, text, token } from "./lib.mjs";

const seed = process.env.MEEPLE_TEST_SEED ?? "browser-test";
const boardFile = JSON.parse(readFileSync(new URL("./tiny-board.json", import.meta.url), "utf8"));

await run("partyboard", async (browser, metrics) => {
  const [ann, ben, cat] = await Promise.all(["Ann", "Ben", "Cat"].map((n) => player(browser, n)));
  const players = [ann, ben, cat];
  await Promise.all(players.map((p) => signIn(p)));

  const tok = await token(ann);

  // Tile text readable without clicking (issue 24): on a real board, every
  // tile's text is listed beside it, and the words on the board itself are
  // at least 9 CSS pixels high at desktop width.
  {
    const g = await api("PartyBoard", { type: "create", actionId: `pb-read-${Date.now()}`, board: "pokemon-gen1" }, tok);
    await ann.page.goto(`${ann.page.url().split("#")[0]}#/partyboard/${g.gameId}`);
    await ann.page.locator("#pb-board .pb-tile").first().waitFor();
    const tiles = await ann.page.locator("#pb-board .pb-tile").count();
    await ann.page.locator("#pb-tile-list li").first().waitFor();
    check((await ann.page.locator("#pb-tile-list li").count()) === tiles, `the tile list holds all ${tiles} tiles`);
    const item = ann.page.locator("#pb-tile-list li").nth(5);
    check(await item.isVisible(), "a tile's text is visible without clicking");
    check((await item.innerText()).trim().length > 3, `tile 5 reads: ${(await item.innerText()).trim().slice(0, 60)}`);
    const px = await ann.page.locator("#pb-board .pb-tile-text").nth(5).evaluate((t) => t.getBoundingClientRect().height / Math.max(1, t.querySelectorAll("tspan").length));
    metrics.boardTextLinePx = Math.round(px * 10) / 10;
    check(px >= 9, `the words on the board are ${metrics.boardTextLinePx} px per line (at least 9)`);
    // Tiles by keyboard: the board is one tab stop, the arrow keys move
    // between tiles, and the focused tile's text shows (and is announced).
    check((await ann.page.locator('#pb-board [role=button][tabindex="0"]').count()) === 1, "the board's tiles are one tab stop");
    await ann.page.locator("#pb-tile-0").focus();
    for (let k = 0; k < 5; k++) await ann.page.keyboard.press("ArrowRight");
    check((await ann.page.evaluate(() => document.activeElement?.id)) === "pb-tile-5", "ArrowRight ×5 moves the focus to tile 5");
    const info = await text(ann, "#pb-tile-info");
    check(info.startsWith("Tile 5") && info.includes((await item.innerText()).trim().slice(0, 12)), `the focused tile's text shows without a click: ${info.slice(0, 60)}`);
    check((await ann.page.locator("#pb-tile-5").getAttribute("aria-label")).startsWith("Tile 5"), "a tile's name is its text for a screen reader");
    await ann.page.keyboard.press("End");
    check((await ann.page.evaluate(() => document.activeElement?.id)) === `pb-tile-${tiles - 1}`, "End moves to the last tile");
    // The focusable tiles pass axe (their names hold their text, label-content-name-mismatch).
    const ax = await new AxeBuilder({ page: ann.page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    const axBad = ax.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    check(axBad.length === 0, `axe: no serious or critical violation on the Party Board page (${axBad.map((v) => v.id).join(", ")})`);
    await shot(ann, "pb-00-readable-tiles.png");
  }

  // The boards page (#/partyboard/boards, from the lobby's link): a bad
  // board's problems are listed; the tiny board uploaded from a file;
  // simulated, the report read as tables and lists; a game created on it.
  {
    const pg = ann.page;
    await pg.goto(`${pg.url().split("#")[0]}#/`);
    await pg.locator("#pb-boards-link").click();
    await pg.locator("#pb-boards-list li[data-board=pokemon-gen1]").waitFor();
    check(true, "the boards page lists the built-in boards (listBoards)");
    await pg.locator("#pb-up-text").fill(JSON.stringify({ tiles: [{ rule: { type: "FlyRule", displayText: "Fly!" }, position: [{ x: 0, y: 0 }] }] }));
    await pg.locator("#pb-up-check").click();
    await pg.locator("#pb-up-problems li").first().waitFor();
    const probs = await text(ann, "#pb-up-problems");
    check(probs.includes("tiles[0].rule.type") && /FlyRule/.test(probs), `a board's problems are listed with their place: ${probs.split("\n")[1]}`);
    await pg.locator("#pb-up-name").fill("Bad board");
    await pg.locator("#pb-up-go").click();
    await pg.locator("#pb-up-verdict").waitFor();
    check((await text(ann, "#pb-up-verdict")).includes("refused"), "an upload the server refuses shows its problems");
    await pg.locator("#pb-up-text").fill("");
    await pg.locator("#pb-up-file").setInputFiles(new URL("./tiny-board.json", import.meta.url).pathname);
    await pg.waitForFunction(() => document.querySelector("#pb-up-text").value.includes("GameOverRule"));
    await pg.locator("#pb-up-name").fill("Tiny from the page");
    await pg.locator("#pb-up-go").click();
    await pg.locator("#pb-up-verdict.pass").waitFor();
    const upId = (await text(ann, "#pb-up-verdict")).match(/b-[0-9a-f]{16}/)?.[0];
    check(!!upId && (await pg.locator("#pb-sim-board").inputValue()) === upId, `the uploaded board ${upId} is picked for a game and a simulation`);
    await pg.locator("#pb-sim-players").fill("3");
    await pg.locator("#pb-sim-games").fill("20");
    await pg.locator("#pb-sim-seed").fill("page");
    await pg.locator("#pb-sim-go").click();
    await pg.locator("#pb-sim-report").waitFor();
    check((await pg.locator("#pb-sim-seats tbody tr").count()) === 3, "the report has a win rate row per seat (3 players)");
    const summary = await text(ann, "#pb-sim-summary");
    check(/^20 games of 3 players/.test(summary) && /stalled/.test(summary), `the report says what ran: ${summary}`);
    check(/median/.test(await text(ann, "#pb-sim-length")) && (await pg.locator("#pb-sim-never-landed").count()) === 1 && (await pg.locator("#pb-sim-never-run").count()) === 1,
      "the report shows the game length spread, tiles never landed on and rules never run");
    check(!(await text(ann, "#pb-sim-out")).includes("{"), "the report is not a JSON dump");
    const axe = await new AxeBuilder({ page: pg }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    const bad = axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    check(bad.length === 0, `axe: no serious or critical violation on the boards page (${bad.map((v) => v.id).join(", ")})`);
    await shot(ann, "pb-00b-boards.png");
    // Over the budget: the server's refusal, with the most games it allows.
    await pg.locator("#pb-sim-players").fill("12");
    await pg.locator("#pb-sim-games").fill("200");
    await pg.locator("#pb-sim-go").click();
    await pg.locator(".error:not([hidden])", { hasText: "budget" }).waitFor();
    check(true, "a simulation over the budget shows the API's message");
    await pg.locator("#pb-create-board").selectOption(upId);
    await pg.locator("#pb-create-go").click();
    await pg.waitForFunction(() => /^#\/partyboard\/[0-9a-f]+$/.test(location.hash));
    await pg.waitForFunction((n) => document.querySelectorAll("#pb-board .pb-tile").length === n, boardFile.tiles.length);
    check(true, "a game created on the uploaded board opens on it");
  }

  // Setup the lobby does not offer: upload the tiny board and create a seeded game on it.
  const up = await api("PartyBoard", { type: "uploadBoard", name: "Tiny test board", board: boardFile }, tok);
  const created = await api("PartyBoard", { type: "create", actionId: `pb-${Date.now()}`, board: up.result.id, seed }, tok);
  const gameId = created.gameId;
  await ann.page.goto(`${ann.page.url().split("#")[0]}#/partyboard/${gameId}`);
  await ann.page.locator("#pb-board .pb-tile").first().waitFor();
  // The board may be drawn again when the first snapshot arrives: wait for
  // the drawing to settle before counting.
  await ann.page.waitForFunction((n) => document.querySelectorAll("#pb-board .pb-tile").length === n, boardFile.tiles.length, { timeout: 10_000 }).catch(() => {});
  check((await ann.page.locator("#pb-board .pb-tile").count()) === boardFile.tiles.length, `the board is drawn from getBoard: ${boardFile.tiles.length} tiles`);
  const code = await text(ann, "#room-code");
  check(/^[A-Z0-9]{6}$/.test(code), `the host sees the room code ${code}`);

  // Ben and Cat join from the lobby with the room code.
  for (const p of [ben, cat]) {
    await p.page.locator("#code-partyboard").fill(code);
    await p.page.locator("#join-partyboard").click();
    await p.page.locator("#pb-board .pb-tile").first().waitFor();
  }
  await ann.page.locator("#pb-players li").nth(2).waitFor();
  check((await ann.page.locator("#pb-start").isEnabled()), "the host may start with three players seated");
  await shot(ann, "pb-01-lobby.png");
  await ann.page.locator("#pb-start").click();
  await Promise.all(players.map((p) => p.page.locator("#pb-starter-0").waitFor()));
  check((await text(ben, "#pb-prompt")).startsWith("Your move: starter"), "everyone is asked for a starter");
  await shot(ben, "pb-02-starters.png");

  // An action the API refuses shows its message: Ben's first single-player
  // input goes out with a stale version (the route rewrites it).
  let tampered = false;
  await ben.page.route("**/PartyBoard", async (route) => {
    const body = JSON.parse(route.request().postData() ?? "{}");
    if (!tampered && typeof body.version === "number") {
      tampered = true;
      return route.continue({ postData: JSON.stringify({ ...body, version: body.version - 1 }) });
    }
    return route.continue();
  });

  const version = (p) => p.page.evaluate(() => Number(document.querySelector("#version")?.textContent));
  const waitAll = (v) => Promise.all(players.map((p) => p.page.waitForFunction((v) => Number(document.querySelector("#version")?.textContent) >= v, v)));
  const latencies = [];
  const kinds = {};
  let steps = 0;
  let errorSeen = "";
  while ((await text(ann, "#phase")) !== "over") {
    if (++steps > 300) check(false, "the game ends within 300 clicks");
    const v = await version(ann);
    await waitAll(v);
    // Whoever the page offers an input clicks one (the choices vary with the step).
    let clicked = false;
    for (const p of players) {
      const moves = p.page.locator("#buttons button.move");
      const n = await moves.count();
      if (n === 0) continue;
      const b = moves.nth(steps % n);
      const kind = await b.getAttribute("data-action");
      kinds[kind] = (kinds[kind] ?? 0) + 1;
      const refused = p === ben && !errorSeen && ["roll", "choose", "target", "confirm", "challenge"].includes(kind);
      await b.click();
      if (refused) {
        const box = p.page.locator(".error:not([hidden])");
        await box.waitFor();
        errorSeen = await box.innerText();
        check(tampered && /version/i.test(errorSeen), `a refused action shows the API's message: "${errorSeen}"`);
        await shot(p, "pb-03-error.png");
        await p.page.locator("#buttons button.move").nth(0).click(); // again, with the right version
      }
      await waitAll(v + 1);
      const clickAt = await p.page.evaluate(() => window.meepleTimings.clicks.at(-1).at);
      for (const o of players) {
        if (o === p) continue;
        const seenAt = await o.page.evaluate((v) => window.meepleTimings.seen[v], v + 1);
        if (seenAt) latencies.push(seenAt - clickAt);
      }
      clicked = true;
      break;
    }
    if (!clicked) {
      // Nobody has a button yet: the pages are still catching up.
      await ann.page.waitForTimeout(50);
    }
    if (steps === 12) await shot(ann, "pb-04-playing.png");
  }
  await Promise.all(players.map((p) => p.page.waitForFunction(() => document.querySelector("#phase")?.textContent === "over")));
  const result = await text(ann, "#result");
  check(/wins!$/.test(result), `the game ended: ${result}`);
  for (const k of ["starter", "roll", "confirm", "choose", "target", "challenge", "groupRoll"]) check(kinds[k] > 0, `the players answered ${k} by clicking (${kinds[k] ?? 0}×)`);

  // The tokens stand where the state says: the winner's on the last tile.
  const winnerTile = await ann.page.evaluate(() => {
    const li = [...document.querySelectorAll("#pb-players li")].find((l) => document.querySelector("#result").textContent.startsWith(l.querySelector("strong").textContent));
    return Number(li?.getAttribute("data-tile"));
  });
  check(winnerTile === boardFile.tiles.length - 1, `the winner stands on the finish (tile ${winnerTile})`);
  const tokenTiles = await ann.page.$$eval("#pb-board .pb-token", (ts) => ts.map((t) => Number(t.getAttribute("data-tile"))));
  const listTiles = await ann.page.$$eval("#pb-players li", (ls) => ls.map((l) => Number(l.getAttribute("data-tile"))));
  check(JSON.stringify(tokenTiles) === JSON.stringify(listTiles), `every token is on its player's tile: ${tokenTiles}`);
  check((await ann.page.locator("#pb-log li").count()) > 0 && (await ann.page.locator("#events li").count()) > 0, "the recent log and the event log are shown");
  await shot(ann, "pb-05-over.png");
  await shot(cat, "pb-06-over-cat.png");

  // A real board draws too: a lobby on the built-in Pokémon Gen 1 board (72 tiles, zones).
  const gen1 = await api("PartyBoard", { type: "create", actionId: `pb-gen1-${Date.now()}`, board: "pokemon-gen1" }, tok);
  await ann.page.goto(`${ann.page.url().split("#")[0]}#/partyboard/${gen1.gameId}`);
  await ann.page.locator("#pb-token-0").waitFor();
  // The page before (the tiny board) stays on screen until the new page's
  // chunk and documents arrive: wait for the new board.
  await ann.page.waitForFunction(() => document.querySelectorAll("#pb-board .pb-tile").length === 72, null, { timeout: 15_000 }).catch(() => {});
  check((await ann.page.locator("#pb-board .pb-tile").count()) === 72, "the Pokémon Gen 1 board is drawn with its 72 tiles");
  await ann.page.locator("#pb-tile-34").click();
  check((await text(ann, "#pb-tile-info")).startsWith("Tile 34"), `a clicked tile shows its rule: ${(await text(ann, "#pb-tile-info")).slice(0, 80)}…`);
  await shot(ann, "pb-07-gen1-board.png");
  // The host takes a seated player out from the page (removePlayer of another).
  await api("PartyBoard", { type: "join", actionId: `pb-gen1-join-${Date.now()}`, gameId: gen1.gameId }, await token(ben));
  await ann.page.locator("#pb-remove-who option", { hasText: "Ben" }).waitFor({ state: "attached" });
  await ann.page.locator("#pb-remove-who").selectOption({ label: "Ben" });
  ann.page.once("dialog", (d) => d.accept());
  await ann.page.locator("#pb-remove-go").click();
  await ann.page.waitForFunction(() => ![...document.querySelectorAll("#pb-players li:not(.removed)")].some((l) => l.textContent.includes("Ben")));
  check(true, "the host takes Ben out of the lobby from the page");

  metrics.clicks = steps;
  metrics.inputs = kinds;
  metrics.clickToOthersMs = quantiles(latencies);
});
