// Browser test of the Tile Race page. The admin sets a race up through the
// API (create, two teams, 120 tasks, randomise, start: the README's
// sequence); a spectator watches the race page; a team signs in on the page
// and completes its tile by clicking; the spectator's page shows the team's
// move and the leaderboard change — the time from the click to each is
// measured — and the team claims a powerup tile. Then an admin signs in on the page: the board through the fog, a
// refused import with its bad lines, a team created, a powerup granted, a
// cooldown set; the team tries to use the powerup (usePowerup: before the
// server has it, the page hides the buttons). Started by emulator/browser
// (go test); by hand:
//
//   MEEPLE_URL=http://127.0.0.1:8090/ node tests/tilerace.mjs
//
// Prints BROWSER-METRICS {json}: click → spectator figures.

import { api, check, player, run, shot, signIn, text } from "./lib.mjs";

const seed = process.env.MEEPLE_TEST_SEED ?? "browser-test";

await run("tilerace", async (browser, metrics) => {
  // Setup through the API, as in the README.
  const guest = await api("Auth", { type: "guest", nickname: "Mia" });
  const race = await api("TileRace", { actionId: `race-${Date.now()}`, type: "create", name: "Mia", password: "master-pass", seed }, guest.token);
  const id = race.gameId;
  const adm = race.result.session.token;
  const act = (body) => api("TileRace", { gameId: id, actionId: `${body.type}-${Math.random().toString(36).slice(2)}`, ...body }, adm);
  const red = (await act({ type: "createTeam", name: "Red Dragons", members: ["Zezima", "Lynx Titan"], password: "red-pass" })).result.team;
  const blue = (await act({ type: "createTeam", name: "Blue Moons", members: ["Woox"], password: "blue-pass" })).result.team;
  const tasks = ["easy", "medium", "hard"].flatMap((d) => Array.from({ length: 40 }, (_, i) => `${d} task ${i + 1},${d},1,1`)).join("\n");
  await act({ type: "importTasks", data: tasks });
  await act({ type: "randomiseDifficulties", fill: true });
  await act({ type: "importPowerupTiles", data: "skip1\tKill a boss\t1.5\t3\t1\teachTeam\tAny boss\n" });
  await act({ type: "start" });

  // A spectator opens the race.
  const vi = await player(browser, "Vi");
  await signIn(vi, `#/tilerace/${id}`);
  await vi.page.locator("#tr-tile-56").waitFor();
  await vi.page.locator(`#tr-team-${red.id}`).waitFor();
  check((await vi.page.locator(".tr-tile").count()) === 56, "the spectator sees the 56-tile board");
  check((await vi.page.locator("#tr-tile-56.hidden").count()) === 1 && (await vi.page.locator("#tr-tile-3.hidden").count()) === 0, "tiles beyond the fog are hidden, near ones shown");
  check((await vi.page.locator("#tr-leaderboard").innerText()).includes("no points yet"), "the leaderboard starts empty");
  await shot(vi, "tr-01-spectator.png");

  // The team signs in on the race page and completes tile 1 by clicking.
  const team = await player(browser, "Zed");
  await signIn(team, `#/tilerace/${id}`);
  await team.page.locator("#tr-login-team").fill("red dragons");
  await team.page.locator("#tr-login-team-password").fill("wrong-pass");
  await team.page.locator("#tr-login-team-go").click();
  const loginErr = team.page.locator("#app > .error:not([hidden])");
  await loginErr.waitFor();
  check((await loginErr.innerText()).length > 0, `a wrong team password shows the API's message: "${await loginErr.innerText()}"`);
  await team.page.locator("#tr-login-team-password").fill("red-pass");
  await team.page.locator("#tr-login-team-go").click();
  await team.page.locator("#tr-team-view #tr-task").waitFor();
  check((await text(team, "#who")).includes("Red Dragons (team)"), "the tab is signed in as the team");
  check((await text(team, "#tr-position")) === "1", "the team stands on tile 1");

  await team.page.locator("#tr-complete").click();
  const teamErr = team.page.locator("#tr-team-view .error:not([hidden])");
  await teamErr.waitFor();
  check((await teamErr.innerText()).length > 0, `completing with nobody shows the API's message: "${await teamErr.innerText()}"`);
  await shot(team, "tr-02-team-error.png");

  await team.page.locator("#tr-count-0").fill("1"); // Zezima, once
  await team.page.locator("#tr-complete").click();
  await team.page.locator("#tr-position", { hasText: "2" }).waitFor();
  const clickAt = await team.page.evaluate(() => window.meepleTimings.clicks.at(-1).at);
  await vi.page.locator(`#tr-team-${red.id}[data-position="2"]`).waitFor();
  await vi.page.locator('#tr-leaderboard tr[data-player="Zezima"]').waitFor();
  const seen = await vi.page.evaluate(() => window.meepleRaceSeen);
  const movedAt = seen[`team:${red.id}:2`];
  const lbKey = Object.keys(seen).find((k) => k.startsWith("lb:Zezima:"));
  metrics.clickToSpectatorMoveMs = Math.round(movedAt - clickAt);
  metrics.clickToSpectatorLeaderboardMs = Math.round(seen[lbKey] - clickAt);
  console.log(`click → spectator sees the move: ${metrics.clickToSpectatorMoveMs} ms; the leaderboard change: ${metrics.clickToSpectatorLeaderboardMs} ms`);
  check(metrics.clickToSpectatorMoveMs > 0, "the spectator saw the move after the click");
  check((await vi.page.locator("#tr-tile-2 .tr-token", { hasText: "Red Dragons" }).count()) === 1, "the team's token is on tile 2 of the spectator's board");
  check((await text(vi, '#tr-leaderboard tr[data-player="Zezima"]')).includes("1.00"), "Zezima has 1.00 point on the leaderboard");
  await vi.page.locator("#tr-events li", { hasText: "completed tile 1" }).waitFor();
  check(true, "the event log shows the completion");
  // A powerup tile claimed by clicking: its points and its reward.
  await team.page.locator("#tr-count-1").fill("1"); // Lynx Titan
  await team.page.locator("#tr-claim-pt-1").click();
  await team.page.locator("#tr-inventory li", { hasText: "Skip 1 tile" }).waitFor();
  await vi.page.locator('#tr-leaderboard tr[data-player="Lynx Titan"]', { hasText: "1.50" }).waitFor();
  check((await team.page.locator("#tr-claim-pt-1").isDisabled()), "a claimed each-team powerup tile gives its reward and points, and cannot be claimed again");
  await shot(team, "tr-03-team.png");
  await shot(vi, "tr-04-spectator-after.png");

  // An admin signs in on the page.
  const mia = await player(browser, "Mia");
  await signIn(mia, `#/tilerace/${id}`);
  await mia.page.locator("#tr-login-admin").fill("Mia");
  await mia.page.locator("#tr-login-admin-password").fill("master-pass");
  await mia.page.locator("#tr-login-admin-go").click();
  await mia.page.locator("#tr-admin-view").waitFor();
  await mia.page.locator("#tr-admin-status", { hasText: "fog enabled" }).waitFor(); // the game has arrived
  await mia.page.locator("#tr-fog-mode").selectOption("admins");
  await mia.page.locator("#tr-setfog").click();
  await mia.page.locator("#tr-admin-status", { hasText: "fog admins" }).waitFor();
  await mia.page.locator("#tr-viewboard").click();
  await mia.page.locator("#tr-board-note", { hasText: "Through the fog" }).waitFor();
  check((await mia.page.locator("#tr-tile-56.hidden").count()) === 0 && (await text(mia, "#tr-tile-56")).includes("hard task"), "with the fog off for admins, the admin sees tile 56 through it");
  check((await text(mia, "#tr-tile-56")).includes("hidden from teams") && (await vi.page.locator("#tr-tile-56.hidden").count()) === 1, "while the spectator's tile 56 stays hidden");
  await shot(mia, "tr-05-admin-fogless.png");

  await mia.page.locator("#tr-import-data").fill("label,difficulty,max,min\nFish,4,1,1\nCook,easy,x,1\n");
  await mia.page.locator("#tr-import").click();
  await mia.page.locator("#tr-problems li").nth(1).waitFor();
  check((await text(mia, "#tr-problems")).includes("line 2"), `a refused import lists its bad lines: ${(await text(mia, "#tr-problems")).replace(/\n/g, " | ")}`);
  await shot(mia, "tr-06-admin-import-error.png");

  await mia.page.locator("#tr-team-name").fill("Green Gnomes");
  await mia.page.locator("#tr-team-members").fill("Gnome Child\nElvarg");
  await mia.page.locator("#tr-team-password").fill("green-pass");
  await mia.page.locator("#tr-team-create").click();
  await vi.page.locator(".tr-teams li", { hasText: "Green Gnomes" }).waitFor();
  check(true, "a team the admin creates by clicking appears on the spectator's page");
  // The form clears itself when the reply comes, which may be after the
  // spectator's snapshot: wait for it before typing the next team.
  await mia.page.waitForFunction(() => document.querySelector("#tr-team-name")?.value === "");

  // Distinct colours (issue 24): a second team made with the form's default
  // colour gets a colour no other team has, and every team a mark of its own.
  await mia.page.locator("#tr-team-name").fill("Yellow Yaks");
  await mia.page.locator("#tr-team-members").fill("Yak One");
  await mia.page.locator("#tr-team-password").fill("yak-pass");
  await mia.page.locator("#tr-team-create").click();
  await vi.page.locator(".tr-teams li", { hasText: "Yellow Yaks" }).waitFor();
  const chips = vi.page.locator(".tr-teams li > span:first-child");
  const colours = await chips.evaluateAll((xs) => xs.map((x) => getComputedStyle(x).backgroundColor));
  check(colours.length === 4 && new Set(colours).size === 4, `four teams, four distinct colours: ${colours.join(" ")}`);
  const marks = await chips.evaluateAll((xs) => xs.map((x) => x.textContent.trim()));
  check(new Set(marks).size === 4 && marks.every(Boolean), `and four distinct marks besides colour: ${marks.join(" ")}`);

  // The admin completes a tile and claims a powerup tile for a team (issue
  // 24: the API allowed it, the page did not).
  await mia.page.locator("#tr-behalf-team").selectOption(blue.id);
  await mia.page.locator("#tr-behalf-open").click();
  await mia.page.locator("#tr-behalf-view #tr-count-0").fill("1"); // Woox
  await mia.page.locator("#tr-behalf-view #tr-complete").click();
  await vi.page.locator(`#tr-team-${blue.id}[data-position="2"]`).waitFor();
  const adminClickAt = await mia.page.evaluate(() => window.meepleTimings.clicks.at(-1).at);
  const blueSeen = await vi.page.evaluate((k) => window.meepleRaceSeen[k], `team:${blue.id}:2`);
  metrics.adminCompleteForTeamToSpectatorMs = Math.round(blueSeen - adminClickAt);
  check(true, `the admin completed tile 1 for Blue Moons from the page; the spectator saw Blue Moons on tile 2 ${metrics.adminCompleteForTeamToSpectatorMs} ms after the click`);
  await mia.page.locator("#tr-behalf-view #tr-count-0").fill("1");
  await mia.page.locator("#tr-behalf-view #tr-claim-pt-1").click();
  await vi.page.locator('#tr-leaderboard tr[data-player="Woox"]', { hasText: "2.50" }).waitFor();
  check(true, "the admin claimed the powerup tile for Blue Moons: Woox has 1.00 + 1.50 points");
  await vi.page.locator("#tr-events li", { hasText: "Mia" }).first().waitFor();

  // Editing a tile from the board, by keyboard: Tab to tile 4, Enter, change the label, save.
  await mia.page.locator("#tr-tile-4").focus();
  await mia.page.keyboard.press("Enter");
  await mia.page.locator("#tr-edit-tile-label").waitFor({ state: "visible" });
  await mia.page.waitForFunction(() => document.querySelector("#tr-edit-tile-tile")?.value === "4" && document.querySelector("#tr-edit-tile-label")?.value !== "");
  await mia.page.locator("#tr-edit-tile-label").fill("Edited on the page");
  await mia.page.keyboard.press("Enter"); // submits the form
  await vi.page.locator("#tr-tile-4", { hasText: "Edited on the page" }).waitFor();
  check(true, "an admin edits tile 4 from the board by keyboard; the spectator's tile 4 shows the new label");

  // A powerup tile created from the page reaches the team's page; a pool task and the settings too.
  await mia.page.locator("#tr-admin-pt summary").click();
  await mia.page.locator("#tr-pt-label").fill("Made on the page");
  await mia.page.locator("#tr-pt-points").fill("2");
  await mia.page.locator("#tr-pt-go").click();
  await team.page.locator("#tr-powerup-tiles li", { hasText: "Made on the page" }).waitFor();
  check((await text(team, "#tr-powerup-tiles")).includes("2.00 pt"), "a powerup tile the admin creates on the page is offered to the team, 2.00 points");
  await mia.page.locator("#tr-admin-pools summary").click();
  await mia.page.locator("#tr-pool-add-label").fill("Pool task from the page");
  await mia.page.locator("#tr-pool-add-go").click();
  await mia.page.locator("#tr-admin-info", { hasText: "task added" }).waitFor();
  await mia.page.locator("#tr-export-what").selectOption("pools");
  await mia.page.locator("#tr-export-go").click();
  await mia.page.waitForFunction(() => document.querySelector("#tr-export-out")?.value.includes("Pool task from the page"));
  check(true, "a pool task added on the page is in the pools' export");
  // Pool tasks are picked from the race's list (no typed id): by keyboard,
  // End then edit the picked task's label, save; then remove it.
  const picked = mia.page.locator("#tr-pool-pick option", { hasText: "Pool task from the page" });
  await picked.waitFor({ state: "attached" });
  const poolId = await picked.getAttribute("value");
  // By keyboard: focus the list, Home, then ArrowDown until the task is picked.
  await mia.page.locator("#tr-pool-pick").focus();
  await mia.page.keyboard.press("Home");
  const n = await mia.page.locator("#tr-pool-pick option").count();
  for (let k = 0; k < n && (await mia.page.locator("#tr-pool-pick").inputValue()) !== poolId; k++) await mia.page.keyboard.press("ArrowDown");
  check((await mia.page.locator("#tr-pool-pick").inputValue()) === poolId, `${poolId} is picked with the arrow keys`);
  await mia.page.waitForFunction(() => document.querySelector("#tr-pool-edit-label")?.value === "Pool task from the page");
  check(true, `picking ${poolId} from the list fills the edit form with its fields`);
  await mia.page.locator("#tr-pool-edit-label").fill("Pool task, edited");
  await mia.page.locator("#tr-pool-edit-go").click();
  await mia.page.locator("#tr-pool-pick option", { hasText: "Pool task, edited" }).waitFor({ state: "attached" });
  check((await mia.page.locator("#tr-pool-pick option", { hasText: "Pool task, edited" }).getAttribute("value")) === poolId, `${poolId} edited from the list shows its new label`);
  mia.page.once("dialog", (d) => d.accept());
  await mia.page.locator("#tr-pool-remove-go").click();
  await mia.page.locator(`#tr-pool-pick option[value="${poolId}"]`).waitFor({ state: "detached" });
  check(true, `${poolId} removed from the list`);
  await mia.page.locator("#tr-admin-settings summary").click();
  await mia.page.locator("#tr-settings-reserve").fill("4");
  await mia.page.locator("#tr-settings-go").click();
  await mia.page.locator("#tr-admin-info", { hasText: "settings saved" }).waitFor();
  check((await mia.page.locator("#tr-settings-early-easy").inputValue()) === "65", "the settings form shows the game's gradient (early easy 65)");
  await shot(mia, "tr-07b-admin-forms.png");

  const row = mia.page.locator(`#tr-admin-view [data-team="${red.id}"]`);
  await row.locator("select").selectOption("skip1");
  await row.locator("button", { hasText: "Grant" }).click();
  await team.page.locator("#tr-use-1").waitFor();
  check((await team.page.locator("#tr-inventory li", { hasText: "Skip 1 tile" }).count()) === 2, "the granted powerup shows in the team's inventory");
  await mia.page.locator(`#tr-admin-view [data-team="${blue.id}"] button`, { hasText: "Set cooldown" }).click();
  await vi.page.locator(`#tr-team-${blue.id}`, { hasText: "cooldown" }).waitFor();
  check(true, "a cooldown the admin sets shows on the spectator's page");
  await shot(mia, "tr-07-admin.png");

  // Using the powerup: the server either takes usePowerup (the team skips a
  // tile) or does not know it yet (the page says so and hides the buttons).
  await team.page.locator("#tr-use-0").click();
  await team.page.locator("#tr-use-go").click();
  const outcome = await Promise.race([
    team.page.locator("#tr-use-unsupported").waitFor().then(() => "unsupported"),
    team.page.locator("#tr-position", { hasText: "3" }).waitFor().then(() => "used"),
  ]);
  if (outcome === "unsupported") {
    check((await text(team, "#tr-team-view .error")).includes("unknown action type"), "a server without usePowerup: the error is shown and the Use buttons hidden");
    check((await team.page.locator("#tr-use-0").isHidden()), "the Use button is hidden");
  } else {
    check(true, "the team used Skip 1 tile and stands on tile 3");
  }
  metrics.usePowerup = outcome;

  // The lobby's create: the creator's tab takes the master session and lands on the admin view.
  const kim = await player(browser, "Kim");
  await signIn(kim);
  await kim.page.locator('input[name=name][data-kind=tilerace]').fill("Kim");
  await kim.page.locator('input[name=password][data-kind=tilerace]').fill("kim-master-pass");
  await kim.page.locator("#create-tilerace").click();
  await kim.page.locator("#tr-admin-view").waitFor();
  check((await text(kim, "#who")).includes("Kim (master)"), "a race created in the lobby opens on its admin view, signed in as its master admin");
  await kim.page.locator("#tr-tile-56").waitFor();
  await shot(kim, "tr-10-created-in-lobby.png");
  await shot(team, "tr-08-team-powerup.png");
  await shot(vi, "tr-09-spectator-end.png");
});
