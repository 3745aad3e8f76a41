// The leaderboard: ratings per game (sortable), and one player's rating over time.
import { api, el } from "./api.js";

const select = document.getElementById("lb-game");
const body = document.querySelector("#ratings tbody");
let players = [];
let sortKey = "rating";
let descending = true;
let chart = null;
let charted = null;
let next = null; // the cursor of the next page of players (null: no more)
const more = document.getElementById("ratings-more");

const fixed = (x) => x.toFixed(2);

function render() {
  const rows = [...players].sort((a, b) => {
    const x = a[sortKey], y = b[sortKey];
    const order = typeof x === "string" ? x.localeCompare(y) : x - y;
    return descending ? -order : order;
  });
  for (const th of document.querySelectorAll("#ratings th")) {
    th.setAttribute("aria-sort", th.dataset.key === sortKey ? (descending ? "descending" : "ascending") : "none");
  }
  body.replaceChildren(...rows.map((p) => {
    const who = p.kind === "agent" ? (p.level ? `level ${p.level}` : "agent") : "person";
    const tr = el("tr", { "data-player": p.player, class: p.player === charted ? "on" : "" },
      el("td", {}, p.kind === "person" ? el("a", { href: `/people/${encodeURIComponent(p.id)}` }, p.name) : p.name), el("td", {}, who), el("td", { class: "rating", title: p.provisional ? "provisional: fewer than 10 rated matches" : "" }, p.display),
      el("td", {}, fixed(p.mu)), el("td", {}, fixed(p.sigma)), el("td", {}, p.games), el("td", {}, p.wins));
    tr.addEventListener("click", () => plot(p));
    return tr;
  }));
  if (!rows.length) body.append(el("tr", {}, el("td", { colspan: 7, class: "muted" }, "No finished matches in this game yet.")));
}

async function plot(p) {
  charted = p.player;
  render();
  const data = await api(`/api/leaderboard/history?game=${encodeURIComponent(select.value)}&player=${encodeURIComponent(p.player)}`);
  document.getElementById("chart-title").textContent = p.name;
  const labels = data.points.map((pt, i) => (pt.tournament ? `tournament ${pt.tournament}` : `${i + 1}`));
  if (chart) chart.destroy();
  chart = new window.Chart(document.getElementById("rating-chart"), {
    type: "line",
    data: {
      labels,
      datasets: [
        { label: "rating", data: data.points.map((pt) => pt.rating), borderColor: "#c9a227", backgroundColor: "#c9a227" },
      ],
    },
    options: { animation: false, maintainAspectRatio: false, scales: { x: { title: { display: true, text: "rated match" } } } },
  });
}

// The best rated first, a page at a time: "More players" adds the next page.
async function page(cursor) {
  const params = new URLSearchParams({ game: select.value });
  if (cursor) params.set("cursor", cursor);
  const data = await api(`/api/leaderboard?${params}`);
  document.getElementById("model").textContent = data.model;
  next = data.next;
  more.hidden = !next;
  return data.players;
}

async function load() {
  players = await page(null);
  render();
  const first = players.find((p) => p.kind === "person") ?? players[0];
  if (first) await plot(first);
}

more.addEventListener("click", async () => {
  players = players.concat(await page(next));
  render();
});

for (const th of document.querySelectorAll("#ratings th")) {
  th.addEventListener("click", () => {
    descending = th.dataset.key === sortKey ? !descending : true;
    sortKey = th.dataset.key;
    render();
  });
}
select.addEventListener("change", () => {
  history.replaceState(null, "", `/leaderboard?game=${select.value}`);
  charted = null;
  load();
});
await load();
