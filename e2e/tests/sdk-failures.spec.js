// Never break the shop (issue 6, docs/adr/0024): when the backend is down, answers 500,
// answers after the SDK's timeout or answers malformed JSON, or when WebAssembly is not
// available, the widgets are hidden, nothing is thrown into the page, the SDK warns at most
// once per cause and the rest of the page is what the shop made of it.
//
// The misbehaving backend is real: a small HTTP server in this file stands in front of the
// real svc-server (it forwards the Host header, so the loader points the SDK at it) and
// breaks only the requests a test names. "Down" sends the content request to a closed port.
const { test, expect } = require("@playwright/test");
const http = require("node:http");

const upstream = () => new URL(process.env.SVC_BASE_URL);
const sku = () => process.env.SVC_FIRST_SKU;

let server;
let base;
let closedPort;
let breakWith = null;  // what the next requests get: null (forwarded), "500", "slow", "malformed", "down", "no-wasm"
let heldAnswers = [];  // "slow": content requests held until the test sends them, after the SDK gave up

function forward(request, response) {
  const target = upstream();
  // Without "br": svc-server compresses brotli at the highest quality per request, which costs
  // seconds for the demo shop's shop.json; gzip keeps these tests quick.
  const headers = { ...request.headers, "accept-encoding": "gzip" };
  const outgoing = http.request({ host: target.hostname, port: target.port, path: request.url, method: request.method,
                                  headers }, (answer) => {
    response.writeHead(answer.statusCode, answer.headers);
    answer.pipe(response);
  });
  outgoing.on("error", () => response.destroy());
  request.pipe(outgoing);
}

test.beforeAll(async () => {
  // A port that was free a moment ago and is closed now: nothing listens there.
  const probe = http.createServer();
  await new Promise((resolve) => probe.listen(0, "127.0.0.1", resolve));
  closedPort = probe.address().port;
  await new Promise((resolve) => probe.close(resolve));

  server = http.createServer((request, response) => {
    const isContent = /^\/[^/]+\/content\?/.test(request.url);
    if (isContent && breakWith === "500") {
      response.writeHead(500, { "content-type": "application/json", "access-control-allow-origin": "*" });
      return response.end('{"error":{"code":"internal","message":"unexpected failure"}}');
    }
    if (isContent && breakWith === "malformed") {
      response.writeHead(200, { "content-type": "application/json", "access-control-allow-origin": "*" });
      return response.end('{"currency":"EUR","locale":"de-DE","widgets":[{"items":[{"sku":"A"');
    }
    if (isContent && breakWith === "down") {
      response.writeHead(307, { location: `http://127.0.0.1:${closedPort}${request.url}` });
      return response.end();
    }
    if (/^\/sdk\/([0-9a-f]{16}\/)?sdk\.wasm/.test(request.url) && breakWith === "no-wasm") {
      response.writeHead(404, { "content-type": "text/plain" });
      return response.end("not found");
    }
    if (request.url.startsWith("/demo/product.html") && breakWith === "service-down") {
      // The shop's page as served, its snippet pointing at the closed port.
      const target = upstream();
      return http.get({ host: target.hostname, port: target.port, path: request.url, headers: { host: request.headers.host } }, (answer) => {
        let html = "";
        answer.setEncoding("utf8");
        answer.on("data", (chunk) => { html += chunk; });
        answer.on("end", () => {
          response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
          response.end(html.replace(base + '","', `http://127.0.0.1:${closedPort}","`));
        });
      });
    }
    if (isContent && breakWith === "slow") {
      // The real answer, held until the page has given up on it (its own 3 s bound, however long a
      // busy machine makes that), then sent after all (the SDK may have closed the connection by then).
      heldAnswers.push(() => new Promise((resolve) => {
        if (response.destroyed || response.writableFinished) return resolve();  // the page closed it meanwhile
        response.on("close", resolve);
        forward(request, response);
      }));
      return;
    }
    forward(request, response);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${server.address().port}`;
});

test.afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

test.beforeEach(() => {
  breakWith = null;
  heldAnswers = [];
});

// Opens the product page through the misbehaving server and records what the shop would see.
async function openProductPage(page) {
  const seen = { errors: [], warnings: [] };
  page.on("pageerror", (error) => seen.errors.push(String(error)));
  page.on("console", (message) => {
    if (message.type() === "warning" && message.text().startsWith("[svc]")) seen.warnings.push(message.text());
  });
  await page.goto(base + "/demo/product.html?sku=" + encodeURIComponent(sku()));
  // The shop's own rendering is done when its product name is shown.
  await expect(page.locator("#product-name")).not.toHaveText("…");
  return seen;
}

// The page outside the widget containers, as the shop rendered it.
function shopMarkup(page) {
  return page.evaluate(() => {
    const body = document.body.cloneNode(true);
    body.querySelectorAll(".-svc-widget-container").forEach((container) => container.remove());
    return body.innerHTML;
  });
}

async function expectWidgetsHidden(page, state) {
  for (const id of ["#set-container", "#similar-container"]) await expect(page.locator(id)).toBeHidden({ timeout: 8000 });
  for (const id of ["#set-widget", "#similar-widget"]) {
    await expect(page.locator(id)).toHaveAttribute("data-svc-state", state);
    await expect(page.locator(id)).toBeEmpty();
  }
}

let healthyMarkup;
test("reference: with a working backend both widgets render", async ({ page }) => {
  const seen = await openProductPage(page);
  await expect(page.locator("#similar-widget")).toHaveAttribute("data-svc-state", "rendered");
  await expect(page.locator("#similar-container")).toBeVisible();
  healthyMarkup = await shopMarkup(page);
  expect(seen.errors).toEqual([]);
  expect(seen.warnings).toEqual([]);
});

const causes = [
  { name: "a 500 answer", mode: "500", warning: /^\[svc\] content request failed \(HTTP 500\); widgets hidden$/ },
  { name: "malformed JSON", mode: "malformed", warning: /^\[svc\] content unavailable \(.+\)/ },
  { name: "the backend down (content request to a closed port)", mode: "down",
    warning: /^\[svc\] content request failed \(backend unreachable\); widgets hidden$/ },
];
for (const cause of causes) {
  test(`${cause.name}: widgets hidden, one warning, no error, the shop's page untouched`, async ({ page }) => {
    breakWith = cause.mode;
    const seen = await openProductPage(page);
    await expectWidgetsHidden(page, "failed");
    await page.waitForTimeout(300);
    expect(seen.errors).toEqual([]);
    expect(seen.warnings).toHaveLength(1);
    expect(seen.warnings[0]).toMatch(cause.warning);
    if (healthyMarkup) expect(await shopMarkup(page)).toBe(healthyMarkup);
    // The shop still works: its own add-to-cart is untouched by the SDK's failure.
    await page.evaluate(() => window._svc_shop_plugin.addToCart("X-1", 1, Promise));
    await expect(page.locator("#cart-count")).toHaveText("Cart: 1");
  });
}

test("a slow backend: hidden after the SDK's timeout, and the late answer changes nothing", async ({ page }) => {
  breakWith = "slow";
  const seen = await openProductPage(page);
  await expectWidgetsHidden(page, "failed");
  expect(heldAnswers.length).toBe(1);
  await Promise.all(heldAnswers.map((send) => send()));  // the real content, sent after all, too late
  await page.waitForTimeout(500);  // absence: a late answer taken would have rendered by now
  await expectWidgetsHidden(page, "failed");
  expect(seen.errors).toEqual([]);
  expect(seen.warnings).toEqual(["[svc] content request timed out after 3000 ms; widgets hidden"]);
});

test("no WebAssembly in the browser: widgets hidden with one warning, no error", async ({ page }) => {
  await page.addInitScript(() => { delete window.WebAssembly; });
  const seen = await openProductPage(page);
  await expectWidgetsHidden(page, "failed");
  await page.waitForTimeout(300);
  expect(seen.errors).toEqual([]);
  expect(seen.warnings).toEqual(["[svc] WebAssembly is not available in this browser; widgets are hidden"]);
});

test("the SDK's .wasm cannot be loaded: widgets hidden with one warning, no uncaught rejection", async ({ page }) => {
  breakWith = "no-wasm";
  const seen = await openProductPage(page);
  await expectWidgetsHidden(page, "failed");
  await page.waitForTimeout(300);
  expect(seen.errors).toEqual([]);
  expect(seen.warnings).toEqual(["[svc] the SDK's WebAssembly module could not be loaded; widgets are hidden"]);
  // Without the core there is no _svc API to speak of, but calling it throws nothing.
  expect(await page.evaluate(() => { window._svc.initCSE(); window._svc.updateWidgetSku("SET", "X"); return "ok"; })).toBe("ok");
});

test("the whole service unreachable (the loader's host is a closed port): containers hidden, the shop's page works, nothing is thrown", async ({ page }) => {
  breakWith = "service-down";
  const seen = await openProductPage(page);
  expect(await page.evaluate(() => document.querySelector("script[data-svc-loader]").src))
    .toBe(`http://127.0.0.1:${closedPort}/${process.env.SVC_API_ID}/loader.js`);
  await page.waitForTimeout(300);
  expect(seen.errors).toEqual([]);
  expect(seen.warnings).toEqual([]);
  // Nothing of svc ran: the snippet hid the containers for the page view, no headline stands above
  // nothing (docs/integration.md, docs/adr/0071); the widgets stay empty.
  await expect(page.locator("#similar-widget")).toBeEmpty();
  for (const id of ["#set-container", "#similar-container"]) await expect(page.locator(id)).toBeHidden();
  await expect(page.locator("#similar-widget")).toHaveAttribute("data-svc-state", "failed");
  expect(await page.evaluate(() => typeof window.svclytics)).toBe("function");  // the snippet's queue still takes calls
  if (healthyMarkup) expect(await shopMarkup(page)).toBe(healthyMarkup);
});
