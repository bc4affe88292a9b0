// The REST documents (docs/api/*.openapi.yaml) as validators of live answers (docs/adr/0084): each 2xx and error
// answer of an operation is checked with Ajv against the schema its document gives, closed (an object's members are
// the documented ones and no others), so a field the server adds or renames without the document fails the test.
const fs = require("node:fs");
const path = require("node:path");
const { createRequire } = require("node:module");

// The contract tools are a package of their own (e2e/api-tools), installed by scripts/install-deps.sh.
const tools = createRequire(path.join(__dirname, "..", "api-tools", "package.json"));
const YAML = tools("yaml");
const Ajv = tools("ajv");
const addFormats = tools("ajv-formats");

const apiDir = path.resolve(__dirname, "..", "..", "docs", "api");
const methods = ["get", "put", "post", "delete", "patch", "options"];

function loadDocument(name) {
  return YAML.parse(fs.readFileSync(path.join(apiDir, name), "utf8"));
}

function pointer(document, fragment) {
  return fragment.replace(/^#\//, "").split("/").map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((node, key) => {
      if (node === undefined || !(key in node)) throw new Error("unresolved $ref #/" + fragment);
      return node[key];
    }, document);
}

class ApiDocument {
  constructor(name) {
    this.name = name;
    this.document = loadDocument(name);
    this.others = new Map();
    this.operations = new Map();
    for (const [template, item] of Object.entries(this.document.paths)) {
      for (const method of methods) {
        if (!item[method]) continue;
        this.operations.set(item[method].operationId, { method, template, operation: item[method], pathItem: item });
      }
    }
  }

  // A $ref's target, in this document or another one beside it ('openapi.yaml#/components/...').
  resolve(ref, from = this.document) {
    const [file, fragment] = ref.split("#");
    let document = from;
    if (file) {
      if (!this.others.has(file)) this.others.set(file, loadDocument(file));
      document = this.others.get(file);
    }
    return { node: pointer(document, "#" + fragment), document };
  }

  // The schema with every $ref replaced by its target, OpenAPI's annotations Ajv does not know dropped, and objects
  // closed: members not documented are refused.
  jsonSchema(schema, document = this.document, depth = 0) {
    if (depth > 40) throw new Error("schema nested too deep (a recursive $ref?)");
    if (Array.isArray(schema)) return schema.map((s) => this.jsonSchema(s, document, depth + 1));
    if (schema === null || typeof schema !== "object") return schema;
    if (schema.$ref) {
      const target = this.resolve(schema.$ref, document);
      return this.jsonSchema(target.node, target.document, depth + 1);
    }
    const out = {};
    for (const [key, value] of Object.entries(schema)) {
      if (key === "example") continue;
      if (key === "properties") {
        out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.jsonSchema(v, document, depth + 1)]));
      } else if (key === "allOf") {
        // Each branch stays open; the merged members close the whole.
        const branches = value.map((v) => this.jsonSchema(v, document, depth + 1));
        out.allOf = branches.map((b) => { const open = { ...b }; delete open.additionalProperties; return open; });
        const members = Object.assign({}, ...branches.map((b) => b.properties || {}));
        out.properties = Object.fromEntries(Object.keys(members).map((k) => [k, true]));
        out.additionalProperties = false;
      } else if (typeof value === "object" && key !== "enum" && key !== "required" && key !== "default") {
        out[key] = this.jsonSchema(value, document, depth + 1);
      } else {
        out[key] = value;
      }
    }
    if (out.allOf && !out.type) out.type = "object";
    if (out.properties && !("additionalProperties" in out)) out.additionalProperties = false;
    if (out.nullable && !out.type) delete out.nullable;
    return out;
  }

  // The documented answer of an operation for a status: {description, content} (a $ref resolved).
  response(operationId, status) {
    const entry = this.operations.get(operationId);
    if (!entry) throw new Error(this.name + " documents no operation " + operationId);
    let response = entry.operation.responses[String(status)];
    if (!response) return undefined;
    if (response.$ref) response = this.resolve(response.$ref).node;
    return response;
  }
}

function makeAjv() {
  const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false });
  addFormats(ajv);
  ajv.addFormat("binary", true);
  return ajv;
}

module.exports = { ApiDocument, makeAjv, apiDir, methods };
