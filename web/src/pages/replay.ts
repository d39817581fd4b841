// The replay page, #/replay/<gameId>: a finished game of any kind played
// again by the server from its seed and its recorded actions (the "replay"
// action, docs/api.md), one frame per action, with play/pause, step back and
// forward, and a slider. Each frame shows its steps' event words (an event's
// `text` when the game gives one, else its type), the game's state after it
// and the game's other documents the signed-in caller may read (a Tile Race
// teams and the public board through the fog; a Hex & Dice player's own
// orders). The server compares the replay with the stored game: the page
// says whether it matched.

import { doc, getDoc } from "firebase/firestore";
import { post, type Session } from "../api";
import { firestoreFor } from "../firebase";
import { kindOf } from "../games";
import { millis } from "../live";
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

export async function replayPage(root: HTMLElement, [id]: string[], s: Session): Promise<() => void> {
  const err = new ErrorBox();
  const status = h("p", { id: "replay-status", class: "note" }, "Replaying the game on the server…");
  root.replaceChildren(h("h1", {}, "Replay of ", h("code", {}, id ?? "")), err.el, status);
  if (!id) {
    err.show("no game id: open #/replay/<gameId>");
    return () => {};
  }
  const db = await firestoreFor(s);
  const snap = await getDoc(doc(db, "games", id));
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

  const slider = h("input", { id: "replay-slider", type: "range", min: "0", max: String(frames.length - 1), value: "0" }) as HTMLInputElement;
  const label = h("span", { id: "replay-frame" });
  const version = h("span", { id: "version" });
  const steps = h("ol", { id: "replay-events", class: "events" });
  const state = h("pre", { id: "replay-state" });
  const docs = h("div", { id: "replay-docs" });
  const speed = h("select", { id: "replay-speed" }, ...Object.keys(SPEEDS).map((k) => h("option", { value: k, selected: k === "0.5 s" }, k))) as HTMLSelectElement;
  const play = button("▶ play", () => (timer === undefined ? start() : pause()), { id: "replay-play" });
  const back = button("◀ step", () => show(at - 1), { id: "replay-back" });
  const step = button("step ▶", () => show(at + 1), { id: "replay-step" });

  const show = (i: number) => {
    at = Math.max(0, Math.min(frames.length - 1, i));
    const f = frames[at];
    slider.value = String(at);
    const when = millis(f.at);
    label.textContent = `frame ${at + 1} of ${frames.length}: ${f.actor || "system"} — ${f.type}${when ? " at " + new Date(when).toISOString() : ""}`;
    version.textContent = String(f.version);
    replace(steps, ...f.steps.map((st) => h("li", {}, eventWords(st))));
    state.textContent = JSON.stringify(f.state, null, 2);
    const all = docsAt(frames, at);
    replace(
      docs,
      ...Object.keys(all)
        .sort()
        .map((k) => h("details", { "data-doc": k, open: k in (f.docs ?? {}) }, h("summary", {}, k + (k in (f.docs ?? {}) ? " (changed)" : "")), h("pre", {}, JSON.stringify(all[k], null, 2)))),
    );
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
    h("h2", {}, "Steps"),
    steps,
    h("h2", {}, "State"),
    state,
    h("h2", {}, "Documents"),
    docs,
  );
  show(0);
  return () => pause();
}
