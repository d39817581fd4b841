// The lobby: for every game kind, create a game, join one by room code (a
// Tile Race: open it by id), quick match (where the game has it), open any
// game by id to watch it, and the player's latest results (results.ts).

import { act, useSession, type Session } from "../api";
import { gameKinds, type GameKind } from "../games";
import { codebowlCard } from "./codebowl-teams";
import { resultsCard } from "./results";
import { ErrorBox, button, field, h, navigate, select } from "../ui";

/** The page a game opens on: its own if it has one, else the spectator page. */
export function gameRoute(kind: string, id: string): string {
  return `#/${kind}/${id}`;
}

export function lobbyPage(root: HTMLElement, s: Session): () => void {
  let stopped = false;
  // CodeBowl's card has its own file: a coach's teams come before any match.
  const codebowl = codebowlCard(s, () => stopped);
  const cards = gameKinds.map((g) => (g.kind === "codebowl" ? codebowl.el : kindCard(g, () => stopped)));
  const err = new ErrorBox();
  const watchId = field("game id", { id: "watch-id", placeholder: "20 hex digits", autocomplete: "off" });
  const watch = h(
    "section",
    { class: "card" },
    h("h2", {}, "Watch any game"),
    watchId.row,
    button("Watch", () => {
      const id = watchId.input.value.trim();
      if (!id) return err.show("enter a game id");
      navigate(`#/watch/${id}`);
    }, { id: "watch" }),
  );
  // Last, so that its lines arriving move nothing above them.
  const results = resultsCard(s, () => stopped);
  root.replaceChildren(h("h1", {}, `Lobby — ${s.player.name}`), err.el, h("div", { class: "cols" }, ...cards, watch, results));
  return () => {
    stopped = true;
    codebowl.stop();
  };
}

function kindCard(g: GameKind, stopped: () => boolean): HTMLElement {
  const err = new ErrorBox();
  const status = h("p", { class: "status" });
  const inputs = new Map<string, HTMLInputElement | HTMLSelectElement>();
  const rows = g.createOptions.map((o) => {
    const attrs = { name: o.name, "data-kind": g.kind, value: o.value };
    if (o.options) {
      const f = select(o.label, o.options, attrs);
      inputs.set(o.name, f.input);
      return f.row;
    }
    const f = field(o.label, { ...attrs, type: o.type ?? "text", checked: o.type === "checkbox" && o.value === "true" });
    inputs.set(o.name, f.input);
    return f.row;
  });
  const body = (names: string[]) => {
    const out: Record<string, unknown> = {};
    for (const n of names) {
      const el = inputs.get(n)!;
      const o = g.createOptions.find((c) => c.name === n)!;
      if (o.type === "checkbox") out[n] = (el as HTMLInputElement).checked;
      else if (o.type === "number" || o.numeric) {
        if (el.value !== "") out[n] = Number(el.value);
      } else if (el.value !== "") out[n] = el.value;
    }
    return out;
  };

  const create = button(`Create`, () => err.run(async () => {
    const r = await act(g.function, { type: "create", ...body(g.createOptions.map((o) => o.name)) });
    const id = r.gameId ?? r.result.gameId ?? r.result.game?.gameId;
    // A Tile Race's creator is its master admin: the reply carries that session.
    if (r.result.session?.token) useSession(r.result.session);
    navigate(gameRoute(g.kind, id));
  }), { id: `create-${g.kind}`, "aria-label": `Create a ${g.title} game` });

  const parts: (HTMLElement | false)[] = [
    h("h2", {}, g.title),
    !!g.note && h("p", { class: "note" }, g.note!),
    ...rows,
    h("div", { class: "row" }, create),
  ];
  // Party Board's own boards: upload, check, simulate, then play (pages/partyboard-boards.ts).
  if (g.kind === "partyboard") parts.push(h("p", {}, h("a", { href: "#/partyboard/boards", id: "pb-boards-link" }, "Boards: upload your own, simulate one, play on it")));
  if (g.noRoomCode) {
    // Tile Race: no room code, no join. A race is opened by its id; its page
    // offers the team and admin sign-in.
    const race = field("race id", { name: "raceId", id: `open-id-${g.kind}`, autocomplete: "off" });
    const open = button("Open race", () => {
      const id = race.input.value.trim();
      if (!id) return err.show("enter the race id your admin gave you");
      navigate(gameRoute(g.kind, id));
    }, { id: `open-${g.kind}` });
    parts.push(h("div", { class: "row" }, race.row, open));
  } else {
    const code = field("room code", { name: "roomCode", id: `code-${g.kind}`, maxlength: 12, autocomplete: "off" });
    const join = button("Join", () => err.run(async () => {
      const r = await act(g.function, { type: "join", roomCode: code.input.value });
      navigate(gameRoute(g.kind, r.gameId!));
    }), { id: `join-${g.kind}`, "aria-label": `Join a ${g.title} game by its room code` });
    parts.push(h("div", { class: "row" }, code.row, join));
  }
  if (g.quickMatch) {
    const names = g.quickMatch;
    // Leave queue only flags: the search loop itself sends leaveQueue after
    // its last quickMatch, so the two never cross.
    let queued = false;
    const leave = button("Leave queue", () => {
      queued = false;
      status.textContent = "leaving the queue…";
    }, { id: `leave-${g.kind}`, hidden: true });
    // botAfter (docs/bots.md): a strong bot takes the other seat once the
    // search has waited that long; empty: wait for a person only.
    const botAfter = h("select", { id: `bot-after-${g.kind}` },
      h("option", { value: "" }, "wait for a person"),
      ...[5, 15, 30, 60].map((n) => h("option", { value: String(n) }, `a bot after ${n} s`))) as HTMLSelectElement;
    const quick = button("Quick match", () => err.run(async () => {
      // One actionId for the whole search: calling again with it keeps our
      // place in the queue and returns the match once made (docs/api.md).
      const id = `quick-${Date.now().toString(36)}`;
      const params = body(names);
      const bot = botAfter.value ? { botAfter: Number(botAfter.value) } : {};
      queued = true;
      leave.hidden = false;
      try {
        for (;;) {
          const r = await act(g.function, { type: "quickMatch", actionId: id, ...params, ...bot });
          if (r.result.status === "matched") return navigate(gameRoute(g.kind, r.result.gameId));
          status.textContent = `waiting for an opponent… (${new Date().toLocaleTimeString()})`;
          await new Promise((res) => setTimeout(res, 1000 + Math.random() * 500));
          if (stopped() || !queued) {
            const r = await act(g.function, { type: "leaveQueue", ...params });
            if (r.result.status === "matched" && !stopped()) return navigate(gameRoute(g.kind, r.result.gameId));
            status.textContent = "You left the queue.";
            return;
          }
        }
      } finally {
        queued = false;
        leave.hidden = true;
      }
    }), { id: `quick-${g.kind}`, "aria-label": `Quick match: ${g.title}` });
    parts.push(h("div", { class: "row" }, h("label", {}, "if nobody comes ", botAfter), quick, leave));
  }
  return h("section", { class: "card", id: `kind-${g.kind}` }, ...parts.filter((p): p is HTMLElement => !!p), status, err.el);
}
