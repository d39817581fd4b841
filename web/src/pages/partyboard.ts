// A Party Board game, live: the board drawn as SVG from getBoard's tiles
// (their `position` polygons) and zones, the players' tokens moving as the
// game document changes, the awaited input (state.await) as the buttons the
// signed-in player may press, the lobby (join, start), the players and their
// effects, the recent log (state.log) and the whole event log.

import { act, type Session } from "../api";
import { deadlineClock, showRoomCode, watchGame, type EventRecord, type GameDoc } from "../live";
import { millis } from "../firebase";
import { ErrorBox, button, h, navigate, replace } from "../ui";
import { PLAYING, eventText, type PageOpts } from "./words";
import "./boards.css";
import { now, pageTimings } from "../timings";

const SVG = "http://www.w3.org/2000/svg";

/** svg builds an SVG element (ui.h builds HTML ones). */
function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number> = {}, ...children: (Node | string)[]): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}

interface Point {
  x: number;
  y: number;
}
interface Tile {
  rule: { type: string; displayText?: string };
  position: Point[];
  mandatory?: boolean;
  mandatoryType?: string;
  zone?: string;
  kind?: string;
}
interface Board {
  id: string;
  name?: string;
  tiles: Tile[];
  zones?: { name: string; type: string; rule?: { type: string; displayText?: string } }[];
}

/** The colours of seats 1–12 (tokens, the players' list). */
export const SEAT_COLORS = ["#e63946", "#1d70b8", "#2a9d8f", "#f4a261", "#7b2cbf", "#e9c46a", "#264653", "#ff70a6", "#6a994e", "#bc6c25", "#00b4d8", "#6c757d"];
const ZONE_COLORS = ["#fde2e4", "#e2ece9", "#dfe7fd", "#fff1e6", "#e9f5db", "#f1e4f3", "#fef9c3", "#e0f2fe"];


// getBoard replies are the same for the same id (a stored board never
// changes), so one fetch per board per page load is enough.
const boards = new Map<string, Promise<Board>>();
function loadBoard(id: string): Promise<Board> {
  let b = boards.get(id);
  if (!b) {
    b = act<{ board: Board }>("PartyBoard", { type: "getBoard", board: id }).then((r) => r.result.board);
    b.catch(() => boards.delete(id));
    boards.set(id, b);
  }
  return b;
}

/** lines cuts a rule's text into the (at most three) short lines that fit under a tile's number. */
function lines(s: string, width = 13, max = 3): string[] {
  const out: string[] = [];
  let line = "";
  for (const w of s.split(/\s+/)) {
    if (line && (line + " " + w).length > width) {
      out.push(line);
      line = "";
      if (out.length === max) break;
    }
    line = line ? `${line} ${w}` : w.slice(0, width);
  }
  if (out.length < max && line) out.push(line);
  if (out.join(" ").length < s.trim().length) out[out.length - 1] = out[out.length - 1].slice(0, width - 1) + "…";
  return out;
}

const centroid = (ps: Point[]): Point => ({
  x: ps.reduce((s, p) => s + p.x, 0) / ps.length,
  y: ps.reduce((s, p) => s + p.y, 0) / ps.length,
});

/** BoardView draws a board once and moves the players' tokens over it. */
class BoardView {
  readonly el: SVGSVGElement;
  private readonly tokens = new Map<string, SVGGElement>();
  private readonly centres: Point[];
  private readonly unit: number;
  private readonly tokenLayer = svg("g", { class: "tokens" });
  private readonly tileEls: SVGElement[] = [];
  private readonly groups: SVGGElement[] = [];

  /** rove makes tile i the board's one tab stop (a roving tabindex). */
  private rove(i: number) {
    this.groups.forEach((g, j) => g.setAttribute("tabindex", j === i ? "0" : "-1"));
  }

  /** focusTile moves the keyboard focus to tile i. */
  focusTile(i: number) {
    this.rove(i);
    this.groups[i]?.focus();
  }

  constructor(
    readonly board: Board,
    onTile: (i: number) => void,
  ) {
    const all = board.tiles.flatMap((t) => t.position);
    const minX = Math.min(...all.map((p) => p.x)), maxX = Math.max(...all.map((p) => p.x));
    const minY = Math.min(...all.map((p) => p.y)), maxY = Math.max(...all.map((p) => p.y));
    this.centres = board.tiles.map((t) => centroid(t.position));
    // A tile's size: the typical polygon's width, or a share of the board for point tiles.
    const widths = board.tiles.filter((t) => t.position.length >= 3).map((t) => Math.max(...t.position.map((p) => p.x)) - Math.min(...t.position.map((p) => p.x)));
    widths.sort((a, b) => a - b);
    this.unit = widths.length ? widths[Math.floor(widths.length / 2)] : Math.max(maxX - minX, maxY - minY, 100) / 12;
    const pad = this.unit * 0.6;
    this.el = svg("svg", {
      id: "pb-board",
      class: "pb-board",
      viewBox: `${minX - pad} ${minY - pad} ${maxX - minX + 2 * pad} ${maxY - minY + 2 * pad}`,
      // A group, not an image: its tiles are controls (one tab stop, the
      // arrow keys move between them; see focusTile).
      role: "group",
      "aria-label": `${board.name ?? board.id}: ${board.tiles.length} tiles (arrow keys move between them)`,
    });
    const zoneColor = new Map((board.zones ?? []).map((z, i) => [z.name, ZONE_COLORS[i % ZONE_COLORS.length]]));
    const tiles = svg("g", { class: "tiles" });
    board.tiles.forEach((t, i) => {
      const fill = (t.zone && zoneColor.get(t.zone)) || "#ffffff";
      const attrs = { class: `pb-tile${t.mandatory || t.mandatoryType ? " mandatory" : ""}`, fill, "data-tile": i };
      const shape =
        t.position.length >= 3
          ? svg("polygon", { ...attrs, points: t.position.map((p) => `${p.x},${p.y}`).join(" ") })
          : svg("circle", { ...attrs, cx: this.centres[i].x, cy: this.centres[i].y, r: this.unit / 2 });
      const c = this.centres[i];
      const g = svg(
        "g",
        {
          id: `pb-tile-${i}`,
          class: "pb-tile-g",
          tabindex: i === 0 ? 0 : -1,
          role: "button",
          "aria-label": `Tile ${i}${t.mandatory || t.mandatoryType ? " (mandatory stop)" : ""}: ${t.rule.displayText ?? t.rule.type}${t.zone ? ` — ${t.zone}` : ""}`,
        },
        svg("title", {}, `${i}${t.zone ? ` · ${t.zone}` : ""}: ${t.rule.displayText ?? t.rule.type}`),
        shape,
      );
      // The words drawn on the tile are for the eye, beside the focusable
      // tile, not in it: its name (aria-label) says them whole, and words
      // cut to three lines inside it would not match that name (axe's
      // label-content-name-mismatch). They let clicks through to the tile.
      const words = svg(
        "g",
        { "aria-hidden": "true", class: "pb-tile-words" },
        svg("text", { x: c.x, y: c.y - this.unit * 0.2, "font-size": this.unit * 0.2, class: "pb-tile-n" }, String(i)),
        // The rule's words on the tile itself, large enough to read at a
        // desktop width (the full text is in the tile list beside the board).
        svg("text", { x: c.x, y: c.y + this.unit * 0.05, "font-size": this.unit * 0.13, class: "pb-tile-text" },
          ...lines(t.rule.displayText ?? t.rule.type).map((l, k) => svg("tspan", { x: c.x, dy: k === 0 ? 0 : this.unit * 0.14 }, l)),
        ),
      );
      g.addEventListener("click", () => onTile(i));
      // Focus shows the tile's detail (the page's aria-live line), as a click does.
      g.addEventListener("focus", () => {
        this.rove(i);
        onTile(i);
      });
      g.addEventListener("keydown", (e) => {
        const n = board.tiles.length;
        const to: Record<string, number> = { ArrowRight: i + 1, ArrowDown: i + 1, ArrowLeft: i - 1, ArrowUp: i - 1, Home: 0, End: n - 1 };
        if (e.key in to) {
          e.preventDefault();
          this.focusTile(Math.min(n - 1, Math.max(0, to[e.key])));
        } else if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          onTile(i);
        }
      });
      this.groups.push(g);
      this.tileEls.push(shape);
      tiles.append(g, words);
    });
    this.el.append(tiles, this.tokenLayer);
    // Every tile's whole text, readable without clicking (and by a screen reader).
    this.list = h("ol", { id: "pb-tile-list", class: "pb-tile-list", start: 0, "aria-label": "The board's tiles" },
      ...board.tiles.map((t, i) => {
        const zone = t.zone ? (board.zones ?? []).find((z) => z.name === t.zone) : undefined;
        const li = h("li", { "data-tile": i, id: `pb-tile-text-${i}` },
          h("span", { class: "swatch", style: `background:${(t.zone && zoneColor.get(t.zone)) || "#fff"}; border:1px solid #999`, "aria-hidden": "true" }),
          `${t.rule.displayText ?? t.rule.type}`,
          t.mandatory || t.mandatoryType ? h("strong", {}, " (mandatory stop)") : "",
          zone ? h("span", { class: "note" }, ` — ${zone.name}`) : "");
        li.addEventListener("click", () => onTile(i));
        return li;
      }));
    this.legend = h(
      "p",
      { class: "note", id: "pb-zones" },
      ...(board.zones ?? []).map((z) =>
        h("span", { title: z.rule?.displayText ?? "" }, h("span", { class: "swatch", style: `background:${zoneColor.get(z.name) ?? "#fff"}; border:1px solid #999` }), `${z.name} (${z.type}) `),
      ),
    );
  }

  /** The zones' colours and names. */
  readonly legend: HTMLElement;
  /** Every tile's text, as a list. */
  readonly list: HTMLElement;

  /** place moves every player's token to its tile (an animated move). */
  place(players: any[], current: number, awaited: Set<string>) {
    const byTile = new Map<number, number[]>();
    players.forEach((p, seat) => byTile.set(p.tile, [...(byTile.get(p.tile) ?? []), seat]));
    const r = this.unit * 0.16;
    players.forEach((p, seat) => {
      let tok = this.tokens.get(p.id);
      if (!tok) {
        tok = svg(
          "g",
          { class: "pb-token", id: `pb-token-${seat}`, "data-player": p.id },
          svg("circle", { r, fill: SEAT_COLORS[seat % SEAT_COLORS.length] }),
          svg("text", { "font-size": r * 1.1, y: r * 0.38 }, String(seat + 1)),
        );
        this.tokens.set(p.id, tok);
        this.tokenLayer.append(tok);
      }
      const here = byTile.get(p.tile) ?? [seat];
      const k = here.indexOf(seat);
      // Several tokens on one tile sit on a small ring around its centre.
      const angle = (2 * Math.PI * k) / here.length;
      const spread = here.length > 1 ? this.unit * 0.25 : 0;
      const c = this.centres[Math.min(Math.max(p.tile, 0), this.centres.length - 1)];
      tok.style.transform = `translate(${c.x + spread * Math.cos(angle)}px, ${c.y + spread * Math.sin(angle)}px)`;
      tok.setAttribute("data-tile", String(p.tile));
      tok.classList.toggle("current", seat === current);
      tok.classList.toggle("awaited", awaited.has(p.id));
      tok.classList.toggle("removed", !!p.removed);
    });
  }

  highlight(i: number | undefined) {
    this.tileEls.forEach((el, j) => el.classList.toggle("selected", j === i));
  }
}

/** What the awaited input asks, in words, for those not asked. */
function waitingFor(a: any, name: (id: string) => string): string {
  const who = (a.players ?? []).map(name).join(", ");
  const verb: Record<string, string> = {
    roll: "roll",
    choose: "choose",
    target: "pick a player",
    starter: "pick a starter",
    groupRoll: "roll (everyone)",
    confirm: "confirm",
    challenge: "report a challenge",
  };
  return `Waiting for ${who} to ${verb[a.action] ?? a.action}.`;
}

function describeLog(e: any, name: (id: string) => string): string {
  const parts = [`turn ${e.turn}`, name(e.player), e.type];
  if (e.rolls) parts.push(`[${e.rolls.join(", ")}]`);
  if (e.tiles) parts.push(`${e.tiles[0]} → ${e.tiles[1]}`);
  if (e.target) parts.push(`→ ${name(e.target)}`);
  if (e.text) parts.push(`“${e.text}”`);
  return parts.join(" · ");
}

function describeRecord(r: EventRecord, name: (id: string) => string): string {
  const who = r.actor?.name ?? "system";
  const evs = (r.events ?? []).map((e) => {
    if (typeof (e as any).text === "string" && (e as any).text) return eventText(e as any);
    const d = e.data ?? {};
    switch (e.type) {
      case "rolled":
        return `rolled ${(d.rolls ?? []).join("+")}${d.spaces !== undefined ? ` (${d.spaces} spaces)` : ""}`;
      case "moved":
        return `${name(e.player ?? "")} moved ${d.from} → ${d.to}${d.stop ? ` (${d.stop})` : ""}`;
      case "rule":
        return `“${d.text ?? d.type}”`;
      case "joined":
        return `${d.name} joined`;
      case "gameOver":
        return `game over: ${(d.winners ?? []).map(name).join(", ")} won`;
      default:
        return eventText(e);
    }
  });
  return `${who}: ${evs.join("; ") || eventText(r)}`;
}

export async function partyboardPage(root: HTMLElement, [id]: string[], s: Session, opts: PageOpts = PLAYING): Promise<() => void> {
  if (!id) {
    navigate("#/");
    return () => {};
  }
  // #/partyboard/boards: the boards page (upload, simulate), its own chunk.
  if (id === "boards") return (await import("./partyboard-boards")).boardsPage(root, s);
  const timings = pageTimings();
  const me = opts.watch ? "" : s.player.id;
  const err = new ErrorBox();
  const el = {
    title: h("h1", {}, "Party Board"),
    phase: h("span", { id: "phase" }),
    version: h("span", { id: "version" }),
    turnNo: h("span", { id: "turn-no" }),
    // The room code's line, held from the first paint (a lobby's code comes
    // after the game) and hidden once the game is past its lobby.
    room: h("p", { id: "room" }, "\u00a0"),
    // Until the board arrives its box holds the board's room (boards are
    // square, at most 75vh tall like .pb-board) and a legend line, so
    // drawing it moves nothing around (layout shift).
    boardBox: h("div", { class: "pb-boardbox", id: "pb-boardbox" }, h("div", { style: "aspect-ratio:1;max-height:75vh" }, "loading the board…"), h("p", { class: "note" }, "\u00a0")),
    tileInfo: h("p", { id: "pb-tile-info", class: "note", "aria-live": "polite" }, "Click a tile (on the board or in the list), or Tab to the board and move with the arrow keys, for its zone and who stands there."),
    tileList: h("details", { open: true, class: "pb-tiles" }, h("summary", {}, "Every tile's text")),
    prompt: h("p", { id: "pb-prompt", class: "turn" }),
    ruleText: h("p", { id: "pb-rule-text", class: "pb-rule-text" }),
    dice: h("p", { id: "pb-dice", class: "dice" }),
    timer: h("span", { id: "timer" }),
    buttons: h("div", { class: "row buttons", id: "buttons" }),
    lobby: h("div", { class: "row", id: "pb-lobby" }),
    result: h("p", { id: "result", class: "result" }),
    players: h("ol", { id: "pb-players", class: "pb-players" }),
    log: h("ol", { id: "pb-log", class: "events", tabindex: 0, "aria-label": "Recent moves" }),
    events: h("ol", { id: "events", class: "events", reversed: true, tabindex: 0, "aria-label": "Events, newest first" }),
  };
  let game: GameDoc | null = null;
  let view: BoardView | null = null;
  let boardId = "";
  const clock = deadlineClock(el.timer, 5000, () => void err.run(() => act("PartyBoard", { gameId: id, type: "advance" })));
  let shownKey = "";

  const names = () => new Map<string, string>((game?.state?.players ?? []).map((p: any) => [p.id, p.name]));
  const name = (pid: string) => names().get(pid) ?? pid;

  // Inputs of one player carry the version they saw (a double click cannot
  // act twice); group inputs do not, since others answer at the same time.
  const send = (type: string, extra: Record<string, unknown> = {}) =>
    err.run(async () => {
      timings.clicks.push({ at: now(), version: game?.version ?? -1, type });
      const group = type === "starter" || type === "groupRoll";
      const version = group || !["roll", "choose", "target", "confirm", "challenge"].includes(type) ? undefined : game?.version;
      await act("PartyBoard", { gameId: id, type, version, ...extra });
    });

  // The meta line is blank until the game arrives, then drawn whole: its
  // words appear at once instead of sliding right as each value fills in.
  const meta = h("p", { class: "meta" }, "\u00a0");
  // The cards under the prompt's card show with the game (which fills that
  // card), so its filling pushes nothing down.
  const sideCards = h("div", { hidden: true },
    h("section", { class: "card" }, h("h2", {}, "Players"), el.players),
    h("section", { class: "card" }, h("h2", {}, "Recent"), el.log));
  const metaParts = ["phase ", el.phase, " · turn ", el.turnNo, " · version ", el.version, " · timer ", el.timer,
    opts.watch ? " · watching" : h("span", {}, " · ", h("a", { href: `#/watch/${id}`, id: "spectate-link" }, "spectator link"))];
  root.replaceChildren(
    el.title,
    meta,
    el.room,
    err.el,
    h(
      "div",
      { class: "pb-layout" },
      h("div", { class: "pb-main" }, el.boardBox, el.tileInfo, el.tileList),
      h(
        "div",
        { class: "pb-side" },
        h("section", { class: "card", id: "pb-await" }, el.prompt, el.ruleText, el.dice, el.buttons, el.lobby, el.result),
        sideCards,
      ),
    ),
    h("h2", {}, "Events"),
    el.events,
  );

  function showTile(i: number) {
    const t = view?.board.tiles[i];
    if (!t) return;
    view!.highlight(i);
    const zone = t.zone ? (view!.board.zones ?? []).find((z) => z.name === t.zone) : undefined;
    const here = (game?.state?.players ?? []).filter((p: any) => p.tile === i).map((p: any) => p.name);
    el.tileInfo.textContent = `Tile ${i}${t.mandatory || t.mandatoryType ? " (mandatory stop)" : ""}: ${t.rule.displayText ?? t.rule.type}${zone ? ` — zone ${zone.name} (${zone.type})${zone.rule?.displayText ? `: ${zone.rule.displayText}` : ""}` : ""}${here.length ? ` — here: ${here.join(", ")}` : ""}`;
  }

  async function ensureBoard(bid: string) {
    if (bid === boardId) return;
    boardId = bid;
    const b = await loadBoard(bid).catch((e) => {
      err.show(e);
      return null;
    });
    if (!b || bid !== boardId) return;
    view = new BoardView(b, showTile);
    el.title.textContent = `Party Board — ${b.name ?? b.id}`;
    replace(el.boardBox, view.el, view.legend);
    replace(el.tileList, h("summary", {}, "Every tile's text"), view.list);
    render();
  }

  function inputButtons(a: any, st: any): HTMLButtonElement[] {
    const out: HTMLButtonElement[] = [];
    const mk = (label: string, idAttr: string, type: string, extra: Record<string, unknown> = {}, primary = false) =>
      out.push(button(label, () => send(type, extra), { id: idAttr, class: primary ? "primary move" : "move", "data-action": type }));
    switch (a.action) {
      case "roll":
        mk(a.dice > 1 ? `Roll ${a.dice} dice` : "Roll", "pb-roll", "roll", {}, true);
        break;
      case "groupRoll":
        mk("Roll your die", "pb-grouproll", "groupRoll", {}, true);
        break;
      case "confirm":
        mk("OK", "pb-confirm", "confirm", {}, true);
        break;
      case "choose":
        (a.choices ?? []).forEach((c: string, i: number) => mk(c, `pb-choose-${i}`, "choose", { choice: i }));
        break;
      case "target":
        (a.targets ?? []).forEach((t: string, i: number) => mk(name(t), `pb-target-${i}`, "target", { playerId: t }));
        break;
      case "starter":
        (a.starters ?? []).forEach((st: string, i: number) => mk(st, `pb-starter-${i}`, "starter", { starter: st }));
        break;
      case "challenge": {
        const [challenger, ...others] = a.targets ?? [];
        others.forEach((o: string, i: number) => {
          mk(`I beat ${name(o)}`, `pb-challenge-win-${i}`, "challenge", { winner: challenger, loser: o });
          mk(`${name(o)} beat me`, `pb-challenge-lose-${i}`, "challenge", { winner: o, loser: challenger });
        });
        break;
      }
    }
    void st;
    return out;
  }

  function render() {
    if (!game) return;
    if (!meta.childElementCount) replace(meta, ...metaParts);
    sideCards.hidden = false;
    const st = game.state ?? {};
    timings.seen[game.version] ??= now();
    el.phase.textContent = st.phase ?? "";
    el.version.textContent = String(game.version);
    el.turnNo.textContent = String(st.turn ?? 0);
    const players: any[] = st.players ?? [];
    const seated = players.some((p) => p.id === me);
    const a = st.await;
    const awaited = new Set<string>(a?.players ?? []);
    view?.place(players, st.phase === "playing" ? st.current : -1, awaited);

    replace(
      el.players,
      ...players.map((p, seat) => {
        const fx: string[] = [];
        if (p.starter) fx.push(p.starter);
        if (p.lostTurns) fx.push(`loses ${p.lostTurns} turn${p.lostTurns > 1 ? "s" : ""}`);
        if (p.extraTurns) fx.push(`${p.extraTurns} extra turn${p.extraTurns > 1 ? "s" : ""}`);
        if (p.mandatorySkips) fx.push(`${p.mandatorySkips} skip${p.mandatorySkips > 1 ? "s" : ""}`);
        if (p.anchors) fx.push(`anchor ×${p.anchors}`);
        for (const m of p.speedMods ?? []) fx.push(`speed ${m.op}${m.value} (${m.turns})`);
        for (const m of p.rollMods ?? []) fx.push(`roll ${m.op}${m.value} (${m.turns})`);
        if (p.condition) fx.push(`condition: ${p.condition.description ?? p.condition.rule}`);
        if (p.items?.length) fx.push(`items: ${p.items.join(", ")}`);
        if (p.groupRoll) fx.push(`group roll ${p.groupRoll}`);
        if (p.strikes) fx.push(`${p.strikes} strike${p.strikes > 1 ? "s" : ""}`);
        if (p.removed) fx.push("out");
        return h(
          "li",
          { class: `${st.phase === "playing" && seat === st.current ? "on-turn" : ""}${p.removed ? " removed" : ""}`, id: `pb-player-${seat}`, "data-tile": p.tile },
          h("span", { class: "swatch", style: `background:${SEAT_COLORS[seat % SEAT_COLORS.length]}` }),
          h("strong", {}, p.name),
          p.id === me ? " (you)" : "",
          p.id === st.host ? " · host" : "",
          ` · tile ${p.tile}`,
          fx.length ? h("span", { class: "note" }, ` · ${fx.join(" · ")}`) : "",
        );
      }),
    );
    replace(el.log, ...(st.log ?? []).slice().reverse().map((e: any) => h("li", {}, describeLog(e, name))));
    el.dice.textContent = st.lastRolls?.length ? `last roll: ${st.lastRolls.join(" + ")}` : "";

    // The prompt and the input buttons; rebuilt only when the awaited input changes.
    let prompt: string;
    if (st.phase === "lobby") prompt = `In the lobby: ${players.length} seated. ${st.host === me ? "Start when everyone is in (2 or more)." : "The host starts the game."}`;
    else if (st.phase === "over") prompt = "The game is over.";
    else if (!a) prompt = "";
    else if (awaited.has(me)) prompt = `Your move: ${a.action}${a.action === "roll" && a.purpose === "turnRoll" ? " to move" : ""}.`;
    else prompt = waitingFor(a, name);
    el.prompt.textContent = prompt;
    el.ruleText.textContent = a?.text ? `${a.ruleType ? a.ruleType + ": " : ""}${a.text}${a.rolls?.length ? ` (rolls so far: ${a.rolls.join(", ")})` : ""}` : "";
    const key = `${game.version}|${st.phase}|${awaited.has(me)}`;
    if (key !== shownKey) {
      shownKey = key;
      replace(el.buttons, ...(a && awaited.has(me) ? inputButtons(a, st) : []));
      const lobby: HTMLElement[] = [];
      if (st.phase === "lobby" && !seated && !opts.watch) lobby.push(button("Join", () => send("join"), { id: "pb-join", class: "primary" }));
      if (st.phase === "lobby" && st.host === me) {
        const start = button("Start the game", () => send("start"), { id: "pb-start", class: "primary" });
        start.disabled = players.length < 2;
        lobby.push(start);
        // The host seats bots (docs/bots.md): each joins like a player.
        if (players.length < 12) for (const level of ["random", "strong"]) lobby.push(button(`Add a ${level} bot`, () => send("addBot", { level }), { id: `pb-bot-${level}` }));
      }
      if (seated && st.phase !== "over" && !players.find((p) => p.id === me)?.removed && !(st.phase === "lobby" && st.host === me && players.length === 1)) {
        lobby.push(button("Leave", () => (confirm("Leave this game?") ? send("removePlayer", { playerId: me }) : undefined), { id: "pb-leave" }));
      }
      // The host may take any other player out (removePlayer), before or during the game.
      const others = players.filter((p) => p.id !== me && !p.removed);
      if (st.host === me && !opts.watch && st.phase !== "over" && others.length) {
        const who = h("select", { id: "pb-remove-who", "aria-label": "player to take out" }, ...others.map((p) => h("option", { value: p.id }, p.name)));
        lobby.push(h("span", { class: "row" }, who, button("Take out of the game", () => {
          const n = name(who.value);
          return confirm(`Take ${n} out of this game?`) ? send("removePlayer", { playerId: who.value }) : undefined;
        }, { id: "pb-remove-go" })));
      }
      replace(el.lobby, ...lobby);
    }
    if (st.phase === "over") {
      el.result.textContent = st.winner ? `${name(st.winner)} wins!` : "Over.";
    } else el.result.textContent = "";
    el.room.hidden = st.phase !== "lobby";
    tick();
  }

  function tick() {
    const st = game?.state;
    const seated = (st?.players ?? []).some((p: any) => p.id === me);
    clock(st?.phase === "playing" ? millis(st.deadline) : undefined, seated, st?.turnSeconds ? "–" : "off");
  }

  const timer = setInterval(tick, 500);
  let askedRoom = false;
  const watch = await (opts.source?.watchGame ?? watchGame)(s, id, {
    game(g) {
      if (!g) return err.show(`no game ${id}`);
      if (g.kind !== "partyboard") return navigate(`#/watch/${id}`);
      game = g;
      if (g.state?.boardId) void ensureBoard(g.state.boardId);
      render();
      if (!askedRoom && g.hasRoom && g.state?.phase === "lobby" && (g.state.players ?? []).some((p: any) => p.id === me)) {
        askedRoom = true;
        showRoomCode(s, g, el.room, "the other players", (e) => err.show(e));
      }
    },
    events(r) {
      replace(el.events, ...r.slice(-60).reverse().map((rec) => h("li", {}, describeRecord(rec, name))));
    },
    error: (e) => err.show(e),
  });
  return () => {
    clearInterval(timer);
    watch.stop();
  };
}
