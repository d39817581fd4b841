// The replay page, #/replay/<gameId>: a finished game of any kind played
// again by the server from its seed and its recorded actions (the "replay"
// action, docs/api.md), one frame per action, with play/pause, step back and
// forward, and a slider. Each frame is drawn by the game's own page,
// read-only, as the spectator view (#/watch/<id>) draws it: the page is
// opened with {watch: true, source} and the source (ReplaySource) hands it
// the frame's game document, the steps up to it and the documents the
// signed-in caller may read then (a Tile Race's teams and public board
// through the fog; a Hex & Dice map and the caller's own fog view), through
// the callbacks Firestore's listeners would call. Each frame also lists its
// steps' event words, and its raw JSON sits in a closed <details>. The
// server compares the replay with the stored game: the page says whether it
// matched.

import { doc, getDoc } from "firebase/firestore";
import { post, type Session } from "../api";
import { firestoreFor, millis, retryOffline } from "../firebase";
import { kindOf, type Page } from "../games";
import { seqID, setClockNow, type EventRecord, type GameDoc, type GameSource, type Watch } from "../live";
import { button, ErrorBox, h, replace } from "../ui";

interface FrameStep {
  seq?: number;
  type: string;
  actor?: { id?: string; name?: string };
  events?: { type: string; text?: string; player?: string; data?: unknown }[];
}

interface Frame {
  version: number;
  at: string;
  type: string;
  actor: string;
  steps: FrameStep[];
  state: unknown;
  docs?: Record<string, unknown>;
}

interface ReplayResult {
  gameId: string;
  kind: string;
  seedHash: string;
  seed?: string;
  frames: Frame[];
  verified: boolean;
  diverged?: string;
  from: number;
  total: number;
  /** where the next window starts, when the replay did not fit one reply. */
  next?: number;
}

/** eventWords is what a step says in a line: its actor, its type and its events' words. */
export function eventWords(st: FrameStep): string {
  const who = st.actor?.name ?? st.actor?.id ?? "system";
  const words = (st.events ?? []).map((e) => e.text ?? e.type).join("; ");
  return `${who}: ${st.type}${words ? " — " + words : ""}`;
}

/** docsAt folds the frames' documents up to frame i (a later frame's over an earlier one; null: deleted). */
export function docsAt(frames: Frame[], i: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of frames.slice(0, i + 1)) {
    for (const [k, v] of Object.entries(f.docs ?? {})) {
      if (v === null) delete out[k];
      else out[k] = v;
    }
  }
  return out;
}

const SPEEDS: Record<string, number> = { "0.25 s": 250, "0.5 s": 500, "1 s": 1000, "2 s": 2000 };

/** The game pages a replay draws its frames with, loaded on first use (as main.ts loads them). */
const PAGES: Record<string, () => Promise<Page>> = {
  codebowl: () => import("./codebowl").then((m) => m.codebowlPage),
  dashdice: () => import("./dashdice").then((m) => m.dashdicePage),
  hexdice: () => import("./hexdice").then((m) => m.hexdicePage),
  partyboard: () => import("./partyboard").then((m) => m.partyboardPage),
  tilerace: () => import("./tilerace/page").then((m) => m.tileracePage),
};

/**
 * docKey is the key a frame's documents are under (the game's slot name,
 * "slot" or "slot/key", store/replay.go Frame.Docs) for a document path
 * under games/{id} as a page reads it.
 */
export function docKey(path: string): string {
  const fixed: Record<string, string> = { "public/map": "map", "public/board": "publicBoard", "public/leaderboard": "leaderboard" };
  if (fixed[path]) return fixed[path];
  const [coll, key] = path.split("/");
  const slot: Record<string, string> = { views: "view", teams: "team", powerupTiles: "powerupTile", orders: "orders" };
  return key === undefined ? path : `${slot[coll] ?? coll}/${key}`;
}

/** stepRecords are frame i's steps as the event records a live page would list. */
function stepRecords(f: Frame, i: number): EventRecord[] {
  const ms = millis(f.at) ?? 0;
  return f.steps.map((st, j) => ({
    // A versioned step keeps its record id; the rest (Tile Race's, effects') get one in frame order.
    id: st.seq ? seqID(st.seq) : `f${String(i).padStart(6, "0")}-${j}`,
    seq: st.seq ?? 0,
    type: st.type,
    actor: st.actor as EventRecord["actor"],
    events: (st.events ?? []) as EventRecord["events"],
    at: { toMillis: () => ms },
  }));
}

type GameWatcher = Parameters<GameSource["watchGame"]>[2];

/**
 * ReplaySource is a game page's source on the replay page: it holds the
 * frames, and show(i) hands frame i to every listener the page opened, as
 * Firestore would hand a live page a new snapshot.
 */
export class ReplaySource implements GameSource {
  private at = 0;
  private games = new Set<GameWatcher>();
  private docs = new Map<{ doc(d: any | null): void }, string>();
  private races = new Set<(d: any, what: any) => void>();

  /** whether the game versions its steps (every game but Tile Race). */
  private versioned: boolean;

  constructor(
    private id: string,
    private kind: string,
    private frames: Frame[],
  ) {
    this.versioned = frames.some((f) => f.steps.some((st) => (st.seq ?? 0) > 0));
  }

  /** show makes frame i the current one and tells every listener. */
  show(i: number): void {
    this.at = i;
    for (const on of this.games) this.deliver(on);
    for (const [on, path] of this.docs) on.doc(this.doc(path) ?? null);
    for (const on of this.races) this.deliverRace(on);
  }

  /** game is the game document as frame i leaves it (the header fields the pages read, and the state). */
  game(i = this.at): GameDoc {
    const f = this.frames[i];
    const over = i === this.frames.length - 1;
    return { id: this.id, kind: this.kind, status: over ? "over" : "active", version: f.version, players: [], state: f.state as any, hasRoom: false };
  }

  /**
   * records are the steps of frames 0..i, oldest first. In a game whose
   * steps are versioned, a step without a version (the create) is left out:
   * a live page never sees one, and the pages order steps by version.
   */
  records(i = this.at): EventRecord[] {
    const out = this.frames.slice(0, i + 1).flatMap((f, j) => stepRecords(f, j));
    return this.versioned ? out.filter((r) => r.seq > 0) : out;
  }



  private doc(path: string): unknown {
    return docsAt(this.frames, this.at)[docKey(path)];
  }

  private deliver(on: GameWatcher) {
    on.game(this.game());
    on.events?.(this.records());
  }

  // Each listener hears the current frame once it is opened, as Firestore's
  // first snapshot comes: after the call returns (a page that opens a
  // listener while drawing, Hex & Dice's view, must not be called back inside).
  watchGame = async (_s: Session, _id: string, on: GameWatcher): Promise<Watch> => {
    await Promise.resolve();
    this.games.add(on);
    this.deliver(on);
    return { stop: () => this.games.delete(on) };
  };

  readDoc = async (_s: Session, _id: string, path: string): Promise<any> => {
    // A document read once (a Hex & Dice map) is the one the game holds at the end if not yet now.
    return this.doc(path) ?? docsAt(this.frames, this.frames.length - 1)[docKey(path)];
  };

  watchDoc = async (_s: Session, _id: string, path: string, on: { doc(d: any | null): void; error(err: Error): void }): Promise<Watch> => {
    await Promise.resolve();
    this.docs.set(on, path);
    on.doc(this.doc(path) ?? null);
    return { stop: () => this.docs.delete(on) };
  };

  /** watchRace is Tile Race's RaceData (pages/tilerace/model.ts) of the current frame. */
  watchRace = async (_s: Session, _id: string, on: (d: any, what: any) => void): Promise<() => void> => {
    await Promise.resolve();
    this.races.add(on);
    this.deliverRace(on);
    return () => this.races.delete(on);
  };

  private deliverRace(on: (d: any, what: any) => void) {
    const all = docsAt(this.frames, this.at);
    const of = (prefix: string) => Object.entries(all).filter(([k]) => k.startsWith(prefix)).map(([, v]) => v as any);
    const d = {
      game: this.game(),
      teams: of("team/").sort((a, b) => b.position - a.position || String(a.name).localeCompare(String(b.name))),
      board: (all.publicBoard as any) ?? null,
      leaderboard: (all.leaderboard as any) ?? null,
      // The log view: the last 50 records, newest first.
      events: this.records().reverse().slice(0, 50),
      powerupTiles: of("powerupTile/").sort((a, b) => Number(String(a.id).slice(3)) - Number(String(b.id).slice(3))),
    };
    for (const what of ["game", "teams", "board", "leaderboard", "events", "powerupTiles"]) on(d, what);
  }
}

export async function replayPage(root: HTMLElement, [id]: string[], s: Session): Promise<() => void> {
  const err = new ErrorBox();
  const status = h("p", { id: "replay-status", class: "note" }, "Replaying the game on the server…");
  root.replaceChildren(h("h1", {}, "Replay of ", h("code", {}, id ?? "")), err.el, status);
  if (!id) {
    err.show("no game id: open #/replay/<gameId>");
    return () => {};
  }
  const db = await firestoreFor(s);
  // The game's kind names the function to ask.
  const snap = await retryOffline(() => getDoc(doc(db, "games", id)));
  if (!snap.exists()) {
    err.show(`no game ${id}`);
    return () => {};
  }
  const kind = kindOf(String(snap.data().kind));
  if (!kind) {
    err.show(`game ${id} is of a kind this client does not know (${snap.data().kind})`);
    return () => {};
  }
  let r: ReplayResult;
  const frames: Frame[] = [];
  try {
    // A long replay comes in windows (each about 4 MB at most): ask on
    // from where the last one stopped.
    let from = 0;
    for (;;) {
      const reply = await post<{ result: ReplayResult }>(kind.function, { type: "replay", gameId: id, actionId: `replay-${Date.now()}`, from }, s.token);
      r = reply.result;
      frames.push(...r.frames);
      if (!r.next) break;
      from = r.next;
      status.textContent = `Replaying the game on the server… ${frames.length} of ${r.total} frames`;
    }
  } catch (e) {
    status.textContent = "";
    err.show(e);
    return () => {};
  }
  let at = 0;
  let timer: number | undefined;
  const source = new ReplaySource(id, kind.kind, frames);

  const slider = h("input", { id: "replay-slider", type: "range", min: "0", max: String(frames.length - 1), value: "0", "aria-label": "Frame" }) as HTMLInputElement;
  const label = h("span", { id: "replay-frame" });
  const version = h("span", { id: "replay-version" });
  const steps = h("ol", { id: "replay-events", class: "events" });
  const raw = h("pre", { id: "replay-state" });
  const docs = h("div", { id: "replay-docs" });
  const board = h("div", { id: "replay-game", class: "replay-game" });
  const speed = h("select", { id: "replay-speed" }, ...Object.keys(SPEEDS).map((k) => h("option", { value: k, selected: k === "0.5 s" }, k))) as HTMLSelectElement;
  const play = button("▶ play", () => (timer === undefined ? start() : pause()), { id: "replay-play" });
  const back = button("◀ step", () => show(at - 1), { id: "replay-back" });
  const step = button("step ▶", () => show(at + 1), { id: "replay-step" });
  const details = h("details", { id: "replay-raw" }, h("summary", {}, "This frame as JSON (state and documents)"), h("h3", {}, "State"), raw, h("h3", {}, "Documents"), docs);

  /** The raw JSON is drawn only while its <details> is open (a large state is costly to print per frame). */
  const drawRaw = () => {
    if (!details.open) return;
    const f = frames[at];
    raw.textContent = JSON.stringify(f.state, null, 2);
    const all = docsAt(frames, at);
    replace(
      docs,
      ...Object.keys(all)
        .sort()
        .map((k) => h("details", { "data-doc": k, open: k in (f.docs ?? {}) }, h("summary", {}, k + (k in (f.docs ?? {}) ? " (changed)" : "")), h("pre", {}, JSON.stringify(all[k], null, 2)))),
    );
  };
  details.addEventListener("toggle", drawRaw);

  const show = (i: number) => {
    at = Math.max(0, Math.min(frames.length - 1, i));
    const f = frames[at];
    slider.value = String(at);
    const when = millis(f.at);
    label.textContent = `frame ${at + 1} of ${frames.length}: ${f.actor || "system"} — ${f.type}${when ? " at " + new Date(when).toISOString() : ""}`;
    version.textContent = String(f.version);
    replace(steps, ...f.steps.map((st) => h("li", {}, eventWords(st))));
    source.show(at);
    drawRaw();
    back.disabled = at === 0;
    step.disabled = at === frames.length - 1;
    if (at === frames.length - 1) pause();
  };
  const start = () => {
    if (at === frames.length - 1) show(0);
    play.textContent = "⏸ pause";
    timer = window.setInterval(() => show(at + 1), SPEEDS[speed.value] ?? 500);
  };
  function pause() {
    if (timer !== undefined) window.clearInterval(timer);
    timer = undefined;
    play.textContent = "▶ play";
  }
  slider.addEventListener("input", () => {
    pause();
    show(Number(slider.value));
  });
  speed.addEventListener("change", () => {
    if (timer !== undefined) {
      pause();
      start();
    }
  });

  status.textContent = "";
  replace(
    status,
    h(
      "span",
      { id: "replay-verified", "data-verified": String(r.verified) },
      r.verified ? "✓ replayed from the seed: the last frame is the stored game" : `✗ the replay diverged: ${r.diverged ?? "unknown"}`,
    ),
    ` · ${kind.title} · ${frames.length} frames · seedHash ${r.seedHash}` + (r.seed ? ` · seed ${r.seed}` : " · seed kept secret"),
  );
  root.append(
    h("p", { class: "replay-controls" }, back, play, step, " ", slider, " ", h("label", {}, "speed ", speed)),
    h("p", {}, label, " · version ", version, " · ", h("a", { href: `#/watch/${id}` }, "the game as stored")),
    h("h2", {}, "This frame's steps"),
    steps,
    details,
    board,
  );
  show(0);
  // A frame's turn clock reads the time left when the frame was made.
  setClockNow(() => millis(frames[at].at) ?? Date.now());
  // The game's own page draws the frames, read-only: the spectator view
  // fed by the replay instead of Firestore.
  let stopPage: () => void = () => {};
  const load = PAGES[kind.kind];
  if (load) {
    try {
      const page = await load();
      stopPage = await page(board, [id], s, { watch: true, source });
      // One h1 on the page: the game page's title is a section of the replay.
      for (const t of board.querySelectorAll("h1")) t.setAttribute("aria-level", "2");
    } catch (e) {
      err.show(e);
    }
  }
  return () => {
    pause();
    stopPage();
    setClockNow();
  };
}
