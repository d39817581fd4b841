// A Tile Race, live (#/tilerace/<gameId>): the board through the fog as
// teams see it, the teams with their positions, progress, inventories and
// cooldowns, the leaderboard and the last 50 events — for everyone; plus the
// team view for a team's session and the admin view for an admin's. Anyone
// else gets the sign-in forms for a team or an admin of this race.
// #/tilerace alone asks for a race id.

import { signIn, type Session } from "../../api";
import { ErrorBox, button, field, h, navigate, replace } from "../../ui";
import "../boards.css";
import { AdminView } from "./admin";
import { renderBoard } from "./board";
import { describeRaceRecord, inkOn, points, powerupName, teamMark, watchRace, type RaceData } from "./model";
import { PLAYING, type PageOpts } from "../words";
import { TeamView } from "./team";
import { now } from "../../timings";

declare global {
  interface Window {
    /** When this page first showed each fact ("team:<id>:<position>", "lb:<player>:<points>"): the browser test's click→screen figures. */
    meepleRaceSeen?: Record<string, number>;
  }
}


/** The race a Tile Race session belongs to, and who it is there. */
function raceRole(s: Session, id: string): { role: "team" | "admin"; local: string } | undefined {
  if (!s.player.id.startsWith(`${id}:`)) return undefined;
  const local = s.player.id.slice(id.length + 1);
  if (s.player.role === "team") return { role: "team", local };
  if (s.player.role === "admin" || s.player.role === "master") return { role: "admin", local };
  return undefined;
}

/** Re-run the router: the session changed under the same address. */
const reroute = () => window.dispatchEvent(new HashChangeEvent("hashchange"));

function signInForms(gameId: string | undefined, err: ErrorBox): HTMLElement {
  const race = field("race (game id)", { id: "tr-login-game", value: gameId ?? "" });
  const team = field("team", { id: "tr-login-team", autocomplete: "off" });
  const teamPass = field("password", { id: "tr-login-team-password", type: "password" });
  const admin = field("admin", { id: "tr-login-admin", autocomplete: "off" });
  const adminPass = field("password", { id: "tr-login-admin-password", type: "password" });
  const go = (body: Record<string, unknown>) =>
    err.run(async () => {
      const g = race.input.value.trim();
      if (!g) throw new Error("enter the race's game id");
      await signIn({ ...body, gameId: g });
      if (g === gameId) reroute();
      else navigate(`#/tilerace/${g}`);
    });
  return h(
    "section",
    { class: "card", id: "tr-signin" },
    h("h2", {}, "Sign in to this race"),
    gameId ? null : race.row,
    h("div", { class: "cols" },
      h("div", {}, h("h3", {}, "As a team"), team.row, teamPass.row, button("Sign in as team", () => go({ type: "teamLogin", team: team.input.value.trim(), password: teamPass.input.value }), { id: "tr-login-team-go", class: "primary" })),
      h("div", {}, h("h3", {}, "As an admin"), admin.row, adminPass.row, button("Sign in as admin", () => go({ type: "adminLogin", admin: admin.input.value.trim(), password: adminPass.input.value }), { id: "tr-login-admin-go" })),
    ),
    h("p", { class: "note" }, "Signing in replaces this tab's session; sign out to be yourself again."),
  );
}

export async function tileracePage(root: HTMLElement, [id]: string[], s: Session, opts: PageOpts = PLAYING): Promise<() => void> {
  const err = new ErrorBox();
  if (!id) {
    const open = field("race (game id)", { id: "tr-open-id" });
    root.replaceChildren(
      h("h1", {}, "Tile Race"),
      err.el,
      h("section", { class: "card" }, h("h2", {}, "Watch a race"), open.row, button("Open", () => navigate(`#/tilerace/${open.input.value.trim()}`), { id: "tr-open" })),
      signInForms(undefined, err),
    );
    return () => {};
  }

  const seen: Record<string, number> = (window.meepleRaceSeen = {});
  // The spectator view (#/watch/<id>) is the race page without the team's
  // and the admin's views, whoever is signed in: no controls, no fogless board.
  const who = opts.watch ? undefined : raceRole(s, id);
  const el = {
    // A line from the first paint (blank until the race arrives): its filling moves nothing below.
    status: h("p", { id: "tr-status", class: "meta" }, "\u00a0"),
    board: h("div", { id: "tr-board", class: "tr-board" }, "loading…"),
    boardNote: h("p", { id: "tr-board-note", class: "note" }),
    teams: h("ol", { id: "tr-teams", class: "tr-teams" }),
    leaderboard: h("table", { id: "tr-leaderboard", class: "tr-lb" }),
    events: h("ol", { id: "tr-events", class: "events", tabindex: 0, "aria-label": "The last 50 events, newest first" }),
  };
  const team = who?.role === "team" ? new TeamView(id, who.local) : undefined;
  let data: RaceData | null = null;
  const admin = who?.role === "admin" ? new AdminView(id, () => data && drawBoard(data), s.player.role === "master") : undefined;

  root.replaceChildren(
    h("h1", {}, "Tile Race ", h("code", { class: "note" }, id)),
    el.status,
    err.el,
    opts.watch
      ? h("p", { class: "note", id: "tr-watching" }, "Watching: the race as everyone sees it. ", h("a", { href: `#/tilerace/${id}` }, "Open the race page"), " to sign in as a team or an admin.")
      : who ? h("p", { class: "note" }, `Signed in as ${who.role} ${s.player.name} of this race.`) : signInForms(id, err),
    h(
      "div",
      { class: "tr-layout" },
      h("div", {}, team?.el ?? null, admin?.el ?? null, h("section", { class: "card" }, h("h2", {}, "Board"), el.boardNote, el.board)),
      h(
        "div",
        {},
        h("section", { class: "card" }, h("h2", {}, "Teams"), el.teams),
        h("section", { class: "card" }, h("h2", {}, "Leaderboard"), el.leaderboard),
        h("section", { class: "card" }, h("h2", {}, "Events (last 50)"), el.events),
      ),
    ),
  );

  function drawBoard(d: RaceData) {
    const fogless = admin?.fogless;
    const tiles = fogless ?? d.board?.tiles ?? [];
    if (!tiles.length) return;
    renderBoard(el.board, tiles, d.teams, {
      mine: team ? who!.local : undefined,
      players: fogless ? d.board?.tiles : undefined,
      mark: (t) => teamMark(d, t),
      onTile: admin ? (n) => void admin.editTile(n) : undefined,
    });
    el.boardNote.textContent = fogless
      ? d.game?.state?.fog === "enabled"
        ? "The admins' view (viewBoard): the fog is on for admins too — set it to “admins” to see every tile."
        : "Through the fog (admins only): every tile; those teams cannot see are marked."
      : `Revealed up to tile ${d.board?.revealedUpTo ?? "?"} (fog ${d.board?.fog ?? "?"}).`;
  }

  const teamName = (tid: string) => data?.teams.find((t) => t.id === tid)?.name ?? data?.game?.state?.teams?.find((t: any) => t.id === tid)?.name ?? tid;

  function render(d: RaceData, what: keyof RaceData) {
    data = d;
    const t = now();
    if (what === "teams") for (const x of d.teams) seen[`team:${x.id}:${x.position}`] ??= t;
    if (what === "leaderboard") for (const x of d.leaderboard?.top ?? []) seen[`lb:${x.player}:${x.points}`] ??= t;
    const g = d.game?.state;
    if (what === "game") {
      if (d.game && d.game.kind !== "tilerace") return navigate(`#/watch/${id}`);
      el.status.textContent = d.game ? `status ${g?.status} · fog ${g?.fog}${g?.winner ? ` · won by ${teamName(g.winner)}` : ""}` : `no race ${id}`;
    }
    if (what === "board" || what === "teams") drawBoard(d);
    if (what === "teams") {
      replace(
        el.teams,
        ...d.teams.map((x) =>
          h(
            "li",
            { id: `tr-team-${x.id}`, "data-position": x.position },
            h("span", { class: "tr-token", style: `background:${x.color};color:${inkOn(x.color)}`, "aria-hidden": "true" }, teamMark(d, x.id)),
            " ",
            h("strong", {}, x.name),
            ` · tile `,
            h("span", { class: "pos" }, String(x.position)),
            x.progress?.length ? ` · ${x.progress.length} recorded (${x.progress.join(", ")})` : "",
            x.cooldown ? " · cooldown" : "",
            h("br"),
            h("span", { class: "note" }, `${x.members.join(", ")}${x.inventory?.length ? ` · powerups: ${x.inventory.map(powerupName).join(", ")}` : ""}`),
          ),
        ),
      );
    }
    if (what === "leaderboard") {
      const top = d.leaderboard?.top ?? [];
      replace(
        el.leaderboard,
        h("tr", {}, h("th", {}, "#"), h("th", {}, "player"), h("th", {}, "points")),
        ...(top.length ? top.map((x) => h("tr", { "data-player": x.player }, h("td", {}, String(x.rank)), h("td", {}, x.player), h("td", { class: "pts" }, x.display ?? points(x.points)))) : [h("tr", {}, h("td", { colspan: 3, class: "note" }, "no points yet"))]),
      );
    }
    if (what === "events")
      replace(el.events, ...d.events.map((r) => h("li", {}, describeRaceRecord(r, teamName),
        // An admin may undo back to any action of the log (undoTo names its record).
        admin && r.type !== "undo" ? h("span", {}, " ", button("Undo back to here", () => admin.undo({ type: "undoTo", to: r.id }), { class: "small", "aria-label": `Undo back to here: ${describeRaceRecord(r, teamName)}` })) : null)));
    team?.update(d);
    admin?.update(d);
  }

  const stop = await (opts.source?.watchRace ?? watchRace)(s, id, render, (e) => err.show(e));
  return () => {
    stop();
    admin?.stop();
  };
}
