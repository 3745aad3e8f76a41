// The "what is the AI thinking" panel: one bar per option, the chosen one marked; for an AI
// without values, its rule in one line. Every value's unit is named under the bars.
import { el } from "./api.js";

// What the values of each kind of explanation mean, by the explanation's label.
const UNITS = {
  "Q-value": "Q-value: the reward it has learned to expect after the move (Harel in Yaniv: +1 for a deal won, −1 for a deal lost, and in its training ±1 for each round it leads or trails; Baltar in Rack-O: +10,000 for going Rack-O, −10,000 when another player does). Higher is better.",
  score: "score: minus the hand total it expects after its next throw (so −13 means 13 points left in hand; higher is better); for a Yaniv call, the chance the call is not caught by Assaf.",
  beads: "beads: how many beads MENACE's matchbox for this position holds for each cell; it draws one at random.",
  "expected points": "expected points: the network's estimate of the deal's points for it if it plays this card (−3 to +3).",
  "mean points in sampled deals": "mean points in sampled deals: the card's average points over deals redealt to match what it has seen (−3 to +3).",
  votes: "votes: how many of the ensemble's players chose each move.",
  "estimated chance to win the deal": "estimated chance to win the deal: the share of sampled playouts this move won (0 to 1).",
  "expected points from the deal": "expected points from the deal: over sampled playouts of this deal, the points it scores when it goes out, minus the points left in its hand when another player does (higher is better).",
};

const unitOf = (label) => UNITS[label] ?? (label ? `Values: ${label}.` : "");
const number = (v) => (Number.isInteger(v) ? String(v) : v.toFixed(3));

export function renderThinking(root, explanation, labelOf, seatName) {
  root.replaceChildren();
  if (!explanation) {
    root.append(el("p", { class: "muted" }, "No AI has moved yet."));
    return;
  }
  const entries = Object.entries(explanation.values ?? {}).sort((a, b) => b[1] - a[1]);
  const chosen = explanation.labels?.[explanation.action] ?? labelOf(explanation.action);
  if (!entries.length) {
    root.append(el("p", { class: "thinking-head" }, `${seatName}'s move: ${chosen}`),
      el("p", { class: "thinking-reason" }, explanation.reason ? `Why: ${explanation.reason}` : "It gave no values for this move."));
    if (explanation.note) root.append(el("p", { class: "muted small" }, explanation.note));
    return;
  }
  const max = Math.max(...entries.map(([, v]) => Math.abs(v)), 1e-9);
  root.append(el("p", { class: "thinking-head" }, `${seatName}'s move: ${chosen}`));
  const list = el("ul", { class: "bars" });
  for (const [id, value] of entries) {
    const label = explanation.labels?.[id] ?? labelOf(id);
    list.append(el("li", { class: id === explanation.action ? "chosen" : "", title: `${label}: ${number(value)}` },
      el("span", { class: "bar-label" }, label),
      el("span", { class: "bar" }, el("span", { class: value < 0 ? "fill neg" : "fill", style: `width:${(100 * Math.abs(value)) / max}%` })),
      el("span", { class: "bar-value" }, number(value))));
  }
  root.append(list, el("p", { class: "small thinking-unit" }, unitOf(explanation.label)));
  if (explanation.note) root.append(el("p", { class: "muted small" }, explanation.note));
}
