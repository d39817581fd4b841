// Verifying the dice of a finished game in the browser, from docs/randomness.md:
//
//   block_k = SHA-256(seed + ":" + n + ":" + k)      k = 0, 1, 2, ...
//
// each block read as four big-endian unsigned 64-bit words; a die with s sides
// takes the next word w, rejected when w >= 2^64 - (2^64 mod s), else it
// shows w mod s + 1. n is the game version the step produced (the event
// record's seq). The same as domain.SeededDice.

import type { EventRecord } from "./live";

const enc = new TextEncoder();

export async function sha256Hex(s: string): Promise<string> {
  if (!globalThis.crypto?.subtle) throw new Error("WebCrypto is not available (open the page over https or from localhost)");
  const sum = new Uint8Array(await crypto.subtle.digest("SHA-256", enc.encode(s)));
  return Array.from(sum, (b) => b.toString(16).padStart(2, "0")).join("");
}

const MAX = (1n << 64n) - 1n;

/** SeededDice draws the dice of the step that made version seq. */
export class SeededDice {
  private block = 0;
  private words: bigint[] = [];
  constructor(
    private readonly seed: string,
    private readonly seq: number,
  ) {}

  private async next(): Promise<bigint> {
    if (this.words.length === 0) {
      const sum = await crypto.subtle.digest("SHA-256", enc.encode(`${this.seed}:${this.seq}:${this.block}`));
      this.block++;
      const view = new DataView(sum);
      for (let i = 0; i < 4; i++) this.words.push(view.getBigUint64(i * 8, false));
    }
    return this.words.shift()!;
  }

  async roll(sides: number): Promise<number> {
    const s = BigInt(sides);
    const limit = MAX - ((MAX % s) + 1n) % s; // the largest accepted word
    for (;;) {
      const w = await this.next();
      if (w <= limit) return Number(w % s) + 1;
    }
  }
}

export interface Check {
  seq: number;
  what: string;
  recorded: number[];
  computed: number[];
  ok: boolean;
}

export interface Verdict {
  ok: boolean;
  hashOk: boolean;
  computedHash: string;
  checks: Check[];
  problems: string[];
}

/**
 * verifyDashDice checks sha256(seed) == seedHash and recomputes every die of
 * the event log: a `called` event rolled one six-sided die (absent when the
 * call timed out: nothing was rolled), a `rolled` event two, in order.
 */
export async function verifyDashDice(seed: string, seedHash: string, records: EventRecord[]): Promise<Verdict> {
  const computedHash = await sha256Hex(seed);
  const hashOk = computedHash === seedHash;
  const checks: Check[] = [];
  const problems: string[] = [];
  if (!hashOk) problems.push(`sha256(seed) is ${computedHash}, but the game published ${seedHash}`);
  for (const r of records) {
    const dice = new SeededDice(seed, r.seq);
    for (const e of r.events ?? []) {
      let recorded: number[] | undefined;
      if (e.type === "called" && typeof e.data?.die === "number") recorded = [e.data.die];
      if (e.type === "rolled" && Array.isArray(e.data?.dice)) recorded = e.data.dice;
      if (!recorded) continue;
      const computed: number[] = [];
      for (let i = 0; i < recorded.length; i++) computed.push(await dice.roll(6));
      const ok = computed.every((v, i) => v === recorded![i]);
      checks.push({ seq: r.seq, what: e.type, recorded, computed, ok });
      if (!ok) problems.push(`step ${r.seq} (${e.type}): recorded ${recorded.join("-")}, the seed gives ${computed.join("-")}`);
    }
  }
  if (checks.length === 0) problems.push("the event log holds no dice to check");
  return { ok: problems.length === 0, hashOk, computedHash, checks, problems };
}
