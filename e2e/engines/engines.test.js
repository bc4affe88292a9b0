// The shop-facing contract in three engines (issue 22, docs/adr/0076): the same scenarios
// (engines/scenarios/) run in Chromium, Firefox ESR and WebKitGTK, one engine after the other,
// against one real svc-server and a shop served from another origin.
//   cd e2e && node --test engines/            SVC_ENGINES=webkit,firefox  SVC_SCENARIO=<regex>
// A missing browser skips its engine with the reason; under CI=true it fails instead, since
// scripts/install-deps.sh installs all three. Screenshots go to .test-output/engines/.
"use strict";
const { describe, test, before, after } = require("node:test");
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const globalSetup = require("../global-setup.js");
const { ShopServer } = require("./ShopServer");
const { PuppeteerEngine } = require("./drivers/puppeteer");
const { WebKitEngine } = require("./drivers/webkit");
const { freePort } = require("../support/freePort");
const { hostileTenant } = require("./hostileTenant");
const matrix = require("./matrix");

const ENGINES = [
  { name: "chromium", make: () => new PuppeteerEngine("chromium"), missing: () => PuppeteerEngine.available("chromium") },
  { name: "firefox", make: () => new PuppeteerEngine("firefox"), missing: () => PuppeteerEngine.available("firefox") },
  { name: "webkit", make: () => new WebKitEngine(), missing: () => WebKitEngine.available() },
];
const chosenEngines = (process.env.SVC_ENGINES || "chromium,firefox,webkit").split(",");
const chosenScenario = process.env.SVC_SCENARIO ? new RegExp(process.env.SVC_SCENARIO) : null;
const SCENARIOS = fs.readdirSync(path.join(__dirname, "scenarios")).filter((file) => file.endsWith(".js")).sort()
  .flatMap((file) => require(path.join(__dirname, "scenarios", file)).map((scenario) => ({ ...scenario, file })))
  .filter((scenario) => !chosenScenario || chosenScenario.test(scenario.name));

const artifacts = path.resolve(__dirname, "..", "..", ".test-output", "engines");
const context = {};
let stopServer;
let shop;

before(async () => {
  fs.mkdirSync(artifacts, { recursive: true });
  stopServer = await globalSetup();
  const deadPort = await freePort();  // nothing listens there: svc unreachable
  context.svcBase = process.env.SVC_BASE_URL;
  context.apiId = process.env.SVC_API_ID;
  context.firstSku = process.env.SVC_FIRST_SKU;
  context.dataDir = process.env.SVC_DATA_DIR;
  context.hostile = hostileTenant(context.dataDir);
  shop = new ShopServer({ svcBase: context.svcBase, apiId: context.apiId, dataDir: context.dataDir, deadBase: `http://127.0.0.1:${deadPort}` });
  await shop.start();
  context.shopOrigin = shop.origin;
  context.otherSite = shop.otherSite;
  // A shop URL: `file` under the shop's root, `params` as its query (sku, plugin, svc, tenant, ...).
  context.shop = (file, params = {}) => {
    const query = new URLSearchParams(params).toString();
    return `${shop.origin}${file}${query ? "?" + query : ""}`;
  };
  context.artifacts = artifacts;
  // The server's own record of what the browser sent (its events file, read with sqlite3).
  context.storedEvents = (where) => {
    const out = execFileSync("sqlite3", ["-json", path.join(context.dataDir, "events.sqlite3"),
      `SELECT type, cid, sid, order_id, widget, touchpoint, sku, test_group FROM events WHERE ${where} ORDER BY sequence`],
      { encoding: "utf8" });
    return out.trim() ? JSON.parse(out) : [];
  };
});

after(async () => {
  if (shop) await shop.stop();
  if (stopServer) await stopServer();
  matrix.write(artifacts);
});

for (const entry of ENGINES.filter((engine) => chosenEngines.includes(engine.name))) {
  describe(entry.name, () => {
    const missing = entry.missing();
    const engine = missing ? null : entry.make();
    // Under CI a missing browser is a failure: install-deps.sh installs every engine.
    const skip = missing && process.env.CI !== "true" ? `${entry.name}: ${missing}` : false;

    before(async () => {
      if (missing && !skip) throw new Error(`${entry.name}: ${missing}`);
      if (engine) {
        await engine.start();
        matrix.engineVersion(entry.name, engine.version);
      }
    });
    after(async () => {
      if (engine) await engine.stop();
    });

    for (const scenario of SCENARIOS) {
      test(scenario.name, { skip, timeout: 60_000 }, async () => {
        const session = await engine.newSession({ phone: Boolean(scenario.phone) });
        try {
          await scenario.run(session, { ...context, engine: entry.name, engineVersion: engine.version });
          matrix.covered(entry.name, scenario);
        } finally {
          await session.close();
        }
      });
    }
  });
}
