// graphql-js comparison server for bench-graphql: the same schema as svc (docs/api/schema.graphql, read at start),
// node:http in a single process (one event loop), the `graphql` package (v16) and data held in memory.
//
//   node graphql-js-server.js --schema docs/api/schema.graphql --snapshot snapshot.json --api-id ID [--listen 127.0.0.1:0]
//
// The data is a snapshot that bench-graphql fetched from svc before the timed runs: every product with its scalar
// fields, images and variants, and for every product id the benchmark asks for, the ids of the similar products svc
// answered (already ranked: graphql-js does no ranking work at all). `graphql` is found through NODE_PATH (bench-graphql
// sets it to e2e/node_modules). Prints `listening on http://HOST:PORT` on stdout once it accepts connections.
"use strict";

const fs = require("node:fs");
const http = require("node:http");
const { buildSchema, graphql, version } = require("graphql");

function parseArgs(argv) {
  const options = { listen: "127.0.0.1:0" };
  for (let i = 0; i < argv.length; ++i) {
    const name = argv[i];
    if (!["--schema", "--snapshot", "--api-id", "--listen"].includes(name) || i + 1 >= argv.length) {
      throw new Error(`bad argument ${name} (usage: --schema PATH --snapshot PATH --api-id ID [--listen HOST:PORT])`);
    }
    options[name.slice(2).replace("-id", "Id")] = argv[++i];
  }
  for (const required of ["schema", "snapshot", "apiId"]) {
    if (!options[required]) throw new Error(`--${required === "apiId" ? "api-id" : required} is required`);
  }
  return options;
}

const options = parseArgs(process.argv.slice(2));
const schema = buildSchema(fs.readFileSync(options.schema, "utf8"));
const snapshot = JSON.parse(fs.readFileSync(options.snapshot, "utf8"));

// ---- Data: plain objects, resolved by graphql-js's default field resolver (methods are called with the arguments).

const cursorFor = (field, index) => Buffer.from(`${field}:${index}`).toString("base64").replace(/=+$/, "");

function startOf(field, after) {
  if (after == null) return 0;
  const text = Buffer.from(after, "base64").toString("utf8");
  const prefix = `${field}:`;
  if (!text.startsWith(prefix)) throw new Error(`invalid cursor for ${field}`);
  const index = Number(text.slice(prefix.length));
  if (!Number.isInteger(index) || index < 0) throw new Error(`invalid cursor for ${field}`);
  return index + 1;
}

function connection(field, items, args, toNode) {
  const first = args.first == null ? items.length : args.first;
  if (first < 0) throw new Error("first must not be negative");
  const start = startOf(field, args.after);
  const slice = items.slice(start, start + first);
  const edges = slice.map((item, i) => ({ node: toNode(item), cursor: () => cursorFor(field, start + i) }));
  return {
    edges,
    pageInfo: {
      endCursor: edges.length ? cursorFor(field, start + edges.length - 1) : null,
      hasNextPage: start + slice.length < items.length,
    },
  };
}

const identity = (item) => item;
const products = new Map();

class Product {
  constructor(data) {
    this.id = data.id;
    this.name = data.name;
    this.brand = data.brand;
    this.modelId = data.modelId;
    this.url = data.url;
    this.tags = data.tags || [];
    this.imageList = data.images || [];
    this.variantList = data.variants || [];
    this.similarIds = [];  // set from the lookup below, when svc was asked for this product
  }
  images(args) {
    return connection("images", this.imageList, args, identity);
  }
  variants(args) {
    return connection("variants", this.variantList, args, identity);
  }
  similarProducts(args) {
    return connection("similarProducts", this.similarIds, args, (id) => products.get(id));
  }
}

for (const data of Object.values(snapshot.products)) products.set(data.id, new Product(data));

// Requested id (a variant SKU or a main SKU) -> the product svc answered, with the similar list svc answered for
// that request (a view, so two SKUs of one product may carry different lists).
const lookup = new Map();
for (const [requested, entry] of Object.entries(snapshot.lookup)) {
  const product = products.get(entry.product);
  if (!product) throw new Error(`snapshot: ${requested} points at missing product ${entry.product}`);
  for (const id of entry.similar) {
    if (!products.has(id)) throw new Error(`snapshot: similar product ${id} of ${requested} is missing`);
  }
  if (requested === product.id || product.similarIds.length === 0) product.similarIds = entry.similar;
  const view = Object.create(product);
  view.similarIds = entry.similar;
  lookup.set(requested, view);
}

const rootValue = {
  product: ({ id }) => lookup.get(id) || products.get(id) || null,
};

// ---- HTTP: POST /graphql with a JSON body {query, variables, operationName} and the x-api-id header; GET /healthz.

function send(response, status, body) {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
  });
  response.end(text);
}

const requestError = (message) => ({ errors: [{ message }] });

const server = http.createServer((request, response) => {
  const path = request.url.split("?")[0];
  if (request.method === "GET" && path === "/healthz") return send(response, 200, { status: "ok" });
  if (path !== "/graphql") return send(response, 404, requestError("no such resource"));
  if (request.method !== "POST") return send(response, 405, requestError("POST only"));
  if (request.headers["x-api-id"] !== options.apiId) return send(response, 401, requestError("unknown x-api-id"));
  const contentType = (request.headers["content-type"] || "").split(";")[0].trim().toLowerCase();
  if (contentType !== "application/json") return send(response, 415, requestError("content-type must be application/json"));
  const chunks = [];
  request.on("data", (chunk) => chunks.push(chunk));
  request.on("end", () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      return send(response, 400, requestError("the body is not JSON"));
    }
    if (!body || typeof body.query !== "string") return send(response, 400, requestError("no query"));
    graphql({
      schema,
      source: body.query,
      rootValue,
      variableValues: body.variables || undefined,
      operationName: body.operationName || undefined,
    }).then(
      (result) => send(response, 200, result),
      (error) => send(response, 500, requestError(String(error))),
    );
  });
});

const colon = options.listen.lastIndexOf(":");
server.listen(Number(options.listen.slice(colon + 1)), options.listen.slice(0, colon), () => {
  const { address, port } = server.address();
  process.stdout.write(
    `graphql-js ${version}, node ${process.version}, ${products.size} products, ${lookup.size} ids\n` +
      `listening on http://${address}:${port}\n`,
  );
});
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => process.exit(0));
