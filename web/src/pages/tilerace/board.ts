// The 56-tile serpentine: each tile at the row/col/span the board document
// gives it (docs/tilerace.md, "Board and layout"), hidden tiles hidden, the
// teams' tokens on their tiles.

import { h, replace } from "../../ui";
import { activate } from "../words";
import { DIFFICULTY, inkOn, powerupName, points, type PublicTile, type Team } from "./model";

/**
 * renderBoard draws tiles (the public board, or an admin's viewBoard); a tile
 * without content is hidden. With players (the public board) an admin's view
 * marks the tiles teams cannot see.
 */
export function renderBoard(
  box: HTMLElement,
  tiles: PublicTile[],
  teams: Team[],
  opts: { mine?: string; players?: PublicTile[]; mark?: (team: string) => string; onTile?: (n: number) => void } = {},
): void {
  const mark = opts.mark ?? (() => "");
  const at = new Map<number, Team[]>();
  for (const t of teams) at.set(t.position, [...(at.get(t.position) ?? []), t]);
  const cells = tiles.map((t) => {
    const c = t.content;
    const here = at.get(t.n) ?? [];
    const cls = ["tr-tile"];
    const shown = t.revealed && !!c;
    const hiddenFromTeams = opts.players ? !opts.players.find((p) => p.n === t.n)?.revealed : false;
    if (!shown) cls.push("hidden");
    if (c?.difficulty) cls.push(`d${c.difficulty}`);
    if (t.n === tiles.length) cls.push("final");
    if (opts.mine && here.some((x) => x.id === opts.mine)) cls.push("mine");
    const mods = c?.mods ? Object.keys(c.mods).filter((k) => (c.mods as any)[k]) : [];
    const detail = `${DIFFICULTY[c?.difficulty ?? 0] ?? ""}${c && (c.max ?? 1) > 1 ? ` · ${c.min}–${c.max}×` : ""}${c?.pointsPerCompletion ? ` · ${points(c.pointsPerCompletion)} pt` : ""}${c?.reward ? ` · 🎁 ${powerupName(c.reward)}` : ""}${mods.length ? ` · ${mods.join(", ")}` : ""}${hiddenFromTeams ? " · hidden from teams" : ""}`;
    // The tile in words for a screen reader: colour (difficulty border, team tokens) is never the only signal.
    const label = `Tile ${t.n}${t.n === tiles.length ? " (finish)" : ""}: ${shown ? `${c?.label || "no task"}, ${detail}` : "hidden"}${here.length ? `; here: ${here.map((x) => x.name).join(", ")}` : ""}`;
    const cell = h(
      "div",
      {
        class: cls.join(" "),
        id: `tr-tile-${t.n}`,
        "data-revealed": String(shown),
        style: `grid-row: ${t.row + 1}; grid-column: ${t.col + 1} / span ${t.span || 1}`,
        title: c?.instructions ?? "",
        role: opts.onTile ? undefined : "listitem",
        "aria-label": opts.onTile ? undefined : label,
      },
      h("span", { class: "n" }, String(t.n)),
      shown
        ? h(
            "span",
            {},
            ` ${c?.label || "(no task)"}`,
            h("br"),
            h("span", { class: "note" }, detail),
          )
        : h("span", { class: "note" }, " hidden"),
      here.length
        ? h("div", { class: "tokens" }, ...here.map((x) => h("span", { class: "tr-token", style: `background:${x.color};color:${inkOn(x.color)}`, "data-team": x.id }, `${mark(x.id)} ${x.name}`.trim())))
        : null,
    );
    if (opts.onTile) {
      // Named by its visible text (the tile), described by its words and what pressing it does.
      activate(cell, "", () => opts.onTile!(t.n)).addEventListener("click", () => opts.onTile!(t.n));
      cell.title = `${label}. Press to edit this tile.`;
    }
    return cell;
  });
  box.setAttribute("role", opts.onTile ? "group" : "list");
  box.setAttribute("aria-label", "The board, tiles 1 to " + tiles.length);
  replace(box, ...cells);
}
