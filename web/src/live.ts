// Live reads: listeners on a game's document and its event log. Listener
// errors (a rule that refuses, a lost emulator) go to onError, to be shown.

import { Bytes, collection, doc, getDoc, onSnapshot, orderBy, query, Timestamp, type Unsubscribe } from "firebase/firestore";
import { inflateSync, strFromU8 } from "fflate";
import type { Session } from "./api";
import { firestoreFor, unpack } from "./firebase";
import { h, replace } from "./ui";

export interface GameDoc {
  id: string;
  kind: string;
  status: string;
  version: number;
  players: string[];
  state: any;
  seedHash?: string;
  seed?: string;
  private?: boolean;
  hasRoom?: boolean;
  /** A public game's room code; a private game's is in private/room. */
  roomCode?: string;
  deadlineAt?: { toMillis(): number } | null;
}

export interface EventRecord {
  id: string;
  seq: number;
  type: string;
  actionId?: string;
  actor?: { id: string; name: string; role: string };
  events: { type: string; player?: string; data?: any }[];
  at?: { toMillis(): number };
}

export interface Watch {
  stop(): void;
}

/**
 * watchGame listens to games/{id} and games/{id}/events. The event log is
 * put together from three places (docs/firestore.md, "The game document's
 * log"): the game document's `log` (the latest steps, which arrive with the
 * game itself), history batches (`events/b…`, many steps each) and event
 * records (a step with effects, and every Tile Race record). Each step is
 * listed once, by version (Tile Race's unversioned records by time).
 */
export async function watchGame(
  s: Session,
  id: string,
  on: { game(g: GameDoc | null): void; events?(e: EventRecord[]): void; error(err: Error): void },
): Promise<Watch> {
  const db = await firestoreFor(s);
  const subs: Unsubscribe[] = [];
  const fromLog = new Map<string, EventRecord>();
  let fromColl: EventRecord[] = [];
  const emit = () => on.events?.(mergeRecords(fromColl, [...fromLog.values()]));
  subs.push(
    onSnapshot(
      doc(db, "games", id),
      (snap) => {
        // The state is packed (JSON text, listed in the document's "packed").
        const g = snap.exists() ? ({ id: snap.id, ...unpack(snap.data()) } as GameDoc) : null;
        on.game(g);
        if (on.events && g) {
          for (const st of logSteps(snap.data()?.log)) fromLog.set(seqID(st.seq), stepRecord(st));
          emit();
        }
      },
      (err) => on.error(new Error(`watching game ${id}: ${err.message}`)),
    ),
  );
  if (on.events) {
    subs.push(
      onSnapshot(
        query(collection(db, "games", id, "events"), orderBy("at")),
        (snap) => {
          fromColl = snap.docs.flatMap((d) => {
            const data = d.data();
            const steps = ((data.steps ?? []) as LogStep[]).map(stepRecord);
            if (data.batch) return steps;
            // A game's last record carries the history's last batch too.
            const rec: Record<string, unknown> = { id: d.id, ...data };
            delete rec.steps;
            return [...steps, rec as unknown as EventRecord];
          });
          emit();
        },
        (err) => on.error(new Error(`watching the events of ${id}: ${err.message}`)),
      ),
    );
  }
  return { stop: () => subs.forEach((u) => u()) };
}

/**
 * GameSource is where a game page reads its game from: Firestore, live (the
 * default, watchGame and the documents below), or a replay's frames
 * (pages/replay.ts), which deliver each frame through the same callbacks.
 * A page opened with PageOpts.source reads only through it.
 */
export interface GameSource {
  watchGame: typeof watchGame;
  /** readDoc reads games/{id}/<path> once (e.g. "public/map"); undefined: no such document. */
  readDoc(s: Session, id: string, path: string): Promise<any | undefined>;
  /** watchDoc listens to games/{id}/<path> (e.g. "views/<playerId>"). */
  watchDoc(s: Session, id: string, path: string, on: { doc(d: any | null): void; error(err: Error): void }): Promise<Watch>;
  /** watchRace replaces Tile Race's listeners (pages/tilerace/model.ts watchRace); on's data is its RaceData. */
  watchRace?(s: Session, id: string, on: (d: any, what: any) => void, onError: (e: Error) => void): Promise<() => void>;
}

/** live is the default source: Firestore's listeners, as the signed-in session may read them. */
export const live: GameSource = {
  watchGame,
  async readDoc(s, id, path) {
    const db = await firestoreFor(s);
    const snap = await getDoc(doc(db, "games", id, ...path.split("/")));
    return snap.exists() ? unpack(snap.data()) : undefined;
  },
  async watchDoc(s, id, path, on) {
    const db = await firestoreFor(s);
    const stop = onSnapshot(
      doc(db, "games", id, ...path.split("/")),
      (snap) => on.doc(snap.exists() ? (unpack(snap.data()) ?? null) : null),
      (err) => on.error(new Error(`watching ${path} of ${id}: ${err.message}`)),
    );
    return { stop };
  },
};

/** LogStep is one step as the game document's log and a history batch keep it. */
interface LogStep {
  seq: number;
  at?: { toMillis(): number } | string;
  type: string;
  actionId?: string;
  actor?: { id: string; name: string; role: string };
  events: { type: string; player?: string; data?: any }[];
}

/** seqID is the record id of the step that made version seq (store.EventID). */
export function seqID(seq: number): string {
  return String(seq).padStart(12, "0");
}

/**
 * logSteps reads the game document's log: the JSON text of its steps,
 * deflated (raw RFC 1951), as Firestore bytes; a JSON string or an array in
 * a document written before logs were deflated. Inflated synchronously, so
 * each snapshot's steps are merged in the order the snapshots came.
 */
export function logSteps(v: unknown): LogStep[] {
  try {
    if (v instanceof Bytes) v = strFromU8(inflateSync(v.toUint8Array()));
    if (typeof v === "string") return JSON.parse(v) as LogStep[];
  } catch {
    return [];
  }
  return Array.isArray(v) ? (v as LogStep[]) : [];
}

function stepRecord(st: LogStep): EventRecord {
  // A step of the log has its time as RFC 3339 text; a batch's is a Timestamp.
  const at = typeof st.at === "string" ? Timestamp.fromMillis(Date.parse(st.at)) : st.at;
  return { id: seqID(st.seq), seq: st.seq, type: st.type, actionId: st.actionId, actor: st.actor, events: st.events ?? [], at };
}

/** mergeRecords lists every step once: versioned ones by version, the rest by time. */
export function mergeRecords(...lists: EventRecord[][]): EventRecord[] {
  const byID = new Map<string, EventRecord>();
  for (const list of lists) for (const r of list) if (!byID.has(r.id)) byID.set(r.id, r);
  return [...byID.values()].sort((a, b) => {
    if (a.seq > 0 && b.seq > 0) return a.seq - b.seq;
    const ta = a.at?.toMillis?.() ?? 0;
    const tb = b.at?.toMillis?.() ?? 0;
    return ta !== tb ? ta - tb : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
}

/**
 * roomCode is game g's room code: a public game's is on its document; a
 * private game's is read from games/{id}/private/room (readable by the
 * game's players only).
 */
export async function roomCode(s: Session, g: GameDoc): Promise<string | undefined> {
  if (g.roomCode) return g.roomCode;
  if (!g.hasRoom) return undefined;
  const db = await firestoreFor(s);
  const snap = await getDoc(doc(db, "games", g.id, "private", "room"));
  return snap.exists() ? (snap.data().code as string) : undefined;
}

/**
 * showRoomCode puts game g's room code into el for a player to share
 * (roomCode), and unhides el.
 */
export function showRoomCode(s: Session, g: GameDoc, el: HTMLElement, shareWith: string, onError: (e: unknown) => void): void {
  roomCode(s, g).then((c) => {
    if (!c) return;
    el.hidden = false;
    replace(el, "Room code: ", h("strong", { id: "room-code" }, c), ` — give it to ${shareWith}.`);
  }, onError);
}

/**
 * deadlineClock shows the seconds left to a game's deadline in el (marked
 * "low" under lowMs) and, once the deadline has passed by 1.5 s, has a
 * seated client apply it with advance, once per deadline: the local stack
 * ticks every second, but production's tick runs each minute.
 */
/**
 * clockNow is the time deadline clocks count from: now, or on the replay
 * page the time of the frame shown (a frame's clock reads what it read then).
 */
let clockNow: () => number = () => Date.now();

/** setClockNow makes deadline clocks count from f's time (none: now again). */
export function setClockNow(f?: () => number): void {
  clockNow = f ?? (() => Date.now());
}

export function deadlineClock(el: HTMLElement, lowMs: number, advance: () => void) {
  let advancedFor = 0;
  return (deadline: number | undefined, seated: boolean, idle: string): void => {
    if (!deadline) {
      el.textContent = idle;
      return;
    }
    const left = deadline - clockNow();
    el.textContent = `${Math.max(0, Math.ceil(left / 1000))} s`;
    el.classList.toggle("low", left < lowMs);
    if (left < -1500 && seated && advancedFor !== deadline) {
      advancedFor = deadline;
      advance();
    }
  };
}

/** gameKind reads a game's kind (the spectator route opens that game's own page); undefined: no such game. */
export async function gameKind(s: Session, id: string): Promise<string | undefined> {
  const db = await firestoreFor(s);
  const snap = await getDoc(doc(db, "games", id));
  return snap.exists() ? (snap.data().kind as string) : undefined;
}
