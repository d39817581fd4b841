// Party Board's boards (#/partyboard/boards): the built-in boards and the
// ones uploaded from this browser (listBoards, getBoard); upload a board
// file — picked from disk or pasted — with the server's check first
// (uploadBoard with dryRun) and every problem it names; create a game on any
// board; simulate a board (simulateBoard) and read the report as tables and
// lists: game length, stalled games, win rate by seat, tiles never landed
// on, rules never run, how often each rule runs. docs/partyboard.md "HTTP"
// is the API; docs/web.md "Party Board boards" this page.

import { ApiError, act, type Session } from "../api";
import { ErrorBox, button, field, h, navigate, replace } from "../ui";

interface Summary {
  id: string;
  name?: string;
  tiles: number;
  zones: number;
}
interface Problem {
  path: string;
  message: string;
}
interface Spread {
  min: number;
  median: number;
  p90: number;
  max: number;
  mean: number;
}
interface RuleRef {
  rule: string;
  type: string;
  text: string;
}
export interface SimReport {
  board: string;
  games: number;
  players: number;
  seed: string;
  turns: Spread;
  actions: Spread;
  stalled: number;
  maxSteps: number;
  errors?: string[];
  winsBySeat: number[];
  winRateBySeat: number[];
  neverLanded: { tile: number; text: string }[];
  neverRun: RuleRef[];
  rules: (RuleRef & { fires: number; games: number; perGame: number })[];
}

// The server's simulation budget (domain/partyboard/platform.go): each game
// may take 128 + 64 × players actions, games × that at most 48,000.
const SIM_BUDGET = 48_000;
const MAX_SIM_GAMES = 200;
export const simMaxGames = (players: number) => Math.min(MAX_SIM_GAMES, Math.floor(SIM_BUDGET / (128 + 64 * players)));

// Boards uploaded from this browser: the API lists only the built-in ones,
// and an uploaded board is known by its id, so the page remembers them.
const KEY = "meeple.partyboard.uploaded";
function remembered(): Summary[] {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? "[]");
    return Array.isArray(v) ? v.filter((b) => typeof b?.id === "string") : [];
  } catch {
    return [];
  }
}
function remember(b: Summary) {
  const all = [b, ...remembered().filter((x) => x.id !== b.id)].slice(0, 20);
  localStorage.setItem(KEY, JSON.stringify(all));
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** problemList shows a check's problems or warnings, each with where it is. */
function problemList(id: string, title: string, ps: Problem[]): HTMLElement | "" {
  if (!ps.length) return "";
  return h("div", { id },
    h("h3", {}, `${title} (${ps.length})`),
    h("ul", { class: "pb-problems" }, ...ps.map((p) => h("li", {}, h("code", {}, p.path || "board"), `: ${p.message}`))));
}

/** reportView draws a simulation report as words, tables and lists (not JSON). */
export function reportView(r: SimReport): HTMLElement {
  const ended = r.games - r.stalled;
  const fair = 1 / r.players;
  const spreadRow = (what: string, s: Spread) =>
    h("tr", {}, h("th", { scope: "row" }, what), ...[s.min, s.median, s.p90, s.max].map((n) => h("td", {}, String(n))), h("td", {}, s.mean.toFixed(1)));
  const seats = r.winsBySeat.map((w, i) => {
    const rate = r.winRateBySeat[i] ?? 0;
    // Off fair by more than half again, either way: said in words, not only by the bar.
    const off = rate > fair * 1.5 ? " (high)" : rate < fair * 0.5 ? " (low)" : "";
    return h("tr", { "data-seat": i + 1 },
      h("th", { scope: "row" }, `seat ${i + 1}${i === 0 ? " (moves first)" : ""}`),
      h("td", {}, String(w)),
      h("td", {}, `${pct(rate)}${off}`),
      h("td", { "aria-hidden": "true" }, h("span", { class: "pb-bar", style: `width:${Math.round(Math.min(1, rate) * 100)}%` })));
  });
  const rules = [...r.rules].sort((a, b) => b.perGame - a.perGame);
  return h("div", { id: "pb-sim-report", class: "pb-report" },
    h("p", { id: "pb-sim-summary" },
      `${r.games} games of ${r.players} players on ${r.board}, seed “${r.seed}”: ${ended} ended, `,
      h("strong", { id: "pb-sim-stalled", class: r.stalled ? "fail" : "" }, `${r.stalled} stalled`),
      ` (not over after ${r.maxSteps} actions).`),
    r.errors?.length ? h("ul", { class: "pb-problems", id: "pb-sim-errors" }, ...r.errors.map((e) => h("li", {}, e))) : "",
    h("table", { class: "pb-table", id: "pb-sim-length" },
      h("caption", {}, `Game length, over the ${ended} games that ended`),
      h("thead", {}, h("tr", {}, h("td", {}), ...["min", "median", "p90", "max", "mean"].map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, spreadRow("turns", r.turns), spreadRow("actions", r.actions))),
    h("table", { class: "pb-table", id: "pb-sim-seats" },
      h("caption", {}, `Wins by seat (fair is ${pct(fair)})`),
      h("thead", {}, h("tr", {}, ...["seat", "wins", "win rate"].map((c) => h("th", { scope: "col" }, c)), h("td", {}))),
      h("tbody", {}, ...seats)),
    h("h3", {}, `Tiles never landed on: ${r.neverLanded.length}`),
    r.neverLanded.length
      ? h("ul", { id: "pb-sim-never-landed" }, ...r.neverLanded.map((t) => h("li", {}, `tile ${t.tile}: ${t.text}`)))
      : h("p", { id: "pb-sim-never-landed", class: "note" }, "Every tile was landed on at least once."),
    h("h3", {}, `Rules never run: ${r.neverRun.length}`),
    r.neverRun.length
      ? h("ul", { id: "pb-sim-never-run" }, ...r.neverRun.map((x) => h("li", {}, h("code", {}, x.rule), ` ${x.type}: ${x.text}`)))
      : h("p", { id: "pb-sim-never-run", class: "note" }, "Every rule ran at least once."),
    h("details", { id: "pb-sim-rules" },
      h("summary", {}, `How often each rule runs (${rules.length} rules, most often first)`),
      h("table", { class: "pb-table" },
        h("thead", {}, h("tr", {}, ...["per game", "share of games", "rule", "type", "text"].map((c) => h("th", { scope: "col" }, c)))),
        h("tbody", {}, ...rules.map((x) => h("tr", {}, h("td", {}, x.perGame.toFixed(2)), h("td", {}, pct(x.games / Math.max(1, r.games))), h("td", {}, h("code", {}, x.rule)), h("td", {}, x.type), h("td", {}, x.text)))))),
  );
}

export async function boardsPage(root: HTMLElement, s: Session): Promise<() => void> {
  void s;
  const err = new ErrorBox();
  let builtin: Summary[] = [];
  const listEl = h("ul", { id: "pb-boards-list", class: "pb-boards" });
  // One board picker per form (create, simulate), kept in step with the list.
  const pickers: HTMLSelectElement[] = [];
  const uploadedSel = () => [...builtin, ...remembered()];

  function renderBoards() {
    const all = uploadedSel();
    replace(listEl, ...all.map((b) =>
      h("li", { "data-board": b.id }, h("strong", {}, b.name ?? b.id), ` — ${b.id} · ${b.tiles} tiles · ${b.zones} zones`,
        builtin.some((x) => x.id === b.id) ? " · built in" : " · uploaded here")));
    for (const p of pickers) {
      const was = p.value;
      replace(p, ...all.map((b) => h("option", { value: b.id }, `${b.name ?? b.id} (${b.id})`)), ...(p.id === "pb-sim-board" ? [h("option", { value: "" }, "the board file in the upload form (not uploaded)")] : []));
      if (was && [...p.options].some((o) => o.value === was)) p.value = was;
    }
  }

  // Upload: a file from disk fills the text box; Check asks the server
  // (dryRun, nothing stored); Upload stores it.
  const upErr = new ErrorBox();
  const upName = field("board name (1–24 characters)", { id: "pb-up-name", maxlength: 24, autocomplete: "off" });
  const upFile = field("board file (JSON)", { id: "pb-up-file", type: "file", accept: ".json,application/json" });
  const upText = h("textarea", { id: "pb-up-text", rows: 8, spellcheck: "false", placeholder: '{"tiles": [...], "zones": [...]}' });
  const upLenient = field("lenient (rules the engine does not know play as their text)", { id: "pb-up-lenient", type: "checkbox" });
  const upResult = h("div", { id: "pb-up-result", "aria-live": "polite" });
  upFile.input.addEventListener("change", async () => {
    const f = upFile.input.files?.[0];
    if (!f) return;
    upText.value = await f.text();
    if (!upName.input.value) {
      const fromFile = (() => {
        try {
          return String(JSON.parse(upText.value)?.name ?? "");
        } catch {
          return "";
        }
      })();
      upName.input.value = (fromFile || f.name.replace(/\.json$/i, "")).slice(0, 24);
    }
  });
  const boardJSON = (): unknown => {
    const t = upText.value.trim();
    if (!t) throw new Error("paste a board file or pick one from disk");
    try {
      return JSON.parse(t);
    } catch (e) {
      throw new Error(`the board file is not JSON: ${e instanceof Error ? e.message : e}`);
    }
  };
  const upBody = (dryRun: boolean) => {
    const board = boardJSON() as { name?: unknown };
    // No name typed: the file's own, if it has one (the server names the field otherwise).
    const name = upName.input.value.trim() || (typeof board?.name === "string" ? board.name.slice(0, 24) : "");
    return { type: "uploadBoard", board, lenient: upLenient.input.checked || undefined, dryRun: dryRun || undefined, name: name || (dryRun ? undefined : "") };
  };
  const check = button("Check", () => upErr.run(async () => {
    replace(upResult);
    const r = (await act<{ valid: boolean; id: string; tiles: number; zones: number; problems: Problem[]; warnings: Problem[] }>("PartyBoard", upBody(true))).result;
    replace(upResult,
      h("p", { id: "pb-up-verdict", class: r.valid ? "pass" : "fail" }, r.valid ? `✓ valid: ${r.tiles} tiles, ${r.zones} zones (it would be ${r.id})` : `✗ not a valid board: ${r.problems.length} problem${r.problems.length === 1 ? "" : "s"}`),
      problemList("pb-up-problems", "Problems", r.problems),
      problemList("pb-up-warnings", "Warnings", r.warnings));
  }), { id: "pb-up-check" });
  const upload = button("Upload", () => upErr.run(async () => {
    replace(upResult);
    try {
      const r = (await act<Summary & { warnings?: Problem[] }>("PartyBoard", upBody(false))).result;
      remember({ id: r.id, name: r.name, tiles: r.tiles, zones: r.zones });
      renderBoards();
      createPick.value = r.id;
      simPick.value = r.id;
      replace(upResult,
        h("p", { id: "pb-up-verdict", class: "pass" }, `✓ uploaded “${r.name}” as ${r.id}: ${r.tiles} tiles, ${r.zones} zones. It is picked below: create a game on it or simulate it.`),
        problemList("pb-up-warnings", "Warnings", r.warnings ?? []));
    } catch (e) {
      // A refused board: every problem the server located, as a list.
      const ps = e instanceof ApiError ? (e.details as { problems?: Problem[] } | undefined)?.problems : undefined;
      if (ps?.length) replace(upResult, h("p", { id: "pb-up-verdict", class: "fail" }, "✗ refused:"), problemList("pb-up-problems", "Problems", ps));
      throw e;
    }
  }), { id: "pb-up-go", class: "primary" });

  // Create a game on a board (built in or uploaded).
  const createPick = h("select", { id: "pb-create-board" });
  pickers.push(createPick);
  const priv = field("private (room code only)", { id: "pb-create-private", type: "checkbox" });
  const turnSeconds = field("turn seconds (0: no timer; 5–86400)", { id: "pb-create-turn", type: "number", min: 0, max: 86400, value: "0" });
  const create = button("Create a game on this board", () => err.run(async () => {
    const r = await act("PartyBoard", { type: "create", board: createPick.value, private: priv.input.checked || undefined, turnSeconds: Number(turnSeconds.input.value) || undefined });
    navigate(`#/partyboard/${r.gameId ?? r.result.gameId}`);
  }), { id: "pb-create-go", class: "primary" });

  // Preview a board's tiles (getBoard) before playing it.
  const preview = h("ol", { id: "pb-preview", class: "pb-preview", start: 0 });
  const show = button("Show its tiles", () => err.run(async () => {
    const b = (await act<{ board: { tiles: { rule: { type: string; displayText?: string }; zone?: string; mandatory?: boolean; mandatoryType?: string }[] } }>("PartyBoard", { type: "getBoard", board: createPick.value })).result.board;
    replace(preview, ...b.tiles.map((t) => h("li", {}, t.rule.displayText ?? t.rule.type, t.mandatory || t.mandatoryType ? " (mandatory stop)" : "", t.zone ? h("span", { class: "note" }, ` — ${t.zone}`) : "")));
  }), { id: "pb-preview-go" });

  // Simulate.
  const simErr = new ErrorBox();
  const simPick = h("select", { id: "pb-sim-board" });
  pickers.push(simPick);
  const players = field("players (2–12)", { id: "pb-sim-players", type: "number", min: 2, max: 12, value: "4" });
  const games = field("games (empty: as many as fit, up to 100)", { id: "pb-sim-games", type: "number", min: 1, max: MAX_SIM_GAMES });
  const seed = field("seed", { id: "pb-sim-seed", value: "sim", maxlength: 128 });
  const budget = h("p", { class: "note", id: "pb-sim-budget" });
  const sayBudget = () => {
    const p = Math.min(12, Math.max(2, Number(players.input.value) || 4));
    budget.textContent = `With ${p} players at most ${simMaxGames(p)} games (each may take ${128 + 64 * p} actions; ${SIM_BUDGET.toLocaleString("en")} in all).`;
    games.input.max = String(simMaxGames(p));
  };
  players.input.addEventListener("input", sayBudget);
  sayBudget();
  const report = h("div", { id: "pb-sim-out", "aria-live": "polite" });
  const simulate = button("Simulate", () => simErr.run(async () => {
    replace(report, h("p", { class: "note" }, "simulating…"));
    try {
      const body: Record<string, unknown> = { type: "simulateBoard", board: simPick.value || boardJSON(), players: Number(players.input.value) || undefined, seed: seed.input.value.trim() || undefined };
      if (!simPick.value && upLenient.input.checked) body.lenient = true;
      if (games.input.value !== "") body.games = Number(games.input.value);
      const r = (await act<SimReport>("PartyBoard", body)).result;
      replace(report, reportView(r));
    } catch (e) {
      replace(report);
      throw e;
    }
  }), { id: "pb-sim-go", class: "primary" });

  root.replaceChildren(
    h("h1", {}, "Party Board boards"),
    h("p", {}, h("a", { href: "#/" }, "← the lobby")),
    err.el,
    h("section", { class: "card", "aria-labelledby": "pb-boards-h" }, h("h2", { id: "pb-boards-h" }, "Boards"), listEl,
      h("h3", {}, "Create a game"),
      h("label", { for: "pb-create-board" }, "board"), createPick, priv.row, turnSeconds.row,
      h("div", { class: "row" }, create, show), preview),
    h("section", { class: "card", "aria-labelledby": "pb-upload-h" }, h("h2", { id: "pb-upload-h" }, "Upload a board"),
      h("p", { class: "note" }, "The schema is docs/partyboard.md's “Boards”. Check asks the server and stores nothing; Upload stores the board under an id made from its contents."),
      upName.row, upFile.row, h("label", { for: "pb-up-text" }, "or paste the board file"), upText, upLenient.row,
      h("div", { class: "row" }, check, upload), upErr.el, upResult),
    h("section", { class: "card", "aria-labelledby": "pb-sim-h" }, h("h2", { id: "pb-sim-h" }, "Simulate a board"),
      h("p", { class: "note" }, "Plays seeded games with random inputs and reports how they went: the same report for the same request."),
      h("label", { for: "pb-sim-board" }, "board"), simPick, players.row, games.row, budget, seed.row,
      h("div", { class: "row" }, simulate), simErr.el, report),
  );
  renderBoards();
  const r = await err.run(() => act<{ boards: Summary[] }>("PartyBoard", { type: "listBoards" }));
  if (r) {
    builtin = r.result.boards ?? [];
    renderBoards();
  }
  return () => {};
}
