// Browser test of Hex & Dice's fog of war on the page (docs/web.md, "Fog of
// war"). Ann creates a fog room in the lobby (the "Fog of war" box), Ben
// joins it with the room code (two guest contexts). Each page must draw
// fog from its own view (sealed for it in the game document): some hexes unseen, some in vision, its
// own troops drawn, and no enemy troop on a hex it does not see now. They
// buy, move and end turns by clicking; after every click the other page
// shows the new version. A spectator's page shows the fog note and no
// troops. Each marine advances on the enemy HQ every turn (the same checks
// after each move) until round 5, and Ann surrenders: every page then
// draws the whole final board (both marines, no fog). Then a simultaneous fog room: both plan a buy, submit, and each
// page shows its own marine. Started by emulator/browser (go test); by hand:
//
//   MEEPLE_URL=http://127.0.0.1:8090/ node tests/hexfog.mjs
//
// Prints BROWSER-METRICS {json}: click → the other player's page latency.

import { atLeast, check, clickAndSee, onTurn, player, quantiles, run, shot, signIn, text, url, version } from "./lib.mjs";

/**
 * board reads what a page draws: its seat, each hex's fog state by "q,r",
 * and the troops drawn (id, owner, hex).
 */
const board = (p) => p.page.evaluate(() => {
  const b = document.querySelector("#hd-board");
  const fog = {};
  for (const x of b.querySelectorAll(".hd-hex[data-fog]")) fog[`${x.getAttribute("data-q")},${x.getAttribute("data-r")}`] = x.getAttribute("data-fog");
  const troops = [...b.querySelectorAll(".hd-troop")].map((t) => ({ id: t.getAttribute("data-troop"), owner: t.getAttribute("data-owner"), at: `${t.getAttribute("data-q")},${t.getAttribute("data-r")}` }));
  return { seat: b.getAttribute("data-seat"), fogOn: b.getAttribute("data-fog"), fog, troops };
});

/**
 * fogged checks p's page draws fog: some hexes unseen and some in vision,
 * each hex labelled with its state; every own troop of p (as the other page
 * knows p's troops: `theirs`) on a hex p sees; no enemy troop drawn on a hex
 * p does not see now, and every troop of the other player drawn by p is one
 * the other player has there.
 */
async function fogged(p, other, what) {
  // The two pages' views arrive apart: read both until they agree (5 s at most).
  let a, b;
  for (let i = 0; i < 25; i++) {
    [a, b] = [await board(p), await board(other)];
    const theirs = new Map(b.troops.filter((t) => t.owner === b.seat).map((t) => [t.id, t.at]));
    if (a.troops.filter((t) => t.owner !== a.seat).every((t) => theirs.get(t.id) === t.at)) break;
    await p.page.waitForTimeout(200);
  }
  const counts = { 0: 0, 1: 0, 2: 0 };
  for (const f of Object.values(a.fog)) counts[f]++;
  check(a.fogOn === "on" && counts[0] > 0 && counts[2] > 0, `${what}: ${p.name}'s page draws fog (${counts[0]} unseen, ${counts[1]} remembered, ${counts[2]} in vision)`);
  const label = await p.page.locator('#hd-board .hd-hex[data-fog="0"]').first().getAttribute("aria-label");
  check(/^hex -?\d+,-?\d+, unseen$/.test(label ?? ""), `${what}: an unseen hex is labelled without its terrain ("${label}")`);
  const enemy = a.troops.filter((t) => t.owner !== a.seat);
  check(enemy.every((t) => a.fog[t.at] === "2"), `${what}: every enemy troop ${p.name}'s page draws (${enemy.length}) stands on a hex in its vision`);
  const theirs = new Map(b.troops.filter((t) => t.owner === b.seat).map((t) => [t.id, t.at]));
  check(enemy.every((t) => theirs.get(t.id) === t.at), `${what}: ${p.name} draws only enemy troops ${other.name} really has there`);
  const hidden = [...theirs].filter(([, at]) => a.fog[at] !== "2");
  check(hidden.every(([id]) => !a.troops.some((t) => t.id === id)), `${what}: ${other.name}'s troops out of ${p.name}'s vision (${hidden.length} of ${theirs.size}) are not drawn on ${p.name}'s page`);
  seen.enemyDrawn = Math.max(seen.enemyDrawn, enemy.length);
  seen.remembered = Math.max(seen.remembered, counts[1]);
  return { a, b };
}

/** The most enemy troops and remembered hexes a page drew (so the run says what it reached). */
const seen = { enemyDrawn: 0, remembered: 0 };

/** hexDistance: axial hex distance of two "q,r" keys. */
function hexDistance(a, b) {
  const [q1, r1] = a.split(",").map(Number);
  const [q2, r2] = b.split(",").map(Number);
  return (Math.abs(q1 - q2) + Math.abs(r1 - r2) + Math.abs(q1 + r1 - q2 - r2)) / 2;
}

/**
 * pickTroop clicks troop until p's page says it is picked: a click that
 * lands while the board is redrawn (a snapshot arriving) is lost, so it is
 * sent again (up to 5 times).
 */
async function pickTroop(p, troop) {
  const picked = p.page.locator("#hd-selection", { hasText: "Picked:" });
  for (let i = 0; i < 5; i++) {
    await troop.click();
    if (await picked.waitFor({ timeout: 3000 }).then(() => true, () => false)) return;
  }
  await picked.waitFor();
}

/** advance: p picks its first troop and moves it to the blue hex nearest the enemy HQ (when it can move). */
async function advance(p, other, lat) {
  const seat = await p.page.locator("#hd-board").getAttribute("data-seat");
  const troop = p.page.locator(`#hd-board .hd-troop[data-owner="${seat}"]`).first();
  if (!(await troop.count())) return;
  await pickTroop(p, troop);
  await p.page.waitForTimeout(300); // the preview's marks
  const marks = await p.page.locator("#hd-board .hd-mark.reach").evaluateAll((ms) => ms.map((m) => `${m.getAttribute("data-q")},${m.getAttribute("data-r")}`));
  const hq = p.page.locator(`#hd-board .hd-structure[data-structure="hq${1 - Number(seat)}"]`);
  if (!marks.length || !(await hq.count())) return;
  const target = `${await hq.getAttribute("data-q")},${await hq.getAttribute("data-r")}`;
  const best = marks.reduce((x, y) => (hexDistance(y, target) < hexDistance(x, target) ? y : x));
  const [q, r] = best.split(",");
  await clickAndSee(p, other, `#hd-board .hd-mark.reach[data-q="${q}"][data-r="${r}"]`, lat);
  await fogged(p, other, `after ${p.name}'s advance`);
  await fogged(other, p, `after ${p.name}'s advance`);
}

await run("hexfog", async (browser, metrics) => {
  const [ann, ben, cy] = await Promise.all(["Ann", "Ben", "Cy"].map((n) => player(browser, n)));
  const both = [ann, ben];
  await Promise.all([ann, ben].map((p) => signIn(p)));

  // ---- alternating fog room: created with the "Fog of war" box ----
  await ann.page.locator("#kind-hexdice select[name=size]").selectOption("small");
  await ann.page.locator("#kind-hexdice input[name=fog]").check();
  await ann.page.locator("#create-hexdice").click();
  await ann.page.locator("#hd-board .hd-hex").first().waitFor();
  const code = (await text(ann, "#room-code")).trim();
  const gameUrl = ann.page.url();
  await ben.page.locator("#code-hexdice").fill(code);
  await ben.page.locator("#join-hexdice").click();
  await Promise.all(both.map((p) => p.page.waitForFunction(() => document.querySelector("#phase")?.textContent === "playing")));
  await Promise.all(both.map((p) => p.page.locator('#hd-board[data-fog="on"]').waitFor()));
  for (const p of both) {
    check((await p.page.locator("#hd-legend li[data-fog]").count()) === 3, `${p.name}'s legend has an entry per fog state`);
    check((await text(p, "#hd-fog-note")).includes("Fog of war"), `${p.name}'s page says the game is in fog`);
  }
  await fogged(ann, ben, "at the start");
  await fogged(ben, ann, "at the start");
  await shot(ann, "hf-01-start.png");

  const lat = [];
  // Turns 1 and 2: each buys a marine next to their HQ and ends the turn.
  for (let turn = 0; turn < 2; turn++) {
    const [p, other] = await onTurn(both, "#hd-end-turn");
    await p.page.locator("#hd-board .hd-mark.buy").first().click();
    await p.page.locator("#hd-buy-marine").waitFor();
    await clickAndSee(p, other, "#hd-buy-marine", lat);
    const seat = await p.page.locator("#hd-board").getAttribute("data-seat");
    await p.page.locator(`#hd-board .hd-troop[data-owner="${seat}"]`).first().waitFor();
    check(true, `${p.name}'s page draws the marine it bought (from its view)`);
    await fogged(other, p, `after ${p.name}'s buy`);
    await clickAndSee(p, other, "#hd-end-turn", lat);
  }
  // Turn 3: the first player's marine moves to a blue hex; the other page updates and stays fogged.
  {
    const [p, other] = await onTurn(both, "#hd-end-turn");
    const seat = await p.page.locator("#hd-board").getAttribute("data-seat");
    const troop = p.page.locator(`#hd-board .hd-troop[data-owner="${seat}"]`).first();
    const id = await troop.getAttribute("data-troop");
    const from = `${await troop.getAttribute("data-q")},${await troop.getAttribute("data-r")}`;
    await pickTroop(p, troop);
    await p.page.locator("#hd-board .hd-mark.reach").first().waitFor();
    await clickAndSee(p, other, "#hd-board .hd-mark.reach", lat);
    const moved = p.page.locator(`#hd-board .hd-troop[data-troop="${id}"]`);
    await p.page.waitForFunction(([id, from]) => {
      const t = document.querySelector(`#hd-board .hd-troop[data-troop="${id}"]`);
      return t && `${t.getAttribute("data-q")},${t.getAttribute("data-r")}` !== from;
    }, [id, from]);
    const to = `${await moved.getAttribute("data-q")},${await moved.getAttribute("data-r")}`;
    check(to !== from, `${p.name}'s page shows its troop ${id} moved ${from} → ${to}`);
    await fogged(p, other, `after ${p.name}'s move`);
    await fogged(other, p, `after ${p.name}'s move`);
    const log = await text(p, "#events");
    check(log.length > 0 && !log.includes('{"'), `${p.name}'s log (its view's events) is words, no JSON`);
    await shot(p, "hf-02-moved.png");
    await clickAndSee(p, other, "#hd-end-turn", lat);
    await other.page.locator("#hd-end-turn").waitFor();
  }

  // ---- a spectator: the public account, no troops, a note ----
  await signIn(cy, `#/watch/${gameUrl.split("/").at(-1)}`);
  await cy.page.locator("#hd-board .hd-hex").first().waitFor();
  await cy.page.waitForFunction(() => document.querySelector("#phase")?.textContent === "playing");
  await cy.page.locator("#hd-fog-note").waitFor();
  check((await text(cy, "#hd-fog-note")).includes("played in fog of war"), "the spectator's page says the game is played in fog");
  check((await cy.page.locator("#hd-board .hd-troop").count()) === 0, "the spectator's page draws no troops during the game");
  check((await cy.page.locator('#hd-board[data-fog="on"]').count()) === 0, "the spectator's page reads no view (no fog drawn)");
  await shot(cy, "hf-03-spectator.png");

  // ---- to the end: each marine advances on the enemy HQ each turn until round 5, then a surrender ----
  for (let i = 0; i < 12 && !(await ann.page.locator("#hd-surrender").count()); i++) {
    const [p, other] = await onTurn(both, "#hd-end-turn");
    await advance(p, other, lat);
    await clickAndSee(p, other, "#hd-end-turn", lat);
  }
  await shot(ann, "hf-04-advanced.png");
  ann.page.once("dialog", (d) => d.accept());
  await ann.page.locator("#hd-surrender").click();
  // The final board is the same on every page (a marine may have fallen to
  // a structure's fire on the way: the map is the game id's).
  const finalTroops = [];
  for (const p of [ann, ben, cy]) {
    await p.page.waitForFunction(() => document.querySelector("#phase")?.textContent === "over");
    await p.page.locator('#hd-board[data-fog="off"]').waitFor();
    const troops = await p.page.locator("#hd-board .hd-troop").evaluateAll((ts) => ts.map((t) => `${t.getAttribute("data-troop")}@${t.getAttribute("data-q")},${t.getAttribute("data-r")}`).sort().join(" "));
    finalTroops.push(troops);
    check(!(await p.page.locator("#hd-fog-note").isVisible()), `after the game ${p.name}'s page draws the whole final board, no fog, no fog note: troops ${troops || "none"}`);
  }
  check(finalTroops.every((x) => x === finalTroops[0]), `every page draws the same final troops: ${finalTroops.join(" | ")}`);
  await shot(cy, "hf-05-over-spectator.png");
  await cy.context.close();

  // ---- after the game: the replay link, and a rematch both ask for from the page ----
  check((await ann.page.locator("#hd-replay-link").count()) === 1, "the finished game links to its replay");
  await ann.page.locator("#hd-rematch").click();
  await ben.page.locator("#hd-rematch").click();
  for (const p of both) await p.page.locator("#hd-rematch-link").waitFor();
  check(true, "both asked for a rematch on the page, and both pages link to it");

  // ---- simultaneous fog room: both plan a buy, submit; each page shows its own marine ----
  for (const p of both) await p.page.goto(`${url}#/`);
  await ann.page.locator("#kind-hexdice select[name=size]").selectOption("small");
  await ann.page.locator("#kind-hexdice select[name=mode]").selectOption("simultaneous");
  await ann.page.locator("#kind-hexdice input[name=fog]").check();
  await ann.page.locator("#create-hexdice").click();
  await ann.page.locator("#hd-board .hd-hex").first().waitFor();
  const code2 = (await text(ann, "#room-code")).trim();
  await ben.page.locator("#code-hexdice").fill(code2);
  await ben.page.locator("#join-hexdice").click();
  await Promise.all(both.map((p) => p.page.waitForFunction(() => document.querySelector("#phase")?.textContent === "playing")));
  const simLat = [];
  for (const [p, other] of [[ann, ben], [ben, ann]]) {
    await p.page.locator("#hd-buy-open").click();
    await p.page.locator("#hd-buy-marine").click();
    await p.page.locator("#hd-orders-list li", { hasText: "buy a marine" }).waitFor();
    await clickAndSee(p, other, "#hd-orders-submit", simLat);
  }
  await Promise.all(both.map((p) => p.page.waitForFunction(() => {
    const seat = document.querySelector("#hd-board")?.getAttribute("data-seat");
    return document.querySelectorAll(`#hd-board .hd-troop[data-owner="${seat}"]`).length === 1;
  })));
  check(true, "simultaneous fog: the orders resolved and each page draws its own marine");
  await fogged(ann, ben, "simultaneous, round 2");
  await fogged(ben, ann, "simultaneous, round 2");
  await shot(ben, "hf-06-simultaneous.png");

  // ---- a bot from the page: Ann's new fog room, a random bot in the other seat ----
  await ann.page.goto(`${url}#/`);
  await ann.page.locator("#kind-hexdice select[name=size]").selectOption("small");
  await ann.page.locator("#kind-hexdice select[name=mode]").selectOption("alternating");
  await ann.page.locator("#create-hexdice").click();
  await ann.page.locator("#hd-bot-random").click();
  await ann.page.waitForFunction(() => document.querySelector("#phase")?.textContent === "playing", null, { timeout: 30_000 });
  check(true, "the host seated a random bot from the page: the game plays");

  metrics.reached = seen;
  console.log(`reached: at most ${seen.enemyDrawn} enemy troops drawn and ${seen.remembered} remembered hexes on a page`);
  metrics.hexfogSimultaneousClickToOtherMs = quantiles(simLat);
  metrics.clickToOtherMs = quantiles([...lat, ...simLat]);
  console.log(`click → other page (fog): ${JSON.stringify(metrics.clickToOtherMs)}`);
});
