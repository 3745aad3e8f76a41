// Yaniv: your hand as cards (click cards to select the group to throw), the group thrown
// last (its takeable cards can be drawn) and the stock, the Yaniv call, the others' card
// counts and the cards known to be in their hands, the hands shown after a call (Assaf
// explained), and the match scoreboard with halving and eliminations.
import { el } from "../api.js";
import { unfold } from "../deals.js";
import { namesOf, said, tidy } from "../words.js";

const SUIT_SYMBOLS = { c: "♣", d: "♦", h: "♥", s: "♠" };
const RANK_NUMBERS = { A: 1, J: 11, Q: 12, K: 13 };
const RANK_LABELS = ["", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

// ----- cards and action ids (the grammar of engine/yaniv/actions.py) -----
const CARD = /^(?:(A|[2-9]|10|J|Q|K)([cdhs])|jk([12]))$/;
const ACTION = /^drop:((?:[^,|]+)(?:,[^,|]+)*)\|take:([^|]+)$/;

export function parseCard(id) {
  const m = CARD.exec(id);
  if (!m) throw new Error(`not a card: ${id}`);
  if (m[3]) return { id, joker: true, rank: 0, suit: null };
  return { id, joker: false, rank: RANK_NUMBERS[m[1]] ?? Number(m[1]), suit: m[2] };
}

export function parseAction(id) {
  if (id === "yaniv") return { yaniv: true };
  const m = ACTION.exec(id);
  if (!m) throw new Error(`not a Yaniv action: ${id}`);
  return { yaniv: false, drop: m[1].split(","), take: m[2] };
}

function cardValue(card, faceValues) {
  if (card.joker) return 0;
  return faceValues === "rank" ? card.rank : Math.min(card.rank, 10);
}

// Why these cards cannot be thrown together (the engine's reasons), or null.
export function groupProblem(ids) {
  if (!ids.length) return "select the cards to throw";
  if (ids.length === 1) return null;
  const cards = ids.map(parseCard);
  const jokers = cards.filter((c) => c.joker);
  const naturals = cards.filter((c) => !c.joker).sort((a, b) => a.rank - b.rank);
  if (!naturals.length) return "jokers alone are singles: throw one joker at a time";
  const ranks = naturals.map((c) => c.rank);
  const distinct = new Set(ranks).size;
  if (distinct === 1) return jokers.length ? "jokers only fill gaps inside a run; they do not join a set" : null;
  if (new Set(naturals.map((c) => c.suit)).size > 1) {
    return distinct < ranks.length ? "a set is cards of one rank only" : "a run is cards of one suit; a set is cards of one rank";
  }
  if (distinct < ranks.length) return "a run cannot hold the same rank twice";
  if (cards.length < 3) return "a run needs at least three cards";
  const gaps = ranks[ranks.length - 1] - ranks[0] + 1 - ranks.length;
  if (gaps > jokers.length) {
    return `${naturals[0].id} to ${naturals[naturals.length - 1].id} has ${gaps} missing rank${gaps > 1 ? "s" : ""} and only ${jokers.length} joker${jokers.length === 1 ? "" : "s"} to fill them`;
  }
  if (gaps < jokers.length) return "jokers only fill gaps inside a run: a run starts and ends with real cards";
  return null;
}

// ----- drawing cards -----
// "6♠", "joker": a card as it is written for people.
function cardLabel(id) {
  const card = parseCard(id);
  return card.joker ? "joker" : `${RANK_LABELS[card.rank]}${SUIT_SYMBOLS[card.suit]}`;
}

function cardFace(id, attrs = {}) {
  const card = parseCard(id);
  const red = card.suit === "h" || card.suit === "d";
  const label = cardLabel(id);
  const tag = attrs.onclick ? "button" : "div";
  return el(tag, { ...attrs, class: `yv-card ${red ? "red" : ""} ${card.joker ? "joker" : ""} ${attrs.class ?? ""}`,
    "data-card": id, role: tag === "button" ? null : "img", "aria-label": attrs["aria-label"] ?? label, title: label },
  el("span", { class: "corner" }, card.joker ? "JK" : RANK_LABELS[card.rank]),
  el("span", { class: "pip" }, card.joker ? "★" : SUIT_SYMBOLS[card.suit]));
}

function cardBacks(n) {
  return el("div", { class: "yv-backs", role: "img", "aria-label": `${n} card${n === 1 ? "" : "s"}` },
    Array.from({ length: n }, () => el("div", { class: "yv-card back" })));
}

// The selection survives re-drawing as long as the hand is the same.
let selection = new Set();
let selectionHand = "";

function describeGroup(ids) {
  if (ids.length === 1) return ids[0].startsWith("jk") ? "a joker" : "one card";
  const cards = ids.map(parseCard);
  return new Set(cards.filter((c) => !c.joker).map((c) => c.rank)).size === 1 ? `a set of ${ids.length}` : `a run of ${ids.length}`;
}

export function render(root, view, ctx) {
  const names = namesOf(ctx);
  const legal = ctx.legal.map((a) => ({ ...a, parsed: parseAction(a.id) }));
  const myTurn = legal.length > 0;
  const hand = view.hand ?? [];
  const handKey = hand.join(",");
  if (handKey !== selectionHand || !myTurn) {
    selection = new Set();
    selectionHand = handKey;
  }
  const rerender = () => render(root, view, ctx);
  const faceValues = view.options.face_values;
  const chosen = hand.filter((id) => selection.has(id));
  const chosenKey = [...chosen].sort().join(",");
  const matching = legal.filter((a) => !a.parsed.yaniv && [...a.parsed.drop].sort().join(",") === chosenKey);
  const takeIds = new Map(matching.map((a) => [a.parsed.take, a.id]));
  const problem = chosen.length ? groupProblem(chosen) : null;

  // --- the others ---
  const others = el("div", { class: "yv-others" });
  for (let s = 0; s < view.players; s++) {
    if (s === ctx.seat) continue;
    const out = view.eliminated.includes(s);
    const known = view.known[s] ?? [];
    const shown = view.hands?.[s];
    others.append(el("div", { class: `yv-seat ${view.to_move === s ? "to-move" : ""} ${out ? "out" : ""}`, "data-seat": s },
      el("div", { class: "yv-seat-head" }, el("strong", {}, names(s)),
        el("span", { class: "yv-count" }, out ? "out" : `${view.hand_counts[s]} card${view.hand_counts[s] === 1 ? "" : "s"}`),
        el("span", { class: "yv-score" }, `${view.scores[s]} pts`)),
      out ? "" : shown
        ? el("div", { class: "yv-row" }, shown.map((id) => cardFace(id)), el("span", { class: "yv-total" }, `= ${view.hand_values[s]}`))
        : el("div", { class: "yv-row" }, known.map((id) => cardFace(id, { class: "known", title: "known: taken from the pile" })),
          cardBacks(view.hand_counts[s] - known.length))));
  }

  // --- stock and discard ---
  const canTake = myTurn && chosen.length > 0 && !problem && matching.length > 0;
  const stockButton = el(canTake && takeIds.has("stock") ? "button" : "div", {
    class: "yv-stock", role: canTake && takeIds.has("stock") ? null : "group", "aria-label": `stock: ${view.stock} cards`,
    onclick: canTake && takeIds.has("stock") ? () => finish(takeIds.get("stock")) : null,
  }, el("div", { class: "yv-card back" }), el("span", {}, `stock ${view.stock}`));
  const takeable = new Set(view.discard.takeable);
  const discard = el("div", { class: "yv-discard" },
    el("div", { class: "yv-row" }, view.discard.cards.map((id) => {
      const can = canTake && takeable.has(id) && takeIds.has(id);
      return cardFace(id, {
        class: `${takeable.has(id) ? "takeable" : "locked"}`,
        onclick: can ? () => finish(takeIds.get(id)) : null,
        "aria-label": `take ${cardLabel(id)}`,
      });
    })),
    el("span", { class: "yv-caption" }, view.discard.by === null ? "turned up" : `${names(view.discard.by)} threw ${view.discard.describe}`,
      view.discard.kind === "run" ? " (only its ends may be taken)" : ""),
    el("span", { class: "yv-caption muted" }, `${view.discard.under.length} card${view.discard.under.length === 1 ? "" : "s"} underneath`));
  const centre = el("div", { class: "yv-centre" }, stockButton, discard);

  function finish(actionId) {
    selection = new Set();
    ctx.play(actionId);
  }

  // --- my hand ---
  let me = null;
  if (ctx.seat !== null && ctx.seat !== undefined) {
    const cards = el("div", { class: "yv-row yv-hand" }, hand.map((id) => cardFace(id, {
      class: selection.has(id) ? "selected" : "",
      "aria-pressed": myTurn ? String(selection.has(id)) : null,  // a toggle only while it is a button
      onclick: myTurn ? () => {
        selection.has(id) ? selection.delete(id) : selection.add(id);
        rerender();
        root.querySelector(`.yv-hand [data-card="${id}"]`)?.focus();  // keyboard focus stays on the card
      } : null,
    })));
    let message;
    if (!myTurn) message = view.over || view.to_move === null ? "" : `${names(view.to_move)} ${view.to_move === ctx.seat ? "are" : "is"} to play.`;
    else if (!chosen.length) message = "Select cards to throw: one card, a set of one rank, or a run of 3+ of one suit (jokers fill gaps).";
    else if (problem) message = `Not a group: ${problem}.`;
    else message = `Throw ${describeGroup(chosen)}, then draw: click the stock or a highlighted card of the discard.`;
    const buttons = el("div", { class: "yv-actions" });
    if (legal.some((a) => a.parsed.yaniv)) {
      buttons.append(el("button", { class: "primary yv-call", onclick: () => finish("yaniv") }, `Yaniv! (you hold ${view.hand_value})`));
    }
    if (canTake) {
      for (const [take, id] of takeIds) {
        buttons.append(el("button", { class: "yv-take", "data-take": take, onclick: () => finish(id) },
          take === "stock" ? "Draw from the stock" : `Take ${cardLabel(take)}`));
      }
    }
    if (chosen.length) buttons.append(el("button", { class: "yv-clear", onclick: () => { selection = new Set(); rerender(); } }, "Clear"));
    me = el("div", { class: `yv-me ${myTurn ? "to-move" : ""}` },
      el("div", { class: "yv-seat-head" }, el("strong", {}, "Your hand"),
        el("span", { class: "yv-hand-value" }, `value ${view.hand_value}`),
        el("span", { class: "muted" }, `Yaniv at ${view.options.yaniv_limit} or less`)),
      cards, el("p", { class: `yv-message ${problem ? "yv-problem" : ""}` }, message), buttons);
  }

  root.replaceChildren(el("div", { class: "yaniv" }, scoreboard(view, names), others, centre,
    lastDeal(view, names, faceValues), me ?? ""));
}

// The hands shown at the last call, and how it was scored.
function lastDeal(view, names, faceValues) {
  const r = view.last_result;
  if (!r) return "";
  const fresh = view.over || view.turn < view.players;
  const rows = r.hands.map((cards, s) => {
    if (r.totals[s] === null) return null;
    const tags = [];
    if (s === r.caller) tags.push(r.assaf ? "called: Assaf!" : "called Yaniv");
    if (r.winners.includes(s)) tags.push("0 points");
    if (r.halved.includes(s)) tags.push("landed on a multiple of 50: −50");
    if (r.eliminated.includes(s)) tags.push("out: above the limit");
    return el("li", { class: r.winners.includes(s) ? "winner" : "", "data-seat": s },
      el("strong", {}, names(s)), " ", el("span", { class: "yv-row small" }, cards.map((id) => cardFace(id))),
      ` = ${r.totals[s]} → +${r.added[s]}`, tags.length ? el("em", {}, ` (${tags.join(", ")})`) : "");
  });
  return el("details", { class: `yv-result ${r.assaf ? "assaf" : ""}`, open: fresh },
    el("summary", {}, `Deal ${r.deal}: ${explainCall(r, names, view.options.assaf_penalty)}`),
    el("ul", {}, rows.filter(Boolean)),
    el("p", { class: "muted small" }, faceValues === "rank" ? "J, Q, K count 11, 12, 13; jokers 0." : "J, Q, K count 10; jokers 0."));
}

// The call and its scoring in words, with the players' names ("You" for the person's seat).
function explainCall(r, names, penalty) {
  const you = (s) => names(s) === "You";
  const caller = names(r.caller);
  const mine = r.totals[r.caller];
  if (!r.assaf) {
    return tidy(`Yaniv! ${caller} called with ${mine}, strictly the lowest: ${said(caller, "add 0", you(r.caller))}, everybody else adds their hand.`);
  }
  const lows = r.winners.map(names).join(" and ");
  const low = r.totals[r.winners[0]];
  const tie = low === mine ? " (a tie counts against the caller)" : "";
  const lowsAdd = r.winners.length === 1 ? said(lows, "add 0", you(r.winners[0])) : `${lows} add 0`;
  return tidy(`Assaf! ${caller} called Yaniv with ${mine}, but ${lows} had ${low}${tie}: ${said(caller, `add ${mine} + ${penalty}`, you(r.caller))}, ${lowsAdd}, the rest add their hands.`);
}

// Match scores, deal by deal, with halvings and eliminations.
function scoreboard(view, names) {
  const players = [...Array(view.players).keys()];
  const head = el("tr", {}, el("th", {}, "deal"), players.map((s) => el("th", { class: view.eliminated.includes(s) ? "out" : "" }, names(s))));
  const rows = view.history.map((h) => el("tr", {}, el("td", {}, `${h.deal}${h.assaf ? " (Assaf)" : ""}`), players.map((s) => {
    const parts = [`+${h.added[s]}`];
    if (h.halved.includes(s)) parts.push("−50");
    const cell = el("td", { class: h.eliminated.includes(s) ? "out" : "" }, `${parts.join(" ")} = ${h.scores[s]}`);
    if (h.eliminated.includes(s)) cell.append(el("em", {}, " out"));
    return cell;
  })));
  const totals = el("tr", { class: "totals" }, el("td", {}, "score"), players.map((s) => el("td", { "data-seat": s }, String(view.scores[s]))));
  const rules = view.options;
  const note = [
    `Deal ${view.deal}.`,
    rules.halving ? "A score landing exactly on a multiple of 50 drops by 50." : "",
    `Above ${rules.elimination} a player is out; the last one in wins.`,
  ].join(" ");
  return el("details", { class: "yv-scoreboard", open: view.history.length > 0 },
    el("summary", {}, "Scoreboard"),
    el("table", {}, el("thead", {}, head), el("tbody", {}, rows, totals)),
    el("p", { class: "muted small" }, note));
}

// The end of a deal (shown by the table until the person goes on): the call, every hand, the
// points added and the match scores.
export function dealEnd(view, ctx) {
  const r = view.last_result;
  if (!r) return null;
  const names = namesOf(ctx);
  const details = lastDeal({ ...view, over: true }, names, view.options.face_values);
  return {
    key: `yaniv:${r.deal}`,
    title: tidy(`Deal ${r.deal}: ${names(r.caller)} called ${r.assaf ? `Yaniv, and ${names(r.caller) === "You" ? "were" : "was"} caught: Assaf!` : "Yaniv"}`),
    body: [el("p", {}, explainCall(r, names, view.options.assaf_penalty)), unfold(details),
      el("p", { class: "small" }, "Points are penalties: the lowest score wins. Scores now: ",
        [...Array(view.players).keys()].map((s) => `${names(s)} ${r.scores[s]}`).join(", "), ".")],
  };
}

export const dealNumber = (view) => view.deal;

// What the moves do not say: a call's scoring, and the discard pile shuffled into a new stock.
export function narrate(prev, view, ctx) {
  const names = namesOf(ctx);
  const lines = [];
  const r = view.last_result;
  if (r && r.deal !== prev?.last_result?.deal) lines.push(explainCall(r, names, view.options.assaf_penalty));
  if (prev && prev.deal === view.deal && view.stock > prev.stock) lines.push(`the discard pile is shuffled into a new stock (${view.stock} cards)`);
  return lines;
}

// The words for a move's own line: a command, told of its mover by the table.
export const moveWords = ({ label }) => (label === "Yaniv!" ? "call Yaniv!" : label);
