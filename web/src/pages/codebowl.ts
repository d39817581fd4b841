// A CodeBowl match, live: the 20 × 11 pitch with both teams and the ball
// (the match state of games/{id}), score, half and turn, whose turn, the
// timer, both rosters, the match log and the chat (games/{id}/chat). The
// coach to act plays with what the `legal` action lists — exactly what he
// may send: a formation in setup; in play, a click on one of his players
// shows the squares listed for him (blue: move, red: attack) and a click on
// one sends that listed move; stand up and end turn likewise.

import { collection, onSnapshot } from "firebase/firestore";
import { act, type Session } from "../api";
import { firestoreFor } from "../firebase";
import { deadlineClock, millis, showRoomCode, watchGame, type GameDoc } from "../live";
import { ErrorBox, button, field, h, navigate, replace, svg } from "../ui";
import "./boards.css";
import { now, pageTimings } from "../timings";

interface Square {
  x: number;
  y: number;
}
interface Move {
  type: string;
  payload?: { player?: string; path?: Square[]; positions?: { player: string; x: number; y: number }[] };
}
interface ChatMessage {
  key: string;
  from: string;
  fromName: string;
  side: string;
  text: string;
}

const W = 20;
const H = 11;
const SIDE_COLOURS: Record<string, string> = { home: "#2f6db3", away: "#c1121f" };
const FORMATIONS = ["line", "wedge", "deep"]; // the order Legal lists them (docs/codebowl.md)
const sq = (p: Square) => `${p.x},${p.y}`;

export async function codebowlPage(root: HTMLElement, [id]: string[], s: Session): Promise<() => void> {
  const timings = pageTimings();
  const me = s.player.id;
  const err = new ErrorBox();
  const el = {
    title: h("h1", {}, "CodeBowl"),
    phase: h("span", { id: "phase" }),
    version: h("span", { id: "version" }),
    half: h("span", { id: "cb-half" }),
    timer: h("span", { id: "timer" }),
    score: h("p", { id: "cb-score", class: "score" }),
    turn: h("p", { id: "turn", class: "turn" }),
    room: h("p", { id: "room", hidden: true }),
    picked: h("div", { id: "cb-picked" }),
    buttons: h("div", { class: "row buttons", id: "buttons" }),
    result: h("p", { id: "result", class: "result" }),
    rosters: h("div", { class: "cols", id: "cb-rosters" }),
    log: h("ol", { id: "cb-log", class: "events" }),
    chat: h("ul", { id: "cb-chat", class: "cb-chat" }),
  };
  const pitch = svg("svg", { id: "cb-pitch", class: "cb-pitch", viewBox: `0 0 ${W} ${H}` });
  const cells = svg("g", {});
  const pieces = svg("g", {});
  pitch.append(cells, pieces);
  let game: GameDoc | null = null;
  let moves: Move[] = [];
  let legalFor = -1;
  let picked = "";

  const m = () => game?.state;
  const mySide = (): string => (m()?.home?.coach === me ? "home" : m()?.away?.coach === me ? "away" : "");
  const toAct = () => {
    const st = m();
    const side = mySide();
    return !!side && ((st?.phase === "setup" && st.placing === side) || (st?.phase === "play" && st.active === side));
  };

  const send = (type: string, extra: Record<string, unknown> = {}) =>
    err.run(async () => {
      const click: (typeof timings.clicks)[number] = { at: now(), version: game?.version ?? -1, type };
      timings.clicks.push(click);
      // Moves carry the version the coach saw: a stale page is refused, not applied.
      const version = ["place", "move", "standUp", "endTurn"].includes(type) ? game?.version : undefined;
      const r = await act("CodeBowl", { gameId: id, type, version, ...extra });
      click.replied = now();
      picked = "";
      return r;
    });

  async function refreshLegal() {
    if (!game) return;
    const v = game.version;
    legalFor = v;
    // The old list is stale from here on: no button may act on it.
    moves = [];
    if (!toAct()) {
      picked = "";
      pitch.setAttribute("data-legal", String(v));
      return draw();
    }
    draw();
    const r = await err.run(() => act<{ moves: Move[] }>("CodeBowl", { gameId: id, type: "legal" }));
    if (r && legalFor === v) {
      moves = r.result.moves ?? [];
      // data-legal: the version the buttons and highlights are for (tests wait on it).
      pitch.setAttribute("data-legal", String(v));
      draw();
    }
  }

  const playerAt = (p: Square) => {
    for (const side of ["home", "away"]) {
      const pl = (m()?.[side]?.players ?? []).find((x: any) => x.pos && x.pos.x === p.x && x.pos.y === p.y && ["standing", "down"].includes(x.state));
      if (pl) return { side, pl };
    }
    return undefined;
  };
  const movesOf = (player: string) => moves.filter((mv) => mv.type === "move" && mv.payload?.player === player);

  async function onSquare(p: Square) {
    if (!game || m()?.phase !== "play" || !toAct()) return;
    if (picked) {
      const mv = movesOf(picked).find((x) => x.payload?.path?.length && sq(x.payload.path.at(-1)!) === sq(p));
      if (mv) {
        await send("move", mv.payload);
        return;
      }
    }
    const there = playerAt(p);
    picked = there && there.side === mySide() && moves.some((x) => x.payload?.player === there.pl.id) ? there.pl.id : "";
    draw();
  }
  pitch.addEventListener("click", (e) => {
    const t = (e.target as Element).closest("[data-x]");
    if (t) void onSquare({ x: Number(t.getAttribute("data-x")), y: Number(t.getAttribute("data-y")) });
  });

  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      cells.append(svg("rect", { x, y, width: 1, height: 1, "data-x": x, "data-y": y, id: `cb-cell-${x}-${y}`, class: `cb-cell ${x === 0 || x === W - 1 ? "goal" : x < W / 2 ? "home" : "away"}` }));
    }
  }

  function draw() {
    const st = m();
    if (!st) return;
    // Highlights: the squares listed for the picked player.
    const dest = new Map<string, string>();
    for (const mv of picked ? movesOf(picked) : []) {
      const last = mv.payload!.path!.at(-1)!;
      dest.set(sq(last), playerAt(last) ? "attack" : "dest");
    }
    for (const c of Array.from(cells.children)) {
      const k = `${c.getAttribute("data-x")},${c.getAttribute("data-y")}`;
      c.classList.toggle("dest", dest.get(k) === "dest");
      c.classList.toggle("attack", dest.get(k) === "attack");
    }
    const out: SVGElement[] = [];
    for (const side of ["home", "away"]) {
      (st[side]?.players ?? []).forEach((p: any, i: number) => {
        if (!["standing", "down"].includes(p.state) || !p.pos || p.pos.x < 0) return;
        const cls = `cb-player ${side}${p.id === picked ? " picked" : ""}${p.acted ? " acted" : ""}${p.state === "down" ? " down" : ""}`;
        out.push(svg("g", { class: cls, "data-x": p.pos.x, "data-y": p.pos.y, "data-player": p.id, "data-side": side },
          svg("circle", { cx: p.pos.x + 0.5, cy: p.pos.y + 0.5, r: 0.4, fill: SIDE_COLOURS[side], "fill-opacity": p.state === "down" ? 0.45 : 1 }),
          svg("text", { x: p.pos.x + 0.5, y: p.pos.y + 0.63 }, p.state === "down" ? `${i + 1}↓` : String(i + 1)),
          svg("title", {}, `${p.name} (${st[side].teamName}) ST ${p.st} AG ${p.ag} MV ${p.mv} AR ${p.ar} · ${p.state}${p.acted ? " · acted" : ""}`)));
      });
    }
    const b = st.ball;
    if (b && b.state !== "none" && b.pos && b.pos.x >= 0) {
      out.push(svg("circle", { class: "cb-ball", id: "cb-ball", cx: b.pos.x + (b.state === "carried" ? 0.82 : 0.5), cy: b.pos.y + (b.state === "carried" ? 0.82 : 0.5), r: b.state === "carried" ? 0.16 : 0.22 }));
    }
    replace(pieces as unknown as Element, ...out);

    const parts: (Node | string)[] = [];
    const mine = mySide();
    const pl = picked ? (st[mine]?.players ?? []).find((x: any) => x.id === picked) : null;
    if (pl) parts.push(h("p", {}, `Picked: ${pl.name} (ST ${pl.st} AG ${pl.ag} MV ${pl.mv}) — ${movesOf(picked).length} squares listed: blue to move, red to attack.`));
    else if (st.phase === "play" && toAct()) parts.push(h("p", { class: "note" }, "Click one of your players (not yet acted) to see where he may go."));
    replace(el.picked, ...parts);
    renderButtons();
  }

  const endTurnBtn = button("End turn", () => send("endTurn"), { id: "cb-end-turn", class: "primary" });
  const forfeitBtn = button("Forfeit", () => (confirm("Forfeit this match?") ? send("forfeit") : undefined), { id: "cb-forfeit" });
  function renderButtons() {
    const st = m();
    const show: HTMLElement[] = [];
    if (toAct() && st.phase === "setup") {
      moves.filter((mv) => mv.type === "place").forEach((mv, i) => {
        show.push(button(`Place: ${FORMATIONS[i] ?? `formation ${i + 1}`}${i === 0 ? " (default)" : ""}`, () => send("place", mv.payload), { id: `cb-place-${i}`, class: i === 0 ? "primary" : "" }));
      });
    }
    if (toAct() && st.phase === "play") {
      const up = picked && moves.find((mv) => mv.type === "standUp" && mv.payload?.player === picked);
      if (up) show.push(button("Stand up", () => send("standUp", up.payload), { id: "cb-stand-up" }));
      if (moves.some((mv) => mv.type === "endTurn")) show.push(endTurnBtn);
    }
    if (mySide() && st.phase !== "over") show.push(forfeitBtn);
    replace(el.buttons, ...show);
  }

  const chatText = field("message", { id: "cb-chat-text", maxlength: 280 });
  const chatErr = new ErrorBox();
  const chatSend = button("Send", () => chatErr.run(async () => {
    await act("CodeBowl", { gameId: id, type: "chat", text: chatText.input.value });
    chatText.input.value = "";
  }), { id: "cb-chat-send" });
  const chatForm = h("form", { class: "row", id: "cb-chat-form", hidden: true }, chatText.row, chatSend);
  chatForm.addEventListener("submit", (e) => {
    e.preventDefault();
    chatSend.click();
  });

  root.replaceChildren(
    el.title,
    h("p", { class: "meta" }, "phase ", el.phase, " · version ", el.version, " · ", el.half, " · timer ", el.timer, " · ", h("a", { href: `#/watch/${id}`, id: "spectate-link" }, "spectator link")),
    el.room,
    err.el,
    el.score,
    el.turn,
    h("div", { class: "pb-layout" },
      h("div", { class: "pb-boardbox" }, pitch, h("p", { class: "note" }, "Home plays the left half and scores in the right column; away the other way. ↓: knocked down; faded: has acted; brown: the ball.")),
      h("div", {}, el.picked, el.buttons, el.result,
        h("h2", {}, "Chat"), el.chat, chatForm, chatErr.el,
        h("h2", {}, "Log"), el.log)),
    el.rosters,
  );

  function render() {
    const st = m();
    if (!game || !st) return;
    timings.seen[game.version] ??= now();
    const home = st.home ?? {};
    const away = st.away;
    el.title.textContent = `CodeBowl — ${home.teamName ?? "?"} vs ${away?.teamName ?? "…"}`;
    el.phase.textContent = st.phase;
    el.version.textContent = String(game.version);
    el.half.textContent = st.phase === "play" || st.phase === "setup" ? `half ${st.half} · turn ${st.turn ?? 0} of ${st.options?.turnsPerHalf ?? 8} · drive ${st.drive}` : "";
    replace(el.score, h("span", { style: `color:${SIDE_COLOURS.home}` }, `${home.coachName ?? "?"} ${home.score ?? 0}`), " – ",
      h("span", { style: `color:${SIDE_COLOURS.away}` }, away ? `${away.score ?? 0} ${away.coachName}` : "…"));
    const side = mySide();
    pitch.setAttribute("data-me", side);
    const name = (x: string) => st[x]?.coachName ?? x;
    el.turn.textContent =
      st.phase === "waiting" ? "Waiting for an opponent to join."
      : st.phase === "setup" ? (st.placing === side ? `Your placement (${side === st.offense ? "offense" : "defense"}): pick a formation.` : `${name(st.placing)} places.`)
      : st.phase === "play" ? (st.active === side ? "Your turn." : `${name(st.active)}'s turn.`)
      : "The match is over.";
    if (st.phase === "over") {
      el.result.textContent = st.endReason === "cancelled" ? "Cancelled." : st.draw ? `A draw (${st.endReason}).` : `${name(st.winnerSide)} wins (${st.endReason}).`;
    } else el.result.textContent = "";
    chatForm.hidden = !side;
    replace(el.rosters, ...["home", "away"].filter((x) => st[x]).map((x) =>
      h("section", { class: "card", id: `cb-roster-${x}` },
        h("h3", { style: `color:${SIDE_COLOURS[x]}` }, `${st[x].teamName} (${st[x].coachName}, ${x})`),
        h("table", { class: "cb-roster" }, h("tr", {}, ...["#", "name", "ST", "AG", "MV", "AR", "state"].map((c) => h("th", {}, c))),
          ...(st[x].players ?? []).map((p: any, i: number) => h("tr", {}, ...[i + 1, p.name, p.st, p.ag, p.mv, p.ar, `${p.state}${p.acted ? ", acted" : ""}${st.ball?.carrier === p.id ? ", ball" : ""}`].map((c) => h("td", {}, String(c)))))))));
    replace(el.log, ...(st.log ?? []).slice().reverse().map((l: string) => h("li", {}, l)));
    if (legalFor !== game.version) void refreshLegal();
    draw();
    tick();
  }

  const clock = deadlineClock(el.timer, 10_000, () => void err.run(() => act("CodeBowl", { gameId: id, type: "advance" })));
  function tick() {
    const st = m();
    const active = st && ["setup", "play"].includes(st.phase);
    clock(active ? millis(st.deadline) : undefined, !!mySide(), st?.options?.turnSeconds ? "–" : "off");
  }
  const timer = setInterval(tick, 250);

  const db = await firestoreFor(s);
  const unchat = onSnapshot(collection(db, "games", id, "chat"), (snap) => {
    // Keys sort in sending order (ChatKey).
    const msgs = snap.docs.map((d) => ({ ...(d.data() as ChatMessage), key: d.id })).sort((a, b) => (a.key < b.key ? -1 : 1));
    replace(el.chat, ...msgs.slice(-50).map((c) => h("li", { "data-key": c.key }, h("strong", { style: `color:${SIDE_COLOURS[c.side] ?? "#333"}` }, c.fromName), ": ", c.text)));
    el.chat.scrollTop = el.chat.scrollHeight;
  }, (e) => err.show(new Error(`reading the chat: ${e.message}`)));

  const watch = await watchGame(s, id, {
    game(g) {
      if (!g) return err.show(`no game ${id}`);
      if (g.kind !== "codebowl") return navigate(`#/watch/${id}`);
      const first = !game;
      game = g;
      render();
      if (first && g.hasRoom && mySide() && g.state.phase === "waiting") {
        showRoomCode(s, id, el.room, "your opponent", (e) => err.show(e));
      }
      if (g.state.phase !== "waiting") el.room.hidden = true;
    },
    error: (e) => err.show(e),
  });
  return () => {
    clearInterval(timer);
    unchat();
    watch.stop();
  };
}
