// What a Tile Race client reads (docs/tilerace.md, "What clients read"), the
// listeners on it, and the words for its events and powerups.

import { collection, doc, limit, onSnapshot, orderBy, query, type Unsubscribe } from "firebase/firestore";
import type { Session } from "../../api";
import { firestoreFor, unpack } from "../../firebase";
import type { EventRecord, GameDoc } from "../../live";
import { glyph, shortType } from "../words";

export interface TileContent {
  label?: string;
  difficulty?: number;
  instructions?: string;
  image?: string;
  min?: number;
  max?: number;
  points?: number;
  group?: boolean;
  startProof?: boolean;
  reward?: string;
  mods?: Record<string, unknown>;
  pointsPerCompletion?: number;
}

export interface PublicTile {
  n: number;
  row: number;
  col: number;
  span: number;
  revealed: boolean;
  content?: TileContent;
}

export interface Team {
  id: string;
  name: string;
  color: string;
  captain: string;
  members: string[];
  position: number;
  moves?: number;
  progress?: string[];
  inventory?: string[];
  cooldown?: boolean;
  slot?: number;
  claims?: Record<string, number>;
}

export interface PowerupTile {
  id: string;
  label: string;
  instructions?: string;
  points: number;
  min: number;
  max: number;
  group?: boolean;
  claim: string;
  reward?: string;
  claimedBy?: string;
}

export interface Leaderboard {
  top?: { rank: number; player: string; points: number; display: string }[];
  totals?: Record<string, number>;
}

export interface RaceData {
  game: GameDoc | null;
  teams: Team[];
  board: { tiles: PublicTile[]; fog?: string; revealedUpTo?: number } | null;
  leaderboard: Leaderboard | null;
  events: EventRecord[];
  powerupTiles: PowerupTile[];
}

/** watchRace listens to everything a race page shows; on() runs after every change. */
export async function watchRace(s: Session, id: string, on: (d: RaceData, what: keyof RaceData) => void, onError: (e: Error) => void): Promise<() => void> {
  const db = await firestoreFor(s);
  const d: RaceData = { game: null, teams: [], board: null, leaderboard: null, events: [], powerupTiles: [] };
  const fail = (what: string) => (e: Error) => onError(new Error(`watching ${what} of race ${id}: ${e.message}`));
  const subs: Unsubscribe[] = [
    onSnapshot(doc(db, "games", id), (snap) => {
      d.game = snap.exists() ? ({ id: snap.id, ...unpack(snap.data()) } as GameDoc) : null; // the state is packed
      on(d, "game");
    }, fail("the game")),
    onSnapshot(collection(db, "games", id, "teams"), (snap) => {
      d.teams = snap.docs.map((x) => x.data() as Team).sort((a, b) => b.position - a.position || a.name.localeCompare(b.name));
      on(d, "teams");
    }, fail("the teams")),
    onSnapshot(doc(db, "games", id, "public", "board"), (snap) => {
      d.board = unpack<NonNullable<RaceData["board"]>>(snap.data()) ?? null; // tiles are packed
      on(d, "board");
    }, fail("the board")),
    onSnapshot(doc(db, "games", id, "public", "leaderboard"), (snap) => {
      d.leaderboard = snap.exists() ? (snap.data() as Leaderboard) : null;
      on(d, "leaderboard");
    }, fail("the leaderboard")),
    // The log view: the last 50 records, newest first (every record has seq 0, so order by time).
    onSnapshot(query(collection(db, "games", id, "events"), orderBy("at", "desc"), limit(50)), (snap) => {
      d.events = snap.docs.map((x) => ({ id: x.id, ...x.data() }) as EventRecord);
      on(d, "events");
    }, fail("the events")),
    onSnapshot(collection(db, "games", id, "powerupTiles"), (snap) => {
      d.powerupTiles = snap.docs.map((x) => x.data() as PowerupTile).sort((a, b) => Number(a.id.slice(3)) - Number(b.id.slice(3)));
      on(d, "powerupTiles");
    }, fail("the powerup tiles")),
  ];
  return () => subs.forEach((u) => u());
}

export const DIFFICULTY = ["", "easy", "medium", "hard"];

/** The powerups (domain/tilerace/powerups.go) and which usePowerup fields each takes. */
export const POWERUPS: { id: string; name: string; target?: boolean; tile?: boolean; remove?: boolean; duplicate?: boolean }[] = [
  { id: "skip1", name: "Skip 1 tile" },
  { id: "skip2", name: "Skip 2 tiles" },
  { id: "skip3", name: "Skip 3 tiles" },
  { id: "back1", name: "Back 1 tile", target: true },
  { id: "back2", name: "Back 2 tiles", target: true },
  { id: "back3", name: "Back 3 tiles", target: true },
  { id: "disablePowerup", name: "Disable Powerup", target: true, remove: true },
  { id: "copypaste", name: "Copy and Paste", tile: true },
  { id: "changeTile", name: "Change Tile", tile: true },
  { id: "doubleEasy", name: "Double Easy", tile: true },
  { id: "doubleMedium", name: "Double Medium", tile: true },
  { id: "doubleHard", name: "Double Hard", tile: true },
  { id: "clearCooldown", name: "Clear Cooldown" },
  { id: "doublePowerup", name: "Double Powerup", duplicate: true },
];

export const powerupName = (id: string) => POWERUPS.find((p) => p.id === id)?.name ?? id;

export const points = (hundredths: number | undefined) => ((hundredths ?? 0) / 100).toFixed(2);

/** describeRaceRecord says what one event record did, in words. */
export function describeRaceRecord(r: EventRecord, teamName: (id: string) => string): string {
  const who = r.actor?.name ?? "system";
  const out = (r.events ?? []).map((e) => {
    // The server's words first (the same the Discord messages use).
    if (typeof (e as any).text === "string" && (e as any).text) return (e as any).text as string;
    const d = e.data ?? {};
    const team = d.teamName ?? (d.team ? teamName(d.team) : e.player ? teamName(e.player) : "");
    switch (e.type) {
      case "tileCompleted":
        return `${team} completed tile ${d.tile}${d.label ? ` (${d.label})` : ""} with ${(d.players ?? []).join(", ")}${d.position ? ` → tile ${d.position}` : ""}`;
      case "completionsRecorded":
        return `${team} recorded ${(d.players ?? []).join(", ")} on tile ${d.tile} (${d.recorded}/${d.min}–${d.max})`;
      case "pointsAwarded":
        return `${d.player} +${points(d.points)}`;
      case "powerupGained":
        return `${team} gained ${powerupName(d.powerup ?? "")}${d.granted ? " (granted)" : ""}`;
      case "powerupTileClaimed":
        return `${team} claimed ${d.label ?? d.powerupTile}`;
      case "tilesRevealed":
        return `tiles ${d.from}–${d.to} revealed`;
      case "teamWon":
        return `${team} won the race!`;
      case "gameStarted":
        return "the race started";
      case "teamCreated":
        return `team ${team} created`;
      case "teamRemoved":
        return `team ${team} removed`;
      case "teamUpdated":
        return `${team} updated: ${(d.changes ?? []).join(", ")}`;
      case "teamMoved":
        return `${team} moved ${d.from} → ${d.to}`;
      case "cooldownSet":
        return `${team} cooldown ${d.cooldown ? "on" : "off"}`;
      case "fogSet":
        return `fog ${d.mode}${d.auto ? " (automatically)" : ""}`;
      case "boardChanged":
        return `board changed (${d.what})`;
      case "poolsChanged":
        return `pools ${d.what}${d.count !== undefined ? ` (${d.count})` : ""}`;
      case "gameOver":
        return "game over";
      default:
        return shortType(e.type);
    }
  });
  return `${who}: ${out.join("; ") || r.type}`;
}

/** The server's palette (domain/tilerace Palette): the form offers the first one no team has. */
export const PALETTE = ["#fb7185", "#38bdf8", "#34d399", "#fbbf24", "#a78bfa", "#f472b6", "#2dd4bf", "#a3e635", "#fb923c", "#818cf8"];

export function freeColor(teams: { color: string }[]): string {
  const used = new Set(teams.map((t) => t.color.toLowerCase()));
  return PALETTE.find((c) => !used.has(c)) ?? PALETTE[teams.length % PALETTE.length];
}

/** inkOn picks black or white text for a background colour (contrast ≥ 4.5 for any colour). */
export function inkOn(hex: string): string {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex);
  if (!m) return "#111";
  const n = parseInt(m[1], 16);
  const lin = (c: number) => {
    const x = c / 255;
    return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
  };
  const L = 0.2126 * lin((n >> 16) & 255) + 0.7152 * lin((n >> 8) & 255) + 0.0722 * lin(n & 255);
  // Pure black or white, whichever contrasts more: one of them always
  // reaches 4.58:1 (WCAG AA for small text), whatever the team's colour.
  const onBlack = (L + 0.05) / 0.05;
  const onWhite = 1.05 / (L + 0.05);
  return onBlack >= onWhite ? "#000" : "#fff";
}

/**
 * teamMark is a team's shape, by its place in the roster (the game's teams,
 * in creation order): colour is never the only way to tell teams apart.
 */
export function teamMark(d: RaceData, id: string): string {
  const roster: { id: string }[] = d.game?.state?.teams ?? d.teams;
  const i = roster.findIndex((t) => t.id === id);
  return glyph(i < 0 ? d.teams.findIndex((t) => t.id === id) : i);
}
