// The read-only spectator page of any game: the game document and its event
// log, live, with no buttons. A finished DashDice match also shows the
// "verify the dice" panel.

import type { Session } from "../api";
import { watchGame, type EventRecord, type GameDoc } from "../live";
import { ErrorBox, h, replace } from "../ui";
import { VerifyPanel } from "../verifypanel";

export function describeRecord(r: EventRecord): string {
  const who = r.actor?.name ?? r.actor?.id ?? "system";
  const evs = (r.events ?? []).map((e) => `${e.type}${e.data ? " " + brief(e.data) : ""}`).join("; ");
  return `#${r.seq} ${who}: ${r.type} — ${evs}`;
}

function brief(d: unknown): string {
  const s = JSON.stringify(d);
  return s.length > 160 ? s.slice(0, 157) + "…" : s;
}

export async function spectatePage(root: HTMLElement, [id]: string[], s: Session): Promise<() => void> {
  const err = new ErrorBox();
  const head = h("dl", { id: "game-head", class: "facts" });
  const state = h("pre", { id: "game-state" });
  const events = h("ol", { id: "events", class: "events", reversed: true });
  const verify = new VerifyPanel();
  let game: GameDoc | null = null;
  let records: EventRecord[] = [];
  root.replaceChildren(
    h("h1", {}, "Watching ", h("code", {}, id)),
    h("p", { class: "note" }, "Read-only: this page shows the public game document and its event log as they change."),
    err.el,
    head,
    verify.el,
    h("h2", {}, "Events"),
    events,
    h("h2", {}, "State"),
    state,
  );
  const render = () => {
    if (!game) return;
    const facts: [string, string][] = [
      ["kind", game.kind],
      ["status", game.status],
      ["version", String(game.version)],
      ["players", (game.players ?? []).join(", ") || "none yet"],
      ["seedHash", game.seedHash ?? "–"],
      ["seed", game.seed ?? "(revealed when the game is over)"],
    ];
    replace(head, ...facts.flatMap(([k, v]) => [h("dt", {}, k), h("dd", { id: `fact-${k}` }, v)]));
    state.textContent = JSON.stringify(game.state, null, 2);
    if (game.kind === "dashdice") verify.update(game, records);
  };
  const watch = await watchGame(s, id, {
    game(g) {
      if (!g) return err.show(`no game ${id}`);
      game = g;
      render();
    },
    events(r) {
      records = r;
      replace(events, ...r.slice(-100).reverse().map((rec) => h("li", {}, describeRecord(rec))));
      render();
    },
    error: (e) => err.show(e),
  });
  return () => watch.stop();
}
