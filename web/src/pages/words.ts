// What the game pages of Tile Race, Hex & Dice, Party Board and CodeBowl
// share: the page options (the spectator view), an event in words and
// keyboard access to board shapes.

import type { EventRecord, GameSource } from "../live";

/**
 * PageOpts: with watch, a page is the read-only spectator view of its game
 * (the same board, no controls, no secrets). Structurally the router's
 * PageOpts, so either type fits.
 */
export interface PageOpts {
  watch: boolean;
  /**
   * source replaces the page's Firestore reads (live.ts GameSource): the
   * replay page feeds a finished game's frames through it, read-only (with
   * watch).
   */
  source?: GameSource;
}

export const PLAYING: PageOpts = { watch: false };

interface Ev {
  type: string;
  text?: string;
  player?: string;
  data?: any;
}

/** shortType turns "turnStarted" into "turn started": the fallback when the server gave no words. */
export function shortType(t: string): string {
  return t.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
}

/** eventText is an event in words: the server's `text`, else its type in short words; never JSON. */
export function eventText(e: Ev): string {
  return typeof e.text === "string" && e.text.trim() ? e.text : shortType(e.type);
}

/** recordText says what one step did: its events' words, or the step's type. */
export function recordText(r: EventRecord, skip: (e: Ev) => boolean = () => false): string {
  const parts = (r.events ?? []).filter((e) => !skip(e)).map((e) => eventText(e as Ev));
  const who = r.actor?.name;
  const what = parts.length ? parts.join(" · ") : shortType(r.type);
  return who ? `${who}: ${what}` : what;
}

/**
 * activate makes a board shape (an SVG group, a div) a keyboard control:
 * in the tab order, announced as a button with label, Enter or Space runs f.
 */
export function activate<E extends Element>(el: E, label: string, f: () => void): E {
  el.setAttribute("tabindex", "0");
  el.setAttribute("role", "button");
  // The name comes from the visible text unless a label is given (a label
  // must then contain that text: axe's label-content-name-mismatch).
  if (label) el.setAttribute("aria-label", label);
  el.addEventListener("keydown", (e) => {
    const k = (e as KeyboardEvent).key;
    if (k === "Enter" || k === " ") {
      e.preventDefault();
      f();
    }
  });
  return el;
}

/** Patterns and glyphs told apart without colour: team or seat i gets PATTERNS[i % n]. */
export const GLYPHS = ["●", "▲", "■", "◆", "★", "✚", "⬟", "⬢", "▼", "✖"];
export const glyph = (i: number) => GLYPHS[((i % GLYPHS.length) + GLYPHS.length) % GLYPHS.length];
