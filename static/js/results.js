// The results page: people vs levels, live MENACE's curve, tournaments, recent matches.
import { api, el, liveCurve, plural } from "./api.js";

const titles = Object.fromEntries(window.PARLOUR_GAMES.map((g) => [g.name, g.title]));

async function people() {
  const rows = await api("/api/people-vs-levels");
  const body = document.querySelector("#people tbody");
  body.replaceChildren(...rows.map((r) => el("tr", {}, el("td", {}, titles[r.game]), el("td", {}, r.level),
    el("td", {}, r.win), el("td", {}, r.draw), el("td", {}, r.loss))));
  if (!rows.length) body.append(el("tr", {}, el("td", { colspan: 5, class: "muted" }, "Nobody has finished a game yet.")));
}

async function menaceCurve() {
  const curve = await liveCurve("tictactoe", "menace-live");
  const w = curve.live.windows;
  const shown = w.reduce((n, x) => n + x.games, 0);
  document.getElementById("menace-note").textContent =
    `${plural(curve.live.games, "game")} since its last reset, in windows of ${curve.live.window}: MENACE's wins, draws and losses`
    + (shown < curve.live.games ? ` (the first ${shown} shown).` : ".");
  new window.Chart(document.getElementById("menace-curve"), {
    type: "bar",
    data: {
      labels: w.map((_, i) => `${i * curve.live.window + 1}–${i * curve.live.window + w[i].games}`),
      datasets: [
        { label: "wins", data: w.map((x) => x.win / x.games), backgroundColor: "#1a7f37" },
        { label: "draws", data: w.map((x) => x.draw / x.games), backgroundColor: "#c9a227" },
        { label: "losses", data: w.map((x) => x.loss / x.games), backgroundColor: "#b3261e" },
      ],
    },
    options: { animation: false, maintainAspectRatio: false, scales: { x: { stacked: true }, y: { stacked: true, max: 1 } } },
  });
}

async function tournaments() {
  const list = await api("/api/tournaments?limit=10");
  if (!list.length) return;
  const box = document.getElementById("tournaments");
  box.className = "";
  box.replaceChildren();
  for (const t of list) {
    const canvas = el("canvas");
    // the first player's lead over each other one, ± the s.e. of the game-by-game difference
    const lead = (s, i) => (i === 0 || s.first_lead === undefined ? "–"
      : `${s.first_lead >= 0 ? "+" : ""}${(100 * s.first_lead).toFixed(1)} ± ${(100 * s.first_lead_se).toFixed(1)}`);
    const unit = t.unit ?? "single deals";
    const table = el("table", {}, el("thead", {}, el("tr", {}, ...["Player", `Wins % of ${unit}`, "±", "Mean points", "Moves/game", `${t.stats[0].player} ahead by`].map((h) => el("th", {}, h)))),
      el("tbody", {}, ...t.stats.map((s, i) => el("tr", {}, el("td", {}, s.player), el("td", {}, (100 * s.win_share).toFixed(1)),
        el("td", {}, (100 * s.win_se).toFixed(1)), el("td", {}, s.mean_points.toFixed(2)), el("td", {}, s.mean_moves.toFixed(1)),
        el("td", {}, lead(s, i))))));
    box.append(el("h3", {}, `${titles[t.game] ?? t.game}: ${t.games} ${unit}, seed ${t.seed} (${new Date(t.created_at).toLocaleString()})`),
      el("div", { class: "grid-2" }, table, el("div", { class: "chart-box" }, canvas)));
    new window.Chart(canvas, {
      type: "bar",
      data: { labels: t.stats.map((s) => s.player), datasets: [{ label: `win share of ${unit}`, data: t.stats.map((s) => s.win_share), backgroundColor: "#1f5f45" }] },
      options: { animation: false, maintainAspectRatio: false, plugins: { legend: { display: false } }, scales: { y: { min: 0, title: { display: true, text: `win share of ${unit} (±1 s.e. in the table)` } } } },
    });
  }
}

const recentMore = document.getElementById("recent-more");
let recentNext = null; // the cursor of the next page of matches (null: no more)

// The newest matches, 25 at a time: "Older matches" adds the next page under them.
async function recent(more = false) {
  const params = new URLSearchParams({ per_page: 25 });
  const game = document.getElementById("filter-game").value;
  if (game) params.set("game", game);
  if (more) params.set("cursor", recentNext);
  const data = await api(`/api/matches?${params}`);
  recentNext = data.next;
  recentMore.hidden = !recentNext;
  const body = document.querySelector("#recent tbody");
  const rows = data.matches.map((m) => {
    const winners = m.seats.filter((s) => s.won).map((s) => s.display_name);
    const early = m.ending?.kind === "resigned" ? `${m.seats[m.ending.seat]?.display_name ?? "a player"} resigned; ` : "";
    const result = m.status === "active" ? "in play" : m.status === "waiting" ? "waiting for players"
      : m.ending?.kind === "abandoned" ? "abandoned" : winners.length ? `${early}${winners.join(", ")} won` : "draw";
    const who = m.seats.flatMap((s, i) => [i ? " vs " : "",
      s.type === "human" ? el("a", { href: `/people/${encodeURIComponent(s.name)}` }, s.display_name) : s.display_name]);
    return el("tr", {}, el("td", {}, new Date(m.created_at).toLocaleString()), el("td", {}, titles[m.game]),
      el("td", {}, ...who), el("td", {}, result, m.rated ? "" : el("span", { class: "muted", title: m.unrated_reason }, " · unrated")),
      el("td", {}, el("a", { href: `/play/${m.id}` }, m.status === "finished" ? "view" : "open")));
  });
  if (more) body.append(...rows);
  else body.replaceChildren(...rows);
}

document.getElementById("filter-game").addEventListener("change", () => recent());
recentMore.addEventListener("click", () => recent(true));
await Promise.all([people(), menaceCurve(), tournaments(), recent()]);
