// Runs one corpus case on both sides and compares the answers.
//
// Compared: `data` (deep, and key order separately), and the set of errors as
// {path, locations:[{line, column}]}. Messages and svc's extra keys (sourceName, errorType,
// errorInfo, data) are ignored by design. A request error (graphql-js answers without `data`:
// syntax, validation, variable coercion) must be one on svc too (data null, at least one
// error, no error with a path); locations are compared when both sides report one error.
const { graphqlSync } = require("graphql");

async function svcRequest(baseUrl, apiId, { query, variables, operationName }) {
  const response = await fetch(baseUrl + "/graphql", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/graphql-response+json", "x-api-id": apiId },
    body: JSON.stringify({ query, variables, operationName }),
  });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    throw new Error(`svc answered ${response.status} with non-JSON: ${text.slice(0, 200)}`);
  }
}

// graphql-js, synchronously; reruns after loading the snapshots the run found missing (a
// failing non-null field stops its siblings, so a run may find one at a time).
async function referenceRequest({ schema, snapshots }, { query, variables, operationName }) {
  let result;
  for (let attempt = 0; attempt < 100; attempt += 1) {
    result = graphqlSync({ schema, source: query, variableValues: variables, operationName });
    if (!(await snapshots.loadMissing())) return JSON.parse(JSON.stringify(result));
  }
  throw new Error(`reference: snapshots still missing after 100 rounds: ${JSON.stringify(result.errors)}`);
}

function normalizeError(error) {
  return {
    path: error.path === undefined || error.path === null ? null : error.path,
    locations: (error.locations || []).map(({ line, column }) => ({ line, column })),
  };
}

function errorKeys(body) {
  return [...new Set((body.errors || []).map((error) => JSON.stringify(normalizeError(error))))].sort();
}

// Deep equality ignoring object key order.
function canonical(value) {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical(value[key])]));
  }
  return value;
}

// No data, or null data with errors none of which has a path (graphql-js v16 answers an
// operation type the schema lacks with data null): the request did not execute.
function isRequestError(body) {
  return body.data === undefined || body.data === null && (body.errors || []).length > 0 && body.errors.every((e) => !e.path);
}

// Lists whose order the specification leaves open (e.g. __schema.types) are compared as sets:
// both sides are sorted at those response paths ("a.b" names keys; lists are walked through).
function sortAt(value, keys) {
  if (value === null || value === undefined) return value;
  if (Array.isArray(value)) return value.map((item) => sortAt(item, keys));
  if (keys.length === 0) return value;
  const [key, ...rest] = keys;
  if (typeof value !== "object" || !(key in value)) return value;
  let inner = sortAt(value[key], rest);
  if (rest.length === 0 && Array.isArray(inner)) inner = [...inner].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  return { ...value, [key]: inner };
}

// Returns { same: boolean, differences: [string], kind: "request-error" | "data" }.
function compareBodies(svcBody, refBody, unordered = []) {
  const differences = [];
  let svc = svcBody;
  let ref = refBody;
  for (const at of unordered) {
    svc = { ...svc, data: sortAt(svc.data, at.split(".")) };
    ref = { ...ref, data: sortAt(ref.data, at.split(".")) };
  }
  if (isRequestError(ref)) {
    // A request error on the reference side.
    const svcErrors = svc.errors || [];
    if (svc.data !== null && svc.data !== undefined) differences.push("request-error: svc executed (data " + JSON.stringify(svc.data) + ")");
    if (svcErrors.length === 0) differences.push("request-error: svc reported no error");
    if (svcErrors.some((error) => error.path)) differences.push("request-error: svc reported field errors (with a path)");
    if (differences.length === 0 && svcErrors.length === 1 && ref.errors.length === 1) {
      const a = JSON.stringify(normalizeError(svcErrors[0]).locations);
      const b = JSON.stringify(normalizeError(ref.errors[0]).locations);
      if (a !== b) differences.push(`request-error locations: svc ${a}, graphql-js ${b}`);
    }
    return { same: differences.length === 0, differences, kind: "request-error" };
  }
  const svcData = svc.data === undefined ? null : svc.data;
  if (isRequestError(svc) && svc.errors && svc.errors.length) {
    differences.push("svc answered with a request error where graphql-js executed");
  }
  if (JSON.stringify(canonical(svcData)) !== JSON.stringify(canonical(ref.data))) {
    differences.push(`data: svc ${JSON.stringify(svcData)}, graphql-js ${JSON.stringify(ref.data)}`);
  } else if (JSON.stringify(svcData) !== JSON.stringify(ref.data)) {
    differences.push(`data key order: svc ${JSON.stringify(svcData)}, graphql-js ${JSON.stringify(ref.data)}`);
  }
  const a = errorKeys(svc);
  const b = errorKeys(ref);
  if (JSON.stringify(a) !== JSON.stringify(b)) differences.push(`errors: svc ${a.join(" ") || "none"}, graphql-js ${b.join(" ") || "none"}`);
  return { same: differences.length === 0, differences, kind: "data" };
}

module.exports = { svcRequest, referenceRequest, compareBodies, normalizeError, isRequestError };
