// Shared helpers of the Party Board and Tile Race browser tests (the same
// setup as browser.mjs: Debian's Chromium through playwright-core, the stack
// at MEEPLE_URL, screenshots in MEEPLE_ARTIFACTS).

import { chromium } from "playwright-core";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
export const url = process.env.MEEPLE_URL ?? "http://127.0.0.1:8090/";
export const out = process.env.MEEPLE_ARTIFACTS ?? join(here, "..", "test-results");
mkdirSync(out, { recursive: true });

export const T = 20_000; // per-step wait; no step takes near it unless something is wrong

let failures = 0;
export function check(cond, msg) {
  if (!cond) {
    failures++;
    console.error(`FAIL: ${msg}`);
    throw new Error(msg);
  }
  console.log(`ok: ${msg}`);
}

/** launch starts Debian's Chromium headless; more are extra flags (checks.mjs: a debugging port for Lighthouse). */
export async function launch(more = []) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    // Without the background-networking flags Chromium keeps dialling Google
    // hosts this machine cannot reach.
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", ...more],
  });
}

/** player opens a browser context of its own (its own session) with one page. */
export async function player(browser, name, viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(T);
  page.on("pageerror", (e) => console.error(`[${name}] page error: ${e.message}`));
  page.on("console", (m) => m.type() === "error" && console.error(`[${name}] console: ${m.text()}`));
  return { name, context, page };
}

/** signIn signs p in as a guest through the sign-in page, then goes to hash (if any). */
export async function signIn(p, hash = "") {
  await p.page.goto(url + hash);
  await p.page.locator("#guest-form input[name=nickname]").fill(p.name);
  await p.page.locator("#guest-signin").click();
  await p.page.locator("#who").filter({ hasText: p.name }).waitFor();
}

/** token reads the page's session token (the tab's sessionStorage). */
export const token = (p) => p.page.evaluate(() => JSON.parse(sessionStorage.getItem("meeple.session")).token);

/** api posts to a function as the test itself (setup the test does not click). */
export async function api(fn, body, tok) {
  const res = await fetch(new URL(fn, url), {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(tok ? { Authorization: `Bearer ${tok}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok || json.error) throw new Error(`${fn} ${body.type}: ${res.status} ${JSON.stringify(json.error ?? json)}`);
  return json;
}

export const shot = (p, file) => p.page.screenshot({ path: join(out, file), fullPage: true });
export const text = (p, sel) => p.page.locator(sel).innerText();

/** run runs a test body with a browser, screenshots every page on failure, prints and saves metrics, and exits. */
export async function run(name, body) {
  const browser = await launch();
  const metrics = {};
  let exitCode = 0;
  const t0 = Date.now();
  try {
    await body(browser, metrics);
  } catch (e) {
    exitCode = 1;
    console.error(`${name} failed: ${e.stack ?? e}`);
    for (const [ci, c] of browser.contexts().entries()) {
      for (const [i, p] of c.pages().entries()) await p.screenshot({ path: join(out, `${name}-failure-${ci}-${i}.png`), fullPage: true }).catch(() => {});
    }
  } finally {
    await browser.close();
  }
  metrics.totalMs = Date.now() - t0;
  console.log(`BROWSER-METRICS ${JSON.stringify({ test: name, ...metrics })}`);
  writeFileSync(join(out, `${name}-metrics.json`), JSON.stringify(metrics, null, 2) + "\n");
  process.exit(exitCode || (failures ? 1 : 0));
}

export function quantiles(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (f) => Math.round(s[Math.min(s.length - 1, Math.floor(f * s.length))]);
  return s.length ? { n: s.length, p50: q(0.5), p90: q(0.9), max: Math.round(s.at(-1)) } : { n: 0 };
}

// Two pages of one game (games2.mjs, hexfog.mjs): versions, clicks seen by the other page, whose turn.

export const version = (p) => p.page.evaluate(() => Number(document.querySelector("#version")?.textContent ?? -1));
export const atLeast = (p, v) => p.page.waitForFunction((v) => Number(document.querySelector("#version")?.textContent) >= v, v);

/**
 * clickAndSee clicks sel on `by` and waits until `other`'s page shows a newer
 * version than before; returns the time from the click (the page's own
 * record of it) to the other page first seeing that version.
 */
export async function clickAndSee(by, other, sel, lat) {
  const v = await version(by);
  await atLeast(other, v);
  const before = Date.now();
  await by.page.locator(sel).first().click();
  await atLeast(other, v + 1);
  const seen = await other.page.evaluate((v) => {
    const s = window.meepleTimings?.seen ?? {};
    return Math.min(...Object.entries(s).filter(([k]) => Number(k) > v).map(([, t]) => t));
  }, v);
  const clickAt = await by.page.evaluate((v) => window.meepleTimings?.clicks.find((c) => c.version >= v)?.at, v);
  const ms = Math.max(0, seen - (clickAt ?? before));
  lat.push(ms);
  return ms;
}

/**
 * onTurn returns which of ps has sel on its page (waiting for one to show it).
 * It answers only once every page shows the same version and exactly one
 * shows sel: clickAndSee waits for the other page only, so the page that
 * just ended its turn may still draw its button for a moment, and a click
 * there would land after its page learnt the turn had passed.
 */
export async function onTurn(ps, sel) {
  for (let i = 0; i < 100; i++) {
    const vs = await Promise.all(ps.map(version));
    if (vs.every((v) => v === vs[0])) {
      const on = [];
      for (const p of ps) if (await p.page.locator(sel).count()) on.push(p);
      if (on.length === 1 && (await version(on[0])) === vs[0]) return [on[0], ps.find((q) => q !== on[0])];
    }
    await ps[0].page.waitForTimeout(100);
  }
  check(false, `one page shows ${sel}`);
}
