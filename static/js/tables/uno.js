// Uno: the person's hand as cards (playable ones raised), a colour picker for wilds,
// draw / play the drawn card / pass, the opponents' card counts, the discard pile, the
// colour in force, the direction, whose turn, deal and match scores, the last deal's result.
// Card ids: a colour letter (r y g b) and 0-9, skip, rev or d2; or wild / wd4.
import { el } from "../api.js";
import { newEvents } from "../deals.js";
import { namesOf, saysOf, tidy } from "../words.js";

const COLOURS = { r: "red", y: "yellow", g: "green", b: "blue" };
const CARD = /^(?:([rygb])([0-9]|skip|rev|d2)|(wild|wd4))$/;
const PLAY = /^play:([a-z0-9]+)(?::([rygb]))?(:uno)?$/;
const FACE = { skip: "⊘", rev: "⇄", d2: "+2", wild: "W", wd4: "+4" };
const TITLE = { skip: "Skip", rev: "Reverse", d2: "Draw Two", wild: "Wild", wd4: "Wild Draw Four" };

function parseCard(id) {
  const m = CARD.exec(id);
  if (!m) return null;
  return m[3] ? { id, colour: null, rank: m[3] } : { id, colour: m[1], rank: m[2] };
}

function parsePlay(actionId) {
  const m = PLAY.exec(actionId);
  return m ? { id: actionId, card: m[1], colour: m[2] ?? null, uno: Boolean(m[3]) } : null;
}

function cardTitle(card) {
  const rank = TITLE[card.rank] ?? card.rank;
  return card.colour ? `${COLOURS[card.colour]} ${rank}` : rank;
}

function cardNode(id, { tag = "div", attrs = {}, small = false } = {}) {
  const card = parseCard(id);
  const colour = card.colour ?? "w";
  return el(tag, {
    class: `uno-card c-${colour}${small ? " small" : ""}`, "data-card": id, title: cardTitle(card), role: tag === "button" ? null : "img",
    "aria-label": cardTitle(card), ...attrs,
  }, el("span", { class: "oval" }, el("span", { class: "face" }, FACE[card.rank] ?? card.rank)),
  el("span", { class: "corner" }, FACE[card.rank] ?? card.rank));
}

function back(count, label) {
  return el("div", { class: "uno-back", role: "img", "aria-label": label }, el("span", {}, "UNO"), el("b", {}, String(count)));
}

export function render(root, view, ctx) {
  const legal = ctx.legal.map((a) => a.id);
  const plays = legal.map(parsePlay).filter(Boolean);
  const has = (id) => legal.includes(id);
  const callUno = plays.some((p) => p.uno);
  const seat = ctx.seat;
  const n = view.players;
  const name = (s) => ctx.names?.[s] ?? `Seat ${s + 1}`;
  const picker = el("div", { class: "uno-picker", hidden: true, role: "dialog", "aria-label": "name a colour" });

  // Which play to send for a card: the UNO-calling variant when there is one.
  const playsOf = (cardId) => plays.filter((p) => p.card === cardId && p.uno === callUno);
  const choose = (cardId) => {
    const options = playsOf(cardId);
    if (!options.length) return;
    if (options[0].colour === null) return ctx.play(options[0].id);
    picker.replaceChildren(el("span", {}, `${cardTitle(parseCard(cardId))}: name a colour`),
      ...options.map((p) => el("button", { class: `swatch s-${p.colour}`, "data-colour": p.colour,
        "aria-label": COLOURS[p.colour], onclick: () => ctx.play(p.id) }, COLOURS[p.colour])),
      el("button", { class: "cancel", onclick: () => { picker.hidden = true; } }, "cancel"));
    picker.hidden = false;
    picker.querySelector("button")?.focus();
  };

  // Opponents, in playing order from the person's left (everyone, for a spectator).
  const order = Array.from({ length: n }, (_, k) => ((seat ?? -1) + 1 + k) % n).filter((s) => s !== seat);
  const opponents = el("div", { class: "uno-opponents" }, ...order.map((s) => {
    const count = view.hand_counts[s];
    const shown = view.hands?.[s];
    return el("div", { class: `uno-seat${view.to_move === s ? " to-move" : ""}`, "data-seat": s },
      el("div", { class: "who" }, el("strong", {}, name(s)), s === view.dealer ? el("span", { class: "tag" }, "dealer") : "",
        count === 1 && !view.over ? el("span", { class: "tag uno" }, "UNO!") : ""),
      shown ? el("div", { class: "fan" }, ...shown.map((c) => cardNode(c, { small: true })))
        : back(count, `${name(s)} holds ${count} cards`),
      el("div", { class: "count muted" }, `${count} card${count === 1 ? "" : "s"} · ${view.scores[s]} pts`));
  }));

  // The middle: draw pile, discard pile, colour in force, direction.
  const drawable = has("draw");
  const pile = el(drawable ? "button" : "div", {
    class: `uno-pile${drawable ? " can" : ""}`, "data-action": drawable ? "draw" : null, role: drawable ? null : "group",
    "aria-label": `draw pile, ${view.draw_pile} cards`, onclick: drawable ? () => ctx.play("draw") : null,
  }, back(view.draw_pile, "draw pile"));
  const colour = view.colour ? COLOURS[view.colour] : "not named yet";
  const centre = el("div", { class: "uno-centre" }, pile,
    el("div", { class: "uno-discard", role: "group", "aria-label": `top card ${cardTitle(parseCard(view.top))}` },
      el("span", { class: "under muted small" }, `${view.discards.length} in the discard pile`), cardNode(view.top)),
    el("div", { class: "uno-state" },
      el("div", { class: `uno-colour s-${view.colour ?? "none"}`, "data-colour": view.colour ?? "" }, `colour: ${colour}`),
      el("div", { class: "uno-direction", "data-direction": view.direction },
        view.direction > 0 ? "↻ to the left" : "↺ to the right"),
      el("div", { class: "muted small" }, view.over ? "deal over" : view.to_move === null ? "match over"
        : view.to_move === seat ? "your turn" : `${name(view.to_move)} to play`),
      el("div", { class: "muted small" }, `deal ${view.deal + 1}${view.single_deal ? "" : ` · match to ${view.options.target_score}`}`)));

  // The person's hand: playable cards raised; the card just drawn marked.
  const playable = new Set(plays.map((p) => p.card));
  let drawnMarked = false;
  const hand = el("div", { class: `uno-hand${view.hand.length > 9 ? " many" : ""}`, role: "group", "aria-label": "your hand" }, ...view.hand.map((id) => {
    const isDrawn = !drawnMarked && view.drawn === id;
    if (isDrawn) drawnMarked = true;
    const can = playable.has(id) && (view.phase !== "drawn" || isDrawn);
    return cardNode(id, {
      tag: can ? "button" : "div",
      attrs: { class: `uno-card c-${parseCard(id).colour ?? "w"}${can ? " playable" : ""}${isDrawn ? " drawn" : ""}`,
        onclick: can ? () => choose(id) : null },
    });
  }));

  // The buttons for everything that is not a card from the hand.
  const buttons = el("div", { class: "uno-actions" });
  const button = (id, text, cls = "") => has(id) && buttons.append(
    el("button", { class: cls, "data-action": id, onclick: () => ctx.play(id) }, text));
  if (view.phase === "opening") {
    for (const c of "rygb") button(`colour:${c}`, `name ${COLOURS[c]}`, `swatch s-${c}`);
  }
  button("catch", "Catch! (no UNO called)", "primary");
  button("challenge", "Challenge the Wild Draw Four");
  button("accept", "Accept: draw 4");
  button("draw", "Draw a card");
  if (view.phase === "drawn" && view.drawn && playable.has(view.drawn)) {
    buttons.append(el("button", { class: "primary", "data-action": "play-drawn", onclick: () => choose(view.drawn) },
      `Play the drawn ${cardTitle(parseCard(view.drawn))}`));
  }
  button("pass", view.phase === "drawn" ? "Keep it and pass" : "Pass");
  if (callUno) buttons.append(el("span", { class: "tag uno" }, "You will call UNO with this card"));

  const parts = [opponents, centre, picker, buttons];
  if (seat !== null) {
    parts.push(el("div", { class: `uno-me${view.to_move === seat ? " to-move" : ""}` }, el("div", { class: "who" }, el("strong", {}, `${name(seat)} (you)`),
      ` · ${view.hand.length} card${view.hand.length === 1 ? "" : "s"} · ${view.scores[seat]} pts`), hand));
  }
  parts.push(scores(view, name), lastDeal(view, name));
  root.replaceChildren(...parts.filter(Boolean));
}

function scores(view, name) {
  const rows = view.scores.map((s, i) => el("span", { class: "uno-score" }, `${name(i)} ${s}`));
  return el("div", { class: "uno-scores muted small" }, view.single_deal ? "Deal points: " : "Match points: ", ...rows);
}

function lastDeal(view, name) {
  const last = view.last_deal;
  if (!last) return null;
  const text = last.winner === null ? `Deal ${last.deal + 1} ended with no winner (move limit).`
    : `Deal ${last.deal + 1}: ${name(last.winner)} went out and scored ${last.points}.`;
  return el("details", { class: "uno-last", open: view.over },
    el("summary", {}, text),
    ...last.hands.map((h, s) => el("div", { class: "row" }, el("span", { class: "who" }, name(s)),
      ...(h.length ? h.map((c) => cardNode(c, { small: true })) : [el("span", { class: "muted small" }, "out")]))));
}

// The end of a deal (shown by the table until the person goes on): who went out, every hand,
// the points and the match scores.
export function dealEnd(view, ctx) {
  const last = view.last_deal;
  if (!last) return null;
  const name = namesOf(ctx);
  const title = last.winner === null ? `Deal ${last.deal + 1} ended with no winner (move limit)`
    : tidy(`Deal ${last.deal + 1}: ${name(last.winner)} went out and scored ${last.points}`);
  // Two rows a player: name, points and match score; then the cards left, across the whole
  // width (a long name never squeezes the cards into a column).
  const rows = last.hands.flatMap((h, s) => [
    el("tr", { "data-seat": s }, el("th", { scope: "row" }, name(s)),
      el("td", { class: "num" }, s === last.winner ? `+${last.points}` : "0"),
      el("td", { class: "num" }, String(view.scores[s]))),
    el("tr", { class: "hand-row" }, el("td", { class: "hand", colspan: 3 },
      el("span", { class: "visually-hidden" }, tidy(`${name(s)}: cards left`)),
      el("div", { class: "hand-cards" }, h.length ? h.map((c) => cardNode(c, { small: true })) : "out")))]);
  return {
    key: `uno:${last.deal}`, title,
    body: [el("table", { class: "deal-end-table" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "player"), el("th", { scope: "col" }, "points"), el("th", { scope: "col" }, "match"))),
      el("tbody", {}, rows)),
    el("p", { class: "small" }, "Whoever goes out scores the cards left in the others' hands (numbers at face value, action cards 20, wilds 50)",
      view.single_deal ? "." : `; the match goes to ${view.options.target_score}.`)],
  };
}

export const dealNumber = (view) => view.deal + 1;

// Every public event since the view before, in words (the mover's own action is its log line).
export function narrate(prev, view, ctx, move) {
  const own = new Set(["play", "draw", "pass", "colour", "challenge", "catch"]);
  const lines = [];
  for (const e of newEvents(prev?.log, view.log)) {
    if (move && own.has(e.event) && e.seat === move.seat && !lines.length) continue;
    const text = eventText(e, ctx);
    if (text) lines.push(text);
  }
  return lines;
}

// The words for a move's own line: a command, told of its mover by the table.
export function moveWords({ label }) {
  if (label.startsWith("catch")) return "catch a player who did not call UNO (they draw 2)";
  if (label.startsWith("accept")) return "accept the Wild Draw Four and draw 4";
  return label;
}

function eventText(e, ctx) {
  const says = saysOf(ctx);
  const name = namesOf(ctx);
  const card = (id) => cardTitle(parseCard(id));
  const text = (() => {
    switch (e.event) {
      case "turnup": return `${card(e.card)} is turned up to start the discard pile`;
      case "returned": return `${card(e.card)} goes back into the draw pile`;
      case "colour": return says(e.seat, `name ${COLOURS[e.colour]}`);
      case "play": return says(e.seat, `play ${card(e.card)}${parseCard(e.card).colour ? "" : `, naming ${COLOURS[e.colour]}`}${e.uno ? " and call UNO" : ""}`);
      case "draw": return says(e.seat, `draw ${e.count === 1 ? "a card" : `${e.count} cards`}`);
      case "pass": return says(e.seat, "pass");
      case "skip": return says(e.seat, "lose a turn");
      case "reverse": return `play now goes ${e.direction > 0 ? "to the left" : "to the right"}`;
      case "penalty": return says(e.seat, `draw ${e.count} as a penalty`);
      case "challenge": return says(e.seat, `challenge the Wild Draw Four: ${e.illegal ? "it was played illegally" : "it was legal"}`);
      case "catch": return says(e.seat, `catch ${name(e.caught)} without UNO called`);
      case "reshuffle": return `the discard pile is shuffled into a new draw pile (${e.count} cards)`;
      case "out": return says(e.seat, `go out and score ${e.points}`);
      case "stalled": return `the deal ends at the move limit (${e.moves} moves)`;
      default: return "";
    }
  })();
  return tidy(text);
}
