// A person's page: their matches, their record against each level, their rating over time.
import { api, el } from "./api.js";

const root = document.getElementById("person-page");
const name = root.dataset.name;
const titles = Object.fromEntries(window.PARLOUR_GAMES.map((g) => [g.name, g.title]));
const select = document.getElementById("person-game");
let chart = null;

function result(m) {
  if (m.status !== "finished") return m.status === "waiting" ? "waiting for players" : "in play";
  const winners = m.seats.filter((s) => s.won).map((s) => s.display_name);
  if (!winners.length) return "draw";
  return m.won ? "won" : `lost (${winners.join(", ")} won)`;
}

function plot(data) {
  const r = data.ratings[select.value];
  if (chart) chart.destroy();
  chart = null;
  if (!r) {
    document.getElementById("person-rating").textContent = "No rated match in this game yet.";
    return;
  }
  document.getElementById("person-rating").textContent =
    `Rating ${r.display}${r.provisional ? " (provisional)" : ""} (μ ${r.mu.toFixed(2)}, σ ${r.sigma.toFixed(2)}) after ${r.games} rated match${r.games === 1 ? "" : "es"}, ${r.wins} won.`;
  chart = new window.Chart(document.getElementById("person-chart"), {
    type: "line",
    data: {
      labels: r.history.map((_, i) => `${i + 1}`),
      datasets: [
        { label: "rating", data: r.history.map((pt) => pt.rating), borderColor: "#c9a227", backgroundColor: "#c9a227" },
      ],
    },
    options: { animation: false, maintainAspectRatio: false, scales: { x: { title: { display: true, text: "rated match" } } } },
  });
}

// The person's matches, newest first, a page at a time: "Older matches" adds the next page.
const more = document.getElementById("person-more");
let next = null;

function showMatches(data, append) {
  const rows = data.matches.map((m) => el("tr", {},
    el("td", {}, new Date(m.created_at).toLocaleString()), el("td", {}, titles[m.game] ?? m.game),
    el("td", {}, m.seats.map((s) => s.display_name).join(" vs ")), el("td", {}, result(m)),
    el("td", {}, el("a", { href: `/play/${m.id}` }, m.status === "finished" ? "view" : "open"))));
  const body = document.querySelector("#person-matches tbody");
  if (append) body.append(...rows);
  else body.replaceChildren(...rows);
  next = data.next;
  more.hidden = !next;
}

more.addEventListener("click", async () => {
  showMatches(await api(`/api/people/${encodeURIComponent(name)}?cursor=${encodeURIComponent(next)}`), true);
});

try {
  const data = await api(`/api/people/${encodeURIComponent(name)}`);
  const record = document.querySelector("#person-record tbody");
  record.replaceChildren(...data.record.map((r) => el("tr", {}, el("td", {}, titles[r.game] ?? r.game),
    el("td", {}, el("a", { href: `/agents/${r.game}/${r.agent}` }, r.level)), el("td", {}, r.win), el("td", {}, r.draw), el("td", {}, r.loss))));
  if (!data.record.length) record.append(el("tr", {}, el("td", { colspan: 5, class: "muted" }, "No finished match against an AI yet.")));
  const games = Object.keys(data.ratings);
  select.replaceChildren(...(games.length ? games : [""]).map((g) => el("option", { value: g }, titles[g] ?? "none yet")));
  select.addEventListener("change", () => plot(data));
  plot(data);
  showMatches(data, false);
} catch (err) {
  document.getElementById("person-error").textContent = err.message;
}
