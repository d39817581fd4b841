// The admin view: a race's admins (adminLogin, or the creator with the
// master session create returned) see the board through the fog (viewBoard),
// import tasks, randomise, start, set the fog, and manage the teams.

import { ApiError, act } from "../../api";
import { ErrorBox, button, field, h, replace, select } from "../../ui";
import { POWERUPS, type PublicTile, type RaceData, type Team } from "./model";

export class AdminView {
  readonly el: HTMLElement;
  private readonly err = new ErrorBox();
  private readonly info = h("p", { id: "tr-admin-info", class: "note" });
  private readonly problems = h("ol", { id: "tr-problems", class: "tr-problems" });
  private readonly teams = h("div", { id: "tr-admin-teams" });
  private readonly status = h("p", { id: "tr-admin-status" });
  private readonly fog = select("fog", ["enabled", "admins", "all"], { id: "tr-fog-mode" });
  private teamKey = "";
  private lastFog = "";
  /** The board through the fog, while the admin looks at it. */
  fogless: PublicTile[] | null = null;

  constructor(
    private readonly gameId: string,
    private readonly onBoard: () => void,
  ) {
    const importData = h("textarea", { id: "tr-import-data", placeholder: "label,difficulty,max,min,instructions,image,start proof\nKill a goblin,easy,1,1\n" });
    const fill = field("and fill the tiles", { type: "checkbox", id: "tr-fill", checked: true });
    const name = field("name", { id: "tr-team-name" });
    const color = field("colour", { id: "tr-team-color", type: "color", value: "#3a86ff" });
    const members = h("textarea", { id: "tr-team-members", placeholder: "one player per line (the first is the captain)" });
    const password = field("password", { id: "tr-team-password", type: "password" });
    this.el = h(
      "section",
      { class: "card tr-admin", id: "tr-admin-view" },
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
      h("details", { open: true }, h("summary", {}, "Tasks: import (CSV or TSV) and randomise"), importData,
        h("div", { class: "row" },
          button("Import tasks", () => this.send({ type: "importTasks", data: importData.value }, "imported").then((ok) => ok && (importData.value = "")), { id: "tr-import" }),
          button("Randomise difficulties", () => this.send({ type: "randomiseDifficulties", fill: fill.input.checked }, "difficulties randomised"), { id: "tr-randomise-difficulties" }),
          fill.row,
          button("Randomise tiles", () => this.send({ type: "randomiseTiles" }, "tiles randomised"), { id: "tr-randomise-tiles" }),
        ),
      ),
      h("details", { open: true }, h("summary", {}, "New team"), name.row, color.row, h("label", {}, "members ", members), password.row,
        button("Create team", () => this.send({ type: "createTeam", name: name.input.value.trim(), color: color.input.value, members: lines(members.value), password: password.input.value }, "team created").then((ok) => {
          if (ok) {
            name.input.value = members.value = password.input.value = "";
          }
        }), { id: "tr-team-create" }),
      ),
      h("h3", {}, "Teams"),
      this.teams,
    );
  }

  /** send runs an admin action, showing its result or its error (and an import's every bad line). */
  private async send(body: Record<string, unknown>, done: string): Promise<boolean> {
    replace(this.problems);
    const r = await this.err.run(async () => {
      try {
        return await act("TileRace", { gameId: this.gameId, ...body });
      } catch (e) {
        const problems = e instanceof ApiError ? (e.details as any)?.problems : undefined;
        if (Array.isArray(problems)) replace(this.problems, ...problems.map((p: any) => h("li", {}, `${p.line ? `line ${p.line}` : p.path ?? ""}${p.column ? ` (${p.column})` : ""}: ${p.message}`)));
        throw e;
      }
    });
    if (!r) return false;
    const res = r.result ?? {};
    const counts = res.counts ? ` — ${Object.entries(res.counts).map(([k, v]) => `${k} ${v}`).join(", ")}` : "";
    this.info.textContent = `${done}${res.imported !== undefined ? ` ${res.imported}` : ""}${counts}`;
    if (this.fogless) await this.viewBoard();
    return true;
  }

  private async viewBoard() {
    const r = await this.err.run(() => act<{ tiles: PublicTile[] }>("TileRace", { gameId: this.gameId, type: "viewBoard" }));
    if (!r) return;
    this.fogless = r.result.tiles;
    this.onBoard();
  }

  update(d: RaceData) {
    const g = d.game?.state ?? {};
    this.status.textContent = `Race ${g.status ?? "?"} · fog ${g.fog ?? "?"} · revealed up to tile ${d.board?.revealedUpTo ?? "?"} · ${d.teams.length} team(s)${g.winner ? ` · won by ${d.teams.find((t) => t.id === g.winner)?.name ?? g.winner}` : ""}`;
    // Follow the game's fog only when it changes, not over the admin's pick.
    if (g.fog && g.fog !== this.lastFog) this.fog.input.value = this.lastFog = g.fog;
    // The rows hold inputs: rebuild them only when the teams' facts change.
    const key = JSON.stringify(d.teams.map((t) => [t.id, t.name, t.position, t.cooldown, t.inventory, t.members]));
    if (key === this.teamKey) return;
    this.teamKey = key;
    replace(this.teams, ...d.teams.map((t, i) => this.teamRow(t, i)));
  }

  private teamRow(t: Team, i: number): HTMLElement {
    const team = { team: t.id };
    const to = field("to tile", { type: "number", min: 1, max: 56, value: t.position, id: `tr-move-to-${i}` });
    const grant = select("powerup", POWERUPS.map((p) => p.id), { id: `tr-grant-which-${i}` });
    POWERUPS.forEach((p, j) => (grant.input.options[j].textContent = p.name));
    const name = field("name", { value: t.name, id: `tr-edit-name-${i}` });
    const members = h("textarea", { id: `tr-edit-members-${i}` }, t.members.join("\n"));
    const password = field("new password (empty: unchanged)", { type: "password", id: `tr-edit-password-${i}` });
    return h(
      "div",
      { class: "card", id: `tr-admin-team-${i}`, "data-team": t.id },
      h("strong", { style: `color:${t.color}` }, t.name),
      ` · tile ${t.position} · ${t.cooldown ? "on cooldown" : "no cooldown"} · ${(t.inventory ?? []).length} powerup(s)`,
      h("div", { class: "row" }, to.row, button("Move", () => this.send({ type: "moveTeam", ...team, to: Number(to.input.value) }, `${t.name} moved`), { id: `tr-move-${i}` })),
      h("div", { class: "row" }, grant.row, button("Grant", () => this.send({ type: "grantPowerup", ...team, powerup: grant.input.value }, `${t.name} granted ${grant.input.value}`), { id: `tr-grant-${i}` })),
      h(
        "div",
        { class: "row" },
        button(t.cooldown ? "Clear cooldown" : "Set cooldown", () => this.send({ type: "setCooldown", ...team, cooldown: !t.cooldown }, `${t.name} cooldown ${t.cooldown ? "off" : "on"}`), { id: `tr-cooldown-${i}` }),
        button("Remove team", () => (confirm(`Remove ${t.name}?`) ? this.send({ type: "removeTeam", ...team }, `${t.name} removed`) : undefined), { id: `tr-remove-${i}` }),
      ),
      h("details", {}, h("summary", {}, "Edit"), name.row, h("label", {}, "members ", members), password.row,
        button("Save", () => {
          const body: Record<string, unknown> = { type: "updateTeam", ...team, name: name.input.value.trim(), members: lines(members.value) };
          if (password.input.value) body.password = password.input.value;
          return this.send(body, `${t.name} updated`);
        }, { id: `tr-edit-save-${i}` }),
      ),
    );
  }
}

const lines = (s: string) => s.split(/[\n,]/).map((x) => x.trim()).filter(Boolean);
