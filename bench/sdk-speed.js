#!/usr/bin/env node
// The SDK's speed in Chromium (issue 6), run by hand:
//   node bench/sdk-speed.js [--runs 10] [--cpu-throttle 4] [--server build/bin/svc-server]
// Starts a real svc-server on a fresh demo data dir and opens the demo shop's pages in
// Debian's Chromium, each page with the SDK and, as the baseline of the same run, without it
// (the loader request is refused, so the page is exactly what the shop has on its own). Prints:
//   - content arrival to rendered widgets (the SDK's "svc:render" measure)   target < 50 ms
//   - the longest main-thread task (PerformanceObserver longtask)             target: none over 50 ms from the SDK
//   - layout shift (PerformanceObserver layout-shift, summed)                 target: 0 caused by widgets
// Figures are medians (and maxima) over the runs; timings on a shared machine are noisy, so
// compare the two columns of one run rather than runs with each other.
"use strict";
const { spawn, execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const repoRoot = path.resolve(__dirname, "..");
const { chromium } = require(path.join(repoRoot, "e2e", "node_modules", "@playwright/test"));

function option(name, fallback) {
  const at = process.argv.indexOf("--" + name);
  return at > 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
}
const runs = Number(option("runs", "10"));
const cpuThrottle = Number(option("cpu-throttle", "1"));
const serverBinary = option("server", process.env.SVC_SERVER || path.join(repoRoot, "build", "bin", "svc-server"));

async function startServer() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-bench-sdk-"));
  const setup = JSON.parse(execFileSync(serverBinary, ["demo", "setup", "--data-dir", dataDir], { encoding: "utf8" }));
  const server = spawn(serverBinary, ["serve", "--data-dir", dataDir, "--listen", "127.0.0.1:0"], { stdio: ["ignore", "pipe", "inherit"] });
  const baseUrl = await new Promise((resolve, reject) => {
    let output = "";
    server.stdout.on("data", (chunk) => {
      output += chunk;
      const match = output.match(/listening on (http:\/\/[^\s]+)/);
      if (match) resolve(match[1]);
    });
    server.on("exit", (code) => reject(new Error("svc-server exited with " + code + ": " + output)));
  });
  return { server, dataDir, baseUrl, firstSku: setup.firstSku, apiId: setup.apiId };
}

// Installed before any page script: what the page's observers see, from the start.
function observePage() {
  window.__bench = { longTasks: [], shifts: [] };
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

async function measure(browser, url, withSdk, prepare) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  if (cpuThrottle > 1) {
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: cpuThrottle });
  }
  await page.addInitScript(observePage);
  if (prepare) await page.addInitScript(prepare);
  if (!withSdk) await page.route(/\/loader\.js$/, (route) => route.abort());
  const started = Date.now();
  await page.goto(url, { waitUntil: "load" });
  if (withSdk) {
    // Every widget claimed and answered (rendered, hidden or failed).
    await page.waitForFunction(() => window._svc && window._svc.loaded &&
      document.querySelectorAll("[data-svc-widget-id]").length > 0 &&
      [...document.querySelectorAll("[data-svc-widget-id]")].every((widget) => {
        const state = widget.getAttribute("data-svc-state");
        return state && state !== "loading";
      }), null, { timeout: 15000 });
  }
  await page.waitForTimeout(600);  // late shifts and tasks are part of the figure
  const result = await page.evaluate(() => ({
    renders: performance.getEntriesByName("svc:render").map((entry) => entry.duration),
    // The SDK's own synchronous chunks (js/api.js): start, first scan, renders, refreshes.
    sdkWork: performance.getEntriesByType("measure").filter((entry) => entry.name.startsWith("svc:"))
      .map((entry) => ({ name: entry.name, start: entry.startTime, duration: entry.duration })),
    longTasks: window.__bench.longTasks,
    shifts: window.__bench.shifts,
    widgets: document.querySelectorAll("[data-svc-state=rendered]").length,
  }));
  result.wallMs = Date.now() - started;
  await context.close();
  return result;
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
  const { server, dataDir, baseUrl, firstSku, apiId } = await startServer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
           "--disable-component-update", "--disable-sync"],
  });
  // A product of the demo's custom set: the content page's SET-Custom by SKU has a set to show.
  const lookProduct = await (await fetch(baseUrl + "/graphql", {
    method: "POST", headers: { "content-type": "application/json", "x-api-id": apiId },
    body: JSON.stringify({ query: '{ customSet(id: "demo-look-city") { products { id } } }' }),
  })).json();
  const lookSku = lookProduct.data.customSet.products[0].id;
  const cart = (sku) => `sessionStorage.setItem("demo-cart", JSON.stringify({"${sku}": 1}))`;
  const pages = [
    { name: "product (SET, SIMILAR)", url: `${baseUrl}/demo/product.html?sku=${firstSku}` },
    { name: "home (SET-Custom)", url: `${baseUrl}/demo/` },
    { name: "content (2 x SET-Custom)", url: `${baseUrl}/demo/content.html?sku=${lookSku}` },
    { name: "cart (SET, SIMILAR)", url: `${baseUrl}/demo/cart.html`, prepare: cart(firstSku) },
    { name: "single-page app", url: `${baseUrl}/demo/spa.html?sku=${firstSku}` },
    { name: "demo mode (SET-Compose)", url: `${baseUrl}/demo/demo.html?svc-demo=true` },
  ];
  console.log(`SDK speed in Chromium: ${runs} runs per page${cpuThrottle > 1 ? `, CPU slowed down ${cpuThrottle}x` : ""}`);
  const rows = [];
  try {
    for (const entry of pages) {
      const prepare = entry.prepare;  // a script run before the page's own
      const withSdk = [];
      const without = [];
      // Interleaved, so that machine noise hits both columns alike.
      for (let run = 0; run < runs; run++) {
        withSdk.push(await measure(browser, entry.url, true, prepare));
        without.push(await measure(browser, entry.url, false, prepare));
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
      });
    }
  } finally {
    await browser.close();
    server.kill("SIGTERM");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  console.log("\ncontent arrival -> rendered widgets (ms; target < 50)");
  for (const row of rows) {
    console.log(`  ${row.page.padEnd(26)} widgets ${String(row.widgets).padStart(2)}   median ${fixed(row.renderMedian, 2).padStart(6)}   max ${fixed(row.renderMax, 2).padStart(6)}`);
  }
  console.log("\nlongest main-thread task (ms; target: none over 50 caused by the SDK)");
  console.log("  " + "".padEnd(26) + " SDK's longest chunk | long task holding SDK work | any long task with the SDK | baseline without it");
  for (const row of rows) {
    console.log(`  ${row.page.padEnd(26)} ${(fixed(row.chunkSdk) + " " + row.chunkName).padStart(19)} | ${fixed(row.taskSdk).padStart(26)} | ` +
                `${fixed(row.taskWith).padStart(26)} | ${fixed(row.taskWithout).padStart(6)}`);
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
