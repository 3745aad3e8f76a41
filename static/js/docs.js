// Swagger UI for /docs (a file, not inline script, so the Content-Security-Policy holds).
window.SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true });
