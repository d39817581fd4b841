// Browser test of the CodeBowl lobby card and the CodeBowl and Hex & Dice
// pages. Two registered accounts (two browser contexts) each create a
// CodeBowl team in the lobby by clicking, quick-match each other by
// clicking, land on the CodeBowl page, place (the default formation), move
// a player and end turns by clicking, and chat; then Ann creates a Hex & Dice
// room in the lobby, Ben joins it with the room code, and they buy, move and
// end turns by clicking. After every click the other coach's page must show
// the new version. Started by emulator/browser (go test); by hand:
//
//   MEEPLE_URL=http://127.0.0.1:8090/ node tests/games2.mjs
//
// Prints BROWSER-METRICS {json}: click → the other player's page latency.

import { atLeast, check, clickAndSee, onTurn, player, quantiles, run, shot, text, url, version } from "./lib.mjs";

const stamp = Date.now().toString(36).slice(-7);

/** register makes an account through the sign-in page's account form. */
async function register(p) {
  await p.page.goto(url);
  const form = p.page.locator("#account-form");
  await form.locator("input[name=username]").fill(`${p.name.toLowerCase()}_${stamp}`);
  await form.locator("input[name=password]").fill("browser-test-pw");
  await form.locator("input[name=regnick]").fill(p.name);
  await p.page.locator("#register").click();
  await p.page.locator("#who").filter({ hasText: `${p.name} (player)` }).waitFor();
}

/** settled waits until the CodeBowl page's buttons are those `legal` lists for the version it shows. */
const settled = (p) => p.page.waitForFunction(() => document.querySelector("#cb-pitch")?.getAttribute("data-legal") === document.querySelector("#version")?.textContent);

await run("games2", async (browser, metrics) => {
  const [ann, ben] = await Promise.all(["Ann", "Ben"].map((n) => player(browser, n)));
  const both = [ann, ben];
  await Promise.all(both.map(register));

  // ---- Quick match's Leave queue (DashDice, a mode nobody else queues in) ----
  await ann.page.locator("select[name=mode][data-kind=dashdice]").selectOption("true-grit");
  await ann.page.locator("#quick-dashdice").click();
  await ann.page.locator("#kind-dashdice .status", { hasText: "waiting" }).waitFor();
  await ann.page.locator("#leave-dashdice").click();
  await ann.page.locator("#kind-dashdice .status", { hasText: "You left the queue." }).waitFor();
  check(await ann.page.locator("#leave-dashdice").isHidden(), "Leave queue takes Ann out of DashDice's quick match (leaveQueue)");

  // ---- CodeBowl: teams in the lobby, quick match ----
  // Ann's first player is named and built by hand in the roster editor:
  // a sum over the budget is refused naming it, then a valid one is made.
  await ann.page.locator("#cb-roster").selectOption("bruisers");
  await ann.page.locator("#cb-roster-edit summary").click();
  await ann.page.locator("#cb-p0-name").fill("Ann's Ace");
  await ann.page.locator("#cb-p0-st").fill("9");
  await ann.page.locator("#cb-team-name").fill("Ann's bruisers");
  await ann.page.locator("#cb-create-team").click();
  await ann.page.locator("#kind-codebowl .error:not([hidden])", { hasText: "st + ag + mv must be exactly 12" }).waitFor();
  check(true, "a hand-built player over the stat budget shows the API's refusal naming the sum");
  await ann.page.locator("#cb-p0-st").fill("5");
  await ann.page.locator("#cb-p0-ag").fill("4");
  for (const [p, roster] of [[ann, "bruisers"], [ben, "runners"]]) {
    await p.page.locator("#cb-team-name").fill(`${p.name}'s ${roster}`);
    if (p === ben) await p.page.locator("#cb-roster").selectOption(roster);
    await p.page.locator("#cb-create-team").click();
    await p.page.locator("#cb-teams li[data-team] input:checked").waitFor();
    check((await text(p, "#cb-teams")).includes(`${p.name}'s ${roster} — 7 alive`), `${p.name}'s team is listed, picked, 7 alive`);
  }
  // A team's upkeep from the card: editTeam renames it; restartTeam with
  // nobody dead shows the API's refusal.
  await ann.page.locator("#cb-team-name").fill("Ann's edited");
  await ann.page.locator("#cb-edit-team").click();
  await ann.page.locator("#cb-teams li", { hasText: "Ann's edited — 7 alive" }).waitFor();
  // The list follows the team's document, which may arrive before the
  // reply that sets the status: wait for the status too.
  await ann.page.locator("#cb-status", { hasText: "saved" }).waitFor();
  check(true, "the picked team is renamed from the card (editTeam)");
  await ann.page.locator("#cb-restart-team").click();
  await ann.page.locator("#kind-codebowl .error:not([hidden])", { hasText: "no dead player" }).waitFor();
  check(true, "replacing the dead of a team with nobody dead shows the API's refusal (restartTeam)");
  await shot(ann, "g2-01-lobby-team.png");
  const t0 = Date.now();
  await ann.page.locator("#quick-codebowl").click();
  await ann.page.locator("#cb-status").filter({ hasText: "waiting" }).waitFor();
  await ben.page.locator("#quick-codebowl").click();
  await Promise.all(both.map((p) => p.page.locator("#cb-pitch .cb-player, #phase").first().waitFor()));
  await Promise.all(both.map((p) => p.page.waitForFunction(() => document.querySelector("#phase")?.textContent === "setup")));
  metrics.quickMatchMs = Date.now() - t0;
  check(ann.page.url() === ben.page.url() && ann.page.url().includes("#/codebowl/"), "both coaches land on the same CodeBowl page");
  check((await ann.page.locator("#cb-cell-0-0").count()) === 1 && (await ann.page.locator("#cb-pitch .cb-cell").count()) === 220, "the pitch is drawn: 20 × 11 squares");
  check((await text(ann, "#cb-rosters")).includes("Ann's Ace"), "the hand-named player plays in the match (the roster lists Ann's Ace)");

  const cbLat = [];
  // Placement: the defense places first, then the offense. The first placer
  // places square by square (issue 24: only three canned formations before):
  // a player to a chosen square by clicking, another one square down by
  // keyboard, then confirms; the other confirms the default formation.
  for (let i = 0; i < 2; i++) {
    const [placer, other] = await onTurn(both, "#cb-place-0");
    if (i === 0) {
      await settled(placer);
      const side = await placer.page.locator("#cb-pitch").getAttribute("data-me");
      const first = placer.page.locator("#cb-draft button").first();
      const pid = await first.getAttribute("data-player");
      await first.click();
      const [x, y] = [side === "home" ? 0 : 19, 0]; // the own goal column, top row: in no formation
      await placer.page.locator(`#cb-cell-${x}-${y}`).click();
      await placer.page.locator(`#cb-pitch .cb-player[data-player="${pid}"][data-x="${x}"][data-y="${y}"]`).waitFor();
      const second = placer.page.locator("#cb-draft button").nth(1);
      const pid2 = await second.getAttribute("data-player");
      const y2 = Number(await placer.page.locator(`#cb-pitch .cb-player[data-player="${pid2}"]`).getAttribute("data-y"));
      await second.focus();
      await placer.page.keyboard.press("Enter"); // picks him and puts the focus on the pitch
      await placer.page.keyboard.press("ArrowDown");
      await placer.page.locator(`#cb-pitch .cb-player[data-player="${pid2}"][data-y="${y2 + 1}"]`).waitFor();
      const x2 = await placer.page.locator(`#cb-pitch .cb-player[data-player="${pid2}"]`).getAttribute("data-x");
      await shot(placer, "g2-01b-cb-placement.png");
      await clickAndSee(placer, other, "#cb-place-0", cbLat);
      await other.page.locator(`#cb-pitch .cb-player[data-player="${pid}"][data-x="${x}"][data-y="${y}"]`).waitFor();
      await other.page.locator(`#cb-pitch .cb-player[data-player="${pid2}"][data-x="${x2}"][data-y="${y2 + 1}"]`).waitFor();
      check(true, `${placer.name} placed square by square (a player on column ${x + 1} row 1 by clicking, another one row down by keyboard); ${other.name}'s page shows both there`);
    } else {
      await clickAndSee(placer, other, "#cb-place-0", cbLat);
    }
    await placer.page.locator("#cb-place-0").waitFor({ state: "detached" });
  }
  await Promise.all(both.map((p) => p.page.waitForFunction(() => document.querySelector("#phase")?.textContent === "play")));
  check((await ann.page.locator("#cb-pitch .cb-player").count()) === 14 && (await ben.page.locator("#cb-pitch .cb-player").count()) === 14, "both pages show the 14 placed players");
  await shot(ann, "g2-02-cb-play.png");

  // Two turns: the coach on turn picks a player, moves him to a listed square, ends the turn.
  for (let turn = 0; turn < 2; turn++) {
    const [coach, other] = await onTurn(both, "#cb-end-turn");
    const side = await coach.page.locator("#cb-pitch").getAttribute("data-me");
    const players = coach.page.locator(`#cb-pitch .cb-player[data-side=${side}]:not(.acted)`);
    await players.first().click();
    await coach.page.locator("#cb-pitch .cb-cell.dest").first().waitFor();
    check((await coach.page.locator("#cb-pitch .cb-cell.dest").count()) > 0, `${coach.name} sees the squares listed for the picked player`);
    const ms = await clickAndSee(coach, other, "#cb-pitch .cb-cell.dest", cbLat);
    console.log(`  ${coach.name} moved a player; ${other.name}'s page saw it after ${ms} ms`);
    // The move may have ended the turn (a trip, a failed pickup): end it only if it goes on,
    // as the coach's own page shows once it has the move's version (the other page may
    // have it first; the coach's page, a snapshot behind, still shows the button).
    await atLeast(coach, await version(other));
    await settled(coach);
    if (await coach.page.locator("#cb-end-turn").count()) await clickAndSee(coach, other, "#cb-end-turn", cbLat);
    await other.page.locator("#cb-end-turn").waitFor();
  }
  await shot(ben, "g2-03-cb-turns.png");

  // Chat: Ann writes, Ben's page shows it.
  await ann.page.locator("#cb-chat-text").fill("good game so far");
  await ann.page.locator("#cb-chat-send").click();
  await ben.page.locator("#cb-chat li").filter({ hasText: "good game so far" }).waitFor();
  check(true, "a chat message reaches the other coach's page");
  metrics.codebowlClickToOtherMs = quantiles(cbLat);

  // ---- Hex & Dice: create in the lobby, join by room code ----
  for (const p of both) await p.page.goto(`${url}#/`);
  await ann.page.locator("#kind-hexdice select[name=size]").selectOption("small");
  await ann.page.locator("#create-hexdice").click();
  await ann.page.locator("#hd-board .hd-hex").first().waitFor();
  const code = (await text(ann, "#room-code")).trim();
  check(/^[A-Z0-9]{6}$/.test(code), `the host sees the room code ${code}`);
  check((await ann.page.locator("#hd-board .hd-hex").count()) === 127, "the small map is drawn from its map document: 127 hexes");
  await ben.page.locator("#code-hexdice").fill(code);
  await ben.page.locator("#join-hexdice").click();
  await Promise.all(both.map((p) => p.page.waitForFunction(() => document.querySelector("#phase")?.textContent === "playing")));
  check(ann.page.url() === ben.page.url(), "both players are on the same Hex & Dice page");

  const hdLat = [];
  // Turns 1 and 2: each buys a marine next to their HQ and ends the turn.
  for (let turn = 0; turn < 2; turn++) {
    const [p, other] = await onTurn(both, "#hd-end-turn");
    await p.page.locator("#hd-board .hd-mark.buy").first().click();
    await p.page.locator("#hd-buy-marine").waitFor();
    await clickAndSee(p, other, "#hd-buy-marine", hdLat);
    const seat = await p.page.locator("#hd-board").getAttribute("data-seat");
    await other.page.locator(`#hd-board .hd-troop[data-owner="${seat}"]`).first().waitFor();
    await clickAndSee(p, other, "#hd-end-turn", hdLat);
  }
  await shot(ann, "g2-04-hd-bought.png");
  // Turn 3: the first player's marine is ready: pick it, move it to a blue hex, end the turn.
  {
    const [p, other] = await onTurn(both, "#hd-end-turn");
    const seat = await p.page.locator("#hd-board").getAttribute("data-seat");
    const troop = p.page.locator(`#hd-board .hd-troop[data-owner="${seat}"]`).first();
    const id = await troop.getAttribute("data-troop");
    const from = `${await troop.getAttribute("data-q")},${await troop.getAttribute("data-r")}`;
    await troop.click();
    await p.page.locator("#hd-board .hd-mark.reach").first().waitFor();
    await clickAndSee(p, other, "#hd-board .hd-mark.reach", hdLat);
    const moved = other.page.locator(`#hd-board .hd-troop[data-troop="${id}"]`);
    const to = `${await moved.getAttribute("data-q")},${await moved.getAttribute("data-r")}`;
    check(to !== from, `the other page shows troop ${id} moved ${from} → ${to}`);
    await shot(p, "g2-05-hd-moved.png");
    await clickAndSee(p, other, "#hd-end-turn", hdLat);
    await other.page.locator("#hd-end-turn").waitFor();
  }
  // Emotes, and the log in words that wraps (issue 24).
  {
    await ann.page.locator("#hd-emote-gg").click();
    await ben.page.locator("#hd-emotes li", { hasText: "GG" }).waitFor();
    check(true, "Ann's emote GG shows on Ben's page");
    const log = await text(ben, "#events");
    check(log.length > 0 && !log.includes('{"'), "the Hex & Dice log is words, no JSON");
    const fits = await ben.page.locator("#events").evaluate((e) => e.scrollWidth <= e.clientWidth + 1);
    check(fits, "the log wraps inside its column (no overflow to the right)");
    check((await ben.page.locator("#hd-legend li").count()) === 5, "the terrain legend lists the five terrains");
  }

  // ---- Hex & Dice, simultaneous mode: both plan a buy by keyboard and submit their orders ----
  for (const p of both) await p.page.goto(`${url}#/`);
  await ann.page.locator("#kind-hexdice select[name=size]").selectOption("small");
  await ann.page.locator("#kind-hexdice select[name=mode]").selectOption("simultaneous");
  await ann.page.locator("#create-hexdice").click();
  await ann.page.locator("#hd-board .hd-hex").first().waitFor();
  const code2 = (await text(ann, "#room-code")).trim();
  await ben.page.locator("#code-hexdice").fill(code2);
  await ben.page.locator("#join-hexdice").click();
  await Promise.all(both.map((p) => p.page.waitForFunction(() => document.querySelector("#phase")?.textContent === "playing")));
  const simLat = [];
  for (const [p, other] of [[ann, ben], [ben, ann]]) {
    await p.page.locator("#hd-buy-open").waitFor();
    await p.page.locator("#hd-buy-open").focus();
    if (p === ben) {
      // A snapshot redraws Ben's page between his Tab and his Enter (Ann's emote):
      // the focus stays on the redrawn button, so the key still opens the shop.
      await other.page.locator("#hd-emote-gg").click();
      await p.page.locator("#hd-emotes li", { hasText: "GG" }).waitFor();
      const still = await p.page.evaluate(() => document.activeElement?.id);
      check(still === "hd-buy-open", `a redraw keeps the keyboard focus on the button it replaced (focus on "${still}")`);
    }
    await p.page.keyboard.press("Enter"); // the shop of the listed hex; the focus goes to its first unit
    await p.page.locator("#hd-buy-marine").waitFor();
    await p.page.locator("#hd-buy-marine").focus();
    await p.page.keyboard.press("Enter");
    await p.page.locator("#hd-orders-list li", { hasText: "buy a marine" }).waitFor();
    if (p === ann) {
      // A saved draft survives a reload: sealed in the game document, it comes back in Ann's own preview.
      await p.page.locator("#hd-orders-save").click();
      await p.page.locator("#hd-orders[data-saved]").waitFor();
      await p.page.reload();
      await p.page.locator("#hd-orders-list li", { hasText: "buy a marine" }).waitFor();
      check(true, "Ann's saved draft is shown again after a reload");
    }
    await shot(p, `g2-06-hd-orders-${p.name}.png`);
    await clickAndSee(p, other, "#hd-orders-submit", simLat);
    if (p === ann) {
      await ben.page.locator("#hd-orders-state", { hasText: "Ann has submitted" }).waitFor();
      check(true, "Ben's page says Ann has submitted (never what)");
    }
  }
  await Promise.all(both.map((p) => p.page.waitForFunction(() => document.querySelectorAll("#hd-board .hd-troop").length === 2)));
  check(true, "simultaneous mode: both players' orders, sent from the page, resolved — each page shows the two bought marines");
  check((await text(ann, "#hd-round")).includes("round 2"), "and the next round started");
  await shot(ben, "g2-07-hd-simultaneous.png");
  hdLat.push(...simLat);
  metrics.hexdiceSimultaneousClickToOtherMs = quantiles(simLat);

  metrics.hexdiceClickToOtherMs = quantiles(hdLat);
  metrics.clickToOtherMs = quantiles([...cbLat, ...hdLat]);
  console.log(`click → other page: CodeBowl ${JSON.stringify(metrics.codebowlClickToOtherMs)}, Hex & Dice ${JSON.stringify(metrics.hexdiceClickToOtherMs)}`);
});
