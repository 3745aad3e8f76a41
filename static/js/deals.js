// What the tables share for their deal ends and their log in words: the events a view's
// sliding public log gained since the view before it, seat names, and a deal's details unfolded.
import { el } from "./api.js";

// The events of ``log`` that ``prevLog`` does not end with (both are windows onto one list
// of public events, the newest last): the shortest tail of ``log`` whose head ``prevLog`` ends with.
export function newEvents(prevLog, log) {
  if (!log) return [];
  if (!prevLog) return log;
  const key = (e) => JSON.stringify(e);
  const before = prevLog.map(key);
  const after = log.map(key);
  for (let fresh = 0; fresh <= after.length; fresh++) {
    const kept = after.length - fresh;
    if (kept > before.length) continue;
    let same = true;
    for (let i = 0; i < kept && same; i++) same = after[i] === before[before.length - kept + i];
    if (same) return log.slice(kept);
  }
  return log;
}

// A seat's name from the table's context ("Seat 2" without one).
export const namer = (ctx) => (s) => ctx.names?.[s] ?? `Seat ${s + 1}`;

// A "last deal" <details> of a table as the deal-end panel shows it: its content, always open.
export function unfold(details) {
  return el("div", { class: "deal-end-details" }, [...details.childNodes].filter((n) => n.nodeName !== "SUMMARY"));
}
