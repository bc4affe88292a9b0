// The Feeds page (issue 9): freshness, a feed file uploaded by hand, pull sources, how the shop
// pushes, the catalog's size over time (uPlot plus the same figures in a table) and the import
// history with row errors and held imports. Everything through the operator API.
import { call, requireOperator, ApiError } from "./api.js";
import { showErrors, clearErrors, busy } from "./forms.js";
import { renderNav } from "./nav.js";
import { button, cell } from "./dom.js";

const apiId = new URLSearchParams(location.search).get("apiId") || "";
const tenantPath = "/tenants/" + encodeURIComponent(apiId);
const path = tenantPath + "/imports";
const table = document.getElementById("imports-table");
const status = document.getElementById("imports-status");
let csrfToken = "";

const FINAL = new Set(["applied", "failed", "held", "discarded"]);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function when(seconds) {
  return seconds ? new Date(seconds * 1000).toLocaleString() : "—";
}

// "3 h 5 min", "2 d 4 h": ages and thresholds the operator reads at a glance.
function duration(seconds) {
  if (seconds < 60) return seconds + " s";
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return minutes + " min";
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return hours + " h" + (minutes % 60 ? " " + (minutes % 60) + " min" : "");
  return Math.floor(hours / 24) + " d" + (hours % 24 ? " " + (hours % 24) + " h" : "");
}

function badge(text, className) {
  const span = document.createElement("span");
  span.className = "badge " + className;
  span.textContent = text;
  return span;
}

// ---- import history -------------------------------------------------------------------

function decisionButton(record, label, action, className) {
  return button(label, label + " import " + record.id, async () => {
    for (const other of table.querySelectorAll("button")) other.disabled = true;
    // Confirming applies the whole file: that can take a while, so the page says so.
    status.textContent = (action === "confirm" ? "Applying import " : "Discarding import ") + record.id + "…";
    try {
      const done = await call("POST", path + "/" + record.id + "/" + action);
      await refresh();
      status.textContent = "Import " + done.id + " is " + done.status + ".";
    } catch (error) {
      status.textContent = "Import " + record.id + ": " + error.message;
      for (const other of table.querySelectorAll("button")) other.disabled = false;
    }
  }, className);
}

// What a feed does to the catalog (docs/adr/0070), from its last applied import.
function lifecycleText(describesProducts, delta) {
  if (describesProducts === null || describesProducts === undefined) return "—";
  if (!describesProducts) return "stock and price: updates known products; creates and deletes none";
  return delta ? "delta: creates and updates what it lists; deletes none"
               : "full: owns what it lists; deletes what it drops unless another full feed lists it";
}

function unknownSkusLink(record) {
  if (!record.unknownSkus) return "0";
  const link = document.createElement("a");
  link.href = "/operator/api" + path + "/" + record.id + "/errors.csv";
  link.textContent = record.unknownSkus + " (CSV)";
  link.setAttribute("aria-label", "Download the " + record.unknownSkus + " unknown SKUs of import " + record.id + " as CSV");
  return link;
}

function rowErrorsLink(record) {
  const link = document.createElement("a");
  link.href = "/operator/api" + path + "/" + record.id + "/errors.csv";
  link.textContent = record.rejected + " (CSV)";
  link.setAttribute("aria-label", "Download the " + record.rejected + " row errors of import " + record.id + " as CSV");
  return link;
}

async function loadImports() {
  const { imports } = await call("GET", path);
  const body = table.tBodies[0];
  body.replaceChildren();
  for (const record of imports) {
    const row = document.createElement("tr");
    cell(row, String(record.id));
    cell(row, when(record.createdAt));
    cell(row, record.feed + (record.delta ? " (delta)" : ""));
    cell(row, badge(record.status, record.status === "failed" || record.status === "held" ? "off" : ""));
    for (const count of [record.rowsRead, record.inserted, record.updated, record.markedDeleted]) cell(row, String(count));
    cell(row, record.rejected > 0 ? rowErrorsLink(record) : "0");
    cell(row, unknownSkusLink(record));
    cell(row, [record.message, ...(record.warnings || [])].filter(Boolean).join(" · "));
    const actions = cell(row, "");
    if (record.status === "held") {
      actions.append(decisionButton(record, "Confirm", "confirm", ""), " ", decisionButton(record, "Discard", "discard", "secondary"));
    }
    body.appendChild(row);
  }
  table.hidden = imports.length === 0;
  status.textContent = imports.length === 0 ? "No imports yet." : imports.length + (imports.length === 1 ? " import" : " imports");
  return imports;
}

// ---- freshness and push setup ---------------------------------------------------------

async function loadFeeds() {
  const { feeds, push } = await call("GET", tenantPath + "/feeds");
  const freshness = document.getElementById("freshness-table");
  const body = freshness.tBodies[0];
  body.replaceChildren();
  for (const feed of feeds) {
    const row = document.createElement("tr");
    cell(row, feed.feed + (feed.delta ? " (delta)" : ""));
    cell(row, feed.delivery === "pull" ? "pulled" : "pushed");
    cell(row, when(feed.lastAppliedAt));
    cell(row, feed.state === "never" ? "—" : duration(feed.ageSeconds));
    const label = { fresh: "fresh", stale: "stale", never: "no import yet" }[feed.state];
    cell(row, badge(label, feed.state === "fresh" ? "fresh" : "stale"));
    cell(row, duration(feed.staleAfterSeconds));
    cell(row, feed.catalogProducts === null ? "—" : String(feed.catalogProducts));
    cell(row, lifecycleText(feed.describesProducts, feed.delta));
    cell(row, feed.lastImportId ? String(feed.unknownSkus) : "—");
    body.appendChild(row);
  }
  freshness.hidden = feeds.length === 0;
  document.getElementById("freshness-status").textContent =
    feeds.length === 0 ? "No feed yet: upload a file, add a pull source or let the shop push." : "";

  document.getElementById("push-uploads-url").textContent = push.uploadsUrl;
  document.getElementById("push-imports-url").textContent = push.importsUrl;
  document.getElementById("push-headers").textContent = Object.entries(push.headers).map(([k, v]) => k + ": " + v).join(", ");
  const headers = Object.entries(push.headers).map(([k, v]) => "  -H '" + k + ": " + v + "' \\\n").join("");
  document.getElementById("push-example").textContent =
    "curl -X POST '" + push.uploadsUrl + "' \\\n" + headers + "  -d '" + JSON.stringify(push.body) + "'\n" +
    "# then, with the url and headers of the answer:\n" +
    "curl -X PUT '<url>' -H 'content-type: text/csv' -H 'x-svc-meta-…: …' --data-binary @feed.csv";
}

// ---- catalog size over time -----------------------------------------------------------

let chart = null;

async function loadCatalogSize() {
  const { points } = await call("GET", tenantPath + "/catalog-size");
  const sizeTable = document.getElementById("size-table");
  const body = sizeTable.tBodies[0];
  body.replaceChildren();
  for (const point of points) {
    const row = document.createElement("tr");
    cell(row, String(point.importId));
    cell(row, when(point.at));
    cell(row, point.feed);
    cell(row, String(point.products));
    body.appendChild(row);
  }
  sizeTable.hidden = points.length === 0;
  document.getElementById("size-status").textContent = points.length === 0 ? "No applied import yet." : "";
  const container = document.getElementById("size-chart");
  if (chart) {
    chart.destroy();
    chart = null;
  }
  container.replaceChildren();
  // The chart is for the eye; the table holds the same figures for everyone (ADR 0042).
  if (points.length === 0 || typeof uPlot === "undefined") return;
  const data = [points.map((p) => p.at), points.map((p) => p.products)];
  const width = Math.max(300, Math.min(container.clientWidth || 800, 900));
  chart = new uPlot({
    width,
    height: 220,
    series: [{}, { label: "Products", stroke: "#0b5cad", width: 2, points: { show: true } }],
    axes: [{}, { label: "Products" }],
    // One import is one point: a day either side of it, not uPlot's guess of years.
    scales: { x: { time: true, range: (u, min, max) => (min === max ? [min - 86400, max + 86400] : [min, max]) } },
  }, data, container);
}

// ---- upload ---------------------------------------------------------------------------

const uploadForm = document.getElementById("upload-form");
const progress = document.getElementById("upload-progress");
const uploadResult = document.getElementById("upload-result");

// XMLHttpRequest, not fetch: it reports the upload's progress.
function sendFile(file, query, onProgress) {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", "/operator/api" + path + "?" + query);
    request.setRequestHeader("content-type", "text/csv");
    request.setRequestHeader("accept", "application/json");
    request.setRequestHeader("x-csrf-token", csrfToken);
    request.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    });
    request.addEventListener("load", () => {
      let data = null;
      try {
        data = JSON.parse(request.responseText);
      } catch {
        data = null;
      }
      if (request.status >= 200 && request.status < 300) resolve(data);
      else reject(new ApiError(request.status, data && data.error));
    });
    request.addEventListener("error", () => reject(new ApiError(0, { message: "the upload did not reach the server" })));
    request.send(file);
  });
}

// Polls the history until the import is done (the worker runs it like a push).
async function awaitImport(id, onWait) {
  for (let attempt = 0; attempt < 1200; attempt++) {
    const { imports } = await call("GET", path);
    const record = imports.find((r) => r.id === id);
    if (record && FINAL.has(record.status)) return record;
    onWait(record ? record.status : "queued");
    await sleep(500);
  }
  throw new Error("import " + id + " is still running; see the history below");
}

function showResult(record) {
  uploadResult.replaceChildren();
  const head = document.createElement("p");
  head.id = "upload-result-status";
  head.textContent = "Import " + record.id + " " + record.status + ".";
  const figures = document.createElement("p");
  figures.id = "upload-result-figures";
  figures.textContent = "Rows read: " + record.rowsRead + ", row errors: " + record.rejected + ", new: " + record.inserted +
    ", changed: " + record.updated + ", deleted: " + record.markedDeleted + ".";
  uploadResult.append(head, figures);
  if (record.rejected > 0) {
    const p = document.createElement("p");
    p.appendChild(rowErrorsLink(record));
    uploadResult.append(p);
  }
  if (record.unknownSkus > 0) {
    const p = document.createElement("p");
    p.id = "upload-result-unknown";
    p.append("Unknown SKUs, not created (no feed with product descriptions lists them): ", unknownSkusLink(record));
    uploadResult.append(p);
  }
  for (const warning of record.warnings || []) {
    const p = document.createElement("p");
    p.textContent = "Note: " + warning;
    uploadResult.append(p);
  }
  if (record.message) {
    const p = document.createElement("p");
    p.textContent = record.message + (record.status === "held" ? " (Confirm or Discard it in the history below.)" : "");
    uploadResult.append(p);
  }
  uploadResult.className = record.status === "applied" ? "notice" : "form-alert";
  uploadResult.hidden = false;
  uploadResult.focus();
}

uploadForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors(uploadForm);
  uploadResult.hidden = true;
  const file = uploadForm.elements.file.files[0];
  if (!file) {
    showErrors(uploadForm, new ApiError(400, { field: "file", message: "choose a CSV file to upload" }),
               (name) => (name === "file" ? uploadForm.elements.file : null));
    return;
  }
  const query = new URLSearchParams({
    feed: uploadForm.elements.feed.value.trim(),
    identifier: uploadForm.elements.identifier.value,
    delimiter: uploadForm.elements.delimiter.value,
    delta: uploadForm.elements.delta.checked ? "true" : "false",
  }).toString();
  const formStatus = uploadForm.querySelector(".form-status");
  await busy(uploadForm, "Uploading…", async () => {
    progress.hidden = false;
    progress.value = 0;
    try {
      const queued = await sendFile(file, query, (share) => {
        progress.value = Math.round(share * 100);
        formStatus.textContent = "Uploading… " + Math.round(share * 100) + " %";
      });
      // Indeterminate while the server imports.
      progress.removeAttribute("value");
      formStatus.textContent = "Importing (import " + queued.importId + ")…";
      const record = await awaitImport(queued.importId, (state) => {
        formStatus.textContent = "Importing (import " + queued.importId + ", " + state + ")…";
      });
      formStatus.textContent = "";
      showResult(record);
      await refresh();
    } catch (error) {
      formStatus.textContent = "";
      showErrors(uploadForm, error);
    } finally {
      progress.hidden = true;
    }
  });
});

// ---- pull sources ---------------------------------------------------------------------

const sourceForm = document.getElementById("source-form");
const sourcesTable = document.getElementById("sources-table");
const sourcesStatus = document.getElementById("sources-status");
const submit = document.getElementById("source-submit");
const cancel = document.getElementById("source-cancel");
let editing = null;  // the feed whose source the form changes; null: the form adds one

function credentialsText(set) {
  const parts = [];
  if (set.username) parts.push("user");
  if (set.password) parts.push("password");
  if (set.privateKey) parts.push("private key");
  if (set.hostKey) parts.push("host key");
  return parts.length ? parts.join(", ") + " set" : "none";
}

function startEditing(source) {
  editing = source.feed;
  clearErrors(sourceForm);
  const f = sourceForm.elements;
  f.feed.value = source.feed;
  f.feed.readOnly = true;
  f.url.value = source.url;
  f.every.value = source.every;
  f.identifier.value = source.identifier;
  f.delimiter.value = source.delimiter;
  f.delta.checked = source.delta;
  for (const name of ["username", "password", "privateKey", "hostKey"]) f[name].value = "";
  f.clearCredentials.checked = false;
  document.getElementById("source-form-heading").textContent = "Change the pull source of feed " + source.feed;
  submit.textContent = "Save pull source";
  cancel.hidden = false;
  f.url.focus();
}

function stopEditing() {
  editing = null;
  sourceForm.reset();
  sourceForm.elements.feed.readOnly = false;
  document.getElementById("source-form-heading").textContent = "Add a pull source";
  submit.textContent = "Add pull source";
  cancel.hidden = true;
}

cancel.addEventListener("click", () => {
  stopEditing();
  clearErrors(sourceForm);
});

async function pullNow(source, pullButton) {
  pullButton.disabled = true;
  sourcesStatus.textContent = "Pulling feed " + source.feed + "…";
  try {
    const { requestedAt } = await call("POST", tenantPath + "/pull-sources/" + encodeURIComponent(source.feed) + "/pull");
    // The scheduler pulls it on its own thread; the source's last run says when it is done.
    for (let attempt = 0; attempt < 240; attempt++) {
      await sleep(1000);
      const { sources } = await call("GET", tenantPath + "/pull-sources");
      const now = sources.find((s) => s.feed === source.feed);
      if (!now) break;
      if (now.lastRunAt >= requestedAt) {
        await refresh();
        sourcesStatus.textContent = "Pull of feed " + source.feed + ": " + (now.lastResult || "done") + ".";
        return;
      }
      sourcesStatus.textContent = "Pulling feed " + source.feed + "… (" + (attempt + 1) + " s)";
    }
    sourcesStatus.textContent = "The pull of feed " + source.feed + " has not finished yet; the history below will show it.";
  } catch (error) {
    sourcesStatus.textContent = "Pull of feed " + source.feed + ": " + error.message;
  } finally {
    pullButton.disabled = false;
  }
}

async function loadSources() {
  const { sources } = await call("GET", tenantPath + "/pull-sources");
  const body = sourcesTable.tBodies[0];
  body.replaceChildren();
  for (const source of sources) {
    const row = document.createElement("tr");
    cell(row, source.feed + (source.delta ? " (delta)" : ""));
    cell(row, source.kind === "plugin" ? "shop plugin" : source.url);
    cell(row, source.every);
    cell(row, credentialsText(source.credentialsSet) + (source.credentialsReadable ? "" : " (unreadable: set them again)"));
    cell(row, when(source.lastRunAt));
    cell(row, source.lastResult || "—");
    const actions = cell(row, "");
    const pull = button("Pull now", "Pull now: feed " + source.feed, () => pullNow(source, pull), "");
    actions.append(pull, " ");
    if (source.kind !== "plugin") actions.append(button("Change", "Change the pull source of feed " + source.feed, () => startEditing(source), "secondary"), " ");
    actions.append(button("Remove", "Remove the pull source of feed " + source.feed, async () => {
      if (!confirm("Stop pulling feed " + source.feed + "?")) return;
      try {
        await call("DELETE", tenantPath + "/pull-sources/" + encodeURIComponent(source.feed));
        if (editing === source.feed) stopEditing();
        await refresh();
        sourcesStatus.textContent = "The pull source of feed " + source.feed + " was removed.";
      } catch (error) {
        sourcesStatus.textContent = error.message;
      }
    }, "secondary"));
    body.appendChild(row);
  }
  sourcesTable.hidden = sources.length === 0;
  sourcesStatus.textContent = sources.length === 0 ? "No pull source: the shop pushes its feeds." : "";
}

sourceForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors(sourceForm);
  const f = sourceForm.elements;
  const body = {
    url: f.url.value.trim(),
    every: f.every.value.trim(),
    identifier: f.identifier.value,
    delimiter: f.delimiter.value,
    delta: f.delta.checked,
  };
  if (!editing) body.feed = f.feed.value.trim();
  // Write-only: an empty field keeps what is stored; "remove" sends empty values.
  for (const name of ["username", "password", "privateKey", "hostKey"]) {
    const value = name === "password" || name === "privateKey" ? f[name].value : f[name].value.trim();
    if (f.clearCredentials.checked) body[name] = value;
    else if (value) body[name] = value;
  }
  const adding = !editing;
  await busy(sourceForm, adding ? "Adding…" : "Saving…", async () => {
    try {
      const saved = adding
        ? await call("POST", tenantPath + "/pull-sources", body)
        : await call("PATCH", tenantPath + "/pull-sources/" + encodeURIComponent(editing), body);
      stopEditing();
      await refresh();
      sourceForm.querySelector(".form-status").textContent =
        (adding ? "Added the pull source of feed " : "Saved the pull source of feed ") + saved.feed + ".";
    } catch (error) {
      showErrors(sourceForm, error);
    }
  });
  submit.textContent = editing ? "Save pull source" : "Add pull source";  // busy() put back the label it found
});

// ---- page -----------------------------------------------------------------------------

async function refresh() {
  await Promise.all([loadFeeds(), loadSources(), loadCatalogSize(), loadImports()]);
}

requireOperator()
  .then((me) => {
    csrfToken = me.csrfToken || "";
    return call("GET", tenantPath);
  })
  .then((tenant) => {
    document.getElementById("tenant-name").textContent = tenant.name;
    document.title = "Feeds of " + tenant.name + " – svc operator console";
    renderNav(apiId, tenant.name);
    return refresh();
  })
  .catch((error) => {
    status.textContent = "Could not load the feeds: " + error.message;
  });
