// Watch AI-vs-AI matches: live board, speed / pause / step, running tally and chart.
import { api, el, events } from "./api.js";
import { renderThinking } from "./thinking.js";

const form = document.getElementById("watch-form");
const gameSelect = document.getElementById("watch-game");
const seatsBox = document.getElementById("watch-seats");
const board = document.getElementById("board");
const status = document.getElementById("status");
const tally = document.getElementById("tally");
const thinking = document.getElementById("thinking");
const speed = document.getElementById("speed");
const pauseButton = document.getElementById("pause");
const stepButton = document.getElementById("step");
let current = null;
let control = null; // the control token of the current AI-only match (pause, step, speed)
let paused = false;
let chart = null;

const game = () => window.PARLOUR_GAMES.find((g) => g.name === gameSelect.value);

function seatSelect(g, preset, seat) {
  const s = el("select", { class: "watch-seat", "aria-label": `AI in seat ${seat}` });
  for (const l of g.levels) s.append(el("option", { value: l.id }, `${l.level}. ${l.title}`));
  s.value = preset;
  return s;
}

function resetSeats() {
  const g = game();
  const first = g.levels[0].id, last = g.levels[g.levels.length - 1].id;
  // as many seats as the game needs (at least two), the strongest and the first level alternating
  const picks = Array.from({ length: Math.max(2, g.players.min) }, (_, i) => seatSelect(g, i % 2 ? first : last, i + 1));
  seatsBox.replaceChildren(...picks.flatMap((s, i) => (i ? [el("span", {}, "vs"), s] : [s])));
}
gameSelect.addEventListener("change", resetSeats);
document.getElementById("add-seat").addEventListener("click", () => {
  const g = game();
  const n = seatsBox.querySelectorAll("select").length;
  if (n < g.players.max) seatsBox.append(seatSelect(g, g.levels[0].id, n + 1));
});
resetSeats();

speed.addEventListener("input", async () => {
  document.getElementById("speed-text").textContent = `${speed.value} ms`;
  if (current) await api(`/api/matches/${current}/control`, { method: "POST", token: control, body: { action: "speed", delay_ms: Number(speed.value) } });
});
pauseButton.addEventListener("click", async () => {
  paused = !paused;
  pauseButton.textContent = paused ? "Resume" : "Pause";
  stepButton.disabled = !paused;
  if (current) await api(`/api/matches/${current}/control`, { method: "POST", token: control, body: { action: paused ? "pause" : "resume" } });
});
stepButton.addEventListener("click", async () => {
  if (current) await api(`/api/matches/${current}/control`, { method: "POST", token: control, body: { action: "step" } });
});

function drawChart(names, history) {
  const data = {
    labels: history.map((_, i) => i + 1),
    datasets: names.map((name, k) => ({ label: name, data: history.map((h) => h[k]), tension: 0.2, pointRadius: 0 })),
  };
  if (chart) { chart.data = data; chart.update("none"); return; }
  chart = new window.Chart(document.getElementById("chart"), {
    type: "line", data,
    options: { animation: false, maintainAspectRatio: false, scales: { y: { min: 0, max: 1, title: { display: true, text: "win share" } }, x: { title: { display: true, text: "games" } } } },
  });
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const g = game();
  const module = await import(`/static/js/tables/${g.name}.js`);
  board.className = `board board-${g.name}`;
  const agents = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
  const names = agents.map((a, i) => `AI ${i + 1}: ${g.levels.find((l) => l.id === a).title}`);
  const n = Number(form.games.value);
  const wins = agents.map(() => 0);
  let draws = 0;
  const history = [];
  pauseButton.disabled = false;
  form.querySelector(".error").textContent = "";
  for (let k = 0; k < n; k++) {
    // Seats rotate each game so no AI keeps the first move (the tally follows the AIs, not the seats).
    const order = agents.map((_, i) => (i + k) % agents.length);
    let res;
    try {
      res = await api("/api/matches", { method: "POST", body: { game: g.name, delay_ms: Number(speed.value), seats: order.map((i) => ({ type: "agent", agent: agents[i] })) } });
    } catch (err) { form.querySelector(".error").textContent = err.message; return; }
    current = res.id;
    control = res.control_token;
    if (paused) await api(`/api/matches/${current}/control`, { method: "POST", token: control, body: { action: "pause" } });
    status.textContent = `Game ${k + 1} of ${n}`;
    let last = await api(`/api/matches/${current}`);
    module.render(board, last.view, { seat: null, legal: [], play() {}, names: last.seats.map((s) => s.display_name), explanation: null, reveal: true, match: last });
    for await (const { event, data } of events(`/api/matches/${current}/events`)) {
      if (event === "end") break;
      if (!data.match) continue;
      last = data.match;
      module.render(board, last.view, { seat: null, legal: [], play() {}, names: last.seats.map((s) => s.display_name), explanation: last.last_explanation, reveal: true, match: last });
      const e = last.last_explanation;
      renderThinking(thinking, e, (id) => last.moves.find((m) => m.action === id)?.label ?? id, e ? last.seats[e.seat].display_name : "");
    }
    const winners = last.result?.winners ?? [];
    if (!winners.length) draws++;
    for (const w of winners) wins[order[w]] += 1 / winners.length;
    history.push(wins.map((x) => x / (k + 1)));
    tally.replaceChildren(...names.map((name, i) => el("div", {}, `${name}: ${+wins[i].toFixed(2)}`)), el("div", { class: "muted" }, `draws: ${draws} · games: ${k + 1}`));
    drawChart(names, history);
  }
  status.textContent = `Done: ${n} games.`;
  current = null;
});
