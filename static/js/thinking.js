// The "what is the AI thinking" panel: one bar per option, the chosen one marked.
import { el } from "./api.js";

export function renderThinking(root, explanation, labelOf, seatName) {
  root.replaceChildren();
  if (!explanation) {
    root.append(el("p", { class: "muted" }, "The AI has not moved yet."));
    return;
  }
  const entries = Object.entries(explanation.values).sort((a, b) => b[1] - a[1]);
  const max = Math.max(...entries.map(([, v]) => Math.abs(v)), 1e-9);
  root.append(el("p", { class: "thinking-head" }, `${seatName} — ${explanation.label}`));
  const list = el("ul", { class: "bars" });
  for (const [id, value] of entries) {
    const chosen = id === explanation.action;
    list.append(el("li", { class: chosen ? "chosen" : "" },
      el("span", { class: "bar-label" }, explanation.labels?.[id] ?? labelOf(id)),
      el("span", { class: "bar" }, el("span", { class: value < 0 ? "fill neg" : "fill", style: `width:${(100 * Math.abs(value)) / max}%` })),
      el("span", { class: "bar-value" }, Number.isInteger(value) ? value : value.toFixed(3))));
  }
  root.append(list);
  if (explanation.note) root.append(el("p", { class: "muted small" }, explanation.note));
}
