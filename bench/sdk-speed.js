#!/usr/bin/env node
// The SDK's speed in Chromium, Firefox ESR and WebKitGTK (issues 6, 22), run by hand:
//   node bench/sdk-speed.js [--runs 10] [--engines chromium,firefox,webkit] [--cpu-throttle 4 (Chromium only)]
// Starts a real svc-server on a fresh demo data dir and the shop on its own origin (the drivers
// and shop server of e2e/engines), and opens the demo shop's pages in each engine, each page with
// the SDK and, as the baseline of the same run, without it (the snippet names an svc that does
// not answer, so the page is what the shop has on its own). Prints per engine:
//   - content arrival to rendered widgets (the SDK's "svc:render" measure)   target < 50 ms
//   - the longest main-thread task (PerformanceObserver longtask)             target: none over 50 ms from the SDK
//   - layout shift (PerformanceObserver layout-shift, summed)                 target: 0 caused by widgets
// An engine that does not expose a measurement says so (PerformanceObserver.supportedEntryTypes):
// Firefox and WebKit have User Timing but neither layout-shift nor longtask entries.
// Figures are medians (and maxima) over the runs; timings on a shared machine are noisy, so
// compare the two columns of one run rather than runs with each other.
"use strict";
const path = require("node:path");

const repoRoot = path.resolve(__dirname, "..");
const engines = path.join(repoRoot, "e2e", "engines");
const globalSetup = require(path.join(repoRoot, "e2e", "global-setup.js"));
const { ShopServer } = require(path.join(engines, "ShopServer.js"));
const { PuppeteerEngine } = require(path.join(engines, "drivers", "puppeteer.js"));
const { WebKitEngine } = require(path.join(engines, "drivers", "webkit.js"));
const { freePort } = require(path.join(engines, "freePort.js"));

function option(name, fallback) {
  const at = process.argv.indexOf("--" + name);
  return at > 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
}
const runs = Number(option("runs", "10"));
const cpuThrottle = Number(option("cpu-throttle", "1"));
const engineNames = option("engines", "chromium,firefox,webkit").split(",");
if (option("server", null)) process.env.SVC_SERVER = option("server", null);

// Installed before any page script: what the page's observers see, from the start.
function observePage() {
  var types = (typeof PerformanceObserver === "function" && PerformanceObserver.supportedEntryTypes) || [];
  window.__bench = { longTasks: [], shifts: [], exposes: { longtask: types.includes("longtask"), layoutShift: types.includes("layout-shift") } };
  try {
    new PerformanceObserver((list) => list.getEntries().forEach((entry) => {
      window.__bench.longTasks.push({ start: entry.startTime, duration: entry.duration });
    })).observe({ type: "longtask", buffered: true });
    // A widget that grows or disappears can move only what follows it in the page (normal
    // flow): a shift whose moved elements all precede every widget is the shop's own.
    const followsWidget = (node) => [...document.querySelectorAll("[data-svc-widget-id]")].some((widget) =>
      !widget.contains(node) && (widget.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING));
    new PerformanceObserver((list) => list.getEntries().forEach((entry) => {
      if (entry.hadRecentInput) return;
      const nodes = (entry.sources || []).map((source) => source.node).filter((node) => node && node.nodeType === 1);
      const sources = nodes.map((node) => node.tagName.toLowerCase() + (node.id ? "#" + node.id : ""));
      window.__bench.shifts.push({ value: entry.value, at: entry.startTime, sources, afterWidget: nodes.some(followsWidget) });
    })).observe({ type: "layout-shift", buffered: true });
  } catch (ignored) {}
}

async function measure(engine, url, withSdk, prepare) {
  const session = await engine.newSession();
  try {
    if (cpuThrottle > 1 && session.page) await session.page.emulateCPUThrottling(cpuThrottle);
    if (prepare) await prepare(session);
    const started = Date.now();
    await session.go(withSdk ? url : url + (url.includes("?") ? "&" : "?") + "svc=down");
    if (withSdk) await session.settled(15000);  // every widget claimed and answered
    else await session.waitFor(() => document.readyState === "complete");
    await new Promise((resolve) => setTimeout(resolve, 600));  // late shifts and tasks are part of the figure
    const result = await session.eval(() => ({
      renders: performance.getEntriesByName("svc:render").map((entry) => entry.duration),
      // The SDK's own synchronous chunks (js/api.js): start, first scan, renders, refreshes.
      sdkWork: performance.getEntriesByType("measure").filter((entry) => entry.name.startsWith("svc:"))
        .map((entry) => ({ name: entry.name, start: entry.startTime, duration: entry.duration })),
      longTasks: window.__bench.longTasks,
      shifts: window.__bench.shifts,
      exposes: window.__bench.exposes,
      widgets: document.querySelectorAll("[data-svc-state=rendered]").length,
    }));
    result.wallMs = Date.now() - started;
    return result;
  } finally {
    await session.close();
  }
}

const median = (values) => {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const max = (values) => (values.length ? Math.max(...values) : 0);
const sum = (values) => values.reduce((total, value) => total + value, 0);
const fixed = (value, digits = 1) => value.toFixed(digits);

async function main() {
  const stopServer = await globalSetup();
  const baseUrl = process.env.SVC_BASE_URL;
  const apiId = process.env.SVC_API_ID;
  const firstSku = process.env.SVC_FIRST_SKU;
  const shop = new ShopServer({ svcBase: baseUrl, apiId, dataDir: process.env.SVC_DATA_DIR,
                                deadBase: `http://127.0.0.1:${await freePort()}`, firstInHead: `(${observePage})();` });
  await shop.start();
  // A product of the demo's custom set: the content page's SET-Custom by SKU has a set to show.
  const lookProduct = await (await fetch(baseUrl + "/graphql", {
    method: "POST", headers: { "content-type": "application/json", "x-api-id": apiId },
    body: JSON.stringify({ query: '{ customSet(id: "demo-look-city") { products { id } } }' }),
  })).json();
  const lookSku = lookProduct.data.customSet.products[0].id;
  const shopUrl = (file) => shop.origin + file;
  // The cart page shows what the shop's cart (session storage of the shop's origin) holds.
  const cart = (sku) => async (session) => {
    await session.go(shopUrl("/demo/shop.json"));
    await session.eval((line) => sessionStorage.setItem("demo-cart", JSON.stringify({ [line]: 1 })), sku);
  };
  const pages = [
    { name: "product (SET, SIMILAR)", url: `${shop.origin}/demo/product.html?sku=${firstSku}` },
    { name: "home (SET-Custom)", url: `${shop.origin}/demo/` },
    { name: "content (2 x SET-Custom)", url: `${shop.origin}/demo/content.html?sku=${lookSku}` },
    { name: "cart (SET, SIMILAR)", url: `${shop.origin}/demo/cart.html`, prepare: cart(firstSku) },
    { name: "single-page app", url: `${shop.origin}/demo/spa.html?sku=${firstSku}` },
    { name: "demo mode (SET-Compose)", url: `${shop.origin}/demo/demo.html?svc-demo=true` },
  ];
  try {
    for (const name of engineNames) {
      const engine = name === "webkit" ? new WebKitEngine() : new PuppeteerEngine(name);
      await engine.start();
      try {
        report(name, engine.version, await measureEngine(engine, pages));
      } finally {
        await engine.stop();
      }
    }
  } finally {
    await shop.stop();
    await stopServer();
  }
}

async function measureEngine(engine, pages) {
  const rows = [];
  for (const entry of pages) {
    const prepare = entry.prepare;  // a script run before the page's own
    const withSdk = [];
    const without = [];
    // Interleaved, so that machine noise hits both columns alike.
    for (let run = 0; run < runs; run++) {
      withSdk.push(await measure(engine, entry.url, true, prepare));
      without.push(await measure(engine, entry.url, false, prepare));
    }
    // Demo mode has no content request: its widgets render within the first scan.
    const renders = withSdk.map((result) => max(result.renders.length ? result.renders
      : result.sdkWork.filter((work) => work.name === "svc:scan").map((work) => work.duration)));
    const longest = (results) => results.map((result) => max(result.longTasks.map((task) => task.duration)));
    // A long task is the SDK's when one of the SDK's measured chunks lies inside it.
    const sdkLongest = withSdk.map((result) => max(result.longTasks.filter((task) => result.sdkWork.some((work) =>
      work.start >= task.start - 1 && work.start + work.duration <= task.start + task.duration + 1)).map((task) => task.duration)));
    const sdkChunk = withSdk.map((result) => max(result.sdkWork.map((work) => work.duration)));
    const shift = (results) => results.map((result) => sum(result.shifts.map((item) => item.value)));
    // Caused by widgets: a shift of elements after a widget in the frame after the SDK changed
    // the page (rendered, hid or re-rendered widgets), within 100 ms of that change.
    const causedByWidgets = withSdk.map((result) => sum(result.shifts.filter((item) => item.afterWidget &&
      result.sdkWork.some((work) => work.name !== "svc:start" && item.at >= work.start + work.duration - 1 &&
                                    item.at <= work.start + work.duration + 100)).map((item) => item.value)));
    const chunkNames = withSdk.flatMap((result) => result.sdkWork).sort((a, b) => b.duration - a.duration);
    rows.push({
      page: entry.name,
      widgets: median(withSdk.map((result) => result.widgets)),
      renderMedian: median(renders), renderMax: max(renders),
      taskWith: max(longest(withSdk)), taskWithout: max(longest(without)), taskSdk: max(sdkLongest), chunkSdk: max(sdkChunk), chunkName: chunkNames.length ? chunkNames[0].name : "",
      shiftWith: max(shift(withSdk)), shiftWithout: max(shift(without)), shiftByWidgets: max(causedByWidgets),
      shiftSources: [...new Set(withSdk.flatMap((result) => result.shifts.flatMap((item) => item.sources)))],
      exposes: withSdk[0].exposes,
    });
  }
  return rows;
}

function report(engine, version, rows) {
  const exposes = rows[0].exposes;
  console.log(`\n== SDK speed in ${engine} ${version}: ${runs} runs per page` +
              `${cpuThrottle > 1 && engine === "chromium" ? `, CPU slowed down ${cpuThrottle}x` : ""}`);
  console.log("\ncontent arrival -> rendered widgets (ms; target < 50)");
  for (const row of rows) {
    console.log(`  ${row.page.padEnd(26)} widgets ${String(row.widgets).padStart(2)}   median ${fixed(row.renderMedian, 2).padStart(6)}   max ${fixed(row.renderMax, 2).padStart(6)}`);
  }
  if (!exposes.longtask) {
    console.log(`\nlongest main-thread task: ${engine} does not expose long tasks; the SDK's longest chunk (User Timing), ms:`);
    for (const row of rows) console.log(`  ${row.page.padEnd(26)} ${fixed(row.chunkSdk)} ${row.chunkName}`);
  } else {
    console.log("\nlongest main-thread task (ms; target: none over 50 caused by the SDK)");
    console.log("  " + "".padEnd(26) + " SDK's longest chunk | long task holding SDK work | any long task with the SDK | baseline without it");
    for (const row of rows) {
      console.log(`  ${row.page.padEnd(26)} ${(fixed(row.chunkSdk) + " " + row.chunkName).padStart(19)} | ${fixed(row.taskSdk).padStart(26)} | ` +
                  `${fixed(row.taskWith).padStart(26)} | ${fixed(row.taskWithout).padStart(6)}`);
    }
  }
  if (!exposes.layoutShift) {
    console.log(`\nlayout shift: ${engine} does not expose layout-shift entries (no Layout Instability API)`);
    return;
  }
  console.log("\nlayout shift, largest sum of a run (target 0 caused by widgets) - with the SDK | baseline | caused by widgets");
  for (const row of rows) {
    console.log(`  ${row.page.padEnd(26)} ${fixed(row.shiftWith, 4).padStart(7)} | ${fixed(row.shiftWithout, 4).padStart(7)} | ${fixed(row.shiftByWidgets, 4).padStart(7)}` +
                (row.shiftSources.length ? `   moved: ${row.shiftSources.join(", ")}` : ""));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
