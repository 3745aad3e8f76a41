// Rack-O: your rack as a column of numbered slots (slot 1 at the bottom, as on a real rack;
// the ascending run from slot 1, what scores, highlighted), the deck and the discard pile
// (click one to take its top card), the card you hold (click a slot to put it there, or
// Discard), the others' racks face down with the cards everybody saw them take, scores, the
// table's recent events, and after a deal every rack shown.
import { el } from "../api.js";
import { newEvents, unfold } from "../deals.js";

// ----- action ids (engine/racko/actions.py) -----
const PLACE = /^place:(\d+)$/;

// How many cards from slot 1 ascend before the first break (at least 1): what a rack scores / 5.
export function ascendingRun(rack) {
  let k = 1;
  while (k < rack.length && rack[k - 1] < rack[k]) k++;
  return k;
}

// One card: a long bar with its number placed along it by value, as on Rack-O cards.
function cardFace(value, maxCard, attrs = {}) {
  const pos = maxCard > 1 ? (value - 1) / (maxCard - 1) : 0;
  const tag = attrs.onclick ? "button" : "div";
  return el(tag, { ...attrs, class: `rk-card ${attrs.class ?? ""}`, style: `--pos: ${pos.toFixed(3)}`,
    "data-card": value, role: tag === "button" ? null : "img", "aria-label": attrs["aria-label"] ?? `card ${value}` },
  el("span", { class: "rk-num" }, String(value)));
}

function cardBack(attrs = {}) {
  const tag = attrs.onclick ? "button" : "div";
  return el(tag, { role: tag === "button" ? null : "img", "aria-label": "a card face down", ...attrs, class: `rk-card back ${attrs.class ?? ""}` }, el("span", { class: "rk-logo" }, "RACK-O"));
}

// A rack drawn as a column, back slot on top, slot 1 at the bottom. ``cells[k]`` is what
// slot k + 1 holds: a card number, or null for a face-down card.
function rackColumn(cells, maxCard, { run = 0, small = false, slotButton = null, known = new Map(), label = "" } = {}) {
  const rows = [];
  for (let k = cells.length - 1; k >= 0; k--) {
    const slot = k + 1;
    const value = cells[k];
    const inRun = run > k;
    const attrs = {
      class: `${inRun ? "run" : ""} ${known.has(slot) ? "known" : ""}`,
      "data-slot": slot,
    };
    let face;
    if (slotButton) {
      face = cardFace(value, maxCard, { ...attrs, onclick: () => slotButton(slot), class: `${attrs.class} target`,
        "aria-label": `put it in slot ${slot} (replacing ${value})`, title: `put it in slot ${slot}, replacing ${value}` });
    } else if (value === null || value === undefined) {
      face = cardBack(attrs);
    } else {
      face = cardFace(value, maxCard, { ...attrs, title: known.has(slot) ? "seen taken from the discard pile" : "" });
    }
    rows.push(el("div", { class: "rk-slot" }, el("span", { class: "rk-slot-no" }, String(slot)), face));
  }
  return el("div", { class: `rk-rack ${small ? "small" : ""}`, role: "group", "aria-label": label }, rows);
}

// Another player's rack, compact: a row of small cards from slot 1 (left) to the back slot,
// each a number where it is known (seen taken from the discard pile, or every rack once shown).
function rackStrip(cells, { run = 0, known = new Map(), label = "" } = {}) {
  return el("div", { class: "rk-strip", role: "group", "aria-label": label }, cells.map((value, k) => {
    const slot = k + 1;
    const shown = value !== null && value !== undefined;
    return el("div", { class: `rk-chip ${shown ? "" : "back"} ${run > k ? "run" : ""} ${known.has(slot) ? "known" : ""}`,
      "data-slot": slot, "data-card": shown ? value : null, role: "img",
      "aria-label": `slot ${slot}: ${shown ? value : "face down"}`, title: known.has(slot) ? "seen taken from the discard pile" : null },
    shown ? String(value) : "");
  }));
}

// The table's recent public events, in words ("You draw", "Kyle draws").
function describeEvent(e, names, me) {
  const who = names(e.seat);
  const verb = (third, second) => (e.seat === me ? second : third);
  switch (e.event) {
    case "deal": return `Deal ${e.deal + 1}: ${names(e.dealer)} dealt.`;
    case "turnup": return `${e.card} is turned up to start the discard pile.`;
    case "draw": return e.source === "deck" ? `${who} ${verb("draws", "draw")} from the deck.`
      : `${who} ${verb("takes", "take")} ${e.card} from the discard pile.`;
    case "discard": return `${who} ${verb("discards", "discard")} ${e.card}.`;
    case "place": return `${who} ${verb("puts", "put")} ${e.card ?? "the drawn card"} in slot ${e.slot}, discarding ${e.out}.`;
    case "reshuffle": return `The deck ran out: ${e.count} discards are shuffled into a new deck.`;
    case "racko": return `Rack-O! ${who} ${verb("scores", "score")} ${e.points}.`;
    case "stalled": return `No Rack-O after ${e.turns} turns: the deal ends.`;
    default: return "";
  }
}

export function render(root, view, ctx) {
  const names = (s) => (s === ctx.seat ? "You" : ctx.names?.[s] ?? `Seat ${s + 1}`);
  const opts = view.options;
  const maxCard = opts.max_card;
  const legal = new Set((ctx.legal ?? []).map((a) => a.id));
  const myTurn = legal.size > 0;
  const me = ctx.seat ?? null;
  const racks = view.racks ?? (view.last_result && view.over ? view.last_result.racks : null);

  // --- the others (everybody in a watched game) ---
  const others = el("div", { class: "rk-others" });
  for (let s = 0; s < view.players; s++) {
    if (s === me) continue;
    const known = new Map((view.known[s] ?? []).map(([slot, card]) => [slot, card]));
    const cells = racks ? racks[s] : Array.from({ length: opts.rack_size }, (_, k) => known.get(k + 1) ?? null);
    const run = racks ? ascendingRun(racks[s]) : 0;
    const holding = view.to_move === s && view.phase === "place";
    others.append(el("div", { class: `rk-seat ${view.to_move === s ? "to-move" : ""}`, "data-seat": s },
      el("div", { class: "rk-seat-head" }, el("strong", {}, names(s)),
        el("span", { class: "rk-score" }, `${view.scores[s]} pts`),
        el("span", { class: "muted" }, `${view.turns[s]} turn${view.turns[s] === 1 ? "" : "s"}`),
        el("span", { class: "rk-holding" }, holding ? (view.drawn_from === "discard" ? "holds a card from the discard" : "holds a card from the deck") : "")),
      rackStrip(cells, { run, known, label: `${names(s)}'s rack, slot 1 first` })));
  }

  // --- deck, discard pile, and the card in hand ---
  const canDeck = legal.has("draw:deck");
  const canDiscardPile = legal.has("draw:discard");
  const deck = el("div", { class: "rk-pile" },
    cardBack({ class: `rk-deck ${canDeck ? "target" : ""}`, onclick: canDeck ? () => ctx.play("draw:deck") : null,
      "aria-label": `deck: ${view.deck_size} cards`, title: canDeck ? "draw the top card of the deck" : "" }),
    el("span", { class: "rk-caption" }, `deck ${view.deck_size}`));
  const top = view.discard_top;
  const discard = el("div", { class: "rk-pile" },
    top === null ? el("div", { class: "rk-card empty" }, "") : cardFace(top, maxCard, {
      class: `rk-discard ${canDiscardPile ? "target" : ""}`, onclick: canDiscardPile ? () => ctx.play("draw:discard") : null,
      "aria-label": `discard pile: ${top}`, title: canDiscardPile ? `take ${top}` : "" }),
    el("span", { class: "rk-caption" }, `discard pile (${view.discard_pile.length})`));
  const centre = el("div", { class: "rk-centre" }, deck, discard);
  const holdingMine = me !== null && view.to_move === me && view.phase === "place" && view.drawn !== null;
  if (holdingMine) {
    centre.append(el("div", { class: "rk-pile rk-hand" },
      cardFace(view.drawn, maxCard, { class: "drawn", "aria-label": `you hold ${view.drawn}` }),
      el("span", { class: "rk-caption" }, view.drawn_from === "discard" ? "taken from the discard" : "drawn from the deck")));
  }
  if (legal.has("discard")) {
    centre.append(el("button", { class: "rk-discard-drawn", onclick: () => ctx.play("discard") }, `Discard ${view.drawn}`));
  }

  // --- my rack, and what to do ---
  let mine = "";
  let help = "";
  if (me !== null && view.rack) {
    const placing = myTurn && view.phase === "place";
    const run = ascendingRun(view.rack);
    const known = new Map((view.known[me] ?? []).map(([slot, card]) => [slot, card]));
    let message;
    if (view.over || view.to_move === null) message = "";
    else if (!myTurn) message = `${names(view.to_move)} ${view.to_move === me ? "are" : "is"} to play.`;
    else if (!placing) message = `Take a card: click the deck (a card nobody sees) or the discard pile (${top}).`;
    else if (view.drawn_from === "discard") message = `Put ${view.drawn} in a slot: click the slot (its card goes on the discard pile). A card from the discard pile must be placed.`;
    else message = `Put ${view.drawn} in a slot (click it; its card goes on the discard pile), or discard ${view.drawn}.`;
    const points = run === opts.rack_size ? "Rack-O!" : `${run} in order from slot 1: ${5 * run} points if the deal ended now`;
    mine = el("div", { class: `rk-me ${myTurn ? "to-move" : ""}` },
      el("div", { class: "rk-seat-head" }, el("strong", {}, "Your rack"),
        el("span", { class: "rk-score" }, `${view.scores[me]} pts`)),
      rackColumn(view.rack, maxCard, { run, known, slotButton: placing ? (slot) => ctx.play(`place:${slot}`) : null,
        label: "your rack" }),
      el("p", { class: "rk-run-note" }, points));
    help = el("div", { class: "rk-help" }, el("p", { class: "rk-message" }, message),
      el("p", { class: "muted small" }, `Cards 1–${maxCard}. Get all ${opts.rack_size} in ascending order from slot 1 (bottom) to slot ${opts.rack_size} (top) to call Rack-O.`));
  }

  const events = el("ol", { class: "rk-events", "aria-label": "recent events" },
    (view.log ?? []).slice(-5).map((e) => el("li", {}, describeEvent(e, names, me))));

  // Your rack beside the piles (it is all in one screen), what to do and the latest events by them.
  root.replaceChildren(el("div", { class: "racko" }, scoreline(view, names), others,
    el("div", { class: `rk-board ${mine ? "seated" : ""}` }, mine, centre, help, events), result(view, names, maxCard, me)));
}

// Match scores and the target.
function scoreline(view, names) {
  const target = view.options.target_score;
  const parts = [...Array(view.players).keys()].map((s) => el("span", { class: "rk-total", "data-seat": s },
    el("strong", {}, names(s)), ` ${view.scores[s]}`));
  return el("div", { class: "rk-scoreline" }, el("span", {}, view.single_deal ? "Single deal · " : `Deal ${view.deal + 1} · to ${target} · `),
    parts, el("span", { class: "muted" }, ` · turn ${view.turn}`));
}

// Every rack of the last deal, who went Rack-O and the points.
function result(view, names, maxCard, me) {
  const r = view.last_result;
  if (!r) return "";
  const fresh = view.over || view.turn < view.players;
  const title = r.winner === null
    ? `Deal ${r.deal + 1}: no Rack-O after ${r.turns} turns; every rack scores 5 per card in order from slot 1.`
    : `Deal ${r.deal + 1}: Rack-O! ${names(r.winner)} ${r.winner === me ? "score" : "scores"} ${r.points[r.winner]}${r.bonus ? ` (with a ${r.bonus}-point run bonus)` : ""}.`;
  return el("details", { class: "rk-result", open: fresh },
    el("summary", {}, title),
    el("div", { class: "rk-result-racks" }, r.racks.map((rack, s) => el("div", { class: `rk-result-seat ${s === r.winner ? "winner" : ""}`, "data-seat": s },
      el("div", {}, el("strong", {}, names(s)), ` +${r.points[s]} → ${r.scores[s]}`),
      rackColumn(rack, maxCard, { run: ascendingRun(rack), small: true, label: `${names(s)}'s rack` })))));
}

// The last deal's details as the deal-end panel shows them: open, without their summary line.
function plain(details) {
  details.querySelector("summary")?.remove();
  details.className = "deal-end-details";
  return details;
}

const seatNames = (ctx) => (s) => (s === ctx.seat ? "You" : ctx.names?.[s] ?? `Seat ${s + 1}`);

// The end of a deal (shown by the table until the person goes on): every rack, the points, the scores.
export function dealEnd(view, ctx) {
  const r = view.last_result;
  if (!r) return null;
  const names = seatNames(ctx);
  const title = r.winner === null ? `Deal ${r.deal + 1}: no Rack-O after ${r.turns} turns`
    : `Deal ${r.deal + 1}: ${names(r.winner)} called Rack-O!`;
  return {
    key: `racko:${r.deal}`, title,
    body: [unfold(result({ ...view, over: true }, names, view.options.max_card, ctx.seat ?? null)),
      el("p", { class: "small" }, `Rack-O scores ${5 * view.options.rack_size + 25}; every other rack 5 per card in order from slot 1`,
        view.single_deal ? "." : `; the match goes to ${view.options.target_score}.`)],
  };
}

export const dealNumber = (view) => view.deal + 1;

// A move's own event among the new ones: its mover's draw, placing or discard.
function ownEvent(events, move) {
  return move ? events.find((e) => e.seat === move.seat && ["draw", "place", "discard"].includes(e.event)) : undefined;
}

// The words for a move's own line, a command told of its mover by the table: from its event when
// the view after it is known ("take 33 from the discard pile", "put 19 in slot 5, discarding 45"),
// else its label.
export function moveWords(move, prev, view, ctx) {
  const e = view ? ownEvent(newEvents(prev?.log, view.log), move) : undefined;
  if (!e) return move.label;
  if (e.event === "draw") return e.source === "deck" ? "draw from the deck" : `take ${e.card} from the discard pile`;
  if (e.event === "discard") return `discard ${e.card}`;
  // the card placed: public when it came from the discard pile; the mover knows it anyway
  const card = e.card ?? (move.seat === ctx.seat && prev?.drawn != null ? prev.drawn : null);
  return `put ${card ?? "the drawn card"} in slot ${e.slot}, discarding ${e.out}`;
}

// Every public event since the view before, in words, but the move's own (its log line).
export function narrate(prev, view, ctx, move) {
  const names = seatNames(ctx);
  const events = newEvents(prev?.log, view.log);
  const own = ownEvent(events, move);
  return events.filter((e) => e.event !== "deal" && e !== own)
    .map((e) => describeEvent(e, names, ctx.seat ?? null).replace(/\.$/, "")).filter(Boolean);
}
