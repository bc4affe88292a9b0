// The README's browser matrix names the engine versions this suite drives: a new browser
// version fails here until the README says it was tested.
"use strict";
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { shortVersion } = require("../matrix");

const ROW = { chromium: "Chromium", firefox: "Firefox ESR", webkit: "WebKitGTK" };

module.exports = [
  {
    name: "the README's browser matrix names the version tested here",
    async run(s, ctx) {
      const readme = fs.readFileSync(path.resolve(__dirname, "..", "..", "..", "README.md"), "utf8");
      const row = readme.split("\n").find((line) => line.startsWith(`| ${ROW[ctx.engine]} |`));
      assert.ok(row, `README.md has no browser matrix row "| ${ROW[ctx.engine]} |"`);
      const version = row.split("|")[2].trim();
      assert.equal(version, shortVersion(ctx.engine, ctx.engineVersion), `README.md: ${row}`);
    },
  },
];
