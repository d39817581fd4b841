// A Hex & Dice game, live: the hex map (games/{id}/public/map, written once
// at create) drawn as SVG with the troops and structures of the game state,
// whose turn, coins, the turn timer; and, in alternating mode, play by
// clicking: a troop of yours asks `preview` for its moves (blue) and
// targets (red), a blue hex moves it, a red one attacks; a green hex (next
// to a spawn structure of yours) offers the units to buy. Simultaneous mode's
// orders are not supported here yet: the page shows the game read-only.

import { doc, getDoc } from "firebase/firestore";
import { act, type Session } from "../api";
import { firestoreFor } from "../firebase";
import { deadlineClock, millis, showRoomCode, watchGame, type GameDoc } from "../live";
import { ErrorBox, button, h, navigate, replace, svg } from "../ui";
import { describeRecord } from "./spectate";
import "./boards.css";
import { now, pageTimings } from "../timings";

interface Hex {
  q: number;
  r: number;
}
interface MapDoc {
  radius: number;
  hexes: (Hex & { terrain: string })[];
}
interface Preview {
  seat: number;
  canBuy: boolean;
  buys: (Hex & { units: string[] })[];
  troop?: { troop: number; canMove: boolean; canAttack: boolean; reachable: (Hex & { cost: number })[]; targets: Hex[] };
}

const SEAT_COLOURS = ["#2f6db3", "#c1121f"];
const NEUTRAL = "#6b6b6b";
const UNIT_LETTERS: Record<string, string> = { marine: "Ma", sniper: "Sn", hoverbike: "Hb", mech: "Me" };
const STRUCT_LETTERS: Record<string, string> = { hq: "HQ", commandCenter: "CC", outpost: "Op" };
const HEARTBEAT_MS = 20_000;

const SIZE = 20; // hex radius in SVG units
const key = (p: Hex) => `${p.q},${p.r}`;
const centre = (p: Hex) => ({ x: SIZE * Math.sqrt(3) * (p.q + p.r / 2), y: SIZE * 1.5 * p.r });
function corners(p: Hex): string {
  const { x, y } = centre(p);
  return Array.from({ length: 6 }, (_, i) => {
    const a = (Math.PI / 180) * (60 * i - 30);
    return `${(x + SIZE * Math.cos(a)).toFixed(1)},${(y + SIZE * Math.sin(a)).toFixed(1)}`;
  }).join(" ");
}
const colour = (seat: number) => SEAT_COLOURS[seat] ?? NEUTRAL;

export async function hexdicePage(root: HTMLElement, [id]: string[], s: Session): Promise<() => void> {
  const timings = pageTimings();
  const me = s.player.id;
  const err = new ErrorBox();
  const el = {
    phase: h("span", { id: "phase" }),
    version: h("span", { id: "version" }),
    round: h("span", { id: "hd-round" }),
    timer: h("span", { id: "timer" }),
    turn: h("p", { id: "turn", class: "turn" }),
    room: h("p", { id: "room", hidden: true }),
    note: h("p", { id: "hd-note", class: "note", hidden: true }),
    players: h("div", { id: "hd-players", class: "cols" }),
    selection: h("div", { id: "hd-selection" }),
    buttons: h("div", { class: "row buttons", id: "buttons" }),
    result: h("p", { id: "result", class: "result" }),
    events: h("ol", { id: "events", class: "events", reversed: true }),
  };
  const board = svg("svg", { id: "hd-board", class: "hd-board" });
  let game: GameDoc | null = null;
  let map: MapDoc | null = null;
  let preview: Preview | null = null; // the shop and, when a troop is picked, its highlights
  let picked: number | null = null;
  let buyHex: Hex | null = null;
  let previewFor = -1; // the version the preview was asked for
  const clock = deadlineClock(el.timer, 10_000, () => void err.run(() => act("HexDice", { gameId: id, type: "advance" })));

  const st = () => game?.state;
  const mySeat = (): number => (st()?.players ?? []).findIndex((p: any) => p.id === me);
  const myTurn = () => st()?.phase === "playing" && st()?.mode === "alternating" && st()?.current === mySeat() && mySeat() >= 0;

  const send = (type: string, extra: Record<string, unknown> = {}) =>
    err.run(async () => {
      const click: (typeof timings.clicks)[number] = { at: now(), version: game?.version ?? -1, type };
      timings.clicks.push(click);
      const r = await act("HexDice", { gameId: id, type, ...extra });
      click.replied = now();
      return r;
    });

  async function refreshPreview() {
    if (!game) return;
    previewFor = game.version;
    if (!myTurn()) {
      preview = null;
      picked = null;
      buyHex = null;
      return drawHighlights();
    }
    const body: Record<string, unknown> = { gameId: id, type: "preview" };
    if (picked !== null && (st().troops ?? []).some((t: any) => t.id === picked && t.owner === mySeat())) body.troop = picked;
    else picked = null;
    const r = await err.run(() => act<Preview>("HexDice", body));
    if (r && previewFor === game.version) {
      preview = r.result;
      drawHighlights();
    }
  }

  const btn = {
    join: button("Join", () => send("join"), { id: "hd-join" }),
    endTurn: button("End turn", async () => {
      picked = null;
      buyHex = null;
      await send("endTurn");
    }, { id: "hd-end-turn", class: "primary" }),
    surrender: button("Surrender", () => (confirm("Surrender this game?") ? send("surrender") : undefined), { id: "hd-surrender" }),
  };

  async function onHex(p: Hex) {
    if (!game || !myTurn()) return;
    const troopThere = (st().troops ?? []).find((t: any) => t.q === p.q && t.r === p.r);
    const tp = preview?.troop;
    if (tp && picked !== null) {
      if (tp.canAttack && tp.targets.some((x) => key(x) === key(p))) {
        await send("attack", { troop: picked, q: p.q, r: p.r });
        return;
      }
      if (tp.canMove && tp.reachable.some((x) => key(x) === key(p))) {
        await send("move", { troop: picked, q: p.q, r: p.r });
        return;
      }
    }
    if (troopThere && troopThere.owner === mySeat()) {
      picked = troopThere.id;
      buyHex = null;
      await refreshPreview();
      return;
    }
    const buy = preview?.buys.find((b) => key(b) === key(p));
    picked = null;
    buyHex = buy && preview?.canBuy ? p : null;
    await refreshPreview();
  }

  board.addEventListener("click", (e) => {
    const t = (e.target as Element).closest("[data-q]");
    if (t) void onHex({ q: Number(t.getAttribute("data-q")), r: Number(t.getAttribute("data-r")) });
  });

  // The map never changes: one read of its document.
  const db = await firestoreFor(s);
  const mapSnap = await getDoc(doc(db, "games", id, "public", "map"));
  if (!mapSnap.exists()) throw new Error(`game ${id} has no map document`);
  map = mapSnap.data() as MapDoc;
  const R = map.radius + 1;
  const w = SIZE * Math.sqrt(3) * (2 * R);
  const hgt = SIZE * 1.5 * (2 * R);
  board.setAttribute("viewBox", `${-w / 2} ${-hgt / 2} ${w} ${hgt}`);
  const hexLayer = svg("g", {});
  const highlightLayer = svg("g", { class: "hd-highlights" });
  const pieceLayer = svg("g", {});
  for (const x of map.hexes) {
    hexLayer.append(svg("polygon", { points: corners(x), class: `hd-hex t-${x.terrain}`, "data-q": x.q, "data-r": x.r, id: `hex-${x.q}_${x.r}` }, svg("title", {}, `${x.terrain} (${x.q}, ${x.r})`)));
  }
  board.append(hexLayer, highlightLayer, pieceLayer);

  function drawHighlights() {
    const out: SVGElement[] = [];
    const mark = (p: Hex, cls: string) => out.push(svg("polygon", { points: corners(p), class: `hd-mark ${cls}`, "data-q": p.q, "data-r": p.r }));
    const tp = preview?.troop;
    if (tp && picked !== null) {
      if (tp.canMove) tp.reachable.forEach((x) => mark(x, "reach"));
      if (tp.canAttack) tp.targets.forEach((x) => mark(x, "target"));
    } else if (preview?.canBuy) preview.buys.filter((b) => b.units.length).forEach((b) => mark(b, buyHex && key(buyHex) === key(b) ? "buy picked" : "buy"));
    replace(highlightLayer as unknown as Element, ...out);
    drawPieces();
    renderSelection();
  }

  function drawPieces() {
    const g = st();
    if (!g) return;
    const out: SVGElement[] = [];
    for (const x of g.structures ?? []) {
      const { x: cx, y: cy } = centre(x);
      out.push(svg("g", { class: "hd-structure", "data-q": x.q, "data-r": x.r, "data-structure": x.id },
        svg("rect", { x: cx - 12, y: cy - 12, width: 24, height: 24, rx: 3, fill: colour(x.owner) }),
        svg("text", { x: cx, y: cy - 1, class: "hd-label" }, STRUCT_LETTERS[x.kind] ?? x.kind),
        svg("text", { x: cx, y: cy + 9, class: "hd-hp" }, String(x.hp)),
        svg("title", {}, `${x.kind} ${x.id} · ${x.owner < 0 ? "neutral" : g.players[x.owner]?.name} · ${x.hp} HP`)));
    }
    for (const t of g.troops ?? []) {
      const { x: cx, y: cy } = centre(t);
      const spent = t.owner === g.current && (t.moved && t.attacked);
      out.push(svg("g", { class: `hd-troop${t.id === picked ? " picked" : ""}${spent || !t.ready ? " spent" : ""}`, "data-q": t.q, "data-r": t.r, "data-troop": t.id, "data-owner": t.owner },
        svg("circle", { cx, cy, r: 13, fill: colour(t.owner) }),
        svg("text", { x: cx, y: cy - 1, class: "hd-label" }, UNIT_LETTERS[t.type] ?? t.type),
        svg("text", { x: cx, y: cy + 9, class: "hd-hp" }, String(t.hp)),
        svg("title", {}, `${t.type} #${t.id} · ${g.players[t.owner]?.name} · ${t.hp} HP${t.moved ? " · moved" : ""}${t.attacked ? " · attacked" : ""}${t.ready ? "" : " · not ready"}`)));
    }
    replace(pieceLayer as unknown as Element, ...out);
  }

  function renderSelection() {
    const g = st();
    const parts: (Node | string)[] = [];
    const troop = picked !== null ? (g?.troops ?? []).find((t: any) => t.id === picked) : null;
    if (troop) {
      const tp = preview?.troop;
      parts.push(h("p", {}, `Picked: ${troop.type} #${troop.id} (${troop.hp} HP). `,
        tp ? `${tp.canMove ? `${tp.reachable.length} hexes to move to (blue)` : "cannot move"} · ${tp.canAttack ? `${tp.targets.length} targets (red)` : "cannot attack"}` : ""));
    }
    if (buyHex && preview) {
      const b = preview.buys.find((x) => key(x) === key(buyHex!));
      const cfg = g?.config?.units ?? {};
      parts.push(h("p", {}, `Buy on (${buyHex.q}, ${buyHex.r}): `,
        ...(b?.units ?? []).map((u) => button(`${u} (${cfg[u]?.cost ?? "?"})`, async () => {
          const at = buyHex!;
          buyHex = null;
          await send("buy", { unit: u, q: at.q, r: at.r });
        }, { id: `hd-buy-${u}`, class: "move" }))));
    }
    if (!parts.length && myTurn()) parts.push(h("p", { class: "note" }, "Click a troop of yours to see its moves (blue) and targets (red), or a green hex to buy."));
    replace(el.selection, ...parts);
  }

  root.replaceChildren(
    h("h1", {}, "Hex & Dice"),
    h("p", { class: "meta" }, "phase ", el.phase, " · version ", el.version, " · ", el.round, " · timer ", el.timer, " · ", h("a", { href: `#/watch/${id}`, id: "spectate-link" }, "spectator link")),
    el.room,
    el.note,
    err.el,
    el.turn,
    el.players,
    h("div", { class: "pb-layout" },
      h("div", { class: "pb-boardbox" }, board),
      h("div", {}, el.selection, el.buttons, el.result,
        h("p", { class: "note" }, "Ma marine · Sn sniper · Hb hoverbike · Me mech · HQ / CC command center / Op outpost; the number is HP."),
        h("h2", {}, "Events"), el.events)),
  );

  function render() {
    const g = st();
    if (!game || !g) return;
    timings.seen[game.version] ??= now();
    el.phase.textContent = g.phase;
    el.version.textContent = String(game.version);
    el.round.textContent = `round ${g.round ?? 0} · turn ${g.turn ?? 0} · ${g.mode} · ${g.size}`;
    const seat = mySeat();
    board.setAttribute("data-seat", String(seat));
    el.note.hidden = g.mode !== "simultaneous";
    el.note.textContent = "Simultaneous mode: orders are not supported in this page yet; it shows the game as it goes (the API's orders action plays it).";
    replace(el.players, ...(g.players ?? []).map((p: any, i: number) =>
      h("div", { class: `player${g.current === i && g.phase === "playing" ? " on-turn" : ""}`, id: `hd-player-${i}` },
        h("h3", { style: `color:${colour(i)}` }, `${p.name}${p.id === me ? " (you)" : ""}`),
        h("p", {}, h("span", { id: `hd-coins-${i}` }, String(p.coins)), " coins · dominance ", String(p.dominance ?? 0),
          ` · ${(g.troops ?? []).filter((t: any) => t.owner === i).length} troops · ${(g.structures ?? []).filter((x: any) => x.owner === i).length} structures`,
          p.disconnectedAt ? " · disconnected" : ""))));
    const cur = g.players?.[g.current];
    el.turn.textContent =
      g.phase === "waiting" ? "Waiting for an opponent to join."
      : g.phase === "over" ? "The game is over."
      : g.mode === "simultaneous" ? "Both players plan their orders."
      : myTurn() ? "Your turn." : `${cur?.name ?? "?"}'s turn.`;
    if (g.phase === "over") {
      const res = g.result ?? {};
      el.result.textContent = res.reason === "cancelled" ? "Cancelled." : res.winner < 0 || res.draw ? `A draw (${res.reason}).` : `${g.players?.[res.winner]?.name ?? "?"} wins (${res.reason}).`;
    } else el.result.textContent = "";
    const show: HTMLButtonElement[] = [];
    if (g.phase === "waiting" && seat < 0) show.push(btn.join);
    if (myTurn()) show.push(btn.endTurn);
    if (seat >= 0 && (g.phase === "playing" && (g.round ?? 0) >= 5)) show.push(btn.surrender);
    if (seat === 0 && g.phase === "waiting") {
      btn.surrender.textContent = "Cancel the room";
      show.push(btn.surrender);
    } else btn.surrender.textContent = "Surrender";
    if (show.length !== el.buttons.children.length || show.some((b, i) => el.buttons.children[i] !== b)) replace(el.buttons, ...show);
    if (previewFor !== game.version) void refreshPreview();
    drawPieces();
    renderSelection();
    tick();
  }

  function tick() {
    const g = st();
    clock(g?.phase === "playing" ? millis(g.turnDeadline) : undefined, mySeat() >= 0, "–");
  }

  // The connection clocks: a seated player silent for 60 s is marked
  // disconnected, then forfeits; any action counts, so beat only when idle.
  let lastSent = Date.now();
  const beat = setInterval(() => {
    if (st()?.phase !== "playing" || mySeat() < 0) return;
    const lastClick = timings.clicks.at(-1)?.at ?? 0;
    if (Date.now() - Math.max(lastSent, lastClick) < HEARTBEAT_MS) return;
    lastSent = Date.now();
    void err.run(() => act("HexDice", { gameId: id, type: "heartbeat" }));
  }, 2000);
  const timer = setInterval(tick, 250);

  const watch = await watchGame(s, id, {
    game(g) {
      if (!g) return err.show(`no game ${id}`);
      if (g.kind !== "hexdice") return navigate(`#/watch/${id}`);
      const first = !game;
      game = g;
      render();
      if (first && g.hasRoom && mySeat() >= 0 && g.state.phase === "waiting") {
        showRoomCode(s, id, el.room, "your opponent", (e) => err.show(e));
      }
      if (g.state.phase !== "waiting") el.room.hidden = true;
    },
    events(r) {
      replace(el.events, ...r.slice(-30).reverse().map((rec) => h("li", {}, describeRecord(rec))));
    },
    error: (e) => err.show(e),
  });
  return () => {
    clearInterval(timer);
    clearInterval(beat);
    watch.stop();
  };
}
