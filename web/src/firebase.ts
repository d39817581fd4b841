// One Firebase app per signed-in identity: the local stack's Firestore
// emulator takes the Auth function's firebaseToken as mockUserToken; in
// production the same token signs in with signInWithCustomToken.

import { initializeApp, type FirebaseApp } from "firebase/app";
import { Bytes, connectFirestoreEmulator, getFirestore, type Firestore } from "firebase/firestore";
import { inflateSync, strFromU8 } from "fflate";
import type { Session } from "./api";
import { getConfig } from "./config";

const dbs = new Map<string, Promise<Firestore>>();

/** firestoreFor returns the Firestore of session's identity (made once). */
export function firestoreFor(s: Session): Promise<Firestore> {
  const key = `${s.player.id}|${s.firebaseToken.slice(-16)}`;
  let db = dbs.get(key);
  if (!db) {
    db = open(s, key);
    dbs.set(key, db);
  }
  return db;
}

async function open(s: Session, name: string): Promise<Firestore> {
  const cfg = await getConfig();
  const app: FirebaseApp = initializeApp({ projectId: cfg.projectId, ...cfg.firebase }, name);
  const db = getFirestore(app);
  if (cfg.firestoreEmulator) {
    const i = cfg.firestoreEmulator.lastIndexOf(":");
    connectFirestoreEmulator(db, cfg.firestoreEmulator.slice(0, i), Number(cfg.firestoreEmulator.slice(i + 1)), {
      mockUserToken: s.firebaseToken,
    });
  } else {
    // Loaded only in production: the local stack needs no Auth.
    const { getAuth, signInWithCustomToken } = await import("firebase/auth");
    await signInWithCustomToken(getAuth(app), s.firebaseToken);
  }
  return db;
}

/**
 * retryOffline runs a one-time read, again (twice, a second apart) when it
 * fails with "the client is offline": a first read can, while the emulator
 * is slow to answer on a loaded machine.
 */
export async function retryOffline<T>(read: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await read();
    } catch (e) {
      if (tries >= 3 || !/offline/i.test(String(e))) throw e;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

/** millis reads a time the way Firestore gives it: a Timestamp or an RFC 3339 string in state. */
export function millis(t: unknown): number | undefined {
  if (!t) return undefined;
  if (typeof t === "string") {
    const ms = Date.parse(t);
    return Number.isNaN(ms) || ms <= 0 ? undefined : ms;
  }
  if (typeof (t as any).toMillis === "function") return (t as any).toMillis();
  return undefined;
}

/**
 * unpack is a stored document's data as the game's type reads it: the fields
 * its "packed" list names are stored as JSON text (one Firestore field for a
 * whole board, not hundreds: domain.Slot.Packed) and are parsed here.
 */
export function unpack<T = Record<string, unknown>>(data: Record<string, unknown> | undefined): T | undefined {
  if (!data) return undefined;
  const list = data.packed;
  if (!Array.isArray(list)) return data as T;
  const out: Record<string, unknown> = { ...data };
  delete out.packed;
  for (const name of list) {
    let v = out[name];
    if (v instanceof Bytes) v = strFromU8(inflateSync(v.toUint8Array()));
    if (typeof v === "string") out[name] = JSON.parse(v);
  }
  return out as T;
}
