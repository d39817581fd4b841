// The admin view's pool tasks, picked from a list: the race's pools
// (games/{id}/private/pools, which the game's admins may read) as a listbox
// grouped by difficulty, each task by its id and label, marked when it is
// on the board. Picking one (click, or the arrow keys) fills the edit form;
// the edit and remove actions act on the picked task, so no admin types a
// task id.

import { doc, onSnapshot, type Unsubscribe } from "firebase/firestore";
import { requireSession } from "../../api";
import { firestoreFor, unpack } from "../../firebase";
import { h, replace } from "../../ui";
import type { TileContent } from "./model";

export interface PoolTask extends TileContent {
  id: string;
  used?: boolean;
}

interface Pools {
  easy?: PoolTask[];
  medium?: PoolTask[];
  hard?: PoolTask[];
}

const POOLS: [keyof Pools, string][] = [["easy", "easy"], ["medium", "medium"], ["hard", "hard"]];

export class PoolPicker {
  readonly list = h("select", { id: "tr-pool-pick", size: 10, class: "tr-pool-pick" });
  readonly el: HTMLElement;
  private readonly count = h("span", { id: "tr-pool-count" });
  private tasks = new Map<string, PoolTask>();
  private unsub: Unsubscribe | null = null;
  private stopped = false;

  constructor(
    private readonly gameId: string,
    onPick: (t: PoolTask) => void,
    onError: (e: Error) => void,
  ) {
    this.list.addEventListener("change", () => {
      const t = this.tasks.get(this.list.value);
      if (t) onPick(t);
    });
    this.el = h("div", { class: "tr-pools" },
      h("label", { for: "tr-pool-pick" }, "Pool tasks ", this.count, " — pick one (click, or the arrow keys) to edit or remove it"),
      this.list);
    this.onError = onError;
  }

  private onError: (e: Error) => void;

  /** start listens to the pools (once; the section may open many times). */
  start() {
    if (this.unsub || this.stopped) return;
    this.unsub = () => {};
    void firestoreFor(requireSession()).then((db) => {
      if (this.stopped) return;
      this.unsub = onSnapshot(doc(db, "games", this.gameId, "private", "pools"), (snap) => {
        this.render((unpack<{ pools?: Pools }>(snap.data())?.pools ?? {}) as Pools); // pools are packed
      }, (e) => this.onError(new Error(`reading the pools: ${e.message}`)));
    }, (e) => this.onError(e));
  }

  stop() {
    this.stopped = true;
    this.unsub?.();
  }

  /** picked is the picked task's id, or an error saying to pick one. */
  picked(): string {
    const id = this.list.value;
    if (!id || !this.tasks.has(id)) throw new Error("pick a pool task from the list first");
    return id;
  }

  private render(p: Pools) {
    const was = this.list.value;
    this.tasks = new Map();
    const groups = POOLS.map(([k, name]) => {
      const ts = p[k] ?? [];
      for (const t of ts) this.tasks.set(t.id, t);
      return h("optgroup", { label: `${name} (${ts.length})` },
        ...ts.map((t) => h("option", { value: t.id, selected: t.id === was }, `${t.id} · ${t.label ?? ""}${t.used ? " (on the board)" : ""}`)));
    });
    replace(this.list, ...groups);
    this.count.textContent = `(${this.tasks.size})`;
  }
}
