// Hex & Dice fog of war, on the page (docs/hexdice.md "Fog of war"): the
// player's own view, sealed for them in the game document's `views` and
// opened here with the key the server gives that player alone (openView;
// in a game from before the views were sealed, and on a replay, the view
// document games/{id}/views/{playerId}, readable by that player only), and
// the fog drawn over the hex map. The game document of a fog game holds no
// troops or structures while it is played, so the page takes the board from
// the view and the rest (players, coins, clocks) from the game document.

import { inflateSync, strFromU8 } from "fflate";
import { act, type Session } from "../api";
import { live, seqID, type EventRecord, type GameSource, type Watch } from "../live";
import { h, svg } from "../ui";

/** FogView is the view document's content (hexdice.View). */
export interface FogView {
  seat: number;
  /** one character per hex of public/map's hexes, in that order: 0 unseen, 1 remembered, 2 in vision. */
  fog: string;
  troops: any[];
  /** every structure the player knows; `seen` with hp when in vision, else as last seen (no hp). */
  structures: any[];
}

/** ViewDoc is games/{id}/views/{playerId} (domain.ViewDoc). */
export interface ViewDoc {
  version: number;
  view: FogView;
  events: { seq: number; type: string; events: EventRecord["events"] }[];
}

/** The fog states: what a `fog` character means, in words (labels, legend). */
export const FOG_WORDS: Record<string, string> = { "0": "unseen", "1": "remembered", "2": "in vision" };

const viewKeys = new Map<string, Promise<CryptoKey>>();

/** b64url decodes base64url without padding. */
function b64url(text: string): Uint8Array {
  const b = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(b, (c) => c.charCodeAt(0));
}

/** viewKey asks once a game for the key that opens the player's own view (action viewKey). */
function viewKey(id: string, me: string): Promise<CryptoKey> {
  const k = `${id}|${me}`;
  let p = viewKeys.get(k);
  if (!p) {
    p = act<{ key: string }>("HexDice", { gameId: id, type: "viewKey" }).then((r) =>
      crypto.subtle.importKey("raw", b64url(r.result.key) as BufferSource, "AES-GCM", false, ["decrypt"]));
    p.catch(() => viewKeys.delete(k)); // asked again with the next snapshot
    viewKeys.set(k, p);
  }
  return p;
}

/**
 * openView opens the player's view sealed in the game document (`views`,
 * docs/api.md "viewKey"): "s1." + base64url(12-byte nonce, AES-256-GCM of
 * the body with "view:{playerId}" as additional data), the body a 4-byte
 * big-endian length, the view document's JSON deflated (raw), and padding.
 */
export async function openView(id: string, me: string, sealed: string): Promise<ViewDoc> {
  const key = await viewKey(id, me);
  const raw = b64url(sealed.replace(/^s1\./, ""));
  const body = new Uint8Array(await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: raw.slice(0, 12) as BufferSource, additionalData: new TextEncoder().encode(`view:${me}`) as BufferSource },
    key, raw.slice(12) as BufferSource));
  const n = new DataView(body.buffer, body.byteOffset, body.byteLength).getUint32(0);
  return JSON.parse(strFromU8(inflateSync(body.subarray(4, 4 + n)))) as ViewDoc;
}

/** watchView listens to the player's own view document (from source: Firestore, or a replay's frames). */
export async function watchView(s: Session, id: string, on: { view(v: ViewDoc | null): void; error(err: Error): void }, source: GameSource = live): Promise<Watch> {
  return source.watchDoc(s, id, `views/${s.player.id}`, {
    doc: (d) => on.view(d as ViewDoc | null),
    error: (err) => on.error(new Error(`watching your view of ${id}: ${err.message}`)),
  });
}

/**
 * viewRecords is the view's events as event records (one per step), each
 * given the actor the neutral account names for the same step: the view
 * keeps a step as its player saw it, the public log says who acted.
 */
export function viewRecords(v: ViewDoc | null, neutral: EventRecord[]): EventRecord[] {
  const actors = new Map(neutral.map((r) => [r.id, r.actor]));
  return (v?.events ?? []).map((st) => ({ id: seqID(st.seq), seq: st.seq, type: st.type, events: st.events ?? [], actor: actors.get(seqID(st.seq)) }));
}

/** fogDefs: the remembered hexes' dimming and hatching (so fog is not told by shade alone). */
export function fogDefs(): SVGElement {
  return svg("defs", {},
    svg("pattern", { id: "hd-p-fog", width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      svg("rect", { width: 6, height: 6, fill: "#3a3f45", "fill-opacity": 0.45 }),
      svg("line", { x1: 0, y1: 0, x2: 0, y2: 6, stroke: "#222", "stroke-opacity": 0.55, "stroke-width": 1.5 })));
}

/**
 * fogShapes returns the fog's shapes over the hexes: an unseen hex is
 * covered dark (its terrain not drawn), a remembered one dimmed and hatched,
 * a visible one left as it is. The shapes pass clicks through to the hexes.
 */
export function fogShapes<H extends { q: number; r: number }>(hexes: H[], fog: string, corners: (p: H) => string): SVGElement[] {
  const out: SVGElement[] = [];
  hexes.forEach((x, i) => {
    const f = fog[i] ?? "0";
    if (f === "2") return;
    out.push(svg("polygon", { points: corners(x), class: `hd-fog f-${f}`, "data-q": x.q, "data-r": x.r }));
  });
  return out;
}

/** hexLabel is a hex's accessible name: its place, and its terrain unless it was never seen. */
export function hexLabel(p: { q: number; r: number; terrain: string }, f: string | undefined): string {
  if (f === undefined) return `hex ${p.q},${p.r} ${p.terrain}`;
  if (f === "0") return `hex ${p.q},${p.r}, unseen`;
  return `hex ${p.q},${p.r} ${p.terrain}, ${FOG_WORDS[f] ?? "unseen"}`;
}

/** fogLegend: one legend entry per fog state, drawn as on the map. */
export function fogLegend(): HTMLElement[] {
  const pts = "0,-10 8.7,-5 8.7,5 0,10 -8.7,5 -8.7,-5";
  const item = (f: string, what: string) =>
    h("li", { "data-fog": f },
      svg("svg", { width: 22, height: 22, viewBox: "-11 -11 22 22", "aria-hidden": "true", class: "hd-swatch" },
        svg("polygon", { points: pts, class: "hd-hex t-plains" }),
        ...(f === "2" ? [] : [svg("polygon", { points: pts, class: `hd-fog f-${f}` })])),
      h("span", {}, ` ${FOG_WORDS[f]}: ${what}`));
  return [
    item("2", "lit; troops and structures as they are now"),
    item("1", "dimmed and hatched; structures as last seen, no troops"),
    item("0", "dark; never seen"),
  ];
}
