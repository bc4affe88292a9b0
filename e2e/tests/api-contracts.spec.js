// The REST contracts (docs/adr/0084): both documents lint clean with @redocly/cli, every 2xx answer they describe
// has a schema, and the real server's answers match them: every documented GET and the main POSTs, as a shop and an
// operator make them, against the global-setup server with a tenant and a feed of their own.
const { test, expect } = require("@playwright/test");
const { execFileSync, spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { ApiDocument, makeAjv, apiDir } = require("../support/openapi");

const base = () => process.env.SVC_BASE_URL;
const redocly = path.join(__dirname, "..", "api-tools", "node_modules", ".bin", "redocly");
const documents = ["openapi.yaml", "operator.openapi.yaml"];

for (const name of documents) {
  test(`@redocly/cli lints ${name} with no error and no warning`, () => {
    test.skip(!fs.existsSync(redocly), "e2e/api-tools is not installed (scripts/install-deps.sh)");
    const run = spawnSync(redocly, ["lint", "--config", "redocly.yaml", "--format", "json", name],
                          { cwd: apiDir, encoding: "utf8", env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" } });
    const report = JSON.parse(run.stdout.slice(run.stdout.indexOf("{")));
    const problems = report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location.map((l) => l.pointer).join(", ")}`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(run.status).toBe(0);
  });
}

// An answer without a body (204, 304) has nothing to describe; any other 2xx names its media types, each with a
// schema that says more than "an object".
test("every 2xx answer of both documents has a schema for each media type, and no object schema is left empty", () => {
  const missing = [];
  for (const name of documents) {
    const api = new ApiDocument(name);
    for (const [operationId, entry] of api.operations) {
      for (const status of Object.keys(entry.operation.responses).filter((s) => /^2/.test(s))) {
        const where = `${name} ${entry.method.toUpperCase()} ${entry.template} ${status}`;
        const response = api.response(operationId, status);
        if (status === "204") {
          if (response.content) missing.push(where + ": a 204 with content");
          continue;
        }
        if (!response.content) { missing.push(where + ": no content"); continue; }
        for (const [type, media] of Object.entries(response.content)) {
          if (!media.schema) { missing.push(`${where} ${type}: no schema`); continue; }
          const schema = api.jsonSchema(media.schema);
          JSON.stringify(schema, (key, value) => {
            if (value && typeof value === "object" && value.type === "object" && !value.properties && !value.additionalProperties && !value.oneOf) {
              missing.push(`${where} ${type}: an object without members at ${key || "the top"}`);
            }
            return value;
          });
        }
      }
    }
  }
  expect(missing).toEqual([]);
});

test.describe.serial("the live server's answers match the documents", () => {
  const rest = new ApiDocument("openapi.yaml");
  const operator = new ApiDocument("operator.openapi.yaml");
  const ajv = makeAjv();
  const seen = new Set();  // "<document> <operationId> <status>"
  let session;             // {cookie, csrf}
  let tenant;              // {apiId, apiSecret, feedId}
  let importId;
  let bearer;

  // Calls a documented operation and checks the answer against the document: the status is documented, the
  // content type is one of the status's media types, and the body matches that media type's schema.
  async function call(api, operationId, { params = {}, query = {}, body, contentType, headers = {}, expectStatus } = {}) {
    const entry = api.operations.get(operationId);
    expect(entry, `${api.name} documents ${operationId}`).toBeTruthy();
    const url = new URL(base() + entry.template.replace(/\{(\w+)\}/g, (_, name) => {
      expect(params[name], `${operationId}: path parameter ${name}`).toBeDefined();
      return encodeURIComponent(params[name]);
    }));
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    const init = { method: entry.method.toUpperCase(), headers: { ...headers }, redirect: "manual" };
    if (body !== undefined) {
      init.body = typeof body === "string" || Buffer.isBuffer(body) ? body : JSON.stringify(body);
      init.headers["content-type"] = contentType || "application/json";
    }
    const response = await fetch(url, init);
    const text = await response.text();
    const where = `${api.name} ${init.method} ${url.pathname} -> ${response.status}: ${text.slice(0, 300)}`;
    if (expectStatus !== undefined) expect(response.status, where).toBe(expectStatus);
    const documented = api.response(operationId, response.status);
    expect(documented, `${where} (status not documented)`).toBeTruthy();
    seen.add(`${api.name} ${operationId} ${response.status}`);
    if (response.status === 204 || response.status === 304) return { status: response.status, headers: response.headers };
    const type = (response.headers.get("content-type") || "").split(";")[0].trim();
    const content = documented.content || {};
    if (!Object.keys(content).length) {
      expect(response.status >= 300, `${where}: a 2xx without documented content`).toBe(true);
      return { status: response.status, headers: response.headers, text };
    }
    expect(Object.keys(content), `${where}: content type ${type}`).toContain(type);
    const schema = content[type].schema;
    expect(schema, `${where}: no schema for ${type}`).toBeTruthy();
    const value = type.endsWith("json") ? JSON.parse(text) : text;
    const validate = ajv.compile(api.jsonSchema(schema));
    if (!validate(value)) {
      throw new Error(`${where}\ndoes not match the document:\n` +
                      validate.errors.map((e) => `  ${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`).join("\n"));
    }
    return { status: response.status, headers: response.headers, body: value, text };
  }

  const signedIn = () => ({ cookie: session.cookie });
  const changing = () => ({ cookie: session.cookie, "x-csrf-token": session.csrf });
  const tenantAuth = () => ({ "x-api-id": tenant.apiId, "x-api-secret": tenant.apiSecret });

  test("an operator signs in, creates a tenant and pushes its feed", async () => {
    const signIn = await fetch(base() + "/operator/api/session", {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: process.env.SVC_OPERATOR_EMAIL, password: process.env.SVC_OPERATOR_PASSWORD }) });
    expect(signIn.status).toBe(200);
    session = { cookie: signIn.headers.get("set-cookie").split(";")[0], csrf: (await signIn.json()).csrfToken };
    const server = process.env.SVC_SERVER || path.join(__dirname, "..", "..", "build", "bin", "svc-server");
    bearer = JSON.parse(execFileSync(server, ["operator-key", "create", "--data-dir", process.env.SVC_DATA_DIR, "contracts-" + Date.now()],
                                     { encoding: "utf8" })).key;

    const created = await call(operator, "createTenant", { headers: changing(), body: { name: "Contract shop" }, expectStatus: 201 });
    tenant = { apiId: created.body.tenant.apiId, apiSecret: created.body.apiSecret, feedId: created.body.tenant.feedId };
    await call(operator, "updateTenant", { params: { apiId: tenant.apiId }, headers: changing(), body: { currency: "EUR", locale: "de-DE" }, expectStatus: 200 });

    const upload = await call(rest, "createFeedUpload", { headers: tenantAuth(), expectStatus: 200,
      body: { identifier: "sku", format: { type: "csv", options: { delimiter: ";" } }, delta: false } });
    const feed = fs.readFileSync(path.join(process.env.SVC_DATA_DIR, "demo", "feed.csv"));
    const target = new URL(upload.body.url);
    const put = await fetch(base() + target.pathname + target.search, { method: "PUT", headers: upload.body.headers, body: feed });
    expect(put.status).toBe(200);
    importId = (await put.json()).importId;
    await expect.poll(async () => (await call(rest, "getFeedImport", { params: { importId }, headers: tenantAuth() })).body.status,
                      { timeout: 20_000 }).toBe("applied");
    await call(rest, "validateFeed", { headers: tenantAuth(), body: feed, contentType: "text/csv", expectStatus: 200 });
    await call(rest, "listFeedImports", { headers: tenantAuth(), expectStatus: 200 });
    // The content is built from the feed in the background: the widgets' answers below need it.
    await expect.poll(async () => (await fetch(`${base()}/${tenant.apiId}/content?w=SIMILAR&t=product&s=${process.env.SVC_FIRST_SKU}&i=`)).status,
                      { timeout: 20_000 }).toBe(200);
  });

  test("a shop's page: loader, content, stylesheet, events, a purchase its backend confirms, a return", async () => {
    const sku = process.env.SVC_FIRST_SKU;
    await call(rest, "getLoader", { params: { apiId: tenant.apiId }, expectStatus: 200 });
    await call(rest, "getWidgetsCss", { params: { apiId: tenant.apiId }, expectStatus: 200 });
    await call(rest, "getContent", { params: { apiId: tenant.apiId }, query: { w: "SIMILAR", t: "product", s: sku, i: "" }, expectStatus: 200 });
    await call(rest, "getContent", { params: { apiId: tenant.apiId }, expectStatus: 400 });
    await call(rest, "getThumbnail", { params: { apiId: tenant.apiId, key: "0".repeat(64) }, expectStatus: 404 });

    const view = { type: "view", cid: "contract-visitor", widget: "SIMILAR", touchpoint: "product", sku };
    await call(rest, "validateEvents", { headers: { "x-api-id": tenant.apiId }, body: view, expectStatus: 200 });
    await call(rest, "postEvents", { headers: { "x-api-id": tenant.apiId }, body: { events: [view, { ...view, type: "click" }] }, expectStatus: 200 });
    await call(rest, "postEvents", { headers: { "x-api-id": tenant.apiId }, body: { ...view, widget: "nope" }, expectStatus: 400 });
    const purchase = { type: "purchase", customerid: "anonymous", orderid: "contract-1", cid: "contract-visitor",
                       products: [{ sku, amount: 2, price: 1999 }] };
    await call(rest, "postEvents", { headers: { "x-api-id": tenant.apiId }, body: purchase, expectStatus: 200 });
    await call(rest, "postEvents", { headers: { "x-api-id": tenant.apiId }, body: purchase, expectStatus: 200 });
    await call(rest, "getOrder", { params: { orderid: "contract-1" }, headers: tenantAuth(), expectStatus: 200 });
    await call(rest, "settleOrder", { params: { orderid: "contract-1" }, headers: tenantAuth(), expectStatus: 200,
                                      body: { status: "confirmed", products: [{ sku, amount: 2, price: 1999 }] } });
    await call(rest, "reportOrderReturn", { params: { orderid: "contract-1" }, headers: tenantAuth(), expectStatus: 201,
                                            body: { returnId: "r-1", lines: [{ sku, amount: 1 }] } });
    await call(rest, "reportOrderReturn", { params: { orderid: "contract-1" }, headers: tenantAuth(), expectStatus: 200,
                                            body: { returnId: "r-1", lines: [{ sku, amount: 1 }] } });
    await call(rest, "getOrder", { params: { orderid: "nobody-claimed" }, headers: tenantAuth(), expectStatus: 404 });
    await call(rest, "getReportSummary", { headers: tenantAuth(), expectStatus: 200 });
    await call(rest, "getReportLedger", { headers: tenantAuth(), expectStatus: 200 });
    await call(rest, "getReportSummary", { headers: {}, expectStatus: 401 });
  });

  test("sets and templates, as the shop's backend and the operator keep them", async () => {
    const sku = process.env.SVC_FIRST_SKU;
    const custom = { title: "Contract look", description: "for the contract test", tags: ["summer"], images: ["/demo/look.jpg"], skus: [sku] };
    await call(rest, "putSet", { params: { kind: "custom", id: "look-1" }, headers: tenantAuth(), body: custom, expectStatus: 201 });
    await call(rest, "putSet", { params: { kind: "custom", id: "look-1" }, headers: tenantAuth(), body: custom, expectStatus: 200 });
    await call(rest, "putSet", { params: { kind: "photo", id: "photo-1" }, headers: tenantAuth(), expectStatus: 201,
                                 body: { title: "Contract photo", tags: ["summer"], images: ["/demo/look.jpg"] } });
    await call(rest, "putSet", { params: { kind: "custom", id: "look-2" }, headers: tenantAuth(), body: { title: "no skus" }, expectStatus: 400 });
    for (const kind of ["custom", "photo"]) {
      await call(rest, "listSets", { params: { kind }, headers: tenantAuth(), expectStatus: 200 });
    }
    await call(rest, "getSet", { params: { kind: "custom", id: "look-1" }, headers: tenantAuth(), expectStatus: 200 });
    await call(rest, "getSet", { params: { kind: "photo", id: "photo-1" }, headers: tenantAuth(), expectStatus: 200 });
    await call(rest, "importSets", { headers: tenantAuth(), expectStatus: 200,
                                     body: { customSets: [{ id: "look-3", ...custom }], photoSets: [] } });
    await call(rest, "deleteSet", { params: { kind: "custom", id: "look-3" }, headers: tenantAuth(), expectStatus: 204 });

    const auth = { authorization: "Bearer " + bearer };
    const pool = await call(rest, "listContentPoolTemplates", { headers: auth, expectStatus: 200 });
    expect(pool.body.templates.length).toBeGreaterThan(0);
    await call(rest, "getContentPoolTemplate", { params: { id: pool.body.templates[0].id }, headers: auth, expectStatus: 200 });
    await call(operator, "listTemplates", { headers: signedIn(), expectStatus: 200 });
    await call(operator, "getTemplate", { params: { templateId: pool.body.templates[0].id }, headers: signedIn(), expectStatus: 200 });

    const forApi = { apiId: tenant.apiId };
    await call(operator, "listCustomSets", { params: forApi, headers: signedIn(), expectStatus: 200 });
    await call(operator, "getCustomSet", { params: { ...forApi, setId: "look-1" }, headers: signedIn(), expectStatus: 200 });
    await call(operator, "putCustomSet", { params: { ...forApi, setId: "look-4" }, headers: changing(), body: custom, expectStatus: 201 });
    await call(operator, "listPhotoSets", { params: forApi, headers: signedIn(), expectStatus: 200 });
    await call(operator, "getPhotoSet", { params: { ...forApi, setId: "photo-1" }, headers: signedIn(), expectStatus: 200 });
    await call(operator, "previewCustomSet", { params: forApi, headers: changing(), body: custom, expectStatus: 201 });
    await call(operator, "searchCatalog", { params: forApi, query: { q: sku }, headers: signedIn(), expectStatus: 200 });
  });

  test("the operator's pages: tenants, feeds, imports, performance, widgets, operators, shops", async () => {
    const forApi = { apiId: tenant.apiId };
    await call(operator, "getMe", { headers: signedIn(), expectStatus: 200 });
    await call(operator, "getMe", { headers: {}, expectStatus: 401 });
    await call(operator, "listTenants", { headers: signedIn(), expectStatus: 200 });
    await call(operator, "getTenant", { params: forApi, headers: signedIn(), expectStatus: 200 });
    await call(operator, "getTenant", { params: { apiId: "no-such-tenant" }, headers: signedIn(), expectStatus: 404 });
    await call(operator, "listShops", { headers: signedIn(), expectStatus: 200 });
    await call(operator, "listOperators", { headers: signedIn(), expectStatus: 200 });
    await call(operator, "getWidgetSettings", { params: forApi, headers: signedIn(), expectStatus: 200 });
    await call(operator, "putWidgetSettings", { params: forApi, headers: changing(), body: { defaultLanguage: "de" }, expectStatus: 200 });
    await call(operator, "getWidgetPreview", { params: forApi, headers: signedIn(), expectStatus: 200 });
    await call(operator, "listTenantImports", { params: forApi, headers: signedIn(), expectStatus: 200 });
    await call(operator, "getTenantImportErrorsCsv", { params: { ...forApi, importId }, headers: signedIn(), expectStatus: 200 });
    await call(operator, "getTenantPerformance", { params: forApi, headers: signedIn(), expectStatus: 200 });
    await call(operator, "getTenantLedgerCsv", { params: forApi, headers: signedIn(), expectStatus: 200 });
    await call(operator, "listFeedStates", { headers: signedIn(), expectStatus: 200 });
    await call(operator, "listTenantFeeds", { params: forApi, headers: signedIn(), expectStatus: 200 });
    await call(operator, "listPullSources", { params: forApi, headers: signedIn(), expectStatus: 200 });
    await call(operator, "getCatalogSize", { params: forApi, headers: signedIn(), expectStatus: 200 });
    await call(operator, "getCategoryMapping", { params: forApi, headers: signedIn(), expectStatus: 200 });
    await call(operator, "previewCategoryMapping", { params: forApi, headers: changing(), body: { entries: [] }, expectStatus: 200,
                                                     query: { w: "SET", t: "product", s: process.env.SVC_FIRST_SKU, i: "" } });
    await call(operator, "putCategoryMapping", { params: forApi, headers: changing(), body: { entries: [] }, expectStatus: 200 });
    await call(operator, "putCategoryMapping", { params: forApi, headers: changing(), body: { entries: [{ category: "No such", slot: "top" }] },
                                                 expectStatus: 400 });
    await call(operator, "rotateTenantSecret", { params: forApi, headers: changing(), expectStatus: 200 });
  });

  test("the public probes and pages", async () => {
    await call(rest, "getHealth", { expectStatus: 200 });
    await call(rest, "getReadiness", { expectStatus: 200 });
    await call(rest, "getMetrics", { expectStatus: 200 });
    await call(rest, "getImageBotPage", { expectStatus: 200 });
  });

  // The thumbnail's 200 needs the image bot to have fetched an image from a shop's server; ThumbnailTest (server
  // tests) covers it. Every other GET of both documents was answered 2xx above and matched its schema.
  test("every documented GET was answered with a 2xx above", () => {
    const exempt = new Set(["openapi.yaml getThumbnail"]);
    const unanswered = [];
    for (const api of [rest, operator]) {
      for (const [operationId, entry] of api.operations) {
        if (entry.method !== "get" || exempt.has(`${api.name} ${operationId}`)) continue;
        if (![...seen].some((s) => s.startsWith(`${api.name} ${operationId} 2`))) unanswered.push(`${api.name} ${operationId}`);
      }
    }
    expect(unanswered).toEqual([]);
  });
});
