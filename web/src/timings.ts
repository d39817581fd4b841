// Page timings for the browser tests: when each game version was first
// seen and when each click was sent (performance clock, in ms since the
// epoch), kept on window.meepleTimings where the tests read them.

export interface Timings {
  seen: Record<number, number>;
  clicks: { at: number; version: number; type: string; replied?: number }[];
}

declare global {
  interface Window {
    meepleTimings?: Timings;
  }
}

/** now is the time in ms since the epoch, at sub-millisecond precision. */
export const now = (): number => performance.timeOrigin + performance.now();

/** pageTimings starts a page's timings afresh. */
export function pageTimings(): Timings {
  const t: Timings = { seen: {}, clicks: [] };
  window.meepleTimings = t;
  return t;
}
