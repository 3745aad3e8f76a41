// The lobby: for each game choose your seat and your opponents' levels, then start.
import { api, el, inviteLinks, saveSeat, strengthText } from "./api.js";

for (const cell of document.querySelectorAll("td.strength")) {
  cell.textContent = strengthText(JSON.parse(cell.dataset.strength));
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

function applyLength(form, game) {
  const length = form.querySelector("select.length");
  if (length) setOptions(form, game, game.lengths[length.value]);
}

// The person's name: asked once, kept in this browser, changeable here.
const nameInput = document.getElementById("player-name");
// ("You" was the old default, stored without asking: ask instead)
nameInput.value = [null, "You"].includes(localStorage.getItem("parlour:name")) ? "" : localStorage.getItem("parlour:name");
if (!nameInput.value) nameInput.focus();
nameInput.addEventListener("change", () => {
  const name = nameInput.value.trim();
  if (name) localStorage.setItem("parlour:name", name);
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
      if (res.invites) {  // shown once: the links carry the friends' seat tokens
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
