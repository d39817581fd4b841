// Browser test of the "add a bot" buttons of the CodeBowl and Party Board
// pages and of the lobby's quick match with a bot after a wait (docs/bots.md): the host of a waiting game clicks a bot level on
// the game's page, the bot is seated (its join), and the game goes on with
// the bot answering for itself, moved by the server. Started by
// emulator/browser (go test); by hand:
//
//   MEEPLE_URL=http://127.0.0.1:8090/ node tests/bots.mjs
//
// Prints BROWSER-METRICS {json}: click on the bot button → the bot's seat
// on the page (botSeatedMs), per game.

import { api, check, player, run, shot, signIn, text, token, T, url } from "./lib.mjs";

const stamp = Date.now().toString(36);
const phase = (p) => p.page.evaluate(() => document.querySelector("#phase")?.textContent ?? "");

await run("bots", async (browser, metrics) => {
  metrics.botSeatedMs = {};

  // ---- CodeBowl: a coach (an account with a team) hosts a waiting match ----
  {
    const s = await api("Auth", { type: "register", username: `bothost_${stamp}`, password: "bots-test-pw-1", nickname: "Coach" });
    const players = Array.from({ length: 7 }, (_, i) => ({ name: `Red ${i + 1}`, st: 4, ag: 4, mv: 4 }));
    const team = (await api("CodeBowl", { type: "createTeam", actionId: `team-${stamp}`, name: "Reds", players }, s.token)).result;
    const cb = (await api("CodeBowl", { type: "create", actionId: `cb-${stamp}`, teamId: team.id }, s.token)).gameId;
    const coach = await player(browser, "Coach");
    await coach.context.addInitScript((v) => sessionStorage.setItem("meeple.session", v), JSON.stringify(s));
    await coach.page.goto(`${url}#/codebowl/${cb}`);
    await coach.page.waitForFunction(() => document.querySelector("#phase")?.textContent === "waiting");
    await coach.page.locator("#cb-bot-random").waitFor();
    await shot(coach, "bots-01-codebowl-waiting.png");
    const t0 = Date.now();
    await coach.page.locator("#cb-bot-strong").click();
    await coach.page.locator("#cb-roster-away").waitFor();
    metrics.botSeatedMs.codebowl = Date.now() - t0;
    check((await text(coach, "#cb-roster-away")).includes("Bot (strong) 1"), "the bot's team is seated as away");
    check((await coach.page.locator("#cb-bot-strong").count()) === 0, "the bot buttons are gone once the match is full");
    // Placement: whoever defends places first; the host confirms his
    // default formation when it is his, the bot places by itself.
    const deadline = Date.now() + 4 * T;
    while ((await phase(coach)) !== "play") {
      if (Date.now() > deadline) check(false, "the match reaches play: both placed");
      const place = coach.page.locator("#cb-place-0");
      if (await place.isVisible().catch(() => false)) {
        await place.click();
        await place.waitFor({ state: "detached" }).catch(() => {});
      } else await coach.page.waitForTimeout(250);
    }
    check((await coach.page.locator("#cb-pitch .cb-player").count()) === 14, "the page shows 14 placed players: the bot placed its own");
    await shot(coach, "bots-02-codebowl-play.png");
    await coach.context.close();
  }

  // ---- Party Board: a guest hosts a lobby ----
  {
    const host = await player(browser, "Hana");
    await signIn(host);
    const tok = await token(host);
    const pb = (await api("PartyBoard", { type: "create", actionId: `pb-${stamp}`, board: "pokemon-gen1" }, tok)).gameId;
    await host.page.goto(`${host.page.url().split("#")[0]}#/partyboard/${pb}`);
    await host.page.locator("#pb-bot-random").waitFor();
    const t0 = Date.now();
    await host.page.locator("#pb-bot-strong").click();
    await host.page.locator("#pb-players li").nth(1).waitFor();
    metrics.botSeatedMs.partyboard = Date.now() - t0;
    check((await text(host, "#pb-players")).includes("Bot (strong) 1"), "the bot is listed among the players");
    await shot(host, "bots-03-partyboard-lobby.png");
    await host.page.locator("#pb-start").click();
    await host.page.waitForFunction(() => document.querySelector("#phase")?.textContent !== "lobby");
    // The host answers what the game asks of him (the first listed input);
    // the bot answers for itself: its turns pass without anyone clicking.
    const deadline = Date.now() + 4 * T;
    let botTurns = 0;
    while (botTurns < 2) {
      if (Date.now() > deadline) check(false, "the bot takes two turns");
      const mine = host.page.locator("#buttons button.move").first();
      if (await mine.isVisible().catch(() => false)) {
        await mine.click().catch(() => {}); // the page may redraw under the click
        await host.page.waitForTimeout(150);
      } else await host.page.waitForTimeout(250);
      // The log's lines read "turn N · player · what": the turns the bot acted in.
      const lines = await host.page.locator("#pb-log li").allInnerTexts().catch(() => []);
      const turns = new Set(lines.map((l) => /^turn (\d+) · Bot \(strong\) 1 · /.exec(l)?.[1]).filter((n) => n && Number(n) > 0));
      botTurns = turns.size;
    }
    check(true, `the bot played its turns by itself (${botTurns} in the log)`);
    await shot(host, "bots-04-partyboard-play.png");
    await host.context.close();
  }

  // ---- Quick match with a bot after a wait (the lobby's botAfter) ----
  {
    const solo = await player(browser, "Solo");
    await signIn(solo);
    await solo.page.locator("select[name=mode][data-kind=dashdice]").selectOption("last-line");
    await solo.page.locator("#bot-after-dashdice").selectOption("5");
    const t0 = Date.now();
    await solo.page.locator("#quick-dashdice").click();
    await solo.page.waitForURL(/#\/dashdice\//, { timeout: 4 * T });
    await solo.page.locator("#opponent", { hasText: "Bot (strong) 1" }).waitFor();
    metrics.botSeatedMs.quickMatch = Date.now() - t0;
    check(metrics.botSeatedMs.quickMatch >= 5000, `quick match seats a bot after the wait chosen (${metrics.botSeatedMs.quickMatch} ms ≥ 5 s)`);
    await shot(solo, "bots-05-quickmatch-bot.png");
    await solo.context.close();
  }
});
