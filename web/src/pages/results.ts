// The lobby's "Your results" card: the signed-in player's totals per game
// (players/{id}.stats) and latest results, one line a finished game, with
// links to its replay and to the game as stored. A player's results are the event records of the game ends that
// gave them one (fields players and results, written in the commit that
// counts the result in the player's totals: docs/firestore.md, "A player's
// results"); firestore.rules lets a player list only their own, so the
// query must ask for exactly that: players array-contains the caller.

import { collectionGroup, doc, getDocFromServer, getDocsFromServer, limit, orderBy, query, where } from "firebase/firestore";
import type { Session } from "../api";
import { firestoreFor, millis, retryOffline } from "../firebase";
import { kindOf } from "../games";
import { ErrorBox, h, replace } from "../ui";

/** RESULTS_SHOWN is how many results the card lists, newest first. */
const RESULTS_SHOWN = 10;

export interface PlayerResult {
  gameId: string;
  kind: string;
  mode: string;
  result: string;
  reason?: string;
  at?: number;
}

/** playerResults reads the player's latest results (newest first). */
export async function playerResults(s: Session, n = RESULTS_SHOWN): Promise<PlayerResult[]> {
  const db = await firestoreFor(s);
  // From the server: getDocs answers from the (empty) cache while the
  // client is not connected yet, which would read as "no results".
  const snap = await retryOffline(() =>
    getDocsFromServer(query(collectionGroup(db, "events"), where("players", "array-contains", s.player.id), orderBy("at", "desc"), limit(n))),
  );
  const out: PlayerResult[] = [];
  for (const d of snap.docs) {
    const gameId = d.ref.parent.parent?.id ?? "";
    const data = d.data();
    for (const r of (data.results ?? []) as Record<string, string>[]) {
      if (r.player !== s.player.id) continue;
      out.push({ gameId, kind: r.kind, mode: r.mode, result: r.result, reason: r.reason, at: millis(data.at) });
    }
  }
  return out;
}

const words: Record<string, string> = { win: "won", loss: "lost", draw: "drew" };

interface Totals {
  wins?: number;
  losses?: number;
  draws?: number;
  played?: number;
}

/**
 * playerTotals reads the player's totals per game kind, summed over its
 * modes (players/{id}.stats.{kind}.{mode}, kept with the results in the same
 * commit); a kind with none is left out.
 */
export async function playerTotals(s: Session): Promise<Map<string, Required<Totals>>> {
  const db = await firestoreFor(s);
  const snap = await retryOffline(() => getDocFromServer(doc(db, "players", s.player.id)));
  const stats = (snap.data()?.stats ?? {}) as Record<string, Record<string, Totals>>;
  const out = new Map<string, Required<Totals>>();
  for (const [kind, modes] of Object.entries(stats)) {
    const t = { wins: 0, losses: 0, draws: 0, played: 0 };
    for (const m of Object.values(modes)) {
      t.wins += m.wins ?? 0;
      t.losses += m.losses ?? 0;
      t.draws += m.draws ?? 0;
      t.played += m.played ?? 0;
    }
    if (t.played > 0) out.set(kind, t);
  }
  return out;
}

const titleOf = (kind: string) => kindOf(kind)?.title ?? kind;

/** resultsCard is the card; it fills itself once the query answers. */
export function resultsCard(s: Session, stopped: () => boolean): HTMLElement {
  const err = new ErrorBox();
  const list = h("ol", { id: "results", class: "events", "aria-live": "polite" }, h("li", {}, "Loading your results…"));
  const totals = h("p", { id: "totals", class: "note" });
  void err.run(async () => {
    const [rs, ts] = await Promise.all([playerResults(s), playerTotals(s)]);
    if (stopped()) return;
    replace(
      totals,
      ...[...ts].map(([kind, t], i) =>
        h("span", { "data-kind": kind }, `${i ? " · " : ""}${titleOf(kind)}: ${t.played} played, ${t.wins} won, ${t.losses} lost${t.draws ? `, ${t.draws} drawn` : ""}`),
      ),
    );
    if (rs.length === 0) return replace(list, h("li", {}, "No finished game yet: your wins, losses and draws show here."));
    replace(
      list,
      ...rs.map((r) => {
        const title = titleOf(r.kind);
        const when = r.at ? new Date(r.at).toLocaleString() : "";
        return h(
          "li",
          { "data-game": r.gameId, "data-result": r.result },
          h("strong", {}, words[r.result] ?? r.result),
          ` ${title}${r.mode && r.mode !== "default" ? ` (${r.mode})` : ""}${r.reason ? ` by ${r.reason}` : ""}${when ? ` · ${when}` : ""} · `,
          // The line says which game: the links' purpose comes from it (WCAG 2.4.4).
          h("a", { href: `#/replay/${r.gameId}` }, "replay"),
          " · ",
          h("a", { href: `#/watch/${r.gameId}` }, "the game"),
        );
      }),
    );
  });
  return h("section", { class: "card", id: "your-results" }, h("h2", {}, "Your results"), totals, list, err.el);
}
