// The README's browser matrix is kept true by the suite: each run records the engine versions
// it drove and the scenario areas that passed in each, and writes them to
// .test-output/engines/matrix.json; the README check (scenarios/zz-readme.js) compares the
// README's table with what the engines report.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const versions = {};
const areas = {};

function engineVersion(engine, version) {
  versions[engine] = version;
}

function covered(engine, scenario) {
  (areas[engine] = areas[engine] || new Set()).add(scenario.file.replace(/^\d+-/, "").replace(/\.js$/, ""));
}

function write(dir) {
  const result = {};
  for (const engine of Object.keys(versions)) result[engine] = { version: versions[engine], passed: [...(areas[engine] || [])].sort() };
  fs.writeFileSync(path.join(dir, "matrix.json"), JSON.stringify(result, null, 2) + "\n");
}

// The major.minor the README names: "156", "153.7", "2.50".
function shortVersion(engine, version) {
  if (!version) return null;
  const [major, minor] = version.split(".");
  return engine === "chromium" ? major : `${major}.${minor}`;
}

module.exports = { engineVersion, covered, write, shortVersion, versions };
