// The table page of any game: loads the match, draws it with the game's module
// (static/js/tables/<game>.js exports render(root, view, ctx)), sends the person's
// moves, shows the AI replies one by one, the log, the AI-thinking panel and the result.
import { api, el, events, inviteLinks, loadSeat, saveSeat, sleep } from "./api.js";
import { renderThinking } from "./thinking.js";
import { hintButton, showReview } from "./coach.js";
import { agree } from "./words.js";
import { chime, soundToggle } from "./sounds.js";

const page = document.getElementById("table-page");
const matchId = page.dataset.match;
const gameName = page.dataset.game;
const gameInfo = window.PARLOUR_GAMES.find((g) => g.name === gameName);
// An invite link (#join=SEAT.TOKEN) gives this browser a friend's seat: kept, then taken off the address.
// Its token is good only for joining: the join's answer brings the seat's own token, kept instead.
const invited = /^#join=(\d+)\.([\w-]+)$/.exec(location.hash);
if (invited) {
  saveSeat(matchId, Number(invited[1]), invited[2]);
  history.replaceState(null, "", location.pathname);
}
const mine = loadSeat(matchId);
let token = mine?.token ?? null;
const board = document.getElementById("board");
const status = document.getElementById("status");
const controls = document.getElementById("controls");
const log = document.getElementById("log");
const thinking = document.getElementById("thinking");
const seatsList = document.getElementById("seats");
const ratedNote = document.getElementById("rated-note");
const dealPanel = document.getElementById("deal-end");
const announce = document.getElementById("announce");
const felt = board.closest(".felt");
const coachPanel = document.getElementById("coach-panel");
const module = await import(`/static/js/tables/${gameName}.js`);
const ANIMATION_MS = 550;
const FULL_LOG_PLIES = 600;  // up to this many moves the log is rebuilt in words on load (from the replay)

let data = null;
let busy = false;
let reviewing = false;  // stepping through the moves: live updates leave the board alone
let logView = null;  // the view the log was last told in words up to

const labels = new Map();
const seatName = (seat) => data?.seats[seat]?.display_name ?? `Seat ${seat + 1}`;
const labelOf = (id) => labels.get(id) ?? id;
const isMine = (seat) => data.seat !== null && seat === data.seat;
const who = (seat) => (isMine(seat) ? "You" : seatName(seat));

// A move in words, without its mover: "plays Green 5" ("play Green 5" for the person). ``prev``
// and ``view``: the tables before and after it, when known (some games say more with them).
function movePhrase(m, prev = null, view = null) {
  const phrase = m.action === "resign" ? "resign"
    : module.moveWords ? module.moveWords(m, prev, view, viewCtx()) : m.label;
  return agree(phrase, isMine(m.seat));
}
const sentence = (m, prev = null, view = null) => `${who(m.seat)} ${movePhrase(m, prev, view)}`;

function remember(moves) {
  for (const m of moves) labels.set(m.action, m.label);
  for (const a of data?.legal_actions ?? []) labels.set(a.id, a.label);
}

function viewCtx() {
  return { seat: data.seat, names: data.seats.map((s) => s.display_name), match: data };
}

// The AI explanation the board itself draws (MENACE's beads and its ring): that of the latest
// move when an AI made it, else none (an older move's beads would sit on a board they were not for).
const ownExplanation = (e, ply) => (e && e.ply === ply - 1 ? e : null);

function draw(view = data.view, { animating = false, explanation = ownExplanation(data.last_explanation, data.ply) } = {}) {
  const ctx = {
    seat: data.seat,
    legal: animating || busy || reviewing ? [] : data.legal_actions,
    play,
    names: data.seats.map((s) => s.display_name),
    explanation,
    reveal: data.ai_only,
    match: data,
  };
  // A match ended from outside its rules (a resignation, or abandoned) keeps its last view, whose
  // seat to move is nobody's turn any more: drawn without one (no prompt, no seat marked to move).
  const stopped = Boolean(data.result?.ending) && !reviewing && !animating && view.to_move !== null;
  module.render(board, stopped ? { ...view, to_move: null } : view, ctx);
  markArrivals();
  keepFocus();
}

// Motion: a card that was not on the table before (the new top of a pile, a card come into a
// hand) slides in (CSS "card-in"; none under prefers-reduced-motion). Cards are told apart by
// their place (the parent's class) and id.
let shownCards = null;
function markArrivals() {
  const count = new Map();
  const keys = [...board.querySelectorAll("[data-card]")].map((node) => {
    const base = `${node.parentElement?.className}|${node.dataset.card}`;
    count.set(base, (count.get(base) ?? 0) + 1);
    return [`${base}#${count.get(base)}`, node];
  });
  if (shownCards) for (const [key, node] of keys) if (!shownCards.has(key)) node.classList.add("card-in");
  shownCards = new Set(keys.map(([key]) => key));
}

// Keyboard focus stays on the table: a redraw replaces its buttons, so focus that was on the table
// goes to its first button (else the match's controls once it is over, else the table itself)
// instead of falling back to the top of the page.
let focusOnTable = false;
document.addEventListener("focusin", (event) => { focusOnTable = felt.contains(event.target); });
function keepFocus() {
  const at = document.activeElement;
  if (!focusOnTable || (at && at !== document.body && at !== felt && document.contains(at))) return;
  const next = board.querySelector("button:not([disabled])") ?? (data?.result ? controls.querySelector("button") : null) ?? felt;
  next.focus({ preventScroll: next === felt });
}

// Other players' moves are read out by screen readers (a polite live region).
function announceMove(m) {
  if (m.seat !== data.seat) announce.textContent = `${sentence(m)}.`;
}

function describeStatus() {
  if (data.result) {
    const w = data.result.winners;
    const ending = data.result.ending;
    if (ending?.kind === "abandoned") return "Abandoned: nobody moved for a long time.";
    // resigning ends some games by the rules (a move), the others from outside them (the ending)
    const last = data.moves.at(-1);
    const resignedBy = ending?.kind === "resigned" ? ending.seat : last?.action === "resign" ? last.seat : null;
    const resigned = resignedBy === null ? "" : `${who(resignedBy)} resigned. `;
    // A live learner that did not learn from this game says so (the learning limit per client).
    const unlearned = Object.entries(data.learning ?? {}).filter(([, l]) => !l.learned)
      .map(([seat, l]) => ` ${seatName(Number(seat))} did not learn from this game: ${l.reason.replace(/^not learned from: /, "")}.`);
    if (!w.length) return "It's a draw." + unlearned.join("");
    const names = w.map(seatName).join(" and ");
    if (data.seat !== null && w.includes(data.seat)) return `${resigned}You win!` + unlearned.join("");
    return `${resigned}${names} ${w.length > 1 ? "win" : "wins"}.` + unlearned.join("");
  }
  if (data.status === "waiting") {
    const open = data.seats.filter((s) => s.invite === "open").length;
    const friends = data.seats.filter((s) => s.invite).length;
    return `Waiting for friends: ${friends - open} of ${friends} joined.`;
  }
  if (data.to_move === null) return "";
  if (data.to_move === data.seat) return "Your move.";
  return `${seatName(data.to_move)} is thinking…`;
}

// The chimes (when sounds are on): your turn coming round, a match ending (deal ends chime in showDealEnd).
let wasMyTurn = null;
let wasOver = null;
function chimes() {
  const myTurn = data.status === "active" && data.seat !== null && data.to_move === data.seat;
  if (myTurn && wasMyTurn === false) chime("turn");
  if (data.result && wasOver === false && !dealEndOf(data.view)) chime("end");
  wasMyTurn = myTurn;
  wasOver = Boolean(data.result);
}

function drawSide() {
  chimes();
  status.textContent = describeStatus();
  status.className = `status ${data.result ? "over" : data.to_move === data.seat ? "yours" : ""}`;
  seatsList.replaceChildren(...data.seats.map((s) => el("li", { class: s.seat === data.to_move ? "to-move" : "" },
    el("strong", {}, s.display_name), s.seat === data.seat ? " (you)" : "",
    s.type === "agent" ? el("span", { class: "muted" }, ` · ${s.level ? `level ${s.level}` : s.agent}`) : "",
    s.invite === "open" ? el("span", { class: "muted invite-open" }, " · invited, not joined yet")
      : s.invite === "taken" && data.status === "waiting" ? el("span", { class: "joined" }, " · joined") : "",
    s.score !== null ? el("span", { class: "score" }, ` ${s.score}`) : "")));
  // A match that does not count says why (e.g. "unrated: seed chosen by the creator (...)").
  ratedNote.hidden = data.rated !== false;
  ratedNote.textContent = data.rated === false ? `Unrated: ${data.unrated_reason}.` : "";
  const e = data.last_explanation;
  renderThinking(thinking, e, labelOf, e ? seatName(e.seat) : "");
  controls.replaceChildren();
  const me = data.seat === null ? null : data.seats[data.seat];
  if (me?.invite === "open") controls.append(joinForm());
  else if (data.status === "waiting" && me && !me.invite) controls.append(startForm());
  if (token && data.status === "active") controls.append(resignButton());
  if (token && data.hints && data.status === "active" && data.to_move === data.seat) controls.append(hintButton(coachPanel, matchId, token, labelOf));
  if (data.result) controls.append(el("button", { onclick: replay }, token ? "Replay and review" : "Replay"));
  else if (data.ply > 0) controls.append(el("button", { onclick: () => review(data.ply) }, "Step through the moves"));
  if (data.result && (token || data.ai_only)) {
    controls.append(el("button", { class: "primary", onclick: () => rematch(false) }, "Rematch"));
    if (data.seats.length === 2) controls.append(el("button", { onclick: () => rematch(true) }, "Swap sides"));
  }
  if (data.seat !== null) controls.append(soundToggle());
  controls.append(el("a", { class: "button", href: "/" }, "Lobby"));
  keepFocus();
}

// A friend's seat opened by its invite link: the joiner gives a name and takes the seat.
function joinForm() {
  const name = el("input", { name: "join-name", maxlength: 32, required: true, "aria-label": "your name",
    value: localStorage.getItem("parlour:name") ?? "", placeholder: "your name" });
  const error = el("span", { class: "error", role: "alert" });
  const form = el("form", { class: "join" }, el("label", {}, "You are invited to this table. Your name ", name),
    el("button", { type: "submit", class: "primary" }, "Take the seat"), error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const { token: seatToken, ...view } = await api(`/api/matches/${matchId}/join`,
        { method: "POST", token, body: { name: name.value } });
      data = view;
      token = seatToken;
      saveSeat(matchId, data.seat, token);
      localStorage.setItem("parlour:name", name.value.trim());
      remember(data.moves);
      addLog(data.moves);
      draw();
      drawSide();
      follow();
    } catch (err) { error.textContent = err.message; }
  });
  setTimeout(() => name.focus());
  return form;
}

// The creator of a waiting table can start at once, with an AI of a chosen level in each empty seat.
function startForm() {
  const selects = data.seats.filter((s) => s.invite === "open").map((s) => {
    const select = el("select", { name: `start-level${s.seat}`, "aria-label": `AI level for seat ${s.seat + 1}` });
    for (const l of gameInfo.levels) select.append(el("option", { value: l.level }, `${l.level}. ${l.title}`));
    select.value = String(Math.min(2, gameInfo.levels.length));
    return [s.seat, select];
  });
  const error = el("span", { class: "error", role: "alert" });
  const form = el("form", { class: "start-now" },
    ...selects.map(([seat, select]) => el("label", {}, `Seat ${seat + 1}: an AI of level `, select)),
    el("button", { type: "submit" }, "Start now with AIs in the empty seats"), error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const levels = Object.fromEntries(selects.map(([seat, select]) => [seat, Number(select.value)]));
      data = await api(`/api/matches/${matchId}/start`, { method: "POST", token, body: { levels } });
      remember(data.moves);
      addLog(data.moves);
      draw();
      drawSide();
    } catch (err) { error.textContent = err.message; }
  });
  return form;
}

// Resigning asks first: the button turns into "Resign this match?" with Yes and No.
function resignButton() {
  const box = el("span", { class: "resign" });
  const ask = () => box.replaceChildren(el("span", {}, "Resign this match? "),
    el("button", { class: "danger", "data-action": "resign-yes", onclick: resign }, "Yes, resign"),
    el("button", { onclick: () => { box.replaceChildren(first); first.focus(); } }, "No, play on"));
  const first = el("button", { "data-action": "resign", onclick: ask }, "Resign…");
  box.append(first);
  return box;
}

async function resign() {
  if (busy) return;
  busy = true;
  try {
    data = await api(`/api/matches/${matchId}/resign`, { method: "POST", token });
    remember(data.moves);
    addLog(data.moves);
  } catch (err) {
    status.textContent = err.message;
    status.className = "status error";
    busy = false;
    return;
  }
  busy = false;
  draw();
  drawSide();
}

// The log: one line per move (a button: click it to see the table after that move), the
// events the move caused in words below it (penalties, skips, colours named, reshuffles, calls,
// tricks), and a line where each deal starts. ``view`` is the table after the move, when known.
function addLog(moves) {
  for (const m of moves) {
    if (log.querySelector(`[data-ply="${m.ply}"]`)) continue;
    // in ply order: with several people, a move over the event stream can arrive mid-animation
    const later = [...log.children].find((li) => Number(li.dataset.ply) > m.ply);
    if (later) {
      log.insertBefore(el("li", { "data-ply": m.ply, value: m.ply + 1 }, el("strong", {}, who(m.seat)), ` ${movePhrase(m)}`), later);
      continue;
    }
    const view = m.view ?? null;
    const newDeal = view && logView && module.dealNumber && module.dealNumber(view) !== module.dealNumber(logView);
    const said = view && module.narrate ? module.narrate(logView, view, viewCtx(), m) : [];
    const phrase = movePhrase(m, view && logView, view);
    if (view) logView = view;
    log.append(el("li", { "data-ply": m.ply, value: m.ply + 1 },
      el("button", { class: "log-move", title: "see the table after this move", onclick: () => review(m.ply + 1) },
        el("strong", {}, who(m.seat)), ` ${phrase}`),
      said.length ? el("ul", { class: "log-events" }, said.map((t) => el("li", {}, t))) : ""));
    if (newDeal && !view.over) {
      log.append(el("li", { class: "deal-sep", "data-deal": module.dealNumber(view) }, `Deal ${module.dealNumber(view)}`));
    }
  }
  log.scrollTop = log.scrollHeight;
}

// On load: the whole log in words from the replay (the views this seat saw), or for long
// matches the last moves' labels.
async function loadLog() {
  log.replaceChildren();
  logView = null;
  if (!module.narrate || data.ply > FULL_LOG_PLIES) {
    addLog(data.moves);
    logView = data.view;
    return;
  }
  const r = await replayData();
  logView = r.start;
  if (module.dealNumber) log.append(el("li", { class: "deal-sep" }, `Deal ${module.dealNumber(r.start)}`));
  addLog(r.moves);
}

// ----- the end of a deal -----
// Shown until the person goes on: the moves of the next deal (the AIs may have made them
// already) are held back meanwhile. Which deal end this browser has seen is kept per match.
const seenKey = `parlour:deal-seen:${matchId}`;
let seenDeal = localStorage.getItem(seenKey);
const dealEndOf = (view) => (module.dealEnd ? module.dealEnd(view, viewCtx()) : null);

// The panel is a <dialog>: modal for a seated person (focus inside, the table behind inert, Escape
// goes on as "Next deal" does), beside the table for a spectator. A newer deal end replaces its content.
let dealClosed = null;
dealPanel.addEventListener("close", () => {
  dealPanel.replaceChildren();
  dealClosed?.();
  dealClosed = null;
});

function showDealEnd(end, view) {
  return new Promise((resolve) => {
    dealClosed?.();
    dealClosed = resolve;
    const go = el("button", { class: "primary", "data-action": "next-deal", onclick: () => dealPanel.close() },
      view.over ? "See the final scores" : "Next deal");
    dealPanel.replaceChildren(el("h2", { id: "deal-end-title" }, end.title), ...end.body, el("div", { class: "controls" }, go));
    if (!dealPanel.open) token ? dealPanel.showModal() : dealPanel.show();
    chime("end");
    status.textContent = /[.!?]$/.test(end.title) ? end.title : `${end.title}.`;
    status.className = "status";
    go.focus();
  });
}

// The deal-end panel for ``view`` if it shows a deal end not seen yet; held open (the person
// must go on) unless ``wait`` is false (spectators: the table goes on underneath) or the
// match is over (nothing left to hold back).
async function dealEnded(view, { wait = true } = {}) {
  const end = dealEndOf(view);
  if (!end || end.key === seenDeal) return;
  seenDeal = end.key;
  if (token) localStorage.setItem(seenKey, end.key);
  const shown = showDealEnd(end, view);
  if (wait && !view.over) await shown;
}

async function load() {
  data = await api(`/api/matches/${matchId}`, { token });
  remember(data.moves);
  await loadLog();
  draw();
  drawSide();
}

async function play(actionId) {
  if (busy) return;
  busy = true;
  status.textContent = "…";
  status.className = "status";
  draw();
  try {
    const res = await api(`/api/matches/${matchId}/moves`, { method: "POST", token, body: { action: actionId, ply: data.ply } });
    await animate(res.made);
    // another person's move may have come over the event stream meanwhile: keep the newer view
    if (res.ply >= data.ply || res.status !== "active") data = res;
    remember(res.moves);
  } catch (err) {
    status.textContent = err.message;
    status.className = "status error";
    busy = false;
    await sleep(1800);
    await load();
    return;
  }
  busy = false;
  draw();
  drawSide();
}

// Show the moves one at a time: the person's own at once, each AI reply after a beat.
async function animate(made) {
  for (const [i, m] of made.entries()) {
    labels.set(m.action, m.label);
    if (m.seat !== data.seat) wasMyTurn = false;  // the turn went round: its coming back chimes
    if (i > 0) await sleep(ANIMATION_MS);
    addLog([m]);
    announceMove(m);
    if (m.explanation) {
      data.last_explanation = { ...m.explanation, seat: m.seat, action: m.action, ply: m.ply };
      renderThinking(thinking, data.last_explanation, labelOf, seatName(m.seat));
    }
    const next = made[i + 1];
    status.textContent = next ? `${seatName(next.seat)} is thinking…` : "";
    markToMove(next ? next.seat : null);
    draw(m.view, { animating: true, explanation: m.explanation ? data.last_explanation : null });
    await dealEnded(m.view);
  }
}

// The players' list marks whose turn it is while the AI replies are shown one by one.
function markToMove(seat) {
  for (const [i, li] of [...seatsList.children].entries()) li.classList.toggle("to-move", i === seat);
}

// The replay (every move with the view after it, as this seat saw it), fetched once per ply.
let replayCache = null;
async function replayData() {
  if (!replayCache || replayCache.ply !== data.ply) {
    replayCache = { ply: data.ply, data: await api(`/api/matches/${matchId}/replay`, { token }) };
  }
  return replayCache.data;
}

// Step through the moves, during play or after (hands are shown once the match is over);
// ``start``: the number of moves to show first (0: the deal).
async function replay() { await review(0); }

async function review(start) {
  reviewing = true;
  const r = await replayData();
  let at = r.moves.length;
  const coach = token && data.result ? showReview(coachPanel, log, matchId, token, (ply) => go(ply + 1)) : null;
  const slider = el("input", { type: "range", min: 0, max: r.moves.length, value: at, "aria-label": "move" });
  // The explanation of the ``k``th move (1-based), in the form the board and the panel take.
  const explained = (k) => {
    const m = r.moves[k - 1];
    return m?.explanation ? { ...m.explanation, seat: m.seat, action: m.action, ply: m.ply } : null;
  };
  const show = () => {
    const step = at === 0 ? { view: r.start, label: "start", seat: null } : r.moves[at - 1];
    draw(step.view, { animating: true, explanation: explained(at) });
    status.textContent = at === 0 ? "Replay: the deal" : `Replay ${at}/${r.moves.length}: ${sentence(step, at > 1 ? r.moves[at - 2].view : r.start, step.view)}`;
    // the panel: the last AI move up to this step (none before the first)
    let k = at;
    while (k > 0 && !explained(k)) k--;
    const e = k ? explained(k) : null;
    renderThinking(thinking, e, labelOf, e ? seatName(e.seat) : "");
    slider.value = at;
    coach?.mark(at - 1);
  };
  const go = (k) => { at = Math.max(0, Math.min(r.moves.length, k)); show(); };
  slider.addEventListener("input", () => go(Number(slider.value)));
  controls.replaceChildren(
    el("button", { onclick: () => go(at - 1), "aria-label": "previous move" }, "◀"), slider,
    el("button", { onclick: () => go(at + 1), "aria-label": "next move" }, "▶"),
    el("button", { onclick: () => { reviewing = false; draw(); drawSide(); } }, data.result ? "Done" : "Back to the game"));
  go(start);
}

async function rematch(swap) {
  const res = await api(`/api/matches/${matchId}/rematch`, { method: "POST", token, body: { swap } });
  for (const [seat, t] of Object.entries(res.tokens)) saveSeat(res.id, Number(seat), t);  // the caller's seat only
  if (res.invites) {  // the other people at this table get new links: shown once, here
    controls.replaceChildren(inviteLinks(res.id, res.invites));
    return;
  }
  location.href = `/play/${res.id}`;
}

// Spectators (and tables with several people) follow the match live.
let following = false;
async function follow() {
  if (following || data.status === "finished" || (token && data.seats.filter((s) => s.type === "human").length < 2)) return;
  if (data.seats[data.seat]?.invite === "open") return;  // the joiner follows once seated
  following = true;
  for await (const { event, data: item } of events(`/api/matches/${matchId}/events?after=${data.ply - 1}`, token)) {
    if (event === "end") break;
    // The stream can lag behind this page's own move, whose answer brought the moves after it: an
    // older view only fills the log, or the table would step back to it (a finished match showed
    // "Rule player B is thinking…" again until the stream caught up).
    const newer = item.match && item.match.ply >= data.ply;
    if (newer) { data = item.match; remember(data.moves); }
    if (item.move) {
      addLog([{ ...item.move, view: item.match?.view }]);
      if (newer) announceMove(item.move);
    } else if (newer) addLog(item.match.moves);
    if (!busy && !reviewing && newer) {
      draw();
      drawSide();
      dealEnded(item.match.view, { wait: false });
    }
  }
  following = false;
  await load();
}

await load();
if (!token) seenDeal = dealEndOf(data.view)?.key ?? null;  // spectators: from the next deal end on
else if (dealEndOf(data.view) && dealEndOf(data.view).key !== seenDeal) {
  busy = true;
  draw();
  await dealEnded(data.view);
  busy = false;
  draw();
}
follow();
