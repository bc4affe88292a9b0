// The fleet view's page load in Chromium: run `build/bin/bench-fleet --hold 300` first, then
//   node bench/fleet-page.js <console URL it printed> [runs]
// Signs in as bench-fleet's operator and times, per run, navigation to tenants.html until the
// first page's 50 rows are in the table; then a search and the next page (from the click to the
// new rows). Prints the median of each.
const path = require("node:path");
const repoRoot = path.resolve(__dirname, "..");
const { chromium } = require(path.join(repoRoot, "e2e", "node_modules", "@playwright/test"));

async function main() {
  const consoleUrl = process.argv[2];
  const runs = Number(process.argv[3] || 10);
  if (!consoleUrl) throw new Error("usage: node bench/fleet-page.js http://127.0.0.1:PORT/console/ [runs]");
  const origin = new URL(consoleUrl).origin;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium" });
  const page = await browser.newPage();
  const signIn = await page.request.post(origin + "/operator/api/session",
    { data: { email: "bench@svc.example", password: "bench operator password" } });
  if (signIn.status() !== 200) throw new Error("sign-in failed: " + signIn.status());
  const rows = page.locator("#tenant-table tbody tr");
  const times = { load: [], search: [], next: [] };
  for (let i = 0; i < runs + 1; i++) {
    let started = Date.now();
    await page.goto(origin + "/console/tenants.html");
    await rows.nth(49).waitFor();
    const load = Date.now() - started;
    await page.getByLabel("Search by name, API ID or shop domain").fill("shop 004");
    started = Date.now();
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.locator("#list-status").filter({ hasText: "match" }).waitFor();
    const search = Date.now() - started;
    await page.getByLabel("Search by name, API ID or shop domain").fill("");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await rows.nth(49).waitFor();
    started = Date.now();
    await page.getByRole("button", { name: "Next page" }).click();
    await page.locator("#page-status").filter({ hasText: "Page 2 of" }).waitFor();
    const next = Date.now() - started;
    if (i > 0) {  // the first run warms caches
      times.load.push(load);
      times.search.push(search);
      times.next.push(next);
    }
  }
  const median = (list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)];
  console.log("| Step in Chromium | median (ms) |\n|---|---|");
  console.log("| tenants.html to 50 rows shown | " + median(times.load) + " |");
  console.log("| search (click to rows) | " + median(times.search) + " |");
  console.log("| next page (click to rows) | " + median(times.next) + " |");
  await browser.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
