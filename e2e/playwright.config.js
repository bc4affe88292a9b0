// Playwright drives Debian's Chromium (Playwright cannot download browsers here)
// against a real svc-server started by global-setup.js on a free port.
const { defineConfig } = require("@playwright/test");

module.exports = defineConfig({
  testDir: "tests",
  timeout: 30_000,
  retries: 0,
  workers: 2,
  reporter: [["list"], ["json", { outputFile: "../.test-output/e2e-results.json" }]],
  globalSetup: require.resolve("./global-setup.js"),
  use: {
    browserName: "chromium",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
             "--disable-component-update", "--disable-sync"],
    },
  },
});
