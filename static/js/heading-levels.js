// The API documents (/docs, /redoc) are drawn by vendored Swagger UI and ReDoc, whose headings skip
// levels (a page's h1 followed by h3s; h2 then h5). As they are drawn, each heading is told to
// assistive technology (aria-level) at most one level below the heading it falls under.
function orderHeadings() {
  const open = [];  // the headings a new one may fall under: [its own level, its level as told]
  for (const h of document.querySelectorAll("h1, h2, h3, h4, h5, h6")) {
    const own = Number(h.tagName[1]);
    while (open.length && open[open.length - 1][0] >= own) open.pop();
    const told = open.length ? open[open.length - 1][1] + 1 : 1;
    if (told === own) h.removeAttribute("aria-level");
    else h.setAttribute("aria-level", String(told));
    open.push([own, told]);
  }
}
new MutationObserver(orderHeadings).observe(document.body, { childList: true, subtree: true });
orderHeadings();
