// Noughts and crosses: a 3x3 board (cells 0-8 row by row). Legal cells are buttons;
// after MENACE moves, its bead counts for that position are drawn on the board.
import { el } from "../api.js";

export function render(root, view, ctx) {
  const legal = new Set(ctx.legal.map((a) => a.id));
  const e = ctx.explanation;
  const beads = e && e.label === "beads" && ctx.showBeads !== false ? e.values : null;
  const grid = el("div", { class: "ttt-grid", role: "group", "aria-label": "board" });
  view.cells.forEach((mark, i) => {
    const id = `cell:${i}`;
    const cell = el(legal.has(id) ? "button" : "div", {
      class: `ttt-cell ${mark ? `mark-${mark}` : ""} ${view.line?.includes(i) ? "win" : ""} ${e?.action === id ? "last" : ""}`,
      "data-cell": i, role: legal.has(id) ? null : "img",
      "aria-label": mark ? `cell ${i}: ${mark}` : `cell ${i}: empty`,
      onclick: legal.has(id) ? () => ctx.play(id) : null,
    }, el("span", { class: "mark" }, mark));
    if (beads && id in beads) cell.append(el("span", { class: "beads", title: `${beads[id]} beads` }, beadDots(beads[id])));
    grid.append(cell);
  });
  const caption = el("p", { class: "ttt-caption muted" },
    ctx.seat === null ? "" : `You play ${view.marks[ctx.seat]}. `,
    beads ? "Dots: MENACE's beads for its last move (chosen cell ringed)." : "");
  root.replaceChildren(grid, caption);
}

function beadDots(n) {
  const shown = Math.min(n, 12);
  const dots = Array.from({ length: shown }, () => el("i"));
  return [...dots, n > shown || n === 0 ? el("b", {}, String(n)) : null];
}

// The words for a move's own line ("top left" -> "play in the top left"), told of its mover by the table.
export const moveWords = ({ label }) => `play in the ${label}`;
