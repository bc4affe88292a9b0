// The SDK's size budget (issue 6, docs/adr/0018): what a shop's visitor downloads, as
// served by the real server, gzipped at level 9. The loader's own check is in
// similar-widget.spec.js.
const { test, expect } = require("@playwright/test");
const zlib = require("node:zlib");

const base = () => process.env.SVC_BASE_URL;

test("sdk.js + sdk.wasm stay within 50 KB gzipped", async ({ request }) => {
  const sizes = {};
  for (const file of ["sdk.js", "sdk.wasm"]) {
    const response = await request.get(base() + "/sdk/" + file);
    expect(response.status(), file).toBe(200);
    const body = await response.body();
    sizes[file] = { raw: body.length, gzipped: zlib.gzipSync(body, { level: 9 }).length };
  }
  console.log("SDK size:", JSON.stringify(sizes));
  expect(sizes["sdk.js"].gzipped + sizes["sdk.wasm"].gzipped).toBeLessThanOrEqual(50 * 1024);
});
