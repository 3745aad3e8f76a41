// The games' descriptions, handed over by the page in a data attribute (no inline script, so the
// Content-Security-Policy can forbid it). Loaded before the page's modules.
window.PARLOUR_GAMES = JSON.parse(document.body.dataset.games);

// The menu button (shown on narrow screens): opens and closes the site navigation.
const menuToggle = document.querySelector(".menu-toggle");
menuToggle?.addEventListener("click", () => {
  const open = menuToggle.getAttribute("aria-expanded") !== "true";
  menuToggle.setAttribute("aria-expanded", String(open));
  menuToggle.closest(".topbar").classList.toggle("open", open);
});
