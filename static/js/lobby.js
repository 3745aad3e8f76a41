// The lobby: one game at a time (a tab each); choose your seat and your opponents' levels, then
// start; or play a fair game in one click; each level's strength in words, the figures a tap away.
import { api, el, inviteLinks, saveSeat, strengthText, strengthWords } from "./api.js";

for (const cell of document.querySelectorAll("td.strength")) {
  cell.textContent = strengthWords(JSON.parse(cell.dataset.strength), cell.dataset.title);
}
for (const cell of document.querySelectorAll("td.strength-figures")) {
  cell.textContent = strengthText(JSON.parse(cell.dataset.strength));
}

// ----- the tabs: the game shown is the address's #game, else the one shown last, else the first -----
const tabs = [...document.querySelectorAll(".game-tab")];
const panels = [...document.querySelectorAll(".game-card")];
const TAB_KEY = "parlour:lobby-game";

// (a panel's id is game-NAME, so the address's #NAME picks it without jumping past the tabs)
const gameOf = (tab) => tab.getAttribute("aria-controls").replace(/^game-/, "");

function show(name, { focus = false } = {}) {
  const tab = tabs.find((t) => gameOf(t) === name) ?? tabs[0];
  for (const t of tabs) {
    const on = t === tab;
    t.setAttribute("aria-selected", String(on));
    t.tabIndex = on ? 0 : -1;
  }
  for (const p of panels) p.hidden = p.id !== tab.getAttribute("aria-controls");
  localStorage.setItem(TAB_KEY, gameOf(tab));
  if (focus) tab.focus();
  fairGame(gameOf(tab));
}

for (const [i, tab] of tabs.entries()) {
  tab.addEventListener("click", (event) => {
    event.preventDefault();
    history.replaceState(null, "", tab.getAttribute("href"));
    show(gameOf(tab));
  });
  tab.addEventListener("keydown", (event) => {  // arrows, Home and End move along the tabs
    const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    const next = tabs[(to + tabs.length) % tabs.length];
    history.replaceState(null, "", next.getAttribute("href"));
    show(gameOf(next), { focus: true });
  });
}
addEventListener("hashchange", () => show(location.hash.slice(1)));

// ----- a fair game: the levels the server finds fairest for this name, and why; one click seats them -----
// (GET /api/games/{game}/fair; a server without it answers 404 and the button stays hidden)
const fairAsked = new Map();  // game -> the name the shown suggestion is for

async function fairGame(game, { again = false } = {}) {
  const box = document.querySelector(`#game-${game} .fair`);
  const name = nameInput.value.trim();
  if (!box || (!again && fairAsked.get(game) === name)) return;
  fairAsked.set(game, name);
  try {
    const fair = await api(`/api/games/${game}/fair${name ? `?player=${encodeURIComponent(name)}` : ""}`);
    if (fairAsked.get(game) !== name) return;  // the name changed meanwhile
    box.fair = fair;
    box.querySelector(".fair-why").textContent = fair.why;
    box.hidden = false;
  } catch (err) {
    box.fair = null;
    box.hidden = err.status === 404;
    box.querySelector(".fair-why").textContent = err.status === 404 ? "" : err.message;
  }
}

for (const box of document.querySelectorAll(".fair")) {
  const game = box.closest(".game-card").dataset.game;
  const button = box.querySelector(".fair-play");
  button.addEventListener("click", async () => {
    const why = box.querySelector(".fair-why");
    try {
      const name = playerName();
      if (fairAsked.get(game) !== name || !box.fair) await fairGame(game, { again: true });
      if (!box.fair) return;
      const seats = box.fair.seats.map((s) => (s.type === "human" ? { ...s, name } : s));
      const me = seats.findIndex((s) => s.type === "human");
      const form = document.querySelector(`form.new-match[data-game="${game}"]`);
      const gameInfo = window.PARLOUR_GAMES.find((g) => g.name === game);
      const res = await api("/api/matches", { method: "POST", body: { game, seats, options: readOptions(form, gameInfo) } });
      saveSeat(res.id, me, res.tokens[String(me)]);
      location.href = `/play/${res.id}`;
    } catch (err) {
      why.textContent = err instanceof SyntaxError ? "An option's value is not valid JSON." : err.message;
    }
  });
}

function levelSelect(game, name) {
  const select = el("select", { name });
  for (const l of game.levels) select.append(el("option", { value: l.level }, `${l.level}. ${l.title}`));
  select.append(el("option", { value: "friend" }, "a friend (invite link)"));
  select.value = String(Math.min(2, game.levels.length));
  return select;
}

function buildSeats(form, game) {
  const box = form.querySelector(".seats");
  const min = game.players.min, max = Math.min(game.players.max, 6);
  const opponents = el("select", { name: "opponents" });
  for (let n = min - 1; n <= max - 1; n++) opponents.append(el("option", { value: n }, `${n} opponent${n > 1 ? "s" : ""}`));
  const position = el("select", { name: "position" });
  const list = el("div", { class: "opponents" });
  function refresh() {
    const n = Number(opponents.value);
    const keep = [...list.querySelectorAll("select")].map((s) => s.value);
    list.replaceChildren();
    for (let i = 0; i < n; i++) {
      const s = levelSelect(game, `level${i}`);
      if (keep[i]) s.value = keep[i];
      list.append(el("label", {}, n > 1 ? `Opponent ${i + 1} ` : "Opponent ", s));  // the label names the select
    }
    const prev = position.value;
    position.replaceChildren();
    for (let i = 0; i <= n; i++) {
      const text = gameName(game) === "tictactoe" ? ["X (first)", "O (second)"][i] : i === 0 ? "first" : `seat ${i + 1}`;
      position.append(el("option", { value: i }, text));
    }
    if (prev && Number(prev) <= n) position.value = prev;
  }
  opponents.addEventListener("change", refresh);
  refresh();
  box.append(
    max - 1 > min - 1 ? el("label", {}, "Play against ", opponents) : el("span", { hidden: true }, opponents),
    list,
    el("label", {}, "You play ", position));
}

const gameName = (g) => g.name;

function readOptions(form, game) {
  const options = {};
  for (const o of game.options) {
    const input = form.querySelector(`[name="${o.name}"]`);
    if (!input) continue;
    const value = input.type === "checkbox" ? input.checked : JSON.parse(input.value);
    if (JSON.stringify(value) !== JSON.stringify(o.default)) options[o.name] = value;
  }
  return options;
}

// Set option inputs to the given values (the rest to their defaults when `others` is "defaults").
function setOptions(form, game, values, others = "keep") {
  for (const o of game.options) {
    const input = form.querySelector(`[name="${o.name}"]`);
    if (!input || (!(o.name in values) && others === "keep")) continue;
    const value = o.name in values ? values[o.name] : o.default;
    if (input.type === "checkbox") input.checked = value;
    else input.value = JSON.stringify(value);
  }
}

// A preset (a named set of options, e.g. Uno's "writeup") sets every option input: its value, else
// the default; then the chosen game length sets the options it names.
function applyPreset(form, game, name) {
  setOptions(form, game, name ? game.presets[name] : {}, "defaults");
  applyLength(form, game);
}

// The select names the length ("full match"); the line under it says what it sets.
function applyLength(form, game) {
  const length = form.querySelector("select.length");
  if (!length) return;
  setOptions(form, game, game.lengths[length.value]);
  form.querySelector(".length-means").textContent = length.selectedOptions[0].dataset.means;
}

// The person's name: asked once, kept in this browser, changeable here.
const nameInput = document.getElementById("player-name");
// ("You" was the old default, stored without asking: ask instead)
nameInput.value = [null, "You"].includes(localStorage.getItem("parlour:name")) ? "" : localStorage.getItem("parlour:name");
if (!nameInput.value) nameInput.focus();
nameInput.addEventListener("change", () => {
  const name = nameInput.value.trim();
  if (name) localStorage.setItem("parlour:name", name);
  const shown = panels.find((p) => !p.hidden);
  if (shown) fairGame(shown.dataset.game);
});

function playerName() {
  const name = nameInput.value.trim();
  if (!name) {
    nameInput.focus();
    throw new Error("Tell us your name first (at the top of the page): it is remembered in this browser.");
  }
  localStorage.setItem("parlour:name", name);
  return name;
}

for (const form of document.querySelectorAll("form.new-match")) {
  const game = window.PARLOUR_GAMES.find((g) => g.name === form.dataset.game);
  buildSeats(form, game);
  const preset = form.querySelector("select.preset");
  if (preset) preset.addEventListener("change", () => applyPreset(form, game, preset.value));
  form.querySelector("select.length")?.addEventListener("change", () => applyLength(form, game));
  applyLength(form, game);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const error = form.querySelector(".error");
    error.textContent = "";
    try {
      const n = Number(form.querySelector('[name="opponents"]').value);
      const levels = Array.from({ length: n }, (_, i) => form.querySelector(`[name="level${i}"]`).value);
      const me = Number(form.querySelector('[name="position"]').value);
      const seats = levels.map((level) => (level === "friend" ? { type: "friend" } : { type: "agent", level: Number(level) }));
      const name = playerName();
      seats.splice(me, 0, { type: "human", name });
      const res = await api("/api/matches", { method: "POST", body: { game: game.name, seats, options: readOptions(form, game), hints: form.querySelector('[name="hints"]').checked } });
      saveSeat(res.id, me, res.tokens[String(me)]);
      if (res.invites) {  // shown once: the links carry the friends' invite tokens
        form.querySelector(".invites")?.remove();
        form.append(inviteLinks(res.id, res.invites));
        return;
      }
      location.href = `/play/${res.id}`;
    } catch (err) {
      error.textContent = err instanceof SyntaxError ? "An option's value is not valid JSON." : err.message;
    }
  });
}

const chosen = location.hash.slice(1);
show(tabs.some((t) => gameOf(t) === chosen) ? chosen : localStorage.getItem(TAB_KEY) ?? gameOf(tabs[0]));
