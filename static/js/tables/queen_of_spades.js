// Queen of Spades: four seats around the table (you at the bottom, play going to your
// left), your hand with the legal cards raised, the trick in the middle with who played
// what (the last finished trick stays faded until the next card), tricks taken per
// player, the Q♠ trick marked, the tricks of this deal, the scoreboard per deal and in
// total, and the last deal's result with every hand and the scoring rule that applied.
// Card ids: rank (A K Q J 10 9 8 7) then suit letter (C S H D); actions play:QS.
import { el } from "../api.js";
import { unfold } from "../deals.js";
import { tidy } from "../words.js";

const SUITS = { C: "♣", S: "♠", H: "♥", D: "♦" };
const SUIT_NAMES = { C: "clubs", S: "spades", H: "hearts", D: "diamonds" };
const CARD = /^(A|K|Q|J|10|9|8|7)([CSHD])$/;
const RULES = {
  all_tricks: "took every trick",
  queen_and_last: "took the Q♠ trick and the last trick",
  split: "Q♠ trick and last trick taken by different players",
};

export function parseCard(id) {
  const m = CARD.exec(id);
  if (!m) throw new Error(`not a card: ${id}`);
  return { id, rank: m[1], suit: m[2], label: `${m[1]}${SUITS[m[2]]}` };
}

function cardFace(id, { onclick = null, cls = "", title = null } = {}) {
  const card = parseCard(id);
  const red = card.suit === "H" || card.suit === "D";
  return el(onclick ? "button" : "div", {
    class: `qs-card ${red ? "red" : ""} ${id === "QS" ? "queen" : ""} ${cls}`, "data-card": id,
    role: onclick ? null : "img", "aria-label": card.label, title: title ?? card.label, onclick,
  }, el("span", { class: "corner" }, card.rank, el("small", {}, SUITS[card.suit])),
  el("span", { class: "pip" }, SUITS[card.suit]));
}

function backs(n) {
  return el("div", { class: "qs-backs", role: "img", "aria-label": `${n} card${n === 1 ? "" : "s"}` },
    Array.from({ length: n }, () => el("div", { class: "qs-card back" })));
}

// The seats from the viewer's place: bottom, left (plays next), top, right.
function places(view, ctx) {
  const me = ctx.seat ?? 0;
  return ["bottom", "left", "top", "right"].map((where, k) => ({ where, seat: (me + k) % view.players }));
}

// The scoring rule of a finished deal in words, with the players' names.
export function explainResult(r, names) {
  if (r.rule === "all_tricks") {
    const taker = r.tricks.indexOf(8);
    return tidy(`${names(taker)} took all 8 tricks: +3 to ${names(taker)}, −1 to each other player.`);
  }
  if (r.rule === "queen_and_last") {
    return tidy(`${names(r.queen_by)} took both the Q♠ trick (trick ${r.queen_trick}) and the last trick: −3 to ${names(r.queen_by)}, +1 to each other player.`);
  }
  const others = [0, 1, 2, 3].filter((s) => s !== r.queen_by && s !== r.last_by).map(names);
  return tidy(`${names(r.queen_by)} took the Q♠ trick (trick ${r.queen_trick}): −1. ${names(r.last_by)} took the last trick: −1. ${others.join(" and ")} took neither: +1 each.`);
}

const signed = (x) => (x > 0 ? `+${x}` : x < 0 ? `−${-x}` : "0");

export function render(root, view, ctx) {
  const names = (s) => (s === ctx.seat ? "You" : ctx.names?.[s] ?? `Seat ${s + 1}`);
  const legal = new Map(ctx.legal.map((a) => [a.id.replace(/^play:/, ""), a.id]));
  const myTurn = legal.size > 0;
  const trickNo = view.trick_number;
  const lastDone = view.tricks_done[view.tricks_done.length - 1];
  const showingLast = !view.trick.length && Boolean(lastDone);
  const inTrick = new Map((showingLast ? lastDone.plays : view.trick).map((p) => [p.seat, p.card]));

  // --- the four seats and the trick between them ---
  const table = el("div", { class: "qs-table" });
  for (const { where, seat } of places(view, ctx)) {
    const isMe = where === "bottom" && ctx.seat !== null && ctx.seat !== undefined;
    const shown = view.hands?.[seat];
    const tags = [];
    if (view.dealer === seat) tags.push(el("span", { class: "qs-tag dealer", title: "dealer" }, "dealer"));
    if (view.queen_by === seat) tags.push(el("span", { class: "qs-tag queen", title: "took the Q♠ trick" }, "Q♠ trick"));
    const voids = view.voids[seat] ? el("span", { class: "qs-voids", title: "suits this player failed to follow" },
      `no ${[...view.voids[seat]].map((s) => SUITS[s]).join("")}`) : "";
    const head = el("div", { class: "qs-seat-head" },
      el("strong", {}, names(seat)),
      el("span", { class: "qs-tricks", "data-seat": seat, title: "tricks taken this deal" },
        `${view.tricks[seat]} trick${view.tricks[seat] === 1 ? "" : "s"}`),
      el("span", { class: "qs-total", title: "match points" }, `${signed(view.scores[seat])} pts`), ...tags, voids);
    let cards = "";
    if (!isMe) cards = shown ? el("div", { class: "qs-row small" }, shown.map((id) => cardFace(id))) : backs(view.hand_counts[seat]);
    table.append(el("div", { class: `qs-seat qs-${where} ${view.to_move === seat ? "to-move" : ""} ${isMe ? "me" : ""}`, "data-seat": seat },
      head, cards));
  }
  const centre = el("div", { class: `qs-trick ${showingLast ? "finished" : ""}`, role: "group", "aria-label": "the trick" });
  for (const { where, seat } of places(view, ctx)) {
    const card = inTrick.get(seat);
    centre.append(el("div", { class: `qs-slot qs-${where}` }, card ? cardFace(card, { title: `${names(seat)}: ${parseCard(card).label}` }) : ""));
  }
  const led = view.led ? `${SUITS[view.led]} led` : "";
  const caption = showingLast
    ? tidy(`Trick ${lastDone.number} to ${names(lastDone.winner)}${lastDone.plays.some((p) => p.card === "QS") ? " — with the Q♠!" : ""}`)
    : view.over ? "" : `Trick ${trickNo} of 8${led ? ` · ${led}` : ""}`;
  centre.append(el("div", { class: "qs-caption" }, caption));
  table.append(centre);

  // --- your hand ---
  let mine = "";
  if (ctx.seat !== null && ctx.seat !== undefined && view.hand) {
    const hand = el("div", { class: "qs-row qs-hand" }, view.hand.map((id) => {
      const action = legal.get(id);
      return cardFace(id, action ? { onclick: () => ctx.play(action), cls: "legal" } : { cls: myTurn ? "unplayable" : "" });
    }));
    let message = "";
    if (myTurn) {
      const follow = view.led && [...legal.keys()].every((id) => parseCard(id).suit === view.led);
      message = !view.led ? "Your lead: click any card." : follow
        ? `Follow ${SUITS[view.led]} ${SUIT_NAMES[view.led]}: click a raised card.`
        : `You have no ${SUIT_NAMES[view.led]}: play any raised card.`;
    } else if (!view.over && view.to_move !== null) message = `${names(view.to_move)} to play.`;
    mine = el("div", { class: "qs-mine" }, hand, el("p", { class: "qs-message" }, message));
  }

  const status = el("p", { class: "qs-status" },
    `Deal ${view.deal}${view.deals > 1 ? ` of ${view.deals}` : ""} · `,
    view.queen_by === null
      ? (view.played.includes("QS") ? "the Q♠ is on the table" : "the Q♠ is still out")
      : tidy(`${names(view.queen_by)} took the Q♠`),
    view.options.forced_queen ? " · forced queen" : "");

  root.replaceChildren(el("div", { class: "queen-of-spades" }, status, table, mine,
    lastDeal(view, names), tricksList(view, names), scoreboard(view, names)));
}

// The finished tricks of this deal: who led, what was played, who took it; the Q♠ trick marked.
function tricksList(view, names) {
  if (!view.tricks_done.length) return "";
  return el("details", { class: "qs-done", open: true },
    el("summary", {}, `Tricks this deal (${view.tricks_done.length})`),
    el("ol", {}, view.tricks_done.map((t) => el("li", { class: t.queen ? "queen" : "", "data-trick": t.number },
      el("span", { class: "qs-row tiny" }, t.plays.map((p) => cardFace(p.card, { title: `${names(p.seat)}: ${parseCard(p.card).label}` }))),
      el("span", {}, tidy(` → ${names(t.winner)}${t.queen ? " (Q♠)" : ""}${t.number === 8 ? " (last trick)" : ""}`))))));
}

// The last finished deal: every hand as dealt, tricks, points, and the rule that applied.
function lastDeal(view, names) {
  const r = view.last_deal;
  if (!r) return "";
  const fresh = view.over || (view.tricks_done.length === 0 && view.trick.length < 2);
  return el("details", { class: `qs-result ${r.rule}`, open: fresh },
    el("summary", {}, `Deal ${r.deal}: ${explainResult(r, names)}`),
    el("ul", {}, r.hands.map((cards, s) => el("li", { "data-seat": s, class: r.points[s] > 0 ? "plus" : "minus" },
      el("strong", {}, names(s)), " ",
      el("span", { class: "qs-row tiny" }, cards.map((id) => cardFace(id))),
      el("span", {}, ` ${r.tricks[s]} trick${r.tricks[s] === 1 ? "" : "s"}`,
        s === r.queen_by ? " · Q♠ trick" : "", s === r.last_by ? " · last trick" : ""),
      el("b", { class: "qs-points" }, signed(r.points[s]))))),
    el("p", { class: "muted small" }, `Rule applied: ${RULES[r.rule]}. All 8 tricks: +3 / −1 each other; else Q♠ trick and last trick by one player: −3 / +1 each other; else −1 each to the Q♠ trick's and the last trick's takers, +1 to the other two.`));
}

// Points deal by deal and the totals.
function scoreboard(view, names) {
  const seats = [0, 1, 2, 3];
  return el("details", { class: "qs-scoreboard", open: view.history.length > 0 },
    el("summary", {}, "Scoreboard"),
    el("table", {},
      el("thead", {}, el("tr", {}, el("th", {}, "deal"), seats.map((s) => el("th", {}, names(s))))),
      el("tbody", {}, view.history.map((h) => el("tr", {}, el("td", {}, String(h.deal)),
        seats.map((s) => el("td", {}, signed(h.points[s]))))),
      el("tr", { class: "totals" }, el("td", {}, "total"), seats.map((s) => el("td", { "data-seat": s }, signed(view.scores[s])))))),
    el("p", { class: "muted small" }, view.single_deal ? "A single deal." : `${view.deals} deal${view.deals === 1 ? "" : "s"}${view.options.score_limit ? `, or until someone reaches ±${view.options.score_limit}` : ""}; points add up.`));
}

const dealNames = (ctx) => {
  const given = (s) => ctx.names?.[s] ?? `Seat ${s + 1}`;
  const twice = (s) => [0, 1, 2, 3].some((t) => t !== s && given(t) === given(s));
  return (s) => (s === ctx.seat ? "You" : twice(s) ? `${given(s)} ${s + 1}` : given(s));
};

// The end of a deal (shown by the table until the person goes on): every hand as dealt, the
// tricks, the rule that scored it, the points and the running scores.
export function dealEnd(view, ctx) {
  const r = view.last_deal;
  if (!r) return null;
  const names = dealNames(ctx);
  const details = lastDeal({ ...view, over: true }, names);
  return {
    key: `queen_of_spades:${r.deal}`,
    title: tidy(`Deal ${r.deal} of ${view.deals}: ${r.rule === "all_tricks" ? `${names(r.tricks.indexOf(8))} took every trick`
      : `${names(r.queen_by)} took the Q♠ trick`}`),
    body: [el("p", {}, explainResult(r, names)), unfold(details),
      el("p", { class: "small" }, tidy(`Scores now: ${[0, 1, 2, 3].map((s) => `${names(s)} ${signed(r.scores[s])}`).join(", ")}.`))],
  };
}

export const dealNumber = (view) => view.deal;

// What the moves do not say: who took each trick, and how a deal was scored.
export function narrate(prev, view, ctx) {
  const names = dealNames(ctx);
  const takes = (s) => (s === ctx.seat ? "take" : "takes");
  const lines = [];
  const before = prev && prev.deal === view.deal ? prev.tricks_done.length : 0;
  const finished = prev && prev.deal !== view.deal ? prev.tricks_done.length : null;
  for (const t of view.tricks_done.slice(before)) {
    lines.push(`${names(t.winner)} ${takes(t.winner)} trick ${t.number}${t.queen ? " with the Q♠" : ""}`);
  }
  const r = view.last_deal;
  if (r && r.deal !== prev?.last_deal?.deal) {
    if (finished !== null && finished < 8) lines.push(`${names(r.last_by)} ${takes(r.last_by)} the last trick`);
    lines.push(`Deal ${r.deal}: ${explainResult(r, names)}`);
  }
  return lines;
}
