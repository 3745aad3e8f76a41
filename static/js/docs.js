// Swagger UI for /docs (a file, not inline script, so the Content-Security-Policy holds).
// Without deep links: they put a link inside each operation's toggle button, a control inside a
// control that keyboards and screen readers trip on.
window.SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: false });
