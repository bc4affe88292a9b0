// A shop of its own for the shop-page specs: a real HTTP server on another port than svc (so
// another origin, as every real shop is), serving the pages a test writes, with the snippet
// exactly as docs/integration.md documents it. Nothing of svc is stood in for.
const http = require("node:http");
const fs = require("node:fs");
const path = require("node:path");

// The snippet from the integration guide, with the shop's values filled in: what a shop copies.
function documentedSnippet(sdkUrl, apiId) {
  const guide = fs.readFileSync(path.join(__dirname, "..", "..", "docs", "integration.md"), "utf8");
  const block = guide.match(/## 1\. The snippet[\s\S]*?```html\n([\s\S]*?)```/);
  if (!block) throw new Error("docs/integration.md: no snippet under '## 1. The snippet'");
  return block[1].replace('"SDK_URL"', JSON.stringify(sdkUrl)).replace('"API_ID"', JSON.stringify(apiId));
}

// A page: the snippet first in <head>, then `head`, then `body`.
function shopPage({ sdkUrl, apiId, head = "", body }) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">${documentedSnippet(sdkUrl, apiId)}` +
         `<title>A shop</title>${head}</head><body><h1 id="shop-title">A shop</h1>${body}</body></html>`;
}

// Serves `pages` (path -> HTML) on a free loopback port. Returns { origin, pages, close }.
async function startShop(pages = {}) {
  const server = http.createServer((request, response) => {
    const html = pages[new URL(request.url, "http://shop").pathname];
    if (html === undefined) {
      response.writeHead(404, { "content-type": "text/plain" });
      return response.end("not found");
    }
    response.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    response.end(html);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    pages,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

// A loopback port that was free a moment ago and is closed now: svc stopped.
async function closedPort() {
  const probe = http.createServer();
  await new Promise((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = probe.address().port;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

module.exports = { documentedSnippet, shopPage, startShop, closedPort };
