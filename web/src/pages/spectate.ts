// The spectator page of a game kind without a page of its own (#/watch/<id>
// opens a game's own page read-only when it has one: main.ts): who plays,
// the status, and the event log in words, live; no buttons. A finished
// DashDice match shows the "verify the dice" panel too.

import type { Session } from "../api";
import type { PageOpts } from "../games";
import { watchGame, type EventRecord, type GameDoc } from "../live";
import { ErrorBox, h, replace } from "../ui";
import { VerifyPanel } from "../verifypanel";
import { gameTitles, recordText, statusName } from "../words";

/** describeRecord: a step's words (kept here for pages that import it from this file). */
export { describeRecord } from "../words";

export async function spectatePage(root: HTMLElement, [id]: string[], s: Session, _opts?: PageOpts): Promise<() => void> {
  const err = new ErrorBox();
  const title = h("h1", {}, "Watching a game");
  const head = h("dl", { id: "game-head", class: "facts" });
  const events = h("ol", { id: "events", class: "events", reversed: true, "aria-label": "what happened, newest first", tabindex: 0 });
  const verify = new VerifyPanel();
  let game: GameDoc | null = null;
  let records: EventRecord[] = [];
  root.replaceChildren(
    title,
    h("p", { class: "note" }, "You are watching: the page follows the game as it changes."),
    err.el,
    head,
    verify.el,
    h("h2", {}, "What happened"),
    events,
  );
  const render = () => {
    if (!game) return;
    title.textContent = `Watching ${gameTitles[game.kind] ?? game.kind}`;
    const names = playerNames(game);
    const facts: [string, string][] = [
      ["game", gameTitles[game.kind] ?? game.kind],
      ["status", statusName(game.status)],
      ["players", names.join(", ") || "none yet"],
      ["moves so far", String(game.version)],
    ];
    replace(head, ...facts.flatMap(([k, v]) => [h("dt", {}, k), h("dd", { id: `fact-${k.replace(/ /g, "-")}` }, v)]));
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
      replace(events, ...r.slice(-100).reverse().map((rec) => h("li", {}, recordText(rec))));
      render();
    },
    error: (e) => err.show(e),
  });
  return () => watch.stop();
}

/** playerNames finds the players' names in a state of any shape (names, players[].name, host/opponent). */
function playerNames(g: GameDoc): string[] {
  const st = g.state ?? {};
  if (Array.isArray(st.names)) return st.names;
  if (Array.isArray(st.players)) return st.players.map((p: any) => (typeof p === "string" ? p : p?.name)).filter(Boolean);
  const seats = [st.host, st.opponent, st.home, st.away].filter(Boolean);
  if (seats.length) return seats.map((p: any) => p.name ?? p.teamName ?? p.coachName).filter(Boolean);
  return [];
}
