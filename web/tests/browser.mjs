// Browser tests of the web client against a running local stack, in Debian's
// Chromium driven by playwright-core. Started by emulator/browser (go test),
// which runs the stack and sets MEEPLE_URL; by hand:
//
//   MEEPLE_URL=http://127.0.0.1:8090/ node tests/browser.mjs
//
// Two browser contexts (two players) play a seeded Quickfire match to the end
// by clicking (one roll by the keyboard), a third watches (#/watch/<id>: the
// DashDice page read-only); the dice are drawn faces, the log reads in
// words, the win is shown, the joined opponent never sees the room code; the verify panel must
// pass on the finished match and fail on a tampered log and on a wrong seed.
// Screenshots go to MEEPLE_ARTIFACTS (default web/test-results). The last
// line printed is BROWSER-METRICS {json}: click-to-other-player latency,
// first load, bundle size.

import { chromium } from "playwright-core";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const url = process.env.MEEPLE_URL ?? "http://127.0.0.1:8090/";
const out = process.env.MEEPLE_ARTIFACTS ?? join(here, "..", "test-results");
const executablePath = process.env.CHROMIUM ?? "/usr/bin/chromium";
const seed = process.env.MEEPLE_TEST_SEED ?? "browser-test";
mkdirSync(out, { recursive: true });

const T = 20_000; // per-step wait; no step takes near it unless something is wrong
let failures = 0;
function check(cond, msg) {
  if (!cond) {
    failures++;
    console.error(`FAIL: ${msg}`);
    throw new Error(msg);
  }
  console.log(`ok: ${msg}`);
}

const browser = await chromium.launch({
  executablePath,
  headless: true,
  // Without the background-networking flags Chromium keeps dialling Google
  // hosts this machine cannot reach.
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});

async function player(name) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(T);
  page.on("pageerror", (e) => console.error(`[${name}] page error: ${e.message}`));
  page.on("console", (m) => m.type() === "error" && console.error(`[${name}] console: ${m.text()}`));
  return { name, context, page };
}

const shot = (p, file) => p.page.screenshot({ path: join(out, file), fullPage: true });
const text = (p, sel) => p.page.locator(sel).innerText();
const version = async (p) => Number(await text(p, "#version"));
const waitVersion = (p, v) => p.page.waitForFunction((v) => Number(document.querySelector("#version")?.textContent) >= v, v);

let exitCode = 0;
const metrics = {};
try {
  // First load, cold cache: navigation start to the sign-in form on screen.
  const ann = await player("Ann");
  const t0 = Date.now();
  await ann.page.goto(url);
  await ann.page.locator("#guest-signin").waitFor();
  metrics.firstLoadMs = Date.now() - t0;
  metrics.navigation = await ann.page.evaluate(() => {
    const n = performance.getEntriesByType("navigation")[0];
    return { domContentLoadedMs: Math.round(n.domContentLoadedEventEnd), loadMs: Math.round(n.loadEventEnd), transferBytes: performance.getEntriesByType("resource").reduce((s, r) => s + (r.transferSize || 0), n.transferSize || 0) };
  });
  await shot(ann, "01-signin.png");

  async function signIn(p) {
    if (p !== ann) await p.page.goto(url);
    await p.page.locator("#guest-form input[name=nickname]").fill(p.name);
    await p.page.locator("#guest-signin").click();
    await p.page.locator("#create-dashdice").waitFor();
  }
  const ben = await player("Ben");
  await signIn(ann);
  await signIn(ben);
  check((await text(ann, "#who")).includes("Ann"), "Ann is signed in as a guest");
  await shot(ann, "02-lobby.png");

  // An API refusal is shown with its message.
  await ben.page.locator("#code-dashdice").fill("ZZZZZZ");
  await ben.page.locator("#join-dashdice").click();
  const refusal = ben.page.locator("#kind-dashdice .error");
  await refusal.waitFor();
  check((await refusal.innerText()).length > 0, `a bad room code shows the API's error: "${await refusal.innerText()}"`);
  await shot(ben, "03-lobby-error.png");

  // Ann creates a seeded private Quickfire match with a long timer.
  const a = ann.page;
  await a.locator('select[name=mode][data-kind=dashdice]').selectOption("quickfire");
  await a.locator('input[name=turnSeconds][data-kind=dashdice]').fill("300");
  await a.locator('input[name=seed][data-kind=dashdice]').fill(seed);
  await a.locator("#create-dashdice").click();
  await a.locator("#room-code").waitFor();
  const code = await text(ann, "#room-code");
  const gameId = a.url().split("/").pop();
  check(/^[A-Z0-9]{6}$/.test(code), `the host sees the room code ${code}`);
  await shot(ann, "04-dashdice-waiting.png");

  await ben.page.locator("#code-dashdice").fill(code.toLowerCase());
  await ben.page.locator("#join-dashdice").click();
  await ben.page.locator("#call-odd").waitFor();
  check(ben.page.url().endsWith(gameId), "Ben joined the same match by its room code");
  // The opponent who just joined is never told to give the room code away
  // (issue 24: it showed during the call).
  await ben.page.waitForTimeout(800);
  check(!(await ben.page.locator("#room").isVisible()) && !(await text(ben, "#app")).includes("give it to"), "the opponent who joined does not see the room code");
  check((await text(ben, "#phase")) === "deciding who starts", `the phase reads in words: "${await text(ben, "#phase")}"`);

  // A spectator watches live.
  const vi = await player("Vi");
  await signIn(vi);
  await vi.page.goto(`${url}#/watch/${gameId}`);
  await vi.page.locator("#dice svg.die-face").first().waitFor();
  check((await vi.page.locator("#watching").count()) === 1, "the spectator sees the DashDice table itself, read-only");

  // Play: whoever has the Roll button rolls until their turn score reaches
  // 15, then banks. Every click is timed to the other player's page.
  const players = [ann, ben];
  const latencies = [];
  const replies = [];
  const rollSeqs = []; // the version each roll made: its step's seq
  async function click(p, sel) {
    const other = p === ann ? ben : ann;
    const v = await version(p);
    await p.page.locator(sel).click();
    if (sel === "#roll") rollSeqs.push(v + 1);
    await waitVersion(p, v + 1);
    await waitVersion(other, v + 1);
    const c = await p.page.evaluate(() => window.meepleTimings.clicks.at(-1));
    const seenAt = await other.page.evaluate((v) => window.meepleTimings.seen[v], v + 1);
    if (seenAt) latencies.push(seenAt - c.at);
    if (c.replied) replies.push(c.replied - c.at);
  }
  await click(ben, "#call-odd");
  await waitVersion(vi, await version(ann));
  check((await vi.page.getAttribute("#phase", "data-phase")) === "gameplay", "the spectator sees the match start live");
  check((await text(ann, "#timer")).match(/^\d+ s$/), `the turn timer counts down: ${await text(ann, "#timer")}`);
  await shot(ann, "05-dashdice-playing.png");
  // Keyboard play: R rolls.
  {
    const p = (await ann.page.locator("#roll").isVisible()) ? ann : ben;
    const v = await version(p);
    await p.page.locator("body").press("r");
    rollSeqs.push(v + 1);
    await waitVersion(p, v + 1);
    check(true, "the R key rolls");
    const faces = await p.page.locator("#dice svg.die-face").evaluateAll((els) => els.map((e) => e.getAttribute("aria-label")));
    check(faces.length === 2 && faces.every((l) => /die: [1-6]$/.test(l)), `the dice are drawn as two faces with their values for screen readers: ${faces.join(", ")}`);
  }
  let steps = 0;
  const phase = (p) => p.page.getAttribute("#phase", "data-phase");
  while ((await phase(ann)) !== "gameOver") {
    if (++steps > 400) check(false, "the match ends within 400 clicks");
    const p = (await ann.page.locator("#roll").isVisible()) ? ann : ben;
    const turnScore = Number(await text(p, "#turn-score"));
    await click(p, turnScore >= 15 ? "#bank" : "#roll");
    if (steps === 3) await shot(p, "06-dashdice-turn.png");
  }
  await ben.page.waitForFunction(() => document.querySelector("#phase")?.getAttribute("data-phase") === "gameOver");
  for (const p of [ann, ben, vi]) {
    await p.page.locator("#winner").waitFor();
    check(/wins!|You win!/.test(await text(p, "#winner")), `${p.name} sees the win moment: ${await text(p, "#winner")}`);
  }
  const log = await text(vi, "#events");
  check(!log.includes("{") && /rolled \d and \d/.test(log), "the event log reads in words, no JSON");
  const q = (xs, f) => Math.round(xs[Math.min(xs.length - 1, Math.floor(f * xs.length))]);
  const figures = (xs) => (xs.sort((x, y) => x - y), { p50: q(xs, 0.5), p99: q(xs, 0.99), max: Math.round(xs.at(-1)) });
  metrics.clicks = latencies.length;
  // Click in one page to the other player's page showing the new version.
  metrics.latencyMs = figures(latencies);
  // Click to the clicker's own HTTP reply, for comparison.
  metrics.replyMs = figures(replies);

  // The verify panel passes on the finished match, for both players and the spectator.
  for (const p of [ann, ben, vi]) {
    await p.page.locator("#verify-result.pass").waitFor();
  }
  check((await text(ann, "#verify-result")).startsWith("PASS"), `verify passes: ${await text(ann, "#verify-result")}`);
  // A page opened after the end holds every step of the match too: the
  // few still in the game document's log, the history batches, and the last
  // batch, which rides in the gameOver's record (issue 22). Every roll made
  // is checked.
  await vi.page.reload();
  await vi.page.locator("#verify-result.pass").waitFor();
  const checked = new Set((await vi.page.locator("#verify-checks li").allInnerTexts()).map((t) => Number(/^step (\d+)/.exec(t)?.[1])));
  const missing = rollSeqs.filter((seq) => !checked.has(seq));
  check(missing.length === 0, `the spectator's page, opened after the end, has every one of the ${rollSeqs.length} rolls (steps ${rollSeqs[0]}–${rollSeqs.at(-1)}); missing: ${missing.join(", ") || "none"}`);
  await shot(ann, "07-dashdice-over-verified.png");
  await shot(vi, "08-spectator.png");
  check((await vi.page.locator("#roll, #bank, #join, #call-odd, #rematch").count()) === 0, "the spectator page has no action buttons");
  check((await a.locator("#replay-link").count()) === 1, "a finished match links to its replay");

  // Tampered: one recorded die changed fails, naming the step.
  await a.evaluate(() => {
    window.meepleTestHooks = {
      tamperRecords(records) {
        const r = records.find((r) => r.events.some((e) => e.type === "rolled"));
        const e = r.events.find((e) => e.type === "rolled");
        e.data.dice[0] = (e.data.dice[0] % 6) + 1;
        return records;
      },
    };
  });
  await a.locator("#verify-run").click();
  await a.locator("#verify-result.fail").waitFor();
  check(/FAIL: step \d+ \(rolled\)/.test(await text(ann, "#verify-result")), `a tampered roll fails: ${await text(ann, "#verify-result")}`);
  await shot(ann, "09-verify-tampered.png");
  await a.evaluate(() => delete window.meepleTestHooks);
  // A different seed fails the published hash (and the dice).
  await a.locator("#verify-seed").fill(seed + "x");
  await a.locator("#verify-run").click();
  await a.locator("#verify-result.fail").waitFor();
  check((await text(ann, "#verify-result")).includes("sha256(seed)"), "a wrong seed fails the published hash");
  await a.locator("#verify-seed").fill(seed);
  await a.locator("#verify-run").click();
  await a.locator("#verify-result.pass").waitFor();
  check(true, "the revealed seed passes again");

  // Rematch: both ask; both follow the link into the new match.
  const over = await version(ann);
  await ann.page.locator("#rematch").click();
  await waitVersion(ben, over + 1);
  await ben.page.locator("#rematch").click();
  for (const p of players) {
    await p.page.locator("#rematch-link").click();
    await p.page.waitForFunction((id) => !location.hash.endsWith(id) && document.querySelector("#phase")?.getAttribute("data-phase") === "turnDecider", gameId);
  }
  check(ann.page.url() === ben.page.url(), "both players are in the rematch");
  await shot(ben, "10-rematch.png");

  // A bot from the page: Ann creates a match and seats a random bot; the
  // server moves it (the bot calls odd or even) with no page of its own.
  await a.goto(url);
  await a.locator("#create-dashdice").click();
  await a.locator("#bot-random").click();
  await a.waitForFunction(() => ["gameplay", "gameOver"].includes(document.querySelector("#phase")?.getAttribute("data-phase") ?? ""), null, { timeout: 30000 });
  check(/bot/i.test(await text(ann, "#opponent")), `the bot sits opposite Ann: ${await text(ann, "#opponent")}`);
  await shot(ann, "11-dashdice-bot.png");

  // The bundle as built.
  const assets = join(here, "..", "dist", "assets");
  metrics.bundle = Object.fromEntries(
    readdirSync(assets).map((f) => [f, { bytes: statSync(join(assets, f)).size, gzip: gzipSync(readFileSync(join(assets, f))).length }]),
  );
} catch (e) {
  exitCode = 1;
  console.error(`browser test failed: ${e.stack ?? e}`);
  for (const c of browser.contexts()) {
    for (const [i, p] of c.pages().entries()) await p.screenshot({ path: join(out, `failure-${browser.contexts().indexOf(c)}-${i}.png`), fullPage: true }).catch(() => {});
  }
} finally {
  await browser.close();
}
console.log(`BROWSER-METRICS ${JSON.stringify(metrics)}`);
writeFileSync(join(out, "metrics.json"), JSON.stringify(metrics, null, 2) + "\n");
process.exit(exitCode || (failures ? 1 : 0));
