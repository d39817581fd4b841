// Words for the client: an event as the game said it (Event.text, filled by
// the server from each game's own say.go), a step of the log as a line, and
// phase names as players read them. No raw JSON is ever shown.

import type { EventRecord } from "./live";

export interface GameEvent {
  type: string;
  player?: string;
  data?: unknown;
  text?: string;
}

/** eventText is an event's words; an event of an older server without them shows its type in words. */
export function eventText(e: GameEvent): string {
  if (e.text) return e.text;
  return e.type.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}

/** recordText is one step of a log as a line: the events' words. */
export function recordText(r: EventRecord): string {
  const evs = (r.events ?? []).map(eventText).filter(Boolean);
  if (evs.length > 0) return evs.join(" · ");
  const who = r.actor?.name ?? "the game";
  return `${who}: ${eventText({ type: r.type })}`;
}

/** describeRecord is kept for pages that import it: the step's words, numbered. */
export function describeRecord(r: EventRecord): string {
  return recordText(r);
}

// Phase names per game kind, as a player reads them.
const phases: Record<string, Record<string, string>> = {
  dashdice: { waiting: "waiting for an opponent", turnDecider: "deciding who starts", gameplay: "playing", gameOver: "game over" },
  partyboard: { lobby: "waiting for players", playing: "playing", over: "game over" },
  hexdice: { waiting: "waiting for an opponent", playing: "playing", over: "game over" },
  codebowl: { waiting: "waiting for an opponent", setup: "placing players", play: "playing", over: "game over" },
  tilerace: { setup: "setting up", racing: "racing", over: "race over" },
};

const statuses: Record<string, string> = { waiting: "waiting for players", active: "playing", over: "over" };

/** phaseName is a phase in words ("turnDecider" → "deciding who starts"). */
export function phaseName(kind: string, phase: string | undefined): string {
  if (!phase) return "";
  return phases[kind]?.[phase] ?? statuses[phase] ?? phase.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}

/** statusName is a game document's status in words. */
export function statusName(status: string | undefined): string {
  return status ? (statuses[status] ?? status) : "";
}

/** gameTitle names a game kind for people. */
export const gameTitles: Record<string, string> = {
  dashdice: "DashDice",
  partyboard: "Party Board",
  tilerace: "Tile Race",
  hexdice: "Hex & Dice",
  codebowl: "CodeBowl",
  pig: "Pig",
};
