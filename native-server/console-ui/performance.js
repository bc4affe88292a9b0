// The Performance page (docs/adr/0047): a tenant's figures per UTC day from the tracking
// reports, one uPlot chart per figure with one line per group (widget type, touchpoint or A/B
// test group), and the same figures in tables: a canvas says nothing to a screen reader, and the
// tables are what the e2e tests read (data-value holds the raw number, minor units for money).
import { call, requireOperator } from "./api.js";
import { cell } from "./dom.js";
import { busy, clearErrors, showErrors } from "./forms.js";
import { renderNav } from "./nav.js";

const params = new URLSearchParams(location.search);
const apiId = params.get("apiId") || "";
const tenantPath = "/tenants/" + encodeURIComponent(apiId);
const form = document.getElementById("range-form");
const status = document.getElementById("performance-status");
const results = document.getElementById("results");
const empty = document.getElementById("empty-state");
const ledgerLink = document.getElementById("ledger-link");
const charts = [];

// The colours of .swatch-0 ... .swatch-7 in console.css, in the same order.
const palette = ["#0b5cad", "#c2410c", "#1d6b33", "#7e22ce", "#a4161a", "#0e7490", "#854d0e", "#4f5863"];
const groupNames = { widget: "Widget type", touchpoint: "Touchpoint", testGroup: "A/B test group" };
const groupPhrases = { widget: "widget type", touchpoint: "touchpoint", testGroup: "A/B test group" };
// Counts step in whole numbers on the axis (no "0.25 orders").
const wholeSteps = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6, 1e7, 1e8];

let formats = null;

function makeFormats(locale, currency) {
  const money = new Intl.NumberFormat(locale, { style: "currency", currency });
  const digits = money.resolvedOptions().maximumFractionDigits;
  const count = new Intl.NumberFormat(locale);
  const percent = new Intl.NumberFormat(locale, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return {
    count: (value) => count.format(value),
    rate: (value) => (value === null ? "—" : percent.format(value)),
    // Minor units (cents) to the currency's major unit, as the API sends them.
    money: (value) => money.format(value / 10 ** digits),
    major: (value) => value / 10 ** digits,
    moneyAxis: (value) => money.format(value),
  };
}

const metrics = [
  { id: "impressions", label: "Impressions", kind: "count" },
  { id: "clicks", label: "Clicks", kind: "count" },
  { id: "clickRate", label: "Click rate", kind: "rate" },
  { id: "addToCarts", label: "Add-to-carts", kind: "count" },
  { id: "orders", label: "Orders", kind: "count" },
  { id: "attributedRevenue", label: "Attributed revenue", kind: "money" },
  { id: "commission", label: "Commission", kind: "money" },
];

function figureCell(row, metric, value) {
  const td = document.createElement("td");
  td.className = "number";
  td.dataset.metric = metric.id;
  td.dataset.value = value === null ? "" : String(value);
  td.textContent = formats[metric.kind](value);
  row.appendChild(td);
}

function groupRow(cells, key, figures) {
  const row = document.createElement("tr");
  row.dataset.key = key;
  for (const text of cells) {
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = text;
    row.appendChild(th);
  }
  for (const metric of metrics) figureCell(row, metric, figures[metric.id]);
  return row;
}

// All orders and, among them, those without a visitor id (docs/adr/0083): what the widgets
// could not have earned. data-value holds the raw figures, money in minor units.
function renderOrders(report) {
  const orderRow = (key, label, count, revenue) => {
    const row = document.createElement("tr");
    row.dataset.key = key;
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = label;
    row.appendChild(th);
    figureCell(row, { id: "orders", kind: "count" }, count);
    figureCell(row, { id: "revenue", kind: "money" }, revenue);
    return row;
  };
  document.getElementById("orders-table").tBodies[0].replaceChildren(
    orderRow("all", "All orders", report.allOrders, report.allRevenue),
    orderRow("withoutConsent", "Without consent", report.ordersWithoutConsent, report.revenueWithoutConsent));
}

function renderTables(report) {
  for (const heading of document.querySelectorAll(".group-heading")) heading.textContent = groupNames[report.by];
  const totals = document.getElementById("totals-table");
  totals.tBodies[0].replaceChildren(...report.series.map((line) => groupRow([line.key], line.key, line.total)));
  totals.tFoot.replaceChildren(groupRow(["All groups"], "", report.total));
  const days = document.getElementById("days-table");
  const rows = [];
  report.days.forEach((day, index) => {
    for (const line of report.series) {
      const figures = Object.fromEntries(metrics.map((metric) => [metric.id, line[metric.id][index]]));
      const quiet = metrics.every((metric) => metric.kind === "rate" || figures[metric.id] === 0);
      if (quiet) continue;
      const row = groupRow([day, line.key], line.key, figures);
      row.dataset.day = day;
      rows.push(row);
    }
  });
  days.tBodies[0].replaceChildren(...rows);
}

function renderLegend(report) {
  const legend = document.getElementById("chart-legend");
  legend.replaceChildren(
    ...report.series.map((line, index) => {
      const item = document.createElement("li");
      const swatch = document.createElement("span");
      swatch.className = "swatch swatch-" + (index % palette.length);
      swatch.setAttribute("aria-hidden", "true");
      const name = document.createElement("span");
      name.textContent = line.key;
      item.append(swatch, name);
      return item;
    }),
  );
}

function renderCharts(report) {
  for (const chart of charts.splice(0)) chart.destroy();
  const container = document.getElementById("charts");
  container.replaceChildren();
  const xs = report.days.map((day) => Date.parse(day + "T00:00:00Z") / 1000);
  for (const metric of metrics) {
    const figure = document.createElement("figure");
    const caption = document.createElement("figcaption");
    caption.id = "chart-" + metric.id + "-caption";
    caption.textContent = metric.label + " per day";
    const plot = document.createElement("div");
    plot.className = "chart";
    plot.dataset.metric = metric.id;
    plot.setAttribute("role", "img");
    plot.setAttribute("aria-label", metric.label + " per day, one line per group; the figures are in the table below");
    figure.append(caption, plot);
    container.appendChild(figure);
    const money = metric.kind === "money";
    const data = [xs, ...report.series.map((line) => line[metric.id].map((value) => (value === null ? null : money ? formats.major(value) : value)))];
    const axisValue = money ? formats.moneyAxis : metric.kind === "rate" ? formats.rate : formats.count;
    const options = {
      width: Math.max(280, plot.clientWidth || figure.clientWidth - 20),
      height: 200,
      legend: { show: false },
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"),
      scales: { x: { time: true }, y: { range: (u, min, max) => [0, max > 0 ? max * 1.1 : 1] } },
      series: [{}, ...report.series.map((line, index) => ({ label: line.key, stroke: palette[index % palette.length], width: 2, points: { show: true } }))],
      axes: [{}, { size: 70, values: (u, splits) => splits.map(axisValue), ...(metric.kind === "count" ? { incrs: wholeSteps } : {}) }],
    };
    charts.push(new uPlot(options, data, plot));
  }
}

// Lines that could not be booked (docs/adr/0055): shown with their reason, never hiding the rest.
function renderNotBooked(report) {
  const notBooked = report.notBooked || { count: 0, lines: [] };
  const section = document.getElementById("not-booked");
  section.hidden = notBooked.count === 0;
  const rows = notBooked.lines.map((line) => {
    const row = document.createElement("tr");
    row.dataset.orderid = line.orderid;
    cell(row, line.orderid);
    cell(row, String(line.line + 1)).className = "number";
    cell(row, line.sku);
    cell(row, formats.count(line.amount)).className = "number";
    const price = cell(row, formats.money(line.price));
    price.className = "number";
    price.dataset.value = String(line.price);
    cell(row, line.reason).className = "reason";
    return row;
  });
  document.getElementById("not-booked-table").tBodies[0].replaceChildren(...rows);
  const more = document.getElementById("not-booked-more");
  more.hidden = notBooked.count <= notBooked.lines.length;
  more.textContent = "The first " + notBooked.lines.length + " of " + formats.count(notBooked.count) + " lines not booked.";
}

// Orders whose claims disagree (docs/adr/0056) earn nothing until the shop settles them.
function renderConflicts(report) {
  const note = document.getElementById("conflicts-note");
  const conflicts = report.conflicts || 0;
  note.hidden = conflicts === 0;
  note.textContent = conflicts === 0 ? "" :
    formats.count(conflicts) + (conflicts === 1 ? " order" : " orders") + " in this period had conflicting claims (another " +
    "version of the order from a browser, or one the shop did not confirm). A conflicting claim earns nothing; the shop " +
    "settles the order with PUT /orders/{orderid}. The ledger CSV lists every claim with its claim_status.";
}

function setLedgerLink(from, to) {
  const query = new URLSearchParams({ from, to });
  ledgerLink.href = "/operator/api" + tenantPath + "/performance/ledger.csv?" + query;
  // The visible text first, so speech input ("click Download ledger CSV") finds the link.
  ledgerLink.setAttribute("aria-label", "Download ledger CSV from " + from + " to " + to);
}

async function load() {
  clearErrors(form);
  const query = new URLSearchParams();
  for (const name of ["from", "to", "by"]) {
    const value = form.elements.namedItem(name).value;
    if (value) query.set(name, value);
  }
  status.textContent = "Loading the figures…";
  let report;
  try {
    report = await busy(form, "Loading…", () => call("GET", tenantPath + "/performance?" + query));
  } catch (error) {
    showErrors(form, error);
    status.textContent = "Could not load the figures: " + error.message;
    return;
  }
  // The page's address keeps the choice, so a reload or a shared link shows the same.
  history.replaceState(null, "", "?" + new URLSearchParams({ apiId, from: report.from, to: report.to, by: report.by }));
  form.elements.namedItem("from").value = report.from;
  form.elements.namedItem("to").value = report.to;
  setLedgerLink(report.from, report.to);
  const nothing = report.series.length === 0 && report.allOrders === 0;
  empty.hidden = !nothing;
  results.hidden = nothing;
  renderNotBooked(report);
  renderConflicts(report);
  const period = report.from + " to " + report.to;
  if (nothing) {
    status.textContent = "No traffic from " + period + ".";
    return;
  }
  renderTables(report);
  renderOrders(report);
  renderLegend(report);
  renderCharts(report);
  status.textContent = "Figures from " + period + " by " + groupPhrases[report.by] + ", " + report.series.length +
    (report.series.length === 1 ? " group." : " groups.");
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  load();
});

window.addEventListener("resize", () => {
  for (const chart of charts) {
    const width = chart.root.parentElement.clientWidth;
    if (width > 0) chart.setSize({ width: Math.max(280, width), height: 200 });
  }
});

for (const name of ["from", "to", "by"]) {
  if (params.get(name)) form.elements.namedItem(name).value = params.get(name);
}

requireOperator()
  .then(() => call("GET", tenantPath))
  .then((tenant) => {
    document.getElementById("tenant-name").textContent = tenant.name;
    document.title = "Performance of " + tenant.name + " – svc operator console";
    renderNav(apiId, tenant.name);
    formats = makeFormats(tenant.locale || "en", tenant.currency || "EUR");
    return load();
  })
  .catch((error) => {
    status.textContent = "Could not load the figures: " + error.message;
  });
