// A CodeBowl match, live: the 20 × 11 pitch with both teams and the ball
// (the match state of games/{id}), score, half and turn, whose turn, the
// timer, both rosters, the match log and the chat (games/{id}/chat). The
// coach to act plays with what the `legal` action lists — exactly what he
// may send: a formation in setup; in play, a click on one of his players
// shows the squares listed for him (blue: move, red: attack) and a click on
// one sends that listed move; stand up and end turn likewise.

import { collection, onSnapshot } from "firebase/firestore";
import { act, ask, type Session } from "../api";
import { firestoreFor, millis } from "../firebase";
import { deadlineClock, showRoomCode, watchGame, type GameDoc } from "../live";
import { ErrorBox, button, field, h, navigate, replace, select, svg } from "../ui";
import { PLAYING, type PageOpts } from "./words";
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

export async function codebowlPage(root: HTMLElement, [id]: string[], s: Session, opts: PageOpts = PLAYING): Promise<() => void> {
  const timings = pageTimings();
  const me = opts.watch ? "" : s.player.id;
  const err = new ErrorBox();
  const el = {
    title: h("h1", {}, "CodeBowl"),
    phase: h("span", { id: "phase" }),
    version: h("span", { id: "version" }),
    half: h("span", { id: "cb-half" }),
    timer: h("span", { id: "timer" }),
    // A line each from the first paint (a no-break space until the match
    // arrives), so their filling moves nothing below (layout shift).
    score: h("p", { id: "cb-score", class: "score" }, "\u00a0"),
    turn: h("p", { id: "turn", class: "turn" }, "\u00a0"),
    room: h("p", { id: "room", hidden: true }),
    picked: h("div", { id: "cb-picked" }),
    buttons: h("div", { class: "row buttons", id: "buttons" }),
    result: h("p", { id: "result", class: "result" }),
    rosters: h("div", { class: "cols", id: "cb-rosters" }),
    log: h("ol", { id: "cb-log", class: "events", tabindex: 0, "aria-label": "Match log, newest first" }),
    placement: h("section", { id: "cb-placement", class: "card", hidden: true, "aria-label": "Your placement" }),
    chat: h("ul", { id: "cb-chat", class: "cb-chat", tabindex: 0, "aria-label": "Chat" }),
  };
  const pitch = svg("svg", { id: "cb-pitch", class: "cb-pitch", viewBox: `0 0 ${W} ${H}`, role: "application", "aria-label": "The pitch: 20 columns by 11 rows. In setup, arrow keys move the picked player." });
  const cells = svg("g", {});
  const pieces = svg("g", {});
  pitch.append(cells, pieces);
  let game: GameDoc | null = null;
  let moves: Move[] = [];
  let legalFor = -1;
  let picked = "";
  // The placement being made (setup): player id → square, never stored on the server until sent.
  let draft = new Map<string, Square>();
  let draftFor = ""; // the setup (half, drive, side) the draft belongs to

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
    const r = await err.run(() => ask<{ moves: Move[] }>("CodeBowl", v, { gameId: id, type: "legal" }));
    if (r && legalFor === v) {
      moves = r.result.moves ?? [];
      const st = m();
      const setupKey = st?.phase === "setup" ? `${st.half}|${st.drive}|${st.placing}` : "";
      if (setupKey && setupKey !== draftFor) {
        draftFor = setupKey;
        startDraft(0);
      }
      if (!setupKey) draft = new Map();
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

  const inMyHalf = (p: Square) => p.x >= 0 && p.x < W && p.y >= 0 && p.y < H && (mySide() === "home" ? p.x < W / 2 : p.x >= W / 2);
  const draftAt = (p: Square) => [...draft].find(([, q]) => sq(q) === sq(p))?.[0];

  /** put moves the picked player of the draft to p (swapping with a team-mate there). */
  function put(p: Square) {
    if (!picked || !draft.has(picked)) return;
    if (!inMyHalf(p)) {
      err.show(`(${p.x + 1}, ${p.y + 1}) is not in your half: ${mySide()} places in columns ${mySide() === "home" ? "1–10" : "11–20"}`);
      return;
    }
    err.clear();
    const other = draftAt(p);
    if (other && other !== picked) draft.set(other, draft.get(picked)!);
    draft.set(picked, p);
    draw();
  }

  async function onSquare(p: Square) {
    if (!game || !toAct()) return;
    if (m()?.phase === "setup") {
      const there = draftAt(p);
      if (there && (!picked || there === picked)) {
        picked = there === picked ? "" : there;
        draw();
      } else if (picked) put(p);
      return;
    }
    if (m()?.phase !== "play") return;
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

  pitch.setAttribute("tabindex", "0");
  pitch.addEventListener("keydown", (e) => {
    const d: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const step = d[e.key];
    if (!step || m()?.phase !== "setup" || !toAct() || !picked || !draft.has(picked)) return;
    e.preventDefault();
    const at = draft.get(picked)!;
    put({ x: at.x + step[0], y: at.y + step[1] });
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
    const setupPick = st.phase === "setup" && toAct() && !!picked && draft.has(picked);
    for (const c of Array.from(cells.children)) {
      const k = `${c.getAttribute("data-x")},${c.getAttribute("data-y")}`;
      const cx = Number(c.getAttribute("data-x"));
      c.classList.toggle("half", setupPick && inMyHalf({ x: cx, y: Number(c.getAttribute("data-y")) }));
      c.classList.toggle("dest", dest.get(k) === "dest");
      c.classList.toggle("attack", dest.get(k) === "attack");
    }
    const out: SVGElement[] = [];
    const drafting = st.phase === "setup" && toAct();
    for (const side of ["home", "away"]) {
      (st[side]?.players ?? []).forEach((p0: any, i: number) => {
        const d = drafting && side === mySide() ? draft.get(p0.id) : undefined;
        const p = d ? { ...p0, pos: d, state: "standing" } : p0;
        if (!["standing", "down"].includes(p.state) || !p.pos || p.pos.x < 0) return;
        const cls = `cb-player ${side}${p.id === picked ? " picked" : ""}${p.acted ? " acted" : ""}${p.state === "down" ? " down" : ""}`;
        out.push(svg("g", { class: `${cls}${d ? " draft" : ""}`, "data-x": p.pos.x, "data-y": p.pos.y, "data-player": p.id, "data-side": side },
          // Away players are diamonds: the sides differ in shape, not only colour.
          side === "away"
            ? svg("polygon", { points: `${p.pos.x + 0.5},${p.pos.y + 0.08} ${p.pos.x + 0.92},${p.pos.y + 0.5} ${p.pos.x + 0.5},${p.pos.y + 0.92} ${p.pos.x + 0.08},${p.pos.y + 0.5}`, fill: SIDE_COLOURS[side], "fill-opacity": p.state === "down" ? 0.45 : 1 })
            : svg("circle", { cx: p.pos.x + 0.5, cy: p.pos.y + 0.5, r: 0.4, fill: SIDE_COLOURS[side], "fill-opacity": p.state === "down" ? 0.45 : 1 }),
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
    if (pl && st.phase === "play") {
      const listed = movesOf(picked);
      parts.push(h("p", {}, `Picked: ${pl.name} (ST ${pl.st} AG ${pl.ag} MV ${pl.mv}) — ${listed.length} squares listed: blue to move, red to attack.`));
      if (listed.length) {
        const sel = select("go to", [], { id: "cb-move-to" });
        replace(sel.input, ...listed.map((mv, i) => {
          const last = mv.payload!.path!.at(-1)!;
          const foe = playerAt(last);
          return h("option", { value: String(i) }, `${foe ? `attack ${foe.pl.name}` : "move"} at column ${last.x + 1}, row ${last.y + 1} (${mv.payload!.path!.length} squares)`);
        }));
        parts.push(h("div", { class: "row" }, sel.row, button("Go", () => send("move", listed[Number(sel.input.value)].payload), { id: "cb-move-go" })));
      }
    } else if (st.phase === "play" && toAct()) parts.push(h("p", { class: "note" }, "Click one of your players (not yet acted), or pick him below, to see where he may go."));
    if (st.phase === "play" && toAct()) {
      const ready = (st[mine]?.players ?? []).filter((p: any) => moves.some((mv) => mv.payload?.player === p.id));
      if (ready.length) parts.push(h("div", { class: "row", role: "group", "aria-label": "Your players who may act" }, h("span", {}, "Pick:"),
        ...ready.map((p: any) => button(`${p.name}${p.state === "down" ? " (down)" : ""}`, () => {
          picked = picked === p.id ? "" : p.id;
          draw();
        }, { class: "move small", id: `cb-pick-${p.id}`, "aria-pressed": String(p.id === picked) }))));
    }
    replace(el.picked, ...parts);
    renderPlacement();
    renderButtons();
  }

  const endTurnBtn = button("End turn", () => send("endTurn"), { id: "cb-end-turn", class: "primary" });
  const forfeitBtn = button("Forfeit", () => (confirm("Forfeit this match?") ? send("forfeit") : undefined), { id: "cb-forfeit" });
  // The host seats a bot in a waiting match (docs/bots.md): its join makes its own team.
  const botBtns = (["random", "strong"] as const).map((level) => button(`Play a ${level} bot`, () => send("addBot", { level }), { id: `cb-bot-${level}` }));
  /** startDraft fills the draft from a listed formation (the legal `place` i). */
  function startDraft(i: number) {
    const f = moves.filter((mv) => mv.type === "place")[i];
    draft = new Map((f?.payload?.positions ?? []).map((p) => [p.player, { x: p.x, y: p.y }]));
    picked = "";
    draw();
  }

  function renderPlacement() {
    const st = m();
    const on = !!st && st.phase === "setup" && toAct() && draft.size > 0;
    el.placement.hidden = !on;
    if (!on) return replace(el.placement);
    const mine = mySide();
    const players = (st[mine]?.players ?? []).filter((p: any) => draft.has(p.id));
    const pl = players.find((p: any) => p.id === picked);
    const formations = moves.filter((mv) => mv.type === "place");
    const col = field("column", { type: "number", min: 1, max: W, id: "cb-place-x", value: pl ? draft.get(pl.id)!.x + 1 : "" });
    const row = field("row", { type: "number", min: 1, max: H, id: "cb-place-y", value: pl ? draft.get(pl.id)!.y + 1 : "" });
    replace(el.placement,
      h("h2", {}, "Your placement"),
      h("p", { class: "note" }, `Pick a player, then click a square of your half (columns ${mine === "home" ? "1–10" : "11–20"}), or use the arrow keys on the pitch, or type a column and row. A team-mate on that square swaps places. Nothing is sent until you confirm.`),
      h("div", { class: "row", role: "group", "aria-label": "Start from a formation" }, h("span", {}, "Start from:"),
        ...formations.map((_, i) => button(FORMATIONS[i] ?? `formation ${i + 1}`, () => startDraft(i), { class: "small", id: `cb-formation-${i}` }))),
      h("ul", { id: "cb-draft", class: "cb-draft" }, ...players.map((p: any) => {
        const q = draft.get(p.id)!;
        return h("li", {}, button(`${p.name} — column ${q.x + 1}, row ${q.y + 1}`, () => {
          picked = picked === p.id ? "" : p.id;
          draw();
          if (picked) (pitch as unknown as HTMLElement).focus();
        }, { class: "move small", id: `cb-draft-${p.id}`, "data-player": p.id, "aria-pressed": String(p.id === picked) }));
      })),
      pl
        ? h("form", { class: "row", id: "cb-place-form" }, h("span", {}, `${pl.name}:`), col.row, row.row, h("button", { type: "submit", id: "cb-place-put" }, "Put him there"))
        : h("p", { class: "note" }, "No player picked."),
    );
    const f = el.placement.querySelector("#cb-place-form");
    f?.addEventListener("submit", (e) => {
      e.preventDefault();
      put({ x: Number(col.input.value) - 1, y: Number(row.input.value) - 1 });
    });
  }

  function renderButtons() {
    const st = m();
    const show: HTMLElement[] = [];
    if (toAct() && st.phase === "setup" && draft.size) {
      show.push(button("Confirm placement", () => send("place", { positions: [...draft].map(([player, p]) => ({ player, x: p.x, y: p.y })) }), { id: "cb-place-0", class: "primary" }));
    }
    if (toAct() && st.phase === "play") {
      const up = picked && moves.find((mv) => mv.type === "standUp" && mv.payload?.player === picked);
      if (up) show.push(button("Stand up", () => send("standUp", up.payload), { id: "cb-stand-up" }));
      if (moves.some((mv) => mv.type === "endTurn")) show.push(endTurnBtn);
    }
    if (mySide() === "home" && st.phase === "waiting" && !opts.watch) show.push(...botBtns);
    if (mySide() && st.phase !== "over" && !opts.watch) show.push(forfeitBtn);
    replace(el.buttons, ...show);
  }

  const chatText = field("message", { id: "cb-chat-text", maxlength: 280 });
  const chatErr = new ErrorBox();
  const chatSend = button("Send", () => chatErr.run(async () => {
    await act("CodeBowl", { gameId: id, type: "chat", text: chatText.input.value });
    chatText.input.value = "";
  }), { id: "cb-chat-send" });
  const chatForm = h("form", { class: "row", id: "cb-chat-form", hidden: !!opts.watch }, chatText.row, chatSend);
  chatForm.addEventListener("submit", (e) => {
    e.preventDefault();
    chatSend.click();
  });

  // The meta line is blank until the game arrives, then drawn whole: its
  // words appear at once instead of sliding right as each value fills in.
  const meta = h("p", { class: "meta" }, "\u00a0");
  const metaParts = ["phase ", el.phase, " · version ", el.version, " · ", el.half, " · timer ", el.timer,
    opts.watch ? " · watching" : h("span", {}, " · ", h("a", { href: `#/watch/${id}`, id: "spectate-link" }, "spectator link"))];
  root.replaceChildren(
    el.title,
    meta,
    el.room,
    err.el,
    el.score,
    el.turn,
    // What grows once the match (or its legal moves) arrives comes last in
    // its column, so nothing is pushed down (layout shift): the controls,
    // then the placement beside the pitch; the chat, then the log under it.
    h("div", { class: "pb-layout" },
      h("div", {},
        h("div", { class: "pb-boardbox" }, pitch, h("p", { class: "note" }, "Home (blue circles) plays the left half and scores in the right column; away (red diamonds) the other way. ↓: knocked down; faded: has acted; brown: the ball. Numbers are roster numbers.")),
        h("h2", {}, "Chat"), el.chat, chatForm, chatErr.el,
        h("h2", {}, "Log"), el.log),
      h("div", {}, el.buttons, el.result, el.picked, el.placement)),
    el.rosters,
  );

  function render() {
    const st = m();
    if (!game || !st) return;
    if (!meta.childElementCount) replace(meta, ...metaParts);
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
      : st.phase === "setup" ? (st.placing === side ? `Your placement (${side === st.offense ? "offense" : "defense"}): place your players, then confirm.` : `${name(st.placing)} places.`)
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

  const watch = await (opts.source?.watchGame ?? watchGame)(s, id, {
    game(g) {
      if (!g) return err.show(`no game ${id}`);
      if (g.kind !== "codebowl") return navigate(`#/watch/${id}`);
      const first = !game;
      game = g;
      render();
      if (first && g.hasRoom && mySide() && g.state.phase === "waiting") {
        showRoomCode(s, g, el.room, "your opponent", (e) => err.show(e));
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
