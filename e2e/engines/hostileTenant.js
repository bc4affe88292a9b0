// A second tenant whose feed carries what a careless or hostile feed carries: markup and
// script in names and brands, javascript: deeplinks, and a long brand without a break
// opportunity (a real one: "Maisonlysateliersparisiens" style names exist). Made with the
// real CLI from the demo feed, so its products have real recommendations.
"use strict";
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const serverBinary = process.env.SVC_SERVER || path.resolve(__dirname, "..", "..", "build", "bin", "svc-server");
const XSS_NAME = ` <img src=x onerror="window.__xss=(window.__xss||0)+1"><script>window.__xss=1</script>`;
const XSS_BRAND = `"><svg onload="window.__xss=1">`;
const LONG_BRAND = "Maisonlysateliersparisienshautecouturecollectionautomnehiver";
const FIELDS = { name: 5, deeplink: 8, brand: 11 };

function hostileTenant(dataDir) {
  const cli = (...args) => execFileSync(serverBinary, [...args, "--data-dir", dataDir], { encoding: "utf8" });
  const { apiId } = JSON.parse(cli("tenant", "create", "--name", "Hostile feed shop"));
  const lines = fs.readFileSync(path.join(dataDir, "demo", "feed.csv"), "utf8").split("\n").filter(Boolean);
  const header = lines.shift();
  let firstSku;
  const rows = lines.map((line) => {
    const fields = line.slice(1, -1).split('";"');
    const model = Number(fields[2].replace(/\D/g, ""));
    // Every model gets one kind of trouble, each kind on a third of the catalog.
    if (model % 3 === 0) fields[FIELDS.name] += XSS_NAME;
    if (model % 3 === 1) fields[FIELDS.brand] = LONG_BRAND;
    if (model % 3 === 2) {
      fields[FIELDS.brand] += XSS_BRAND;
      fields[FIELDS.deeplink] = "javascript:window.__xss=1";
    }
    firstSku = firstSku || fields[0];
    return '"' + fields.map((field) => field.replace(/"/g, '""')).join('";"') + '"';
  });
  const feed = path.join(dataDir, "hostile-feed.csv");
  fs.writeFileSync(feed, [header, ...rows].join("\n") + "\n");
  cli("feed", "import", "--api-id", apiId, feed);
  return { apiId, firstSku, longBrand: LONG_BRAND };
}

module.exports = { hostileTenant };
