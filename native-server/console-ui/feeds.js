import { call, requireOperator } from "./api.js";
import { renderNav } from "./nav.js";

const apiId = new URLSearchParams(location.search).get("apiId") || "";
const path = "/tenants/" + encodeURIComponent(apiId) + "/imports";
const table = document.getElementById("imports-table");
const status = document.getElementById("imports-status");

function cell(row, content) {
  const td = document.createElement("td");
  if (content instanceof Node) td.appendChild(content);
  else td.textContent = content;
  row.appendChild(td);
  return td;
}

function decisionButton(record, label, action, className) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = className;
  button.textContent = label;
  button.setAttribute("aria-label", label + " import " + record.id);
  button.addEventListener("click", async () => {
    for (const other of table.querySelectorAll("button")) other.disabled = true;
    // Confirming applies the whole file: that can take a while, so the page says so.
    status.textContent = (action === "confirm" ? "Applying import " : "Discarding import ") + record.id + "…";
    try {
      const done = await call("POST", path + "/" + record.id + "/" + action);
      await load();
      status.textContent = "Import " + done.id + " is " + done.status + ".";
    } catch (error) {
      status.textContent = "Import " + record.id + ": " + error.message;
      for (const other of table.querySelectorAll("button")) other.disabled = false;
    }
  });
  return button;
}

async function load() {
  const { imports } = await call("GET", path);
  const body = table.tBodies[0];
  body.replaceChildren();
  for (const record of imports) {
    const row = document.createElement("tr");
    cell(row, String(record.id));
    cell(row, record.createdAt ? new Date(record.createdAt * 1000).toLocaleString() : "—");
    cell(row, record.feed + (record.delta ? " (delta)" : ""));
    const state = document.createElement("span");
    state.className = record.status === "failed" || record.status === "held" ? "badge off" : "badge";
    state.textContent = record.status;
    cell(row, state);
    for (const count of [record.rowsRead, record.inserted, record.updated, record.markedDeleted]) cell(row, String(count));
    if (record.rejected > 0) {
      const link = document.createElement("a");
      link.href = "/operator/api" + path + "/" + record.id + "/errors.csv";
      link.textContent = record.rejected + " (CSV)";
      link.setAttribute("aria-label", "Download the " + record.rejected + " row errors of import " + record.id + " as CSV");
      cell(row, link);
    } else {
      cell(row, "0");
    }
    cell(row, record.message || "");
    const actions = cell(row, "");
    if (record.status === "held") {
      actions.append(decisionButton(record, "Confirm", "confirm", ""), " ", decisionButton(record, "Discard", "discard", "secondary"));
    }
    body.appendChild(row);
  }
  table.hidden = imports.length === 0;
  status.textContent = imports.length === 0 ? "No imports yet." : imports.length + (imports.length === 1 ? " import" : " imports");
}

requireOperator()
  .then(() => call("GET", "/tenants/" + encodeURIComponent(apiId)))
  .then((tenant) => {
    document.getElementById("tenant-name").textContent = tenant.name;
    document.title = "Feeds of " + tenant.name + " – svc operator console";
    renderNav(apiId, tenant.name);
    return load();
  })
  .catch((error) => {
    status.textContent = "Could not load the imports: " + error.message;
  });
