// One Firebase app per signed-in identity: the local stack's Firestore
// emulator takes the Auth function's firebaseToken as mockUserToken; in
// production the same token signs in with signInWithCustomToken.

import { initializeApp, type FirebaseApp } from "firebase/app";
import { connectFirestoreEmulator, getFirestore, type Firestore } from "firebase/firestore";
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
