// The games' descriptions, handed over by the page in a data attribute (no inline script, so the
// Content-Security-Policy can forbid it). Loaded before the page's modules.
window.PARLOUR_GAMES = JSON.parse(document.body.dataset.games);
