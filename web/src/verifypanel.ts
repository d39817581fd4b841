// The "verify the dice" panel of a finished game: recomputes every roll in
// the browser from the revealed seed (fairness.ts) and shows pass or fail.
//
// Test hook: window.meepleTestHooks.tamperRecords(records) — when set, the
// panel verifies what it returns instead of the log as read, so a browser
// test can check that a tampered log fails (web/tests/browser.mjs).

import { verifyDashDice } from "./fairness";
import type { EventRecord, GameDoc } from "./live";
import { ErrorBox, button, field, h, replace } from "./ui";

declare global {
  interface Window {
    meepleTestHooks?: { tamperRecords?: (r: EventRecord[]) => EventRecord[] };
  }
}

export class VerifyPanel {
  readonly el = h("section", { class: "card verify", id: "verify", hidden: true });
  private readonly err = new ErrorBox();
  private readonly seed = field("seed", { id: "verify-seed", size: 66 });
  private readonly result = h("div", { id: "verify-result" });
  private readonly details = h("ul", { class: "checks", id: "verify-checks" });
  private game?: GameDoc;
  private records: EventRecord[] = [];
  private ran = false;

  constructor() {
    replace(
      this.el,
      h("h2", {}, "Verify the dice"),
      h("p", { class: "note" }, "The seed is revealed now the game is over. This page checks that sha256(seed) is the hash published when the game was created, and recomputes every roll of the event log from it (docs/randomness.md)."),
      this.seed.row,
      button("Verify", () => this.verify(), { id: "verify-run" }),
      this.err.el,
      this.result,
      this.details,
    );
  }

  update(g: GameDoc | null, records: EventRecord[]): void {
    this.game = g ?? undefined;
    this.records = records;
    const over = !!g?.seed;
    this.el.hidden = !over;
    // Run once the log holds every step, 1 to the game's version: a page
    // opened after the end gets the latest steps with the game document
    // first and the history's batches a moment later; run on the first
    // alone, it would check only the last few rolls.
    const seqs = new Set(records.map((r) => r.seq).filter((seq) => seq > 0 && seq <= g!.version));
    if (over && !this.ran && seqs.size >= g!.version) {
      this.ran = true;
      this.seed.input.value = g!.seed!;
      void this.verify();
    }
  }

  async verify(): Promise<void> {
    await this.err.run(async () => {
      const g = this.game;
      if (!g?.seedHash) throw new Error("this game has no published seed hash");
      const seed = this.seed.input.value.trim();
      if (!seed) throw new Error("no seed to check: the seed is revealed when the game is over");
      const records = window.meepleTestHooks?.tamperRecords?.(structuredClone(this.records)) ?? this.records;
      const v = await verifyDashDice(seed, g.seedHash, records);
      this.result.className = v.ok ? "pass" : "fail";
      const dice = v.checks.reduce((n, c) => n + c.recorded.length, 0);
      this.result.textContent = v.ok
        ? `PASS: sha256(seed) = seedHash, and all ${dice} dice of ${v.checks.length} rolls match the seed.`
        : `FAIL: ${v.problems.join("; ")}`;
      replace(
        this.details,
        ...v.checks.map((c) =>
          h("li", { class: c.ok ? "ok" : "bad" }, `step ${c.seq} ${c.what}: recorded ${c.recorded.join("-")}, computed ${c.computed.join("-")} ${c.ok ? "✓" : "✗"}`),
        ),
      );
    });
  }
}
