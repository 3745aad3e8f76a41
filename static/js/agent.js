// An agent's page: strength, curves, live learning controls, MENACE's matchboxes.
import { api, el, liveCurve, plural, strengthText } from "./api.js";

const root = document.getElementById("agent-page");
const { game, agent } = root.dataset;
const live = JSON.parse(root.dataset.live);
const charts = {};

// A curve of win / draw / loss shares by window. A trainer's windows say where each was measured
// (``end``) and its curve what the x axis counts; a series that is zero throughout is left out.
function windowChart(id, windows, size, xLabel = "games") {
  charts[id]?.destroy();
  const series = ["win", "draw", "loss"].filter((k) => windows.some((w) => w[k] > 0));
  const xs = windows.map((w, i) => w.end ?? (i + 1) * size);
  charts[id] = new window.Chart(document.getElementById(id), {
    type: "line",
    data: {
      datasets: series.map((k) => ({
        label: k, data: windows.map((w, i) => ({ x: xs[i], y: w[k] / w.games })),
        pointRadius: 0, tension: 0.2, borderColor: { win: "#1a7f37", draw: "#c9a227", loss: "#b3261e" }[k],
      })),
    },
    options: {
      animation: false, maintainAspectRatio: false,
      scales: { y: { min: 0, max: 1 }, x: { type: "linear", min: 0, max: xs.at(-1), title: { display: true, text: xLabel } } },
    },
  });
}

function trainingNote(t) {
  if (!t.reference) return "";
  const n = t.windows[0]?.games ?? 0;
  const link = document.querySelector(`.levels-row a[href="/agents/${game}/${t.reference}"]`);
  return `Measured during training: the share of the same ${plural(n, "deal")} won against ${link?.textContent ?? t.reference}, ` +
    `every ${t.window.toLocaleString()} deals (${plural(t.options?.players ?? 2, "player")}, best move only).`;
}

async function refresh() {
  const info = await api(`/api/agents/${game}/${agent}`);
  document.getElementById("strength").textContent = `Measured strength: ${strengthText(info.strength)}`;
  const curve = await liveCurve(game, agent);
  if (curve.training?.windows?.length) {
    document.getElementById("training-panel").hidden = false;
    document.getElementById("training-note").textContent = trainingNote(curve.training);
    windowChart("training-curve", curve.training.windows, curve.training.window ?? 1, curve.training.x_label);
  } else if (curve.training && document.getElementById("training-picture")) {
    // a curve of another shape (per model, per batch): the picture its trainer drew
    const picture = document.getElementById("training-picture");
    const img = picture.querySelector("img");
    img.addEventListener("load", () => { picture.hidden = false; }, { once: true });
    img.src = img.dataset.src;
  }
  if (live) {
    const s = info.live_state;
    document.getElementById("live-state").textContent =
      `${plural(s.games, "game")} learned from since it was last reset to the ${s.origin} table (${new Date(s.reset_at).toLocaleString()}).`;
    const played = curve.live.windows.length > 0;  // no chart of nothing: the line above says 0 games
    document.getElementById("live-curve").parentElement.hidden = !played;
    if (played) windowChart("live-curve", curve.live.windows, curve.live.window);
  }
}

async function reset(to) {
  if (!confirm(to === "beginner" ? "Forget everything MENACE learned?" : "Replace the live boxes with the pre-trained ones?")) return;
  await api(`/api/agents/${game}/${agent}/reset`, { method: "POST", body: { to } });
  await refresh();
  await boxes();
}

function miniBoard(box) {
  const cells = box.position.split("").map((ch, i) => {
    const beads = box.beads[i];
    const cell = el("div", { class: `ttt-cell ${ch !== "." ? `mark-${ch}` : ""}` }, el("span", { class: "mark" }, ch === "." ? "" : ch));
    if (beads !== null) cell.append(el("span", { class: "beads", title: `${beads} beads` }, Array.from({ length: Math.min(beads, 8) }, () => el("i")), el("b", {}, String(beads))));
    return cell;
  });
  return el("figure", { class: "box" }, el("div", { class: "ttt-grid mini" }, cells), el("figcaption", { class: "muted small" }, `${box.total} beads`));
}

async function boxes() {
  const holder = document.getElementById("boxes");
  if (!holder) return;
  const mark = document.getElementById("box-mark").value;
  const move = document.getElementById("box-move").value;
  const data = await api(`/api/agents/${game}/${agent}/inspect?mark=${mark}`);
  const marksPerMove = (b) => Math.floor((b.position.split("").filter((c) => c !== ".").length) / 2) + 1;
  const shown = data.boxes.filter((b) => !move || marksPerMove(b) === Number(move));
  document.getElementById("box-count").textContent = `${shown.length} of ${data.count} boxes`;
  holder.replaceChildren(...shown.slice(0, 120).map(miniBoard));
}

if (live) {
  document.getElementById("reset-beginner").addEventListener("click", () => reset("beginner"));
  document.getElementById("copy-trained").addEventListener("click", () => reset("trained"));
}
document.getElementById("box-mark")?.addEventListener("change", boxes);
document.getElementById("box-move")?.addEventListener("change", boxes);
await refresh();
await boxes();
