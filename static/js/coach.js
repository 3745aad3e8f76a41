// The coach on the table page: the review of the person's moves (GET /api/matches/{id}/analysis),
// shown beside the replay and in the log next to each move, and in a match with hints the coach's
// values for the current decision (GET /api/matches/{id}/hint).
import { api, el, sleep } from "./api.js";

const fmt = (x) => (x === null || x === undefined ? "–" : Number.isInteger(x) ? String(x) : x.toFixed(3).replace(/0+$/, "").replace(/\.$/, ""));

// Poll the analysis until it is done, showing its progress; returns it.
async function fetchReview(matchId, token, progress) {
  for (;;) {
    const r = await api(`/api/matches/${matchId}/analysis`, { token });
    if (r.status === "done") return r;
    progress(`The coach is reviewing your moves… ${r.done}/${r.total}`);
    await sleep(700);
  }
}

function verdict(e) {
  if (e.loss === null) return e.best ? `not rated (the coach prefers ${e.best_label})` : "not rated";
  if (e.value === null) return "the only move";
  if (e.mistake) return `mistake: cost ${fmt(e.loss)} (${fmt(e.value)} against ${fmt(e.best_value)} for ${e.best_label})`;
  if (e.loss > 0) return `fine: cost ${fmt(e.loss)} (the coach prefers ${e.best_label})`;
  return "the coach's choice too";
}

// Show the review in ``root`` (a panel) and flag mistakes in the log; ``goTo(ply)`` steps the
// replay to a move. Returns { mark(ply) } to highlight the move the replay shows.
export function showReview(root, log, matchId, token, goTo) {
  const items = new Map();
  root.hidden = false;
  const body = root.querySelector(".coach-body");
  body.replaceChildren(el("p", { class: "muted", role: "status" }, "Asking the coach…"));
  fetchReview(matchId, token, (text) => { body.firstChild.textContent = text; })
    .then((review) => {
      const list = el("ul", { class: "coach-moves" });
      for (const e of review.entries) {
        const item = el("li", { class: e.mistake ? "mistake" : "", "data-ply": e.ply },
          el("button", { class: "link", onclick: () => goTo(e.ply), "aria-label": `show move ${e.ply + 1}` }, `Move ${e.ply + 1}`),
          ` ${e.label}: `, el("span", { class: "coach-verdict" }, verdict(e)));
        items.set(e.ply, item);
        list.append(item);
        const logged = log.querySelector(`[data-ply="${e.ply}"]`);
        if (e.mistake && logged && !logged.querySelector(".flag")) {
          logged.append(el("span", { class: "flag", title: verdict(e) }, ` ✗ mistake (−${fmt(e.loss)})`));
        }
      }
      body.replaceChildren(
        el("p", { class: "small muted" }, `${review.agent_title} judges, in ${review.unit}; a loss of ${fmt(review.threshold)} or more is a mistake.`),
        list, el("p", { class: "coach-summary", role: "status" }, review.summary));
    })
    .catch((err) => body.replaceChildren(el("p", { class: "error" }, err.message)));
  return {
    mark(ply) {
      for (const [p, item] of items) item.classList.toggle("current", p === ply);
    },
  };
}

// In a match with hints: a button that asks the coach about the decision in front of you.
export function hintButton(root, matchId, token, labelOf) {
  return el("button", {
    "data-action": "hint",
    onclick: async () => {
      root.hidden = false;
      const body = root.querySelector(".coach-body");
      body.replaceChildren(el("p", { class: "muted", role: "status" }, "The coach is thinking…"));
      try {
        const h = await api(`/api/matches/${matchId}/hint`, { token });
        const entries = Object.entries(h.values).sort((a, b) => b[1] - a[1]);
        if (h.best === null) {
          body.replaceChildren(el("p", {}, `The coach (${h.agent_title}) does not rate this decision: its level makes it by a rule.`));
          return;
        }
        body.replaceChildren(el("p", {}, `The coach (${h.agent_title}) prefers `, el("strong", {}, h.labels[h.best] ?? labelOf(h.best)), "."),
          el("ul", { class: "coach-moves" }, ...entries.map(([id, v]) => el("li", {}, `${h.labels[id] ?? labelOf(id)}: ${fmt(v)}`))),
          el("p", { class: "small muted" }, `Values in ${h.unit}.`));
      } catch (err) {
        body.replaceChildren(el("p", { class: "error" }, err.message));
      }
    },
  }, "Hint");
}
