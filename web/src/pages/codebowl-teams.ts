// The lobby's CodeBowl card: a coach's teams (create one from a roster,
// pick one) and, with the picked team, create a match, join one by room
// code, or quick match. Coaches are registered accounts; a guest only gets
// a note (docs/codebowl.md "Who may act").

import { collection, onSnapshot, query, where, type Unsubscribe } from "firebase/firestore";
import { act, type Session } from "../api";
import { firestoreFor } from "../firebase";
import { ErrorBox, button, field, h, navigate, replace, select } from "../ui";

interface TeamDoc {
  id: string;
  name: string;
  match?: string;
  players: { id: string; name: string; st: number; ag: number; mv: number; ar: number; dead?: boolean }[];
}

type Stat = [st: number, ag: number, mv: number, ar: number, role: string];

/**
 * Rosters the card offers: each player's ST + AG + MV is 12 and the seven AR
 * sum to 21, as ValidateTeam demands.
 */
export const ROSTERS: Record<string, Stat[]> = {
  balanced: Array.from({ length: 7 }, () => [4, 4, 4, 3, "Player"] as Stat),
  bruisers: [
    [6, 3, 3, 4, "Lineman"], [6, 3, 3, 4, "Lineman"], [6, 3, 3, 4, "Lineman"],
    [4, 4, 4, 3, "Blitzer"], [4, 4, 4, 2, "Blitzer"], [3, 4, 5, 2, "Runner"], [3, 4, 5, 2, "Runner"],
  ],
  runners: [
    [2, 4, 6, 2, "Runner"], [2, 4, 6, 2, "Runner"], [2, 4, 6, 2, "Runner"],
    [4, 4, 4, 3, "Blitzer"], [4, 4, 4, 3, "Blitzer"], [5, 4, 3, 4, "Blocker"], [5, 4, 3, 5, "Blocker"],
  ],
};

/** A roster editor row: one player's name and stats, filled from a roster and editable. */
interface PlayerRow {
  name: HTMLInputElement;
  st: HTMLInputElement;
  ag: HTMLInputElement;
  mv: HTMLInputElement;
  ar: HTMLInputElement;
}

const STATS = [["st", "ST", 12], ["ag", "AG", 12], ["mv", "MV", 12], ["ar", "AR", 6]] as const;

/**
 * rosterEditor is the seven players a team is made or saved with: the picked
 * roster fills it, and every name and stat can be changed (the server checks
 * the sums: ST + AG + MV = 12 each, AR 21 in all; its refusal names the
 * player). The team's image URL is optional.
 */
function rosterEditor(roster: HTMLSelectElement) {
  const rows: PlayerRow[] = Array.from({ length: 7 }, (_, i) => {
    const num = (k: string, label: string, max: number) =>
      h("input", { type: "number", id: `cb-p${i}-${k}`, min: "0", max: String(max), "aria-label": `player ${i + 1} ${label}`, style: "width:3.5em" }) as HTMLInputElement;
    return {
      name: h("input", { id: `cb-p${i}-name`, maxlength: 30, "aria-label": `player ${i + 1} name` }) as HTMLInputElement,
      st: num("st", "ST", 12), ag: num("ag", "AG", 12), mv: num("mv", "MV", 12), ar: num("ar", "AR", 6),
    };
  });
  const fill = () => (ROSTERS[roster.value] ?? []).forEach(([st, ag, mv, ar, role], i) => {
    const r = rows[i];
    r.name.value = `${role} ${i + 1}`;
    [r.st.value, r.ag.value, r.mv.value, r.ar.value] = [st, ag, mv, ar].map(String);
  });
  roster.addEventListener("change", fill);
  fill();
  const image = h("input", { type: "url", id: "cb-team-image", maxlength: 500, placeholder: "https://…" }) as HTMLInputElement;
  const el = h("details", { id: "cb-roster-edit" },
    h("summary", {}, "Players: names, stats and the team's image"),
    h("table", { class: "cb-roster-table" },
      h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "name"), ...STATS.map(([, label]) => h("th", {}, label)))),
      h("tbody", {}, ...rows.map((r, i) => h("tr", {}, h("td", {}, String(i + 1)), h("td", {}, r.name), h("td", {}, r.st), h("td", {}, r.ag), h("td", {}, r.mv), h("td", {}, r.ar))))),
    h("p", { class: "note" }, "Each player's ST + AG + MV is 12; the seven AR add up to 21."),
    h("label", {}, "team image URL (optional) ", image));
  const spec = (name: string) => ({
    name,
    ...(image.value.trim() ? { image: image.value.trim() } : {}),
    players: rows.map((r) => ({ name: r.name.value.trim(), st: Number(r.st.value), ag: Number(r.ag.value), mv: Number(r.mv.value), ar: Number(r.ar.value) })),
  });
  return { el, spec };
}

export function codebowlCard(s: Session, stopped: () => boolean): { el: HTMLElement; stop(): void } {
  const err = new ErrorBox();
  const status = h("p", { class: "status", id: "cb-status" });
  const head = h("h2", {}, "CodeBowl");
  if (s.player.role !== "player") {
    const el = h("section", { class: "card", id: "kind-codebowl" }, head,
      h("p", { class: "note" }, "Coaches are registered accounts: sign out and register (or log in) to make a team and play. Guests may watch a match by its id."));
    return { el, stop: () => {} };
  }

  let teams: TeamDoc[] = [];
  let picked = "";
  const list = h("ul", { id: "cb-teams", class: "cb-teams" });
  const renderTeams = () => {
    if (!teams.some((t) => t.id === picked)) picked = teams.find((t) => !t.match)?.id ?? teams[0]?.id ?? "";
    replace(list, ...(teams.length ? teams.map((t) => {
      const alive = t.players.filter((p) => !p.dead).length;
      const radio = h("input", { type: "radio", name: "cb-team", value: t.id, checked: t.id === picked, onchange: () => (picked = t.id) });
      const dead = t.players.length - alive;
    return h("li", { "data-team": t.id }, h("label", {}, radio, " ", h("strong", {}, t.name), ` — ${alive} alive${dead ? `, ${dead} dead` : ""}`,
        t.match ? h("span", {}, " · playing ", h("a", { href: `#/codebowl/${t.match}` }, "its match")) : ""));
    }) : [h("li", { class: "note" }, "No team yet: create one below.")]));
  };

  // Every signed-in caller may read cbteams; a coach's own are those with coach == their id.
  let unsub: Unsubscribe = () => {};
  void firestoreFor(s).then((db) => {
    if (stopped()) return;
    unsub = onSnapshot(
      query(collection(db, "cbteams"), where("coach", "==", s.player.id)),
      (snap) => {
        teams = snap.docs.map((d) => ({ ...(d.data() as TeamDoc), id: d.id })).sort((a, b) => a.name.localeCompare(b.name));
        renderTeams();
      },
      (e) => err.show(new Error(`reading your teams: ${e.message}`)),
    );
  }, (e) => err.show(e));
  renderTeams();

  const teamName = field("team name", { id: "cb-team-name", maxlength: 40, value: `${s.player.name}'s team`.slice(0, 40) });
  const roster = select("roster", Object.keys(ROSTERS), { id: "cb-roster" });
  const editor = rosterEditor(roster.input as HTMLSelectElement);
  const createTeam = button("Create team", () => err.run(async () => {
    const r = await act<TeamDoc>("CodeBowl", { type: "createTeam", ...editor.spec(teamName.input.value.trim()) });
    picked = r.result.id;
    renderTeams();
  }), { id: "cb-create-team" });

  // The picked team's upkeep (editTeam, restartTeam): allowed while it
  // plays no match; the server's refusal says why otherwise.
  const pickedTeam = () => {
    const t = teams.find((x) => x.id === picked);
    if (!t) throw new Error("create or pick a team first");
    return t;
  };
  const editTeam = button("Save the name and roster to the picked team", () => err.run(async () => {
    const t = pickedTeam();
    const r = await act<TeamDoc>("CodeBowl", { type: "editTeam", teamId: t.id, ...editor.spec(teamName.input.value.trim()) });
    status.textContent = `${r.result.name}: name and roster saved (dead players unchanged).`;
  }), { id: "cb-edit-team" });
  const restartTeam = button("Replace the picked team's dead players with rookies", () => err.run(async () => {
    const t = pickedTeam();
    const dead = t.players.filter((p) => p.dead).length;
    const r = await act<TeamDoc>("CodeBowl", { type: "restartTeam", teamId: t.id });
    status.textContent = `${r.result.name}: ${dead} dead player${dead === 1 ? "" : "s"} replaced with rookies.`;
  }), { id: "cb-restart-team" });

  const turnSeconds = field("turn seconds (−1: no timer)", { id: "cb-turn-seconds", type: "number", value: "120" });
  const turnsPerHalf = field("turns per half", { id: "cb-turns", type: "number", value: "8", min: 1, max: 16 });
  const priv = field("private (room code only)", { id: "cb-private", type: "checkbox" });
  const armor = field("armor rule (a tackle injures by ST against AR)", { id: "cb-armor", type: "checkbox" });
  const team = () => {
    if (!picked) throw new Error("create or pick a team first");
    return picked;
  };

  const create = button("Create", () => err.run(async () => {
    const r = await act("CodeBowl", {
      type: "create", teamId: team(), turnSeconds: Number(turnSeconds.input.value), turnsPerHalf: Number(turnsPerHalf.input.value), private: priv.input.checked,
      armor: armor.input.checked || undefined,
    });
    navigate(`#/codebowl/${r.gameId ?? r.result.gameId}`);
  }), { id: "create-codebowl" });

  const code = field("room code", { name: "roomCode", id: "code-codebowl", maxlength: 12 });
  const join = button("Join", () => err.run(async () => {
    const r = await act("CodeBowl", { type: "join", roomCode: code.input.value, teamId: team() });
    navigate(`#/codebowl/${r.gameId!}`);
  }), { id: "join-codebowl" });

  // Quick match: one actionId for the whole search, repeated (docs/api.md);
  // leaving the lobby or the button leaves the queue.
  let queued = "";
  const leave = async () => {
    const t = queued;
    queued = "";
    leaveBtn.hidden = true;
    if (t) await act("CodeBowl", { type: "leaveQueue", teamId: t });
  };
  const quick = button("Quick match", () => err.run(async () => {
    const teamId = team();
    const id = `quick-${Date.now().toString(36)}`;
    queued = teamId;
    leaveBtn.hidden = false;
    try {
      while (queued === teamId && !stopped()) {
        const r = await act("CodeBowl", { type: "quickMatch", actionId: id, teamId });
        if (r.result.status === "matched") {
          queued = "";
          return navigate(`#/codebowl/${r.result.gameId}`);
        }
        if (r.result.status === "left") throw new Error("your team went into another match; you left the queue");
        status.textContent = `waiting for an opponent… (${new Date().toLocaleTimeString()})`;
        await new Promise((res) => setTimeout(res, 1000 + Math.random() * 500));
      }
    } finally {
      status.textContent = "";
      leaveBtn.hidden = true;
    }
  }), { id: "quick-codebowl" });
  const leaveBtn = button("Leave queue", () => err.run(leave), { id: "leave-codebowl", hidden: true });

  const el = h(
    "section",
    { class: "card", id: "kind-codebowl" },
    head,
    h("h3", {}, "My teams"),
    list,
    h("div", { class: "row" }, teamName.row, roster.row, createTeam),
    editor.el,
    h("div", { class: "row" }, editTeam, restartTeam),
    h("h3", {}, "Play with the picked team"),
    turnSeconds.row,
    turnsPerHalf.row,
    priv.row,
    armor.row,
    h("div", { class: "row" }, create),
    h("div", { class: "row" }, code.row, join),
    h("div", { class: "row" }, quick, leaveBtn),
    status,
    err.el,
  );
  return {
    el,
    stop: () => {
      unsub();
      if (queued) void leave().catch(() => {});
    },
  };
}
