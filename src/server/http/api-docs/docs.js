// Starts the API viewer (Swagger UI, served from this server) on the document this server generates.
// A file of its own, not inline: the page's Content-Security-Policy allows only scripts from this server.
window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  // No badge fetched from validator.swagger.io: nothing leaves this server.
  validatorUrl: null,
  tryItOutEnabled: false,
  // Tags closed at first: with every section open, Swagger UI 5.35 stopped drawing a document of 135 calls or
  // more after its first ten (no error anywhere); one section open at a time draws each whole.
  docExpansion: 'none',
});
