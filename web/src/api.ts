// Calls to the HTTP functions and the signed-in session. Every refusal the
// API sends ({"error":{"code","message"}}) becomes an ApiError with the
// API's own message.

import { getConfig } from "./config";

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export interface Player {
  id: string;
  name: string;
  role: string;
}

export interface Session {
  token: string;
  firebaseToken: string;
  expiresAt: string;
  player: Player;
}

export interface Reply<R = Record<string, any>> {
  gameId?: string;
  version?: number;
  events?: { type: string; player?: string; data?: any }[];
  result: R;
}

/** post sends body to a function and returns its JSON reply, or throws ApiError. */
export async function post<T = any>(fn: string, body: unknown, token?: string): Promise<T> {
  const { functionsURL = "" } = await getConfig();
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(`${functionsURL}/${fn}`, { method: "POST", headers, body: JSON.stringify(body) });
  } catch (err) {
    throw new ApiError("unavailable", `cannot reach /${fn}: ${err instanceof Error ? err.message : err}`, 0);
  }
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ApiError("internal", `/${fn} answered ${res.status} with no JSON: ${text.slice(0, 200)}`, res.status);
  }
  if (!res.ok || json?.error) {
    const e = json?.error ?? {};
    throw new ApiError(e.code ?? "unknown", e.message ?? `/${fn} answered ${res.status}`, res.status, e.details);
  }
  return json as T;
}

let counter = 0;
/** actionId makes a fresh id for one action (an id is unique per player). */
export function actionId(prefix = "web"): string {
  counter++;
  return `${prefix}-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
}

/** act sends one action of a game as the signed-in player. */
export function act<R = Record<string, any>>(fn: string, body: Record<string, unknown>): Promise<Reply<R>> {
  const s = requireSession();
  return post<Reply<R>>(fn, { actionId: actionId(String(body.type ?? "a")), ...body }, s.token);
}

/**
 * ask sends a call that changes nothing (legal, preview) about the version
 * of the game the page shows: the server may answer it from the copy of the
 * game document it holds, without a read (docs/firestore.md, "Warm game
 * documents"). undefined when the game has moved on meanwhile (409 stale):
 * the snapshot of the newer version is on its way, and the page asks again.
 */
export async function ask<R = Record<string, any>>(fn: string, version: number, body: Record<string, unknown>): Promise<Reply<R> | undefined> {
  try {
    return await act<R>(fn, { ...body, version });
  } catch (err) {
    if (err instanceof ApiError && err.status === 409 && typeof (err.details as { version?: unknown } | undefined)?.version === "number") return undefined;
    throw err;
  }
}

// The session lives in sessionStorage: each tab is its own player, so two
// tabs of one browser can play each other on the local stack.
const KEY = "meeple.session";

export function session(): Session | undefined {
  const raw = sessionStorage.getItem(KEY);
  if (!raw) return undefined;
  const s = JSON.parse(raw) as Session;
  if (Date.parse(s.expiresAt) <= Date.now()) {
    sessionStorage.removeItem(KEY);
    return undefined;
  }
  return s;
}

export function requireSession(): Session {
  const s = session();
  if (!s) throw new ApiError("unauthenticated", "sign in first", 401);
  return s;
}

export async function signIn(body: Record<string, unknown>): Promise<Session> {
  const s = await post<Session>("Auth", body);
  useSession(s);
  return s;
}

/** useSession makes s this tab's session (a Tile Race create returns its master admin's). */
export function useSession(s: Session): void {
  sessionStorage.setItem(KEY, JSON.stringify(s));
}

export function signOut(): void {
  sessionStorage.removeItem(KEY);
}
