// The game kinds the lobby offers, as data: each kind's function, how to
// create a game of it, whether it has quick match and room codes. A game
// page is loaded lazily by main.ts under #/<kind>/<gameId> (and read-only
// under #/watch/<gameId>); kinds without one open the spectator page.

import type { Session } from "./api";
import type { GameSource } from "./live";

export interface CreateOption {
  name: string;
  label: string;
  /** a select's options, or none for a text/number input. */
  options?: string[];
  type?: "text" | "number" | "checkbox" | "password";
  /** sent as a JSON number. */
  numeric?: boolean;
  value?: string;
}

export interface GameKind {
  kind: string;
  function: string;
  title: string;
  createOptions: CreateOption[];
  /** the body fields quick match needs besides type/actionId, from the create form. */
  quickMatch?: string[];
  /** accounts only (CodeBowl coaches). */
  note?: string;
  /** no join by room code (Tile Race: teams are made by its admins). */
  noRoomCode?: boolean;
}

export const DASHDICE_MODES = ["quickfire", "classic", "zero-hour", "last-line", "true-grit"];

export const gameKinds: GameKind[] = [
  {
    kind: "dashdice",
    function: "DashDice",
    title: "DashDice",
    createOptions: [
      { name: "mode", label: "mode", options: DASHDICE_MODES },
      { name: "private", label: "private (room code only)", type: "checkbox", value: "true" },
      { name: "turnSeconds", label: "turn seconds (0: no timer)", type: "number", value: "30" },
      { name: "seed", label: "seed (local stack only; empty: random)", type: "text" },
    ],
    quickMatch: ["mode"],
  },
  {
    kind: "partyboard",
    function: "PartyBoard",
    title: "Party Board",
    createOptions: [
      { name: "board", label: "board", options: ["pokemon-gen1", "pokemon-gen2"] },
      { name: "private", label: "private", type: "checkbox" },
      { name: "seed", label: "seed (local stack only)", type: "text" },
    ],
  },
  {
    kind: "tilerace",
    function: "TileRace",
    title: "Tile Race",
    createOptions: [
      { name: "name", label: "your admin name", type: "text", value: "Master" },
      { name: "password", label: "master password", type: "password" },
      { name: "seed", label: "seed (local stack only)", type: "text" },
    ],
    noRoomCode: true,
    note: "Create a race as its master admin, or open a race by id to watch it or sign in as a team member.",
  },
  {
    kind: "hexdice",
    function: "HexDice",
    title: "Hex & Dice",
    createOptions: [
      { name: "size", label: "size", options: ["medium", "small", "large"] },
      { name: "mode", label: "turn mode", options: ["alternating", "simultaneous"] },
      { name: "turnSeconds", label: "turn seconds", options: ["90", "60", "120"], numeric: true },
      { name: "private", label: "private", type: "checkbox" },
      // docs/hexdice.md "Fog of war": each player sees only what its pieces see.
      { name: "fog", label: "Fog of war", type: "checkbox" },
    ],
    quickMatch: [],
  },
  {
    kind: "codebowl",
    function: "CodeBowl",
    title: "CodeBowl",
    // The lobby draws CodeBowl's card itself (pages/codebowl-teams.ts): teams first.
    createOptions: [],
    quickMatch: ["teamId"],
    note: "Coaches are registered accounts with a team (createTeam); guests may only watch.",
  },
];

export function kindOf(kind: string): GameKind | undefined {
  return gameKinds.find((g) => g.kind === kind);
}

/** How a page is opened: watch is a spectator's read-only view (#/watch/<id>): no controls. */
export interface PageOpts {
  watch: boolean;
  /** where the page reads its game (default: Firestore, live); a replay's frames on the replay page. */
  source?: GameSource;
}

/** Pages: a game page renders into root and returns a stop function. */
export type Page = (root: HTMLElement, params: string[], s: Session, opts: PageOpts) => Promise<() => void>;
