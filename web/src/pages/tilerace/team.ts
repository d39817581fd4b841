// The team view: a team signed in with teamLogin completes its current tile
// (with the players who did it), claims powerup tiles and uses powerups.

import { ApiError, act } from "../../api";
import { ErrorBox, button, field, h, replace, select } from "../../ui";
import { DIFFICULTY, POWERUPS, points, powerupName, type RaceData, type Team } from "./model";
import { now } from "../../timings";


// usePowerup arrives on the server in its own change; until then the server
// answers "unknown action type" and this client hides the powerup buttons.
let powerupsUnsupported = false;

export class TeamView {
  readonly el: HTMLElement;
  private readonly err = new ErrorBox();
  private readonly tile = h("div", { id: "tr-current" });
  private readonly members = h("div", { id: "tr-members", class: "row" });
  private readonly counts = new Map<string, HTMLInputElement>();
  private readonly claims = h("ul", { id: "tr-powerup-tiles" });
  private readonly inventory = h("div", { id: "tr-inventory" });
  private readonly use = h("div", { id: "tr-use" });
  private readonly status = h("p", { id: "tr-team-status", class: "note" });
  private memberKey = "";
  private data: RaceData | null = null;
  private team: Team | undefined;
  private using = "";

  /** With onBehalf (an admin acting for the team), every action names the team. */
  constructor(
    private readonly gameId: string,
    private readonly teamId: string,
    private readonly onBehalf = false,
  ) {
    this.el = h(
      "section",
      { class: "card", id: onBehalf ? "tr-behalf-view" : "tr-team-view", "data-for-team": teamId },
      h("h2", {}, onBehalf ? "Acting for the team" : "Your team"),
      this.err.el,
      this.status,
      this.tile,
      h("p", { class: "note" }, "Completions: how many times each player did the task (one entry per completion)."),
      this.members,
      h(
        "div",
        { class: "row" },
        button("Record completions", () => this.complete(false), { id: "tr-record" }),
        button("Complete tile", () => this.complete(true), { id: "tr-complete", class: "primary" }),
      ),
      h("h3", {}, "Powerup tiles"),
      this.claims,
      h("h3", {}, "Inventory"),
      this.inventory,
      this.use,
    );
  }

  /** who names the team in an admin's action on its behalf (a team's own token needs nothing). */
  private who(): Record<string, string> {
    return this.onBehalf ? { team: this.teamId } : {};
  }

  private players(): string[] {
    const out: string[] = [];
    for (const [name, input] of this.counts) for (let i = 0; i < Number(input.value || 0); i++) out.push(name);
    return out;
  }

  private resetCounts() {
    for (const input of this.counts.values()) input.value = "0";
  }

  private complete(done: boolean) {
    return this.err.run(async () => {
      const t = this.team;
      if (!t) throw new Error("your team is not on the roster");
      (window.meepleTimings ??= { seen: {}, clicks: [] }).clicks.push({ at: now(), version: t.position, type: done ? "complete" : "record" });
      const r = await act("TileRace", { gameId: this.gameId, type: "complete", ...this.who(), tile: t.position, recorded: t.progress?.length ?? 0, players: this.players(), complete: done });
      this.resetCounts();
      this.status.textContent = r.result.advanced ? `Tile ${r.result.tile} completed: on to tile ${r.result.position}.` : `Recorded: ${(r.result.progress ?? []).length} so far.`;
    });
  }

  update(d: RaceData) {
    this.data = d;
    const t = (this.team = d.teams.find((x) => x.id === this.teamId));
    if (!t) {
      replace(this.tile, h("p", {}, "Your team is not on the roster (removed?)."));
      return;
    }
    const key = t.members.join("\n");
    if (key !== this.memberKey) {
      this.memberKey = key;
      this.counts.clear();
      replace(
        this.members,
        ...t.members.map((m, i) => {
          const f = field(m, { type: "number", min: 0, max: 100, value: "0", id: `tr-count-${i}`, "data-member": m, class: "count", "aria-label": `completions by ${m}` });
          this.counts.set(m, f.input);
          return f.row;
        }),
      );
    }
    const pt = d.board?.tiles.find((x) => x.n === t.position);
    const c = pt?.content;
    const status = d.game?.status;
    replace(
      this.tile,
      h("p", {}, h("strong", {}, t.name), ` · tile `, h("strong", { id: "tr-position" }, String(t.position)), ` of ${d.board?.tiles.length ?? 56}${t.cooldown ? " · on cooldown" : ""}${status !== "active" ? ` · race ${status}` : ""}`),
      c
        ? h(
            "div",
            {},
            h("p", { id: "tr-task" }, h("strong", {}, c.label || "(no task)"), ` — ${DIFFICULTY[c.difficulty ?? 0]}, ${c.min ?? 1}–${c.max ?? 1} completion(s), ${points(c.pointsPerCompletion)} points each${c.group ? ", group task" : ""}${c.startProof ? ", start proof needed" : ""}`),
            c.instructions ? h("p", { class: "note" }, c.instructions) : null,
            h("p", { id: "tr-progress" }, `Recorded on this tile: ${t.progress?.length ? t.progress.join(", ") : "none"}`),
          )
        : h("p", {}, "The tile's task is hidden."),
    );

    replace(
      this.claims,
      ...(d.powerupTiles.length === 0
        ? [h("li", { class: "note" }, "none")]
        : d.powerupTiles.map((p) => {
            const mine = t.claims?.[p.id] ?? 0;
            const taken = p.claim === "firstTeam" && !!p.claimedBy;
            const b = button(`Claim with the players above`, () => this.claim(p.id, mine), { id: `tr-claim-${p.id}` });
            b.disabled = taken || (p.claim === "eachTeam" && mine > 0);
            return h("li", {}, h("strong", {}, p.label), ` · ${points(p.points)} pt · ${p.min}–${p.max} · ${p.claim}${p.reward ? ` · 🎁 ${powerupName(p.reward)}` : ""}${taken ? " · claimed" : ""}${mine ? ` · you: ${mine}` : ""} `, b);
          })),
    );

    const inv = t.inventory ?? [];
    replace(
      this.inventory,
      inv.length === 0
        ? h("p", { class: "note" }, "no powerups")
        : h(
            "ul",
            {},
            ...inv.map((p, i) => {
              const b = button("Use", () => this.openUse(p), { id: `tr-use-${i}`, "data-powerup": p });
              b.hidden = powerupsUnsupported;
              return h("li", {}, powerupName(p), " ", b);
            }),
          ),
      powerupsUnsupported ? h("p", { class: "note", id: "tr-use-unsupported" }, "This server does not take powerup use yet (usePowerup)." ) : null,
    );
    if (this.using && !inv.includes(this.using)) this.closeUse();
  }

  private claim(pt: string, claims: number) {
    return this.err.run(async () => {
      await act("TileRace", { gameId: this.gameId, type: "claimPowerupTile", ...this.who(), powerupTile: pt, claims, players: this.players() });
      this.resetCounts();
    });
  }

  private closeUse() {
    this.using = "";
    replace(this.use);
  }

  /** openUse shows the fields powerup p takes (domain/tilerace PowerupFields) and a button to use it. */
  private openUse(p: string) {
    const spec = POWERUPS.find((x) => x.id === p) ?? { id: p, name: p };
    const d = this.data!;
    const others = d.teams.filter((x) => x.id !== this.teamId);
    this.using = p;
    const rows: HTMLElement[] = [];
    const target = select("target team", others.map((x) => x.id), { id: "tr-use-target" });
    others.forEach((x, i) => (target.input.options[i].textContent = `${x.name} (tile ${x.position})`));
    const remove = select("powerup to remove", [], { id: "tr-use-remove" });
    const fillRemove = () => {
      const inv = others.find((x) => x.id === target.input.value)?.inventory ?? [];
      replace(remove.input, ...inv.map((q) => h("option", { value: q }, powerupName(q))));
    };
    target.input.addEventListener("change", fillRemove);
    fillRemove();
    const tile = field("tile", { type: "number", min: 1, max: 56, id: "tr-use-tile" });
    const dup = select("powerup to duplicate", [...new Set((this.team?.inventory ?? []).filter((q) => q !== p))], { id: "tr-use-duplicate" });
    if (spec.target) rows.push(target.row);
    if (spec.remove) rows.push(remove.row);
    if (spec.tile) rows.push(tile.row);
    if (spec.duplicate) rows.push(dup.row);
    replace(
      this.use,
      h(
        "div",
        { class: "card" },
        h("h3", {}, `Use ${spec.name}`),
        ...rows,
        h(
          "div",
          { class: "row" },
          button(`Use ${spec.name}`, () =>
            this.err.run(async () => {
              const body: Record<string, unknown> = { gameId: this.gameId, type: "usePowerup", ...this.who(), powerup: p };
              if (spec.target) body.target = target.input.value;
              if (spec.remove) body.remove = remove.input.value;
              if (spec.tile) body.tile = Number(tile.input.value);
              if (spec.duplicate) body.duplicate = dup.input.value;
              try {
                await act("TileRace", body);
                this.closeUse();
              } catch (e) {
                if (e instanceof ApiError && /unknown action type/i.test(e.message)) {
                  powerupsUnsupported = true;
                  this.closeUse();
                  if (this.data) this.update(this.data);
                }
                throw e;
              }
            }), { id: "tr-use-go", class: "primary" }),
          button("Cancel", () => this.closeUse(), { id: "tr-use-cancel" }),
        ),
      ),
    );
  }
}
