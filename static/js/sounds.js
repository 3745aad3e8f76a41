// Optional sounds at the table: two rising notes when it becomes your turn, three falling ones
// when a deal (or the match) ends. Off until switched on; the choice is kept in this browser.
// The notes are made here with Web Audio: no sound files.
import { el } from "./api.js";

const KEY = "parlour:sounds";
const TUNES = { turn: [[660, 0], [880, 0.12]], end: [[784, 0], [659, 0.14], [523, 0.28]] };
let audio = null;

export const soundsOn = () => localStorage.getItem(KEY) === "on";

function note(ctx, frequency, start) {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.frequency.value = frequency;
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(0.18, start + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.25);
  osc.connect(gain).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + 0.3);
}

// ``kind``: "turn" or "end". Silent when sounds are off or the browser has no Web Audio.
export function chime(kind) {
  if (!soundsOn() || !window.AudioContext) return;
  audio ??= new AudioContext();
  if (audio.state === "suspended") audio.resume();  // browsers start it only after a click
  for (const [frequency, at] of TUNES[kind]) note(audio, frequency, audio.currentTime + at);
}

// The switch: a toggle button ("Sounds off" / "Sounds on"); switching on plays the turn chime.
export function soundToggle() {
  const text = () => (soundsOn() ? "Sounds on" : "Sounds off");
  const button = el("button", { type: "button", class: "sound-toggle", "aria-pressed": String(soundsOn()),
    title: "a chime when it is your turn and when a deal ends" }, text());
  button.addEventListener("click", () => {
    localStorage.setItem(KEY, soundsOn() ? "off" : "on");
    button.setAttribute("aria-pressed", String(soundsOn()));
    button.textContent = text();
    chime("turn");
  });
  return button;
}
