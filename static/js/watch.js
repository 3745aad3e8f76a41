// Watch AI-vs-AI matches: live board, speed / pause / step, running tally and chart.
import { api, el, events, plural } from "./api.js";
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
let run = 0; // each Start is a new run; an older run's loop stops at its next step
let stream = null; // aborts the event stream of the game being shown

// "One deal": a match that ends after its first deal, by the options of the game's "one deal" length.
const oneDealOptions = (g) => g.lengths?.["one deal"] ?? null;
const lengthSelect = document.getElementById("watch-length");
const lengthLabel = document.getElementById("watch-length-label");

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
function showLength() {
  lengthLabel.hidden = !oneDealOptions(game());
}
gameSelect.addEventListener("change", () => { resetSeats(); showLength(); });
showLength();
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

// Start again: the previous run stops (its stream closed), the tally and the chart are cleared.
function reset() {
  run += 1;
  stream?.abort();
  stream = null;
  // the match left behind is paused: it stops counting among this address's running AI-only matches
  if (current) api(`/api/matches/${current}/control`, { method: "POST", token: control, body: { action: "pause" } }).catch(() => {});
  current = null;
  tally.replaceChildren("No games yet.");
  if (chart) { chart.destroy(); chart = null; }
  thinking.replaceChildren("–");
}

function finished(text) {
  status.textContent = text;
  current = null;
  pauseButton.disabled = true;
  stepButton.disabled = true;
}

function drawChart(names, history) {
  const data = {
    labels: history.map((_, i) => i + 1),
    datasets: names.map((name, k) => ({ label: name, data: history.map((h) => h[k]), tension: 0.2, pointRadius: 0 })),
  };
  if (chart) { chart.data = data; chart.update("none"); return; }
  chart = new window.Chart(document.getElementById("chart"), {
    type: "line", data,
    options: { animation: false, maintainAspectRatio: false, scales: { y: { min: 0, max: 1, title: { display: true, text: "win share" } }, x: { title: { display: true, text: "games played" } } } },
  });
}

// Each AI's name for the whole run, on the board, in the tally and on the chart alike: its
// level's title, with a letter when two seats hold the same level ("Offensive A", "Offensive B").
// It goes with the AI from seat to seat as the seats rotate.
// A name is at most MAX_NAME characters (the server's limit on a seat's name): a longer title is
// cut short with an ellipsis, before the letter.
const MAX_NAME = 32;
const clip = (text, room) => (text.length <= room ? text : `${text.slice(0, room - 1)}…`);

function seatNames(titles) {
  const seen = new Map();
  return titles.map((t) => {
    if (titles.filter((u) => u === t).length < 2) return clip(t, MAX_NAME);
    seen.set(t, (seen.get(t) ?? 0) + 1);
    return `${clip(t, MAX_NAME - 2)} ${String.fromCharCode(64 + seen.get(t))}`;
  });
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  reset();
  // on a phone the table is below the form: bring it, with Pause and Step, into view
  const felt = document.getElementById("watch-felt");
  if (felt.getBoundingClientRect().top > innerHeight / 2) felt.scrollIntoView({ block: "start" });
  const mine = run;
  const g = game();
  const module = await import(`/static/js/tables/${g.name}.js`);
  board.className = `board board-${g.name}`;
  const agents = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
  const names = seatNames(agents.map((a) => g.levels.find((l) => l.id === a).title));
  const n = Number(form.games.value);
  const oneDeal = Boolean(oneDealOptions(g)) && lengthSelect.value === "deal";
  const unit = oneDeal ? "deal" : "game";
  const wins = agents.map(() => 0);
  let draws = 0;
  const history = [];
  pauseButton.disabled = false;
  stepButton.disabled = !paused;
  form.querySelector(".error").textContent = "";
  for (let k = 0; k < n; k++) {
    // Seats rotate each game so no AI keeps the first move (the tally follows the AIs, not the seats).
    const order = agents.map((_, i) => (i + k) % agents.length);
    let res;
    try {
      res = await api("/api/matches", { method: "POST", body: { game: g.name, delay_ms: Number(speed.value),
        options: oneDeal ? oneDealOptions(g) : {}, seats: order.map((i) => ({ type: "agent", agent: agents[i], name: names[i] })) } });
    } catch (err) { form.querySelector(".error").textContent = err.message; return; }
    if (mine !== run) return;
    current = res.id;
    control = res.control_token;
    if (paused) await api(`/api/matches/${current}/control`, { method: "POST", token: control, body: { action: "pause" } });
    const progress = (view, ply) => {
      const deal = module.dealNumber && !oneDeal ? ` · deal ${module.dealNumber(view)}` : "";
      status.textContent = `${unit[0].toUpperCase()}${unit.slice(1)} ${k + 1} of ${n}${deal} · move ${ply}`;
    };
    let last = await api(`/api/matches/${current}`);
    const show = () => {
      module.render(board, last.view, { seat: null, legal: [], play() {}, names: last.seats.map((s) => s.display_name), explanation: last.last_explanation, reveal: true, match: last });
      progress(last.view, last.ply);
    };
    show();
    stream = new AbortController();
    try {
      for await (const { event, data } of events(`/api/matches/${current}/events`, null, stream.signal)) {
        if (mine !== run || event === "end") break;
        if (event === "held") { // waiting for a place among this address's running AI-only matches
          status.textContent = data.detail ?? "";
          continue;
        }
        if (!data.match) continue;
        last = data.match;
        show();
        const e = last.last_explanation;
        renderThinking(thinking, e, (id) => last.moves.find((m) => m.action === id)?.label ?? id, e ? last.seats[e.seat].display_name : "");
      }
    } catch (err) {
      if (mine !== run) return; // stopped by a new Start
      throw err;
    }
    if (mine !== run) return;
    const winners = last.result?.winners ?? [];
    if (!winners.length) draws++;
    for (const w of winners) wins[order[w]] += 1 / winners.length;
    history.push(wins.map((x) => x / (k + 1)));
    tally.replaceChildren(...names.map((name, i) => el("div", {}, `${name}: ${+wins[i].toFixed(2)}`)),
      el("div", { class: "muted" }, `draws: ${draws} · ${plural(k + 1, unit)}`));
    drawChart(names, history);
  }
  finished(`Done: ${plural(n, unit)}.`);
});
