// The admin view: a race's admins (adminLogin, or the creator with the
// master session create returned) see the board through the fog (viewBoard)
// and reach every admin action of docs/tilerace.md "Every action": start,
// reset, undo, fog; acting for a team (complete, claim, use a powerup);
// tasks and pools (import, add, edit, remove, clear, export, randomise);
// tiles (editTile); powerup tiles (create, edit, remove, clear, import);
// settings; teams; admins (the master only); Discord.

import { ApiError, act } from "../../api";
import { ErrorBox, button, field, h, replace, select } from "../../ui";
import { form, type FieldSpec, type Values } from "./forms";
import { POWERUPS, freeColor, inkOn, points, powerupName, teamMark, type PowerupTile, type PublicTile, type RaceData, type Team } from "./model";
import { PoolPicker } from "./pools";
import { TeamView } from "./team";

const DIFFS: [string, string][] = [["1", "easy"], ["2", "medium"], ["3", "hard"]];
const REWARDS: [string, string][] = POWERUPS.map((p) => [p.id, p.name]);
const CLAIMS: [string, string][] = [["eachTeam", "each team once"], ["firstTeam", "first team only"], ["unlimited", "unlimited"]];

/** The fields of a task (a pool task, a tile's content); points in points, sent in hundredths. */
const taskFields = (): FieldSpec[] => [
  { name: "label", label: "label" },
  { name: "difficulty", label: "difficulty", kind: "select", options: DIFFS, value: "1" },
  { name: "min", label: "min completions", kind: "number", min: 1, max: 100, value: 1 },
  { name: "max", label: "max completions", kind: "number", min: 1, max: 100, value: 1 },
  { name: "points", label: "points per completion (0: 1 point)", kind: "number", min: 0, step: "0.01", value: 0 },
  { name: "instructions", label: "instructions", kind: "textarea" },
  { name: "image", label: "image URL", kind: "url" },
  { name: "startProof", label: "start proof needed", kind: "checkbox" },
  { name: "group", label: "group task", kind: "checkbox" },
];

function taskBody(v: Values): Record<string, unknown> {
  return {
    label: v.label,
    difficulty: Number(v.difficulty),
    min: v.min,
    max: v.max,
    points: Math.round(Number(v.points) * 100),
    instructions: v.instructions || undefined,
    image: v.image || undefined,
    startProof: v.startProof || undefined,
    group: v.group || undefined,
  };
}

/** taskValues is taskBody the other way: a task's (or a tile's) fields as the task form shows them. */
function taskValues(t: any): Values {
  return {
    label: t.label ?? "",
    difficulty: String(t.difficulty || 1),
    min: t.min ?? 1,
    max: t.max ?? 1,
    points: (t.points ?? 0) / 100,
    instructions: t.instructions ?? "",
    image: t.image ?? "",
    startProof: !!t.startProof,
    group: !!t.group,
  };
}

export class AdminView {
  readonly el: HTMLElement;
  private readonly err = new ErrorBox();
  private readonly info = h("p", { id: "tr-admin-info", class: "note", role: "status" });
  private readonly problems = h("ol", { id: "tr-problems", class: "tr-problems" });
  private readonly teams = h("div", { id: "tr-admin-teams" });
  // A line from the first paint (blank until the race arrives): its filling moves nothing below.
  private readonly status = h("p", { id: "tr-admin-status" }, "\u00a0");
  private readonly fog = select("fog", ["enabled", "admins", "all"], { id: "tr-fog-mode" });
  private readonly behalfPick = select("team", [], { id: "tr-behalf-team" });
  private readonly behalfBox = h("div", { id: "tr-behalf" });
  private readonly ptList = h("ul", { id: "tr-admin-ptiles" });
  private readonly adminList = h("ul", { id: "tr-admins" });
  private readonly exported = h("textarea", { id: "tr-export-out", readonly: true, "aria-label": "exported tasks (CSV)" });
  private readonly teamColor = field("colour", { id: "tr-team-color", type: "color", value: "#fb7185" });
  private colorTouched = false;
  private behalf: TeamView | null = null;
  private behalfTeam = "";
  private teamKey = "";
  private ptKey = "";
  private adminKey = "";
  private lastFog = "";
  private settingsKey = "";
  private data: RaceData | null = null;
  /** The board through the fog, while the admin looks at it. */
  fogless: PublicTile[] | null = null;
  private readonly tileForm;
  private readonly ptForm;
  private readonly settingsForm;
  private readonly pools: PoolPicker;

  constructor(
    private readonly gameId: string,
    private readonly onBoard: () => void,
    private readonly master: boolean,
  ) {
    const importData = h("textarea", { id: "tr-import-data", "aria-label": "tasks to import (CSV or TSV)", placeholder: "label,difficulty,max,min,instructions,image,start proof\nKill a goblin,easy,1,1\n" });
    const fill = field("and fill the tiles", { type: "checkbox", id: "tr-fill", checked: true });
    const name = field("name", { id: "tr-team-name" });
    const color = this.teamColor;
    color.input.addEventListener("input", () => (this.colorTouched = true));
    const members = h("textarea", { id: "tr-team-members", placeholder: "one player per line (the first is the captain)" });
    const password = field("password", { id: "tr-team-password", type: "password", autocomplete: "new-password" });
    const slot = field("Discord slot (0: none)", { id: "tr-team-slot", type: "number", min: 0, max: 5, value: 0 });

    // Tiles: editTile, prefilled from the board through the fog.
    this.tileForm = form(
      "tr-edit-tile",
      [{ name: "tile", label: "tile", kind: "number", min: 1, max: 56, value: 1 }, ...taskFields(), { name: "reward", label: "reward", kind: "select", options: [["", "none"], ...REWARDS] }],
      "Save tile",
      (v) => this.send({ type: "editTile", tile: v.tile, ...taskBody(v), reward: v.reward || undefined }, `tile ${v.tile} saved`),
    );
    const loadTile = button("Load the tile", () => this.loadTile(Number(this.tileForm.input("tile").value)), { id: "tr-edit-tile-load" });

    // Powerup tiles: one form creates (no id) or edits (an id).
    this.ptForm = form(
      "tr-pt",
      [
        { name: "powerupTile", label: "powerup tile id (empty: a new one)", placeholder: "pt-1" },
        { name: "label", label: "label" },
        { name: "points", label: "points", kind: "number", min: 0, step: "0.01", value: 1 },
        { name: "min", label: "min completions", kind: "number", min: 1, max: 100, value: 1 },
        { name: "max", label: "max completions", kind: "number", min: 1, max: 100, value: 1 },
        { name: "claim", label: "claim type", kind: "select", options: CLAIMS },
        { name: "reward", label: "reward", kind: "select", options: REWARDS },
        { name: "instructions", label: "instructions", kind: "textarea" },
        { name: "image", label: "image URL", kind: "url" },
        { name: "group", label: "group task", kind: "checkbox" },
      ],
      "Save powerup tile",
      (v) => {
        const body = { label: v.label, points: Math.round(Number(v.points) * 100), min: v.min, max: v.max, claim: v.claim, reward: v.reward, instructions: v.instructions || undefined, image: v.image || undefined, group: v.group || undefined };
        return v.powerupTile
          ? this.send({ type: "editPowerupTile", powerupTile: v.powerupTile, ...body }, `${v.powerupTile} saved`)
          : this.send({ type: "createPowerupTile", ...body }, "powerup tile created");
      },
    );
    const ptImport = h("textarea", { id: "tr-pt-import-data", "aria-label": "powerup tiles to import (CSV or TSV)", placeholder: "reward\tlabel\tpoints\tmax\tmin\tclaim type\tinstructions\timage" });

    const weights = (which: string): FieldSpec[] =>
      ["easy", "medium", "hard"].map((d) => ({ name: `${which}-${d}`, label: `${which} ${d}`, kind: "number", min: 0, max: 1000 }) as FieldSpec);
    this.settingsForm = form("tr-settings", [...weights("early"), ...weights("late"), { name: "reserve", label: "reserve per pool (for Change Tile)", kind: "number", min: 0, max: 100 }], "Save settings", (v) =>
      this.send({ type: "setSettings", gradient: { early: { easy: v["early-easy"], medium: v["early-medium"], hard: v["early-hard"] }, late: { easy: v["late-easy"], medium: v["late-medium"], hard: v["late-hard"] } }, reserve: v.reserve }, "settings saved"),
    );

    const poolAdd = form("tr-pool-add", taskFields(), "Add to the pool", (v) => this.send({ type: "addPoolTask", ...taskBody(v) }, "task added"));
    // Edit and remove act on the task picked from the pools' list (pools.ts).
    const pickedTask = () => {
      try {
        return this.pools.picked();
      } catch (e) {
        this.err.show(e);
        return "";
      }
    };
    const poolEdit = form("tr-pool-edit", taskFields(), "Save the picked task", async (v) => {
      const id = pickedTask();
      if (id) await this.send({ type: "editPoolTask", id, ...taskBody(v) }, `${id} saved`);
    });
    this.pools = new PoolPicker(gameId, (t) => poolEdit.set(taskValues(t)), (e) => this.err.show(e));
    const poolRemove = button("Remove the picked task", async () => {
      const id = pickedTask();
      if (id && confirm(`Remove pool task ${id}?`)) await this.send({ type: "removePoolTask", id }, `${id} removed`);
    }, { id: "tr-pool-remove-go" });
    const poolClear = form("tr-pool-clear", [{ name: "difficulty", label: "pool", kind: "select", options: [["0", "every pool"], ...DIFFS] }], "Clear", (v) =>
      confirm("Clear the pool's tasks?") ? this.send({ type: "clearPools", difficulty: Number(v.difficulty) }, "pools cleared") : Promise.resolve(),
    );
    const exportForm = form("tr-export", [{ name: "what", label: "export", kind: "select", options: [["pools", "the pools"], ["board", "the board's tasks"]] }], "Export as CSV", async (v) => {
      const r = await this.run({ type: "exportTasks", what: v.what });
      if (r) this.exported.value = String(r.result?.csv ?? "");
    });

    const addAdmin = form("tr-admin-add", [{ name: "id", label: "admin id" }, { name: "name", label: "name" }, { name: "password", label: "password", kind: "password" }], "Add admin", (v) =>
      this.send({ type: "addAdmin", id: v.id, name: v.name, password: v.password }, `admin ${v.name} added`),
    );
    const discord = form(
      "tr-discord",
      [{ name: "main", label: "main webhook URL (empty: none)", kind: "url" }, ...[1, 2, 3, 4, 5].map((n) => ({ name: `slot${n}`, label: `slot ${n} webhook URL`, kind: "url" }) as FieldSpec)],
      "Save webhooks",
      (v) => this.send({ type: "setDiscord", main: v.main, slots: Object.fromEntries([1, 2, 3, 4, 5].map((n) => [String(n), v[`slot${n}`]])) }, "webhooks saved"),
    );

    const behalfGo = button("Act for this team", () => this.openBehalf(this.behalfPick.input.value), { id: "tr-behalf-open" });
    const section = (title: string, id: string, open: boolean, ...children: (Node | null)[]) => h("details", { open, id }, h("summary", {}, title), ...children);

    this.el = h(
      "section",
      { class: "card tr-admin", id: "tr-admin-view", "aria-label": "Admin" },
      h("h2", {}, "Admin"),
      h("p", { class: "note" }, "Teams and other admins sign in at ", h("a", { href: location.href, id: "tr-share" }, location.href), " with their name and password."),
      this.err.el,
      this.status,
      this.info,
      this.problems,
      h(
        "div",
        { class: "row" },
        button("Start the race", () => this.send({ type: "start" }, "started"), { id: "tr-start", class: "primary" }),
        button("Reset to setup", () => (confirm("Reset the race to setup? Positions, progress and inventories are cleared.") ? this.send({ type: "reset" }, "reset") : undefined), { id: "tr-reset" }),
        button("Undo the last action", () => this.undo({ type: "undo" }), { id: "tr-undo" }),
      ),
      h(
        "div",
        { class: "row" },
        button("Board through the fog", () => this.viewBoard(), { id: "tr-viewboard" }),
        button("Public board", () => {
          this.fogless = null;
          this.onBoard();
        }, { id: "tr-publicboard" }),
        this.fog.row,
        button("Set fog", () => this.send({ type: "setFog", mode: this.fog.input.value }, `fog ${this.fog.input.value}`), { id: "tr-setfog" }),
      ),
      section("Act for a team: complete, claim, use a powerup", "tr-admin-behalf", true, h("div", { class: "row" }, this.behalfPick.row, behalfGo), this.behalfBox),
      section("Tasks: import (CSV or TSV) and randomise", "tr-admin-tasks", true, importData,
        h("div", { class: "row" },
          button("Import tasks", () => this.send({ type: "importTasks", data: importData.value }, "imported").then((ok) => ok && (importData.value = "")), { id: "tr-import" }),
          button("Randomise difficulties", () => this.send({ type: "randomiseDifficulties", fill: fill.input.checked }, "difficulties randomised"), { id: "tr-randomise-difficulties" }),
          fill.row,
          button("Randomise tiles", () => this.send({ type: "randomiseTiles" }, "tiles randomised"), { id: "tr-randomise-tiles" }),
        ),
      ),
      section("Pools: add, edit, remove, clear, export", "tr-admin-pools", false,
        h("h3", {}, "Add a task"), poolAdd.el,
        h("h3", {}, "Edit or remove a task"), this.pools.el, poolEdit.el, h("div", { class: "row" }, poolRemove),
        h("h3", {}, "Clear"), poolClear.el,
        h("h3", {}, "Export"), exportForm.el, this.exported),
      section("Edit a tile", "tr-admin-tile", false, h("p", { class: "note" }, "Pick a tile on the board (click, or Tab then Enter) or type its number and load it."), loadTile, this.tileForm.el),
      section("Powerup tiles", "tr-admin-pt", false, this.ptList, this.ptForm.el,
        h("h3", {}, "Import"), ptImport,
        h("div", { class: "row" },
          button("Import powerup tiles", () => this.send({ type: "importPowerupTiles", data: ptImport.value }, "powerup tiles imported").then((ok) => ok && (ptImport.value = "")), { id: "tr-pt-import" }),
          button("Remove every powerup tile", () => (confirm("Remove every powerup tile?") ? this.send({ type: "clearPowerupTiles" }, "powerup tiles cleared") : undefined), { id: "tr-pt-clear" }),
        )),
      section("Settings: difficulty gradient and reserve", "tr-admin-settings", false, h("p", { class: "note" }, "Weights 0–1000: early for tiles 1–16, late for 41–56, blended between."), this.settingsForm.el),
      section("New team", "tr-admin-newteam", true, name.row, color.row, h("label", {}, "members ", members), password.row, slot.row,
        // An untouched colour is the server's to pick (the first palette
        // colour no team has): the form's suggestion may predate a team
        // another admin just made, and a colour two teams share is refused.
        button("Create team", () => this.send({ type: "createTeam", name: name.input.value.trim(), color: this.colorTouched ? color.input.value : undefined, members: lines(members.value), password: password.input.value, slot: Number(slot.input.value) || undefined }, "team created").then((ok) => {
          if (ok) {
            name.input.value = members.value = password.input.value = "";
            this.colorTouched = false;
          }
        }), { id: "tr-team-create" }),
      ),
      this.master ? section("Admins (master only)", "tr-admin-admins", false, this.adminList, addAdmin.el) : null,
      section("Discord webhooks", "tr-admin-discord", false, discord.el),
      h("h3", {}, "Teams"),
      this.teams,
    );
    // The pools are read while their section is first opened, not before.
    const pools = this.el.querySelector("#tr-admin-pools") as HTMLDetailsElement;
    pools.addEventListener("toggle", () => pools.open && this.pools.start());
  }

  /** stop ends the admin view's own listeners (the pools). */
  stop() {
    this.pools.stop();
  }

  /** run sends an admin action and returns its reply, or shows its error (and an import's every bad line). */
  private async run(body: Record<string, unknown>) {
    replace(this.problems);
    return this.err.run(async () => {
      try {
        return await act("TileRace", { gameId: this.gameId, ...body });
      } catch (e) {
        const problems = e instanceof ApiError ? (e.details as any)?.problems : undefined;
        if (Array.isArray(problems)) replace(this.problems, ...problems.map((p: any) => h("li", {}, `${p.line ? `line ${p.line}` : p.path ?? ""}${p.column ? ` (${p.column})` : ""}: ${p.message}`)));
        throw e;
      }
    });
  }

  /** send runs an admin action, showing its result or its error. */
  private async send(body: Record<string, unknown>, done: string): Promise<boolean> {
    const r = await this.run(body);
    if (!r) return false;
    const res = r.result ?? {};
    const counts = res.counts ? ` — ${Object.entries(res.counts).map(([k, v]) => `${k} ${v}`).join(", ")}` : "";
    this.info.textContent = `${done}${res.imported !== undefined ? ` ${res.imported}` : ""}${counts}`;
    if (this.fogless) await this.viewBoard();
    return true;
  }

  /** undo reverts the newest action (or back to one record, undoTo) and says what. */
  async undo(body: Record<string, unknown>) {
    const r = await this.run(body);
    if (!r) return;
    const undone: any[] = r.result?.undone ?? [];
    this.info.textContent = `undone: ${undone.map((u) => `${u.type} by ${u.actor}`).join(", ") || "nothing"}`;
    if (this.fogless) await this.viewBoard();
  }

  private async viewBoard() {
    const r = await this.err.run(() => act<{ tiles: PublicTile[] }>("TileRace", { gameId: this.gameId, type: "viewBoard" }));
    if (!r) return;
    this.fogless = r.result.tiles;
    this.onBoard();
  }

  /** editTile opens the tile form on tile n (the board's onTile). */
  async editTile(n: number) {
    (this.el.querySelector("#tr-admin-tile") as HTMLDetailsElement).open = true;
    await this.loadTile(n);
    this.tileForm.input("label").focus();
  }

  private async loadTile(n: number) {
    if (!this.fogless) await this.viewBoard();
    const c = this.fogless?.find((t) => t.n === n)?.content;
    this.tileForm.set({ tile: n });
    if (!c) {
      this.info.textContent = `tile ${n}: no content to load (the fog hides it from admins, or it is empty)`;
      return;
    }
    this.tileForm.set({ ...taskValues(c), reward: c.reward ?? "" });
    this.info.textContent = `tile ${n} loaded`;
  }

  private openBehalf(teamId: string) {
    if (!teamId) return;
    this.behalfTeam = teamId;
    this.behalf = new TeamView(this.gameId, teamId, true);
    replace(this.behalfBox, this.behalf.el);
    if (this.data) this.behalf.update(this.data);
  }

  update(d: RaceData) {
    this.data = d;
    const g = d.game?.state ?? {};
    this.status.textContent = `Race ${g.status ?? "?"} · fog ${g.fog ?? "?"} · revealed up to tile ${d.board?.revealedUpTo ?? "?"} · ${d.teams.length} team(s)${g.winner ? ` · won by ${d.teams.find((t) => t.id === g.winner)?.name ?? g.winner}` : ""}`;
    // Follow the game's fog only when it changes, not over the admin's pick.
    if (g.fog && g.fog !== this.lastFog) this.fog.input.value = this.lastFog = g.fog;
    if (!this.colorTouched) this.teamColor.input.value = freeColor(d.teams);
    const sk = JSON.stringify(g.settings ?? null);
    if (g.settings && sk !== this.settingsKey) {
      this.settingsKey = sk;
      const gr = g.settings.gradient ?? {};
      this.settingsForm.set({
        "early-easy": gr.early?.easy ?? 0, "early-medium": gr.early?.medium ?? 0, "early-hard": gr.early?.hard ?? 0,
        "late-easy": gr.late?.easy ?? 0, "late-medium": gr.late?.medium ?? 0, "late-hard": gr.late?.hard ?? 0,
        reserve: g.settings.reserve ?? 0,
      });
    }
    this.behalf?.update(d);
    this.renderAdmins(g.admins ?? []);
    this.renderPowerupTiles(d.powerupTiles);
    // The rows hold inputs: rebuild them only when the teams' facts change.
    const key = JSON.stringify(d.teams.map((t) => [t.id, t.name, t.color, t.position, t.cooldown, t.inventory, t.members, t.slot]));
    if (key === this.teamKey) return;
    this.teamKey = key;
    const picked = this.behalfPick.input.value;
    replace(this.behalfPick.input, ...d.teams.map((t) => h("option", { value: t.id, selected: t.id === picked }, `${teamMark(d, t.id)} ${t.name} (tile ${t.position})`)));
    if (this.behalf && !d.teams.some((t) => t.id === this.behalfTeam)) {
      this.behalf = null;
      replace(this.behalfBox);
    }
    replace(this.teams, ...d.teams.map((t, i) => this.teamRow(d, t, i)));
  }

  private renderAdmins(admins: { id: string; name: string; master?: boolean }[]) {
    const key = JSON.stringify(admins);
    if (!this.master || key === this.adminKey) return;
    this.adminKey = key;
    replace(this.adminList, ...admins.map((a) =>
      h("li", { "data-admin": a.id }, `${a.name} (${a.id})${a.master ? " · master" : ""} `,
        a.master ? null : button(`Remove ${a.name}`, () => (confirm(`Remove admin ${a.name}?`) ? this.send({ type: "removeAdmin", id: a.id }, `admin ${a.name} removed`) : undefined), { id: `tr-admin-remove-${a.id}` }))));
  }

  private renderPowerupTiles(pts: PowerupTile[]) {
    const key = JSON.stringify(pts);
    if (key === this.ptKey) return;
    this.ptKey = key;
    replace(this.ptList, ...(pts.length ? pts.map((p) =>
      h("li", { "data-pt": p.id }, h("strong", {}, p.label), ` (${p.id}) · ${points(p.points)} pt · ${p.min}–${p.max} · ${CLAIMS.find((c) => c[0] === p.claim)?.[1] ?? p.claim}${p.reward ? ` · 🎁 ${powerupName(p.reward)}` : ""}${p.claimedBy ? " · claimed" : ""} `,
        button("Edit", () => {
          this.ptForm.set({ powerupTile: p.id, label: p.label, points: p.points / 100, min: p.min, max: p.max, claim: p.claim, reward: p.reward ?? "", instructions: p.instructions ?? "", image: "", group: !!p.group });
          this.ptForm.input("label").focus();
        }, { id: `tr-pt-edit-${p.id}`, "aria-label": `Edit ${p.label}` }),
        button("Remove", () => (confirm(`Remove ${p.label}?`) ? this.send({ type: "removePowerupTile", powerupTile: p.id }, `${p.label} removed`) : undefined), { id: `tr-pt-remove-${p.id}`, "aria-label": `Remove ${p.label}` }),
      )) : [h("li", { class: "note" }, "none")]));
  }

  private teamRow(d: RaceData, t: Team, i: number): HTMLElement {
    const team = { team: t.id };
    const to = field("to tile", { type: "number", min: 1, max: 56, value: t.position, id: `tr-move-to-${i}` });
    const grant = select("powerup", POWERUPS.map((p) => p.id), { id: `tr-grant-which-${i}` });
    POWERUPS.forEach((p, j) => (grant.input.options[j].textContent = p.name));
    const name = field("name", { value: t.name, id: `tr-edit-name-${i}` });
    const color = field("colour", { value: t.color, type: "color", id: `tr-edit-color-${i}` });
    const slot = field("Discord slot (0: none)", { value: t.slot ?? 0, type: "number", min: 0, max: 5, id: `tr-edit-slot-${i}` });
    const members = h("textarea", { id: `tr-edit-members-${i}`, "aria-label": `members of ${t.name} (the first is the captain)` }, t.members.join("\n"));
    const password = field("new password (empty: unchanged)", { type: "password", id: `tr-edit-password-${i}`, autocomplete: "new-password" });
    return h(
      "div",
      { class: "card", id: `tr-admin-team-${i}`, "data-team": t.id, role: "group", "aria-label": t.name },
      h("strong", { class: "tr-token", style: `background:${t.color};color:${inkOn(t.color)}` }, `${teamMark(d, t.id)} ${t.name}`),
      ` · tile ${t.position} · ${t.cooldown ? "on cooldown" : "no cooldown"} · ${(t.inventory ?? []).length} powerup(s)${t.inventory?.length ? `: ${t.inventory.map(powerupName).join(", ")}` : ""}`,
      h("div", { class: "row" }, to.row, button("Move", () => this.send({ type: "moveTeam", ...team, to: Number(to.input.value) }, `${t.name} moved`), { id: `tr-move-${i}` })),
      h("div", { class: "row" }, grant.row, button("Grant", () => this.send({ type: "grantPowerup", ...team, powerup: grant.input.value }, `${t.name} granted ${grant.input.value}`), { id: `tr-grant-${i}` })),
      h(
        "div",
        { class: "row" },
        button(t.cooldown ? "Clear cooldown" : "Set cooldown", () => this.send({ type: "setCooldown", ...team, cooldown: !t.cooldown }, `${t.name} cooldown ${t.cooldown ? "off" : "on"}`), { id: `tr-cooldown-${i}` }),
        button("Act for this team", () => {
          this.behalfPick.input.value = t.id;
          this.openBehalf(t.id);
          (this.el.querySelector("#tr-admin-behalf") as HTMLDetailsElement).open = true;
          this.behalfBox.scrollIntoView({ block: "nearest" });
        }, { id: `tr-behalf-${i}` }),
        button("Remove team", () => (confirm(`Remove ${t.name}?`) ? this.send({ type: "removeTeam", ...team }, `${t.name} removed`) : undefined), { id: `tr-remove-${i}` }),
      ),
      h("details", {}, h("summary", {}, "Edit"), name.row, color.row, slot.row, h("label", {}, "members ", members), password.row,
        button("Save", () => {
          const body: Record<string, unknown> = { type: "updateTeam", ...team, name: name.input.value.trim(), members: lines(members.value), slot: Number(slot.input.value) };
          if (color.input.value.toLowerCase() !== t.color.toLowerCase()) body.color = color.input.value;
          if (password.input.value) body.password = password.input.value;
          return this.send(body, `${t.name} updated`);
        }, { id: `tr-edit-save-${i}` }),
      ),
    );
  }
}

const lines = (s: string) => s.split(/[\n,]/).map((x) => x.trim()).filter(Boolean);
