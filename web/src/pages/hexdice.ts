// A Hex & Dice game, live: the hex map (games/{id}/public/map, written once
// at create) drawn as SVG with a terrain legend (colour and pattern), the
// troops and structures of the game state, whose turn, coins, the turn
// timer, the emotes and the log in words.
//
// Play, by pointer or keyboard: a troop of yours (click it, or pick it in
// "Your troops") asks `preview` for its moves (blue) and targets (red); a
// blue hex moves it, a red one attacks; a green hex (next to a spawn
// structure of yours) offers the units to buy. The same choices are listed
// as selects and buttons beside the map, so every action has a keyboard
// path. In alternating mode each choice is sent at once; in simultaneous
// mode it goes into this round's orders (drawn on the map as arrows,
// listed with a remove button), which the player saves as a draft or
// submits (the `orders` action). With opts.watch the page is the
// read-only spectator view.
//
// Fog of war (a room created with fog; hexfog.ts): while it is played the
// game document has no troops or structures, so a player's page draws the
// board from its own view document (fog over the map: unseen hexes dark,
// remembered ones dimmed and hatched) and its log from the view's events; a
// spectator sees the public account (no pieces) until the game is over. On
// the replay page (opts.source, read-only) a player of the game sees its own
// view of each frame, as it saw the game then.

import { act, ask, type Session } from "../api";
import { deadlineClock, live, mergeRecords, showRoomCode, watchGame, type EventRecord, type GameDoc, type Watch } from "../live";
import { millis } from "../firebase";
import { ErrorBox, button, h, navigate, replace, select, svg } from "../ui";
import { PLAYING, recordText, type PageOpts } from "./words";
import "./boards.css";
import { now, pageTimings } from "../timings";
import { fogDefs, fogLegend, fogShapes, hexLabel, openView, viewRecords, watchView, type ViewDoc } from "./hexfog";

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
  /** The caller's own orders saved this round (simultaneous mode). */
  orders?: { round: number; submitted: boolean; troops?: { troop: number; move?: Hex; attack?: Hex }[]; buys?: (Hex & { unit: string })[] };
}
interface Plan {
  round: number;
  troops: Map<number, { move?: Hex; attack?: Hex }>;
  buys: { unit: string; q: number; r: number }[];
}

const SEAT_COLOURS = ["#2f6db3", "#c1121f"];
const SEAT_NAMES = ["blue", "red"];
const NEUTRAL = "#6b6b6b";
const UNIT_LETTERS: Record<string, string> = { marine: "Ma", sniper: "Sn", hoverbike: "Hb", mech: "Me" };
const STRUCT_LETTERS: Record<string, string> = { hq: "HQ", commandCenter: "CC", outpost: "Op" };
const STRUCT_NAMES: Record<string, string> = { hq: "HQ", commandCenter: "command center", outpost: "outpost" };
const TERRAINS = ["plains", "forest", "hills", "water", "mountains"];
const EMOTES: [string, string][] = [
  ["hello", "Hello!"], ["goodMove", "Good move!"], ["gg", "GG"], ["oops", "Oops"],
  ["wellPlayed", "Well played"], ["thanks", "Thanks!"], ["hurry", "Hurry up!"], ["wow", "Wow!"],
];
const HEARTBEAT_MS = 20_000;

const SIZE = 20; // hex radius in SVG units
const key = (p: Hex) => `${p.q},${p.r}`;
const at = (p: Hex) => `(${p.q}, ${p.r})`;
const centre = (p: Hex) => ({ x: SIZE * Math.sqrt(3) * (p.q + p.r / 2), y: SIZE * 1.5 * p.r });
function corners(p: Hex): string {
  const { x, y } = centre(p);
  return Array.from({ length: 6 }, (_, i) => {
    const a = (Math.PI / 180) * (60 * i - 30);
    return `${(x + SIZE * Math.cos(a)).toFixed(1)},${(y + SIZE * Math.sin(a)).toFixed(1)}`;
  }).join(" ");
}
const colour = (seat: number) => SEAT_COLOURS[seat] ?? NEUTRAL;

/** The terrains' patterns (so terrain is not told by colour alone), as SVG defs. */
function terrainDefs(): SVGElement {
  const pat = (id: string, ...shapes: SVGElement[]) => svg("pattern", { id, width: 8, height: 8, patternUnits: "userSpaceOnUse" }, ...shapes);
  const ink = { stroke: "#000", "stroke-opacity": 0.28, "stroke-width": 1, fill: "none" };
  return svg("defs", {},
    pat("hd-p-forest", svg("circle", { cx: 4, cy: 4, r: 1.6, fill: "#000", "fill-opacity": 0.25 })),
    pat("hd-p-hills", svg("path", { d: "M0 6 Q4 1 8 6", ...ink })),
    pat("hd-p-water", svg("path", { d: "M0 4 Q2 2 4 4 T8 4", ...ink })),
    pat("hd-p-mountains", svg("path", { d: "M0 8 L4 1 L8 8", ...ink })),
  );
}

export async function hexdicePage(root: HTMLElement, [id]: string[], s: Session, opts: PageOpts = PLAYING): Promise<() => void> {
  const timings = pageTimings();
  const me = opts.watch ? "" : s.player.id;
  const err = new ErrorBox();
  const el = {
    phase: h("span", { id: "phase" }),
    version: h("span", { id: "version" }),
    round: h("span", { id: "hd-round" }),
    timer: h("span", { id: "timer" }),
    // The turn line and the two player cards hold their space from the first
    // paint (blank until the game arrives): filling them moves nothing below.
    turn: h("p", { id: "turn", class: "turn", role: "status" }, "\u00a0"),
    room: h("p", { id: "room", hidden: true }),
    fogNote: h("p", { id: "hd-fog-note", class: "note", hidden: true }),
    // One card a line: their height never depends on how long the names are.
    players: h("div", { id: "hd-players", class: "cols", style: "flex-direction:column" }, ...[0, 1].map(() =>
      h("div", { class: "player", "aria-hidden": "true" }, h("h2", { class: "player-name" }, "\u00a0"), h("p", {}, "\u00a0")))),
    troops: h("div", { id: "hd-troops" }),
    selection: h("div", { id: "hd-selection" }),
    orders: h("section", { id: "hd-orders", class: "card", hidden: true, "aria-label": "Your orders this round" }),
    buttons: h("div", { class: "row buttons", id: "buttons" }),
    result: h("p", { id: "result", class: "result" }),
    emotes: h("ul", { id: "hd-emotes", class: "hd-emotes", "aria-live": "polite" }),
    emoteButtons: h("div", { id: "hd-emote-buttons", class: "row", role: "group", "aria-label": "Send an emote" }),
    legend: h("ul", { id: "hd-legend", class: "hd-legend", "aria-label": "Legend: terrain, and fog in a fog game" }),
    // Focusable: a keyboard can scroll the log (axe: scrollable-region-focusable).
    events: h("ol", { id: "events", class: "events hd-log", reversed: true, tabindex: 0, "aria-label": "Events, newest first" }),
  };
  const board = svg("svg", { id: "hd-board", class: "hd-board", role: "img", "aria-label": "The hex map" });
  let game: GameDoc | null = null;
  let map: MapDoc | null = null;
  let preview: Preview | null = null; // the shop and, when a troop is picked, its highlights
  let picked: number | null = null;
  let buyHex: Hex | null = null;
  let previewFor = ""; // what the preview was asked for (version, troop, from)
  let previewTries = 0; // asked again after a refusal or failure, for the same version
  let plan: Plan = { round: -1, troops: new Map(), buys: [] };
  let draftLoaded = false;
  let view: ViewDoc | null = null; // a fog game's view document (players only)
  let viewWatch: Promise<Watch> | null = null;
  let viewText = ""; // the view sealed for the player in the game document, as last opened
  /** showView draws the player's view (a fog game), wherever it came from. */
  const showView = (v: ViewDoc | null) => {
    view = v;
    render();
    renderLog();
  };
  let neutral: EventRecord[] = []; // the public log (the game document's and the events')
  const clock = deadlineClock(el.timer, 10_000, () => void err.run(() => act("HexDice", { gameId: id, type: "advance" })));

  const st = () => game?.state;
  const mySeat = (): number => (me ? (st()?.players ?? []).findIndex((p: any) => p.id === me) : -1);
  // Whose fog the board shows: the player's; on a replay (opts.source) the
  // signed-in player's own view too, though the page is read-only.
  const viewer = opts.source ? s.player.id : me;
  const fogSeat = (): number => (viewer ? (st()?.players ?? []).findIndex((p: any) => p.id === viewer) : -1);
  const simultaneous = () => st()?.mode === "simultaneous";
  const myTurn = () => st()?.phase === "playing" && !simultaneous() && st()?.current === mySeat() && mySeat() >= 0;
  const planning = () => st()?.phase === "playing" && simultaneous() && mySeat() >= 0 && !st()?.players?.[mySeat()]?.submitted;
  const canAct = () => myTurn() || planning();
  /** fogOn: the game hides its board (a fog game, not over): pieces come from the view. */
  const fogOn = () => !!st()?.fog && st()?.phase !== "over";
  const pieces = (): { troops: any[]; structures: any[] } =>
    fogOn() ? { troops: view?.view?.troops ?? [], structures: view?.view?.structures ?? [] } : { troops: st()?.troops ?? [], structures: st()?.structures ?? [] };
  const troopById = (t: number) => pieces().troops.find((x: any) => x.id === t);
  const terrainAt = (p: Hex) => map?.hexes.find((x) => x.q === p.q && x.r === p.r)?.terrain ?? "?";
  const whatAt = (p: Hex): string => {
    const g = st();
    const t = pieces().troops.find((x: any) => x.q === p.q && x.r === p.r);
    if (t) return `${t.type} #${t.id} of ${g.players[t.owner]?.name ?? "?"} (${t.hp} HP)`;
    const x = pieces().structures.find((y: any) => y.q === p.q && y.r === p.r);
    if (x) return `${STRUCT_NAMES[x.kind] ?? x.kind} ${x.owner < 0 ? "(neutral)" : `of ${g.players[x.owner]?.name ?? "?"}`} (${x.hp === undefined ? "last seen" : `${x.hp} HP`})`;
    return terrainAt(p);
  };

  const send = (type: string, extra: Record<string, unknown> = {}) =>
    err.run(async () => {
      const click: (typeof timings.clicks)[number] = { at: now(), version: game?.version ?? -1, type };
      timings.clicks.push(click);
      const r = await act("HexDice", { gameId: id, type, ...extra });
      click.replied = now();
      return r;
    });

  /** The hex a picked troop attacks from: its planned move's end (simultaneous), else where it stands. */
  const fromOf = (t: number): Hex | undefined => (simultaneous() ? plan.troops.get(t)?.move : undefined);

  async function refreshPreview() {
    if (!game) return;
    if (!canAct()) {
      previewFor = `${game.version}`;
      preview = null;
      picked = null;
      buyHex = null;
      return drawHighlights();
    }
    const body: Record<string, unknown> = { gameId: id, type: "preview" };
    if (picked !== null && troopById(picked)?.owner === mySeat()) {
      body.troop = picked;
      const from = fromOf(picked);
      if (from) Object.assign(body, from);
    } else picked = null;
    const version = game.version;
    const want = `${version}|${picked}|${body.q ?? ""},${body.r ?? ""}`;
    if (previewFor !== want) previewTries = 0;
    previewFor = want;
    const r = await err.run(() => ask<Preview>("HexDice", version, body));
    if (r && previewFor === want) {
      previewTries = 0;
      preview = r.result;
      drawHighlights();
    } else if (!r && previewFor === want && game?.version === version && previewTries < 3) {
      // Refused as stale before this page's listener saw the newer version,
      // or failed on the way: no newer snapshot may come to ask again (the
      // opponent waits for this player), so ask again in a moment.
      previewTries++;
      setTimeout(() => {
        if (previewFor === want) void refreshPreview();
      }, 300 * previewTries);
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
    // The host seats a bot in a waiting room (docs/bots.md); after the game
    // both may ask for a rematch (docs/hexdice.md "Rematch").
    botRandom: button("Play a random bot", () => send("addBot", { level: "random" }), { id: "hd-bot-random" }),
    botStrong: button("Play a strong bot", () => send("addBot", { level: "strong" }), { id: "hd-bot-strong" }),
    rematch: button("Rematch", () => send("rematch"), { id: "hd-rematch" }),
  };

  // ---- the choices, sent (alternating) or planned (simultaneous) ----
  async function moveTo(p: Hex) {
    if (picked === null) return;
    if (simultaneous()) {
      // A new move drops the planned attack: its targets are asked again from the new hex.
      plan.troops.set(picked, { move: p, attack: undefined });
      await refreshPreview();
      renderOrders();
      return;
    }
    await send("move", { troop: picked, q: p.q, r: p.r });
  }
  async function attackAt(p: Hex) {
    if (picked === null) return;
    if (simultaneous()) {
      plan.troops.set(picked, { ...(plan.troops.get(picked) ?? {}), attack: p });
      drawHighlights();
      renderOrders();
      return;
    }
    await send("attack", { troop: picked, q: p.q, r: p.r });
  }
  async function buy(unit: string, p: Hex) {
    buyHex = null;
    if (simultaneous()) {
      plan.buys = plan.buys.filter((b) => key(b) !== key(p));
      plan.buys.push({ unit, q: p.q, r: p.r });
      drawHighlights();
      renderOrders();
      return;
    }
    await send("buy", { unit, q: p.q, r: p.r });
  }
  async function pick(t: number | null) {
    picked = t;
    buyHex = null;
    await refreshPreview();
  }

  async function onHex(p: Hex) {
    if (!game || !canAct()) return;
    const troopThere = pieces().troops.find((t: any) => t.q === p.q && t.r === p.r);
    const tp = preview?.troop;
    if (tp && picked !== null) {
      if (tp.canAttack && tp.targets.some((x) => key(x) === key(p))) return attackAt(p);
      if (tp.canMove && tp.reachable.some((x) => key(x) === key(p))) return moveTo(p);
    }
    if (troopThere && troopThere.owner === mySeat()) return pick(troopThere.id);
    const b = preview?.buys.find((x) => key(x) === key(p));
    picked = null;
    buyHex = b && preview?.canBuy ? p : null;
    await refreshPreview();
  }

  board.addEventListener("click", (e) => {
    const t = (e.target as Element).closest("[data-q]");
    if (t) void onHex({ q: Number(t.getAttribute("data-q")), r: Number(t.getAttribute("data-r")) });
  });

  // The map never changes: one read of its document.
  const mapDoc = await (opts.source ?? live).readDoc(s, id, "public/map");
  if (!mapDoc) throw new Error(`game ${id} has no map document`);
  map = mapDoc as MapDoc;
  const R = map.radius + 1;
  const w = SIZE * Math.sqrt(3) * (2 * R);
  const hgt = SIZE * 1.5 * (2 * R);
  board.setAttribute("viewBox", `${-w / 2} ${-hgt / 2} ${w} ${hgt}`);
  const hexLayer = svg("g", {});
  const fogLayer = svg("g", { class: "hd-foglayer" });
  const hexEls: SVGElement[] = [];
  const highlightLayer = svg("g", { class: "hd-highlights" });
  const planLayer = svg("g", { class: "hd-plan" });
  const pieceLayer = svg("g", {});
  for (const x of map.hexes) {
    const hexEl = svg("polygon", { points: corners(x), class: `hd-hex t-${x.terrain}`, "data-q": x.q, "data-r": x.r, id: `hex-${x.q}_${x.r}`, "aria-label": hexLabel(x, undefined) }, svg("title", {}, `${x.terrain} (${x.q}, ${x.r})`));
    hexEls.push(hexEl);
    hexLayer.append(hexEl);
    if (x.terrain !== "plains") hexLayer.append(svg("polygon", { points: corners(x), class: "hd-texture", fill: `url(#hd-p-${x.terrain})`, "data-q": x.q, "data-r": x.r }));
  }
  board.append(terrainDefs(), fogDefs(), hexLayer, fogLayer, highlightLayer, planLayer, pieceLayer);

  /** drawFog covers the map as the player's view says (nothing outside a fog game, or for a spectator). */
  let drawnFog: string | undefined | null = null; // null: not drawn yet
  function drawFog() {
    const fog = fogOn() && view ? view.view.fog : undefined;
    if (fog === drawnFog) return;
    drawnFog = fog;
    board.setAttribute("data-fog", fog === undefined ? "off" : "on");
    replace(fogLayer as unknown as Element, ...(fog === undefined ? [] : fogShapes(map!.hexes, fog, corners)));
    map!.hexes.forEach((x, i) => {
      const f = fog === undefined ? undefined : (fog[i] ?? "0");
      const label = hexLabel(x, f);
      const hexEl = hexEls[i];
      hexEl.setAttribute("aria-label", label);
      if (f === undefined) hexEl.removeAttribute("data-fog");
      else hexEl.setAttribute("data-fog", f);
      hexEl.firstElementChild!.textContent = label;
    });
  }

  function drawHighlights() {
    const out: SVGElement[] = [];
    const mark = (p: Hex, cls: string) => out.push(svg("polygon", { points: corners(p), class: `hd-mark ${cls}`, "data-q": p.q, "data-r": p.r }));
    const tp = preview?.troop;
    if (tp && picked !== null) {
      if (tp.canMove) tp.reachable.forEach((x) => mark(x, "reach"));
      if (tp.canAttack) tp.targets.forEach((x) => mark(x, "target"));
    } else if (preview?.canBuy) preview.buys.filter((b) => b.units.length).forEach((b) => mark(b, buyHex && key(buyHex) === key(b) ? "buy picked" : "buy"));
    replace(highlightLayer as unknown as Element, ...out);
    drawPlan();
    drawPieces();
    renderSelection();
  }

  /** drawPlan draws this round's orders: a dashed arrow per move, a cross per attack, a ghost per buy. */
  function drawPlan() {
    const out: SVGElement[] = [];
    if (simultaneous() && mySeat() >= 0) {
      for (const [t, o] of plan.troops) {
        const tr = troopById(t);
        if (!tr) continue;
        const a = centre(tr);
        if (o.move) {
          const b = centre(o.move);
          out.push(svg("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: "hd-plan-move", "data-troop": t }));
          out.push(svg("circle", { cx: b.x, cy: b.y, r: 6, class: "hd-plan-dest" }));
        }
        if (o.attack) {
          const c = centre(o.attack);
          out.push(svg("path", { d: `M${c.x - 7} ${c.y - 7} L${c.x + 7} ${c.y + 7} M${c.x + 7} ${c.y - 7} L${c.x - 7} ${c.y + 7}`, class: "hd-plan-attack" }));
        }
      }
      for (const b of plan.buys) {
        const c = centre(b);
        out.push(svg("circle", { cx: c.x, cy: c.y, r: 12, class: "hd-plan-buy" }), svg("text", { x: c.x, y: c.y + 3, class: "hd-label hd-plan-label" }, UNIT_LETTERS[b.unit] ?? b.unit));
      }
    }
    replace(planLayer as unknown as Element, ...out);
  }

  function drawPieces() {
    const g = st();
    if (!g) return;
    const out: SVGElement[] = [];
    const { troops, structures } = pieces();
    for (const x of structures) {
      const { x: cx, y: cy } = centre(x);
      // A structure remembered through the fog has no HP: drawn faded, "?".
      const remembered = x.hp === undefined;
      out.push(svg("g", { class: `hd-structure${remembered ? " remembered" : ""}`, "data-q": x.q, "data-r": x.r, "data-structure": x.id },
        svg("rect", { x: cx - 12, y: cy - 12, width: 24, height: 24, rx: 3, fill: colour(x.owner) }),
        svg("text", { x: cx, y: cy - 1, class: "hd-label" }, STRUCT_LETTERS[x.kind] ?? x.kind),
        svg("text", { x: cx, y: cy + 9, class: "hd-hp" }, remembered ? "?" : String(x.hp)),
        svg("title", {}, `${x.kind} ${x.id} · ${x.owner < 0 ? "neutral" : g.players[x.owner]?.name} · ${remembered ? "as last seen" : `${x.hp} HP`}`)));
    }
    for (const t of troops) {
      const { x: cx, y: cy } = centre(t);
      const spent = t.owner === g.current && (t.moved && t.attacked);
      // Seat 1's troops are squares-with-corners cut (a diamond): shape tells the sides apart, not colour alone.
      const body = t.owner === 1
        ? svg("polygon", { points: `${cx},${cy - 14} ${cx + 14},${cy} ${cx},${cy + 14} ${cx - 14},${cy}`, fill: colour(t.owner) })
        : svg("circle", { cx, cy, r: 13, fill: colour(t.owner) });
      out.push(svg("g", { class: `hd-troop${t.id === picked ? " picked" : ""}${spent || !t.ready ? " spent" : ""}`, "data-q": t.q, "data-r": t.r, "data-troop": t.id, "data-owner": t.owner },
        body,
        svg("text", { x: cx, y: cy - 1, class: "hd-label" }, UNIT_LETTERS[t.type] ?? t.type),
        svg("text", { x: cx, y: cy + 9, class: "hd-hp" }, String(t.hp)),
        svg("title", {}, `${t.type} #${t.id} · ${g.players[t.owner]?.name} · ${t.hp} HP${t.moved ? " · moved" : ""}${t.attacked ? " · attacked" : ""}${t.ready ? "" : " · not ready"}`)));
    }
    replace(pieceLayer as unknown as Element, ...out);
  }

  /** renderTroops lists the player's troops as buttons: the keyboard's way to pick one. */
  function renderTroops() {
    const g = st();
    if (!g || !canAct()) return replace(el.troops);
    const mine = pieces().troops.filter((t: any) => t.owner === mySeat());
    replace(el.troops, mine.length ? h("div", { class: "row", role: "group", "aria-label": "Your troops" }, h("span", {}, "Your troops:"),
      ...mine.map((t: any) => {
        const b = button(`${t.type} #${t.id} ${at(t)} ${t.hp} HP`, () => pick(t.id), { id: `hd-pick-${t.id}`, class: "move", "aria-pressed": String(t.id === picked) });
        return b;
      })) : null);
  }

  function renderSelection() {
    const g = st();
    const parts: (Node | string)[] = [];
    const troop = picked !== null ? troopById(picked) : null;
    const tp = preview?.troop;
    if (troop) {
      parts.push(h("p", {}, `Picked: ${troop.type} #${troop.id} (${troop.hp} HP) on ${terrainAt(troop)} ${at(troop)}. `,
        tp ? `${tp.canMove ? `${tp.reachable.length} hexes to move to (blue)` : "cannot move"} · ${tp.canAttack ? `${tp.targets.length} targets (red)` : "cannot attack"}` : ""));
      if (tp?.canMove && tp.reachable.length) {
        const sel = select("move to", [], { id: "hd-move-to" });
        replace(sel.input, ...tp.reachable.map((x) => h("option", { value: key(x) }, `${at(x)} ${terrainAt(x)}, cost ${x.cost}`)));
        parts.push(h("div", { class: "row" }, sel.row, button(simultaneous() ? "Plan move" : "Move", () => {
          const [q, r] = sel.input.value.split(",").map(Number);
          return moveTo({ q, r });
        }, { id: "hd-move-go" })));
      }
      if (tp?.canAttack && tp.targets.length) {
        const sel = select("attack", [], { id: "hd-attack-at" });
        replace(sel.input, ...tp.targets.map((x) => h("option", { value: key(x) }, `${at(x)} ${whatAt(x)}`)));
        parts.push(h("div", { class: "row" }, sel.row, button(simultaneous() ? "Plan attack" : "Attack", () => {
          const [q, r] = sel.input.value.split(",").map(Number);
          return attackAt({ q, r });
        }, { id: "hd-attack-go" })));
      }
    } else if (preview?.canBuy && canAct()) {
      const spots = preview.buys.filter((b) => b.units.length);
      if (spots.length) {
        const sel = select("buy on", [], { id: "hd-buy-at" });
        replace(sel.input, ...spots.map((x) => h("option", { value: key(x), selected: !!buyHex && key(buyHex) === key(x) }, `${at(x)} ${terrainAt(x)}`)));
        sel.input.addEventListener("change", () => {
          const [q, r] = sel.input.value.split(",").map(Number);
          buyHex = { q, r };
          drawHighlights();
          (document.getElementById("hd-buy-at") as HTMLSelectElement | null)?.focus();
        });
        parts.push(h("div", { class: "row" }, sel.row, buyHex ? null : button("Choose a unit", () => {
          const [q, r] = sel.input.value.split(",").map(Number);
          buyHex = { q, r };
          drawHighlights();
          document.getElementById("hd-buy-marine")?.focus();
        }, { id: "hd-buy-open" })));
      }
    }
    if (buyHex && preview) {
      const b = preview.buys.find((x) => key(x) === key(buyHex!));
      const cfg = g?.config?.units ?? {};
      parts.push(h("p", {}, `Buy on ${at(buyHex)}: `,
        ...(b?.units ?? []).map((u) => button(`${u} (${cfg[u]?.cost ?? "?"} coins)`, () => buy(u, buyHex!), { id: `hd-buy-${u}`, class: "move" }))));
    }
    if (!parts.length && canAct()) parts.push(h("p", { class: "note" }, "Pick a troop of yours (on the map or above) to see its moves (blue) and targets (red), or a green hex to buy."));
    replace(el.selection, ...parts);
    renderTroops();
  }

  // ---- simultaneous mode: this round's orders ----
  function ordersBody() {
    return {
      round: st()?.round,
      troops: [...plan.troops].filter(([, o]) => o.move || o.attack).map(([troop, o]) => ({ troop, ...(o.move ? { move: o.move } : {}), ...(o.attack ? { attack: o.attack } : {}) })),
      buys: plan.buys,
    };
  }
  async function sendOrders(submit: boolean) {
    const r = await send("orders", { orders: ordersBody(), submit });
    if (r) el.orders.setAttribute("data-saved", String(game?.version ?? ""));
  }
  function renderOrders() {
    const g = st();
    const seat = mySeat();
    el.orders.hidden = !(g && simultaneous() && seat >= 0 && g.phase === "playing");
    if (el.orders.hidden) return;
    const submitted = !!g.players?.[seat]?.submitted;
    const other = g.players?.[1 - seat];
    const rows: HTMLElement[] = [];
    for (const [t, o] of plan.troops) {
      const tr = troopById(t);
      if (!tr || (!o.move && !o.attack)) continue;
      rows.push(h("li", { "data-troop": t }, `${tr.type} #${t}: ${o.move ? `move to ${at(o.move)}` : "stay"}${o.attack ? `, attack ${at(o.attack)} ${whatAt(o.attack)}` : ""} `,
        submitted ? null : button("Remove", () => {
          plan.troops.delete(t);
          drawHighlights();
          renderOrders();
          return refreshPreview();
        }, { class: "small", "aria-label": `Remove the order of ${tr.type} #${t}` })));
    }
    plan.buys.forEach((b, i) => rows.push(h("li", {}, `buy a ${b.unit} on ${at(b)} `, submitted ? null : button("Remove", () => {
      plan.buys.splice(i, 1);
      drawHighlights();
      renderOrders();
    }, { class: "small", "aria-label": `Remove the ${b.unit} bought on ${at(b)}` }))));
    replace(el.orders,
      h("h2", {}, `Your orders, round ${g.round}`),
      h("p", { id: "hd-orders-state", class: "note" }, submitted
        ? `Locked in. ${other?.submitted ? "" : `Waiting for ${other?.name ?? "the opponent"}.`}`
        : `Plan with the map or the lists; save a draft (sent as it is when the timer runs out) or submit. ${other?.submitted ? `${other.name} has submitted.` : ""}`),
      h("ul", { id: "hd-orders-list" }, ...(rows.length ? rows : [h("li", { class: "note" }, "no orders (the troops stay)")])),
      submitted ? null : h("div", { class: "row" },
        button("Save draft", () => sendOrders(false), { id: "hd-orders-save" }),
        button("Submit orders", () => sendOrders(true), { id: "hd-orders-submit", class: "primary" }),
        button("Clear", () => {
          plan = { round: plan.round, troops: new Map(), buys: [] };
          drawHighlights();
          renderOrders();
          return refreshPreview();
        }, { id: "hd-orders-clear" })),
    );
  }
  /**
   * The player's saved orders, once per page: sealed in the game document, which only the
   * server opens, so they come from the caller's own `preview` (its `orders`).
   */
  async function loadDraft() {
    if (draftLoaded || opts.source || !game || !simultaneous() || mySeat() < 0 || !st()?.players?.[mySeat()]?.sealedOrders) return;
    draftLoaded = true;
    const r = await ask<Preview>("HexDice", game.version, { gameId: id, type: "preview" }).catch(() => undefined);
    const o = r?.result?.orders;
    if (!o || o.round !== st()?.round || plan.troops.size || plan.buys.length) return;
    for (const t of o.troops ?? []) plan.troops.set(t.troop, { move: t.move, attack: t.attack });
    plan.buys = o.buys ?? [];
    drawHighlights();
    renderOrders();
  }

  const legendItems = () => {
    const cfg = st()?.config?.terrain ?? {};
    return TERRAINS.map((t) => {
      const c = cfg[t];
      const facts = !c ? "" : c.passable === false ? "impassable" : `move cost ${c.cost}${c.def ? `, DEF +${c.def}` : ""}${c.atk ? `, ATK +${c.atk}` : ""}`;
      return h("li", { "data-terrain": t },
        svg("svg", { width: 22, height: 22, viewBox: "-11 -11 22 22", "aria-hidden": "true", class: "hd-swatch" },
          svg("polygon", { points: corners({ q: 0, r: 0 }).split(" ").map((p) => p.split(",").map((n) => (Number(n) / 2).toFixed(1)).join(",")).join(" "), class: `hd-hex t-${t}` }),
          ...(t === "plains" ? [] : [svg("polygon", { points: corners({ q: 0, r: 0 }).split(" ").map((p) => p.split(",").map((n) => (Number(n) / 2).toFixed(1)).join(",")).join(" "), fill: `url(#hd-p-${t})` })])),
        h("span", {}, ` ${t}${facts ? `: ${facts}` : ""}`));
    });
  };

  const emoteButtons = EMOTES.map(([k, label]) => button(label, () => send("emote", { emote: k }), { id: `hd-emote-${k}`, class: "small" }));

  // The meta line is blank until the game arrives, then drawn whole: its
  // words appear at once instead of sliding right as each value fills in.
  const meta = h("p", { class: "meta" }, "\u00a0");
  const metaParts = ["phase ", el.phase, " · version ", el.version, " · ", el.round, " · timer ", el.timer,
    opts.watch ? "" : h("span", {}, " · ", h("a", { href: `#/watch/${id}`, id: "spectate-link" }, "spectator link"))];
  root.replaceChildren(
    h("h1", {}, opts.watch ? "Watching Hex & Dice" : "Hex & Dice"),
    meta,
    el.room,
    err.el,
    el.turn,
    el.fogNote,
    el.players,
    h("div", { class: "pb-layout" },
      h("div", { class: "pb-boardbox" }, board,
        h("h2", { class: "small-h" }, "Legend"), el.legend,
        h("p", { class: "note" }, "Pieces: Ma marine · Sn sniper · Hb hoverbike · Me mech · HQ / CC command center / Op outpost; the number is HP. Blue side: circles; red side: diamonds; grey: neutral. Highlights: blue move, red attack, green buy.")),
      h("div", { class: "hd-side" }, el.troops, el.selection, el.orders, el.buttons, el.result,
        h("h2", {}, "Emotes"), opts.watch ? null : el.emoteButtons, el.emotes,
        h("h2", {}, "Events"), el.events)),
  );
  replace(el.emoteButtons, ...emoteButtons);

  function render() {
    const g = st();
    if (!game || !g) return;
    if (!meta.childElementCount) replace(meta, ...metaParts);
    timings.seen[game.version] ??= now();
    el.phase.textContent = g.phase;
    el.version.textContent = String(game.version);
    el.round.textContent = `round ${g.round ?? 0} · turn ${g.turn ?? 0} · ${g.mode} · ${g.size}`;
    const seat = mySeat();
    const fseat = fogSeat();
    board.setAttribute("data-seat", String(seat));
    if (plan.round !== g.round) plan = { round: g.round, troops: new Map(), buys: [] };
    const legendKey = `${!!g.config}|${fogOn() && fseat >= 0}`;
    if (!el.legend.childElementCount || el.legend.getAttribute("data-config") !== legendKey) {
      el.legend.setAttribute("data-config", legendKey);
      replace(el.legend, ...legendItems(), ...(fogOn() && fseat >= 0 ? fogLegend() : []));
    }
    el.fogNote.hidden = !fogOn();
    el.fogNote.textContent = !fogOn() ? ""
      : fseat >= 0 ? "Fog of war: you see what your troops and structures see (lit hexes); remembered hexes show structures as last seen and no troops; dark hexes were never seen."
      : "This game is played in fog of war: a spectator sees the public account only (no troops or structures) until it is over, then the whole final board.";
    const sealed = (game as any).views?.[me];
    if (fogOn() && fseat >= 0 && !opts.source && typeof sealed === "string") {
      // Sealed for this player in the game document: opened here.
      if (sealed !== viewText) {
        viewText = sealed;
        openView(id, me, sealed).then((v) => {
          if (viewText === sealed) showView(v); // else a newer one is on its way
        }, (e) => {
          if (viewText === sealed) viewText = ""; // tried again with the next snapshot
          err.show(e);
        });
      }
    } else if (fogOn() && fseat >= 0 && (!opts.watch || opts.source) && !viewWatch && !viewText) {
      // A game from before the views were sealed, or a replay: the view document.
      viewWatch = watchView(s, id, {
        view(v) {
          if (!viewText) showView(v); // else the game document holds it now
        },
        error: (e) => err.show(e),
      }, opts.source);
    }
    drawFog();
    replace(el.players, ...(g.players ?? []).map((p: any, i: number) =>
      h("div", { class: `player${(g.current === i && g.phase === "playing" && !simultaneous()) ? " on-turn" : ""}`, id: `hd-player-${i}` },
        h("h2", { class: "player-name", style: `color:${colour(i)}` }, `${i === 1 ? "◆" : "●"} ${p.name}${p.id === me ? " (you)" : ""} · ${SEAT_NAMES[i]}`),
        h("p", {}, h("span", { id: `hd-coins-${i}` }, String(p.coins)), " coins · dominance ", String(p.dominance ?? 0),
          fogOn() && i !== fseat
            ? (fseat >= 0 ? ` · ${pieces().troops.filter((t: any) => t.owner === i).length} troops in sight` : " · troops hidden by the fog")
            : ` · ${pieces().troops.filter((t: any) => t.owner === i).length} troops · ${pieces().structures.filter((x: any) => x.owner === i).length} structures`,
          simultaneous() && g.phase === "playing" ? (p.submitted ? " · orders in" : " · planning") : "",
          p.disconnectedAt ? " · disconnected" : ""))));
    const cur = g.players?.[g.current];
    el.turn.textContent =
      g.phase === "waiting" ? "Waiting for an opponent to join."
      : g.phase === "over" ? "The game is over."
      : simultaneous() ? (planning() ? "Plan your orders for this round, then submit them." : seat >= 0 ? "Orders in: waiting for the round to resolve." : "Both players plan their orders.")
      : myTurn() ? "Your turn." : `${cur?.name ?? "?"}'s turn.`;
    if (g.phase === "over") {
      const res = g.result ?? {};
      const words = res.reason === "cancelled" ? "Cancelled." : res.winner < 0 || res.draw ? `A draw (${res.reason}).` : `${g.players?.[res.winner]?.name ?? "?"} wins (${res.reason}).`;
      if (el.result.dataset.words !== words + (g.rematchId ?? "")) {
        el.result.dataset.words = words + (g.rematchId ?? "");
        replace(el.result, words, " ");
        if (res.reason !== "cancelled") el.result.append(h("a", { href: `#/replay/${id}`, id: "hd-replay-link" }, "Watch the replay"));
        if (g.rematchId) el.result.append(" · ", h("a", { href: `#/${opts.watch ? "watch" : "hexdice"}/${g.rematchId}`, id: "hd-rematch-link" }, "Go to the rematch"));
      }
    } else if (el.result.textContent) {
      el.result.dataset.words = "";
      replace(el.result);
    }
    const show: HTMLButtonElement[] = [];
    if (!opts.watch) {
      if (g.phase === "waiting" && seat < 0) show.push(btn.join);
      if (myTurn()) show.push(btn.endTurn);
      if (seat >= 0 && (g.phase === "playing" && (g.round ?? 0) >= 5)) show.push(btn.surrender);
      if (seat === 0 && g.phase === "waiting") {
        btn.surrender.textContent = "Cancel the room";
        show.push(btn.surrender, btn.botRandom, btn.botStrong);
      } else btn.surrender.textContent = "Surrender";
      if (seat >= 0 && g.phase === "over" && g.result?.reason !== "cancelled" && !g.rematchId) {
        btn.rematch.textContent = g.rematchAsked?.[seat] ? "Rematch asked…" : "Rematch";
        show.push(btn.rematch);
      }
    }
    if (show.length !== el.buttons.children.length || show.some((b, i) => el.buttons.children[i] !== b)) replace(el.buttons, ...show);
    el.emoteButtons.hidden = opts.watch || seat < 0;
    const emotes: any[] = g.emotes ?? [];
    replace(el.emotes, ...(emotes.length ? emotes.slice().reverse().map((e) => h("li", {}, h("strong", { style: `color:${colour(e.seat)}` }, g.players?.[e.seat]?.name ?? "?"), `: ${EMOTES.find((x) => x[0] === e.emote)?.[1] ?? e.emote}`)) : [h("li", { class: "note" }, "none yet")]));
    if (!previewFor.startsWith(`${game.version}|`) && previewFor !== `${game.version}`) void refreshPreview();
    drawPlan();
    drawPieces();
    renderSelection();
    renderOrders();
    void loadDraft();
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

  /**
   * renderLog lists the steps in words: in a fog game a player's own steps
   * as it saw them (the view's events) over the public account of the rest.
   */
  function renderLog() {
    const r = fogOn() && view ? mergeRecords(viewRecords(view, neutral), neutral) : neutral;
    // Heartbeats say nothing worth a line.
    replace(el.events, ...r.filter((rec) => rec.type !== "heartbeat").slice(-40).reverse().map((rec) => h("li", {}, recordText(rec))));
  }

  const watch = await (opts.source?.watchGame ?? watchGame)(s, id, {
    game(g) {
      if (!g) return err.show(`no game ${id}`);
      if (g.kind !== "hexdice") return navigate(`#/watch/${id}`);
      const first = !game;
      game = g;
      render();
      if (first && !opts.watch && g.hasRoom && mySeat() >= 0 && g.state.phase === "waiting") {
        showRoomCode(s, g, el.room, "your opponent", (e) => err.show(e));
      }
      if (g.state.phase !== "waiting") el.room.hidden = true;
    },
    events(r) {
      neutral = r;
      renderLog();
    },
    error: (e) => err.show(e),
  });
  return () => {
    clearInterval(timer);
    clearInterval(beat);
    watch.stop();
    void viewWatch?.then((w) => w.stop());
  };
}
