// Words a player would say. Moves are labelled as commands ("play Green 5", "throw 7♠, take
// the stock"); told about a player they become "Nina plays Green 5, …", and about the person
// at this browser "You play Green 5".

// The verbs the games' labels and events start their clauses with.
const VERBS = "accept|call|catch|challenge|discard|draw|go|lose|name|pass|play|put|resign|score|take|throw";
const CLAUSE = new RegExp(`(^|, |\\band |\\()(${VERBS})\\b`, "g");

export const thirdPerson = (verb) => (/(?:s|sh|ch|x|z|o)$/.test(verb) ? `${verb}es` : `${verb}s`);

// A command told of its doer: "play Green 5 and call UNO" -> "plays Green 5 and calls UNO"
// (the person at this browser, ``you``: unchanged).
export const agree = (phrase, you = false) => (you ? phrase : phrase.replace(CLAUSE, (_, before, verb) => before + thirdPerson(verb)));

// "Nina" + "play Green 5 and call UNO" -> "Nina plays Green 5 and calls UNO"; for the person
// (``you``), "You play Green 5 and call UNO".
export const said = (who, phrase, you = false) => `${you ? "You" : who} ${agree(phrase, you)}`;

// "You" is capitalised only where a sentence starts: "Deal 2: you took all 8 tricks".
export const tidy = (text) => text.replace(/(^|[.!?]\s+)?\bYou\b/g, (m, start) => (start === undefined ? "you" : m));

// The names at a table for its sentences: "You" for the person's own seat, else the seat's name.
export function namesOf(ctx) {
  return (s) => (s === ctx.seat && s !== null && s !== undefined ? "You" : ctx.names?.[s] ?? `Seat ${s + 1}`);
}

// A sentence about seat ``s`` doing ``phrase`` (a command), told at the table of ``ctx``.
export function saysOf(ctx) {
  const names = namesOf(ctx);
  return (s, phrase) => said(names(s), phrase, s === ctx.seat && s !== null && s !== undefined);
}
