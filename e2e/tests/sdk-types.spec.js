// The SDK's TypeScript declarations (issue 25, docs/adr/0082): the svc.d.ts the real server
// serves is the one in wasm-sdk/, and `tsc --strict` (the typescript pinned in package.json)
// accepts a shop's integration code that uses every documented call (e2e/types/integration-example.ts)
// and refuses the mistakes in e2e/types/misuse.ts. A declaration that goes missing fails the
// first check; one that turns too loose fails the second.
const { test, expect } = require("@playwright/test");
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const repo = path.resolve(__dirname, "..", "..");
const tsc = require.resolve("typescript/bin/tsc");

function check(dir, files) {
  fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, target: "ES2020", lib: ["ES2020", "DOM"], types: [] },
    files,
  }));
  try {
    execFileSync(process.execPath, [tsc, "-p", dir], { encoding: "utf8" });
    return "";
  } catch (error) {
    return error.stdout + error.stderr;
  }
}

test("svc.d.ts is served beside the SDK and tsc --strict checks shop code against it", async ({ request }) => {
  const response = await request.get(process.env.SVC_BASE_URL + "/sdk/svc.d.ts");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toBe("text/plain; charset=utf-8");
  expect(response.headers()["access-control-allow-origin"]).toBe("*");
  const served = await response.text();
  expect(served).toBe(fs.readFileSync(path.join(repo, "wasm-sdk", "svc.d.ts"), "utf8"));

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-types-"));
  try {
    fs.writeFileSync(path.join(dir, "svc.d.ts"), served);
    for (const name of ["integration-example.ts", "misuse.ts"]) {
      fs.copyFileSync(path.join(repo, "e2e", "types", name), path.join(dir, name));
    }
    expect(check(dir, ["svc.d.ts", "integration-example.ts"])).toBe("");
    expect(check(dir, ["svc.d.ts", "misuse.ts"])).toBe("");
    // Without the declarations the example is not TypeScript a shop could build: the check bites.
    expect(check(dir, ["integration-example.ts"])).toMatch(/error TS2339: Property '_svc_config' does not exist/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("the documented calls are the ones the example uses", () => {
  // Every name of docs/integration.md's TypeScript table appears in the example integration code.
  const guide = fs.readFileSync(path.join(repo, "docs", "integration.md"), "utf8");
  const section = guide.match(/### TypeScript\n([\s\S]*?)\n## /);
  expect(section, "docs/integration.md has a TypeScript section").toBeTruthy();
  const names = [...section[1].matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]);
  expect(names.length).toBeGreaterThan(10);
  const example = fs.readFileSync(path.join(repo, "e2e", "types", "integration-example.ts"), "utf8");
  // The member itself: `_svc.updateWidgetSku(widgetId, sku)` is used as `_svc?.updateWidgetSku(...)`.
  for (const name of names) expect(example, name).toContain(name.replace(/\(.*$/, "").split(".").pop());
});
