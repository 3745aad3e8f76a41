// Talking to the Parlour API: JSON requests, seat tokens kept in this browser, server-sent events.

export async function api(path, { method = "GET", body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  for (let attempt = 0; ; attempt++) {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    // Too many new matches at once (a long series on the watch page): wait as told, then again.
    if (res.status !== 429 || attempt >= 5) break;
    const wait = Math.min(60, Number(res.headers.get("Retry-After")) || 5);
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
  }
  const data = res.headers.get("content-type")?.includes("json") ? await res.json() : await res.text();
  if (!res.ok) {
    const err = new Error(data?.detail || `${res.status} ${res.statusText}`);
    err.status = res.status;
    throw err;
  }
  return data;
}

// The seat token of a match lives only in this browser (never in a URL or a page).
export function saveSeat(matchId, seat, token) {
  localStorage.setItem(`parlour:seat:${matchId}`, JSON.stringify({ seat, token }));
}

export function loadSeat(matchId) {
  try { return JSON.parse(localStorage.getItem(`parlour:seat:${matchId}`)); } catch { return null; }
}

// Server-sent events read with fetch, so the token travels in a header.
export async function* events(path, token, signal) {
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  const res = await fetch(path, { headers, signal });
  if (!res.ok) throw new Error(`events: ${res.status}`);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let event = "message", data = "";
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) event = line.slice(7);
        else if (line.startsWith("data: ")) data += line.slice(6);
      }
      if (data) yield { event, data: JSON.parse(data) };
    }
  }
}

// The invite links of a new match's friends' seats, each with a copy button: shown once (each
// carries its seat's invite token, in the fragment, which the browser never sends to a server;
// it is good only for joining: the joiner's browser gets the seat's own token then).
export function inviteLinks(matchId, invites) {
  const rows = Object.entries(invites).map(([seat, path]) => {
    const url = new URL(path, location.origin).href;
    const field = el("input", { readonly: true, value: url, class: "invite-url", "aria-label": `invite link for seat ${Number(seat) + 1}` });
    const copy = el("button", { type: "button", class: "copy" }, "Copy");
    copy.addEventListener("click", async () => {
      field.select();
      try { await navigator.clipboard.writeText(url); } catch { document.execCommand?.("copy"); }
      copy.textContent = "Copied";
    });
    return el("li", {}, `Seat ${Number(seat) + 1}: `, field, copy);
  });
  return el("div", { class: "invites panel", role: "region", "aria-label": "invite links" },
    el("p", {}, "Send each friend their link: it opens the table at their seat. The links are shown only now."),
    el("ol", {}, rows),
    el("a", { class: "button primary", href: `/play/${matchId}` }, "Go to the table"));
}

// A live learner's curve since its reset, in at most 100 windows: of 10 games, or wider when
// it has played more than a thousand (the API gives a page of windows at a time).
export async function liveCurve(game, agent) {
  const path = `/api/agents/${encodeURIComponent(game)}/${encodeURIComponent(agent)}/curve`;
  const curve = await api(`${path}?window=10`);
  if (!curve.live?.next) return curve;
  return api(`${path}?window=${Math.ceil(curve.live.games / 100)}`);
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v === true) node.setAttribute(k, "");
    else if (v !== false && v != null) node.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c != null) node.append(c instanceof Node ? c : String(c));
  return node;
}

// A calibration entry in words: "wins 7 in 100 against Perfect (±1) · …", or points a deal.
export function strengthText(s) {
  if (!s) return "not measured yet";
  const counts = Object.values(s.vs)[0]?.counts;  // what was counted, e.g. "whole games to 500"
  const per100 = (x) => Math.round(100 * x);
  return Object.entries(s.vs).map(([ref, r]) => (r.unit === "points per deal"
    ? `${r.score >= 0 ? "+" : "−"}${Math.abs(r.score).toFixed(2)} points a deal against ${ref} (±${r.half_width.toFixed(2)})`
    : `wins ${per100(r.win ?? r.score)}${per100(r.draw ?? 0) ? `, draws ${per100(r.draw)},` : ""} in 100 against ${ref} (±${per100(r.half_width)})`))
    .join(" · ") + (counts ? ` (${counts})` : "");
}

// A calibration entry in a few plain words: "Wins most games against Random; loses almost every
// game to Perfect." (``self``: the level's own title, whose match against itself says nothing).
export function strengthWords(s, self = null) {
  if (!s) return "Not measured yet.";
  const said = Object.entries(s.vs).filter(([ref]) => ref !== self).map(([ref, r]) => {
    if (r.unit === "points per deal") {
      if (Math.abs(r.score) <= r.half_width) return `about even with ${ref}`;
      const by = Math.abs(r.score);
      const how = by < 0.15 ? "a little " : by < 0.3 ? "" : by < 0.5 ? "well " : "far ";
      return `${how}${r.score > 0 ? "ahead of" : "behind"} ${ref}`;
    }
    const games = /deal/.test(r.counts ?? "") ? "deals" : "games";
    const win = r.win ?? r.score, draw = r.draw ?? 0, loss = r.loss ?? 1 - win - draw;
    if (draw >= 0.8) return `draws almost every ${games.slice(0, -1)} with ${ref}`;
    if (win >= 0.9) return `wins almost every ${games.slice(0, -1)} against ${ref}`;
    if (win >= 0.6) return `wins most ${games} against ${ref}${loss === 0 ? ", never losing" : ""}`;
    if (loss >= 0.9) return `loses almost every ${games.slice(0, -1)} to ${ref}`;
    if (loss >= 0.6) return `loses most ${games} to ${ref}`;
    const score = r.score ?? win + draw / 2;
    if (Math.abs(score - 0.5) <= Math.max(r.half_width, 0.05)) return `about even with ${ref}`;
    return score > 0.5 ? `a little stronger than ${ref}` : `a little weaker than ${ref}`;
  });
  if (!said.length) return "The yardstick: the others are measured against it.";
  const text = said.join("; ");
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

export const pct = (x) => `${Math.round(100 * x)}%`;
export const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
