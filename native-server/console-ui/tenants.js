import { call, requireOperator } from "./api.js";
import { renderNav } from "./nav.js";
import { cell } from "./dom.js";
import { busy, clearErrors, showErrors } from "./forms.js";

const table = document.getElementById("tenant-table");
const status = document.getElementById("list-status");
const searchForm = document.getElementById("search-form");
const pager = document.getElementById("pager");

// What each attention finding is called on the page (docs/adr/0066).
const reasonLabels = {
  "feed-failing": "feed failing",
  "feed-stale": "feed stale",
  "purchases-quarantined": "purchases quarantined",
  "purchases-waiting": "purchases waiting",
  "held-imports": "held",
  "widget-errors": "widget errors",
  "traffic-drop": "traffic down",
};

// The list's state lives in the address (?q=&sort=&page=): reload and back keep the place.
function listState() {
  const params = new URLSearchParams(location.search);
  const page = Number.parseInt(params.get("page") || "1", 10);
  return { q: params.get("q") || "", sort: params.get("sort") || "attention", page: page > 0 ? page : 1 };
}

function setListState(state) {
  const params = new URLSearchParams();
  if (state.q) params.set("q", state.q);
  if (state.sort !== "attention") params.set("sort", state.sort);
  if (state.page > 1) params.set("page", String(state.page));
  const search = params.toString();
  history.replaceState(null, "", search ? "?" + search : location.pathname);
}

function badge(text, kind) {
  const element = document.createElement("span");
  element.className = kind ? "badge " + kind : "badge";
  element.textContent = text;
  return element;
}

function attentionCell(row, tenant) {
  const { score, reasons } = tenant.attention;
  if (!reasons.length) return cell(row, badge(tenant.disabled ? "—" : "nothing"));
  const scoreText = document.createElement("span");
  scoreText.className = "score";
  scoreText.textContent = String(score);
  const list = document.createElement("ul");
  list.className = "badges";
  for (const reason of reasons) {
    const item = document.createElement("li");
    const label = (reasonLabels[reason.kind] || reason.kind) + ": " + reason.detail;
    const kind = reason.points >= 30 ? "off" : "warn";
    if (reason.kind === "held-imports" || reason.kind.startsWith("feed-")) {
      const link = document.createElement("a");
      link.href = "feeds.html?apiId=" + encodeURIComponent(tenant.apiId);
      link.append(badge(label, kind));
      item.append(link);
    } else {
      item.append(badge(label, kind));
    }
    item.dataset.kind = reason.kind;
    list.append(item);
  }
  return cell(row, scoreText, list);
}

function feedsCell(row, tenant) {
  if (!tenant.feeds.length) return cell(row, "no feed");
  const list = document.createElement("ul");
  list.className = "badges";
  for (const feed of tenant.feeds) {
    const item = document.createElement("li");
    const text = feed.feed + ": " + feed.state;
    const element = badge(text, feed.state === "fresh" ? "" : "off");
    const why = feed.state === "failing" ? (feed.lastPullResult.startsWith("failed") ? feed.lastPullResult : feed.lastMessage) : "";
    if (why) element.title = why;
    // Each feed's badge leads to the tenant's Feeds page, named for screen readers by shop and state.
    const link = document.createElement("a");
    link.href = "feeds.html?apiId=" + encodeURIComponent(tenant.apiId);
    link.setAttribute("aria-label", "Feeds of " + tenant.name + ": " + text);  // holds the visible text (WCAG 2.5.3)
    link.append(element);
    item.append(link);
    list.append(item);
  }
  return cell(row, list);
}

function change(current, previous, format) {
  const span = document.createElement("span");
  span.className = "figure-change";
  span.textContent = " (last month " + format(previous) + ")";
  return [format(current), span];
}

function money(cents, tenant) {
  try {
    return new Intl.NumberFormat(tenant.locale, { style: "currency", currency: tenant.currency }).format(cents / 100);
  } catch {
    return (cents / 100).toFixed(2) + " " + tenant.currency;
  }
}

// Loads overlap (the first one is still on its way when a search is sent): only the newest
// renders, so an older, wider answer never replaces the search's.
let newestLoad = 0;

async function load() {
  const ticket = ++newestLoad;
  const state = listState();
  const params = new URLSearchParams({ sort: state.sort, page: String(state.page), limit: "50" });
  if (state.q) params.set("q", state.q);
  const list = await call("GET", "/tenants?" + params.toString());
  if (ticket !== newestLoad) return;
  if (list.pages > 0 && state.page > list.pages) {
    // The list shrank under the page asked for (a bookmark, a narrower search): show the last page.
    setListState({ ...state, page: list.pages });
    return load();
  }
  const body = table.tBodies[0];
  body.replaceChildren();
  const number = new Intl.NumberFormat();
  for (const tenant of list.tenants) {
    const row = document.createElement("tr");
    row.dataset.apiId = tenant.apiId;
    const link = document.createElement("a");
    link.href = "tenant.html?apiId=" + encodeURIComponent(tenant.apiId);
    link.textContent = tenant.name;
    cell(row, link);
    const id = document.createElement("code");
    id.textContent = tenant.apiId;
    cell(row, id);
    attentionCell(row, tenant);
    feedsCell(row, tenant);
    cell(row, ...change(tenant.traffic.thisMonth, tenant.traffic.lastMonth, (n) => number.format(n)));
    cell(row, ...change(tenant.commission.thisMonth, tenant.commission.lastMonth, (cents) => money(cents, tenant)));
    cell(row, badge(tenant.disabled ? "disabled" : "active", tenant.disabled ? "off" : ""));
    body.appendChild(row);
  }
  table.hidden = list.tenants.length === 0;
  const plural = (n, word) => number.format(n) + " " + word + (n === 1 ? "" : "s");
  if (list.total === 0) status.textContent = "No tenants yet.";
  else if (list.q) status.textContent = plural(list.matching, "tenant") + " of " + number.format(list.total) + " match “" + list.q + "”.";
  else status.textContent = plural(list.total, "tenant") + ", " + number.format(list.needingAttention) + " needing attention.";
  pager.hidden = list.pages <= 1;
  document.getElementById("page-status").textContent = "Page " + list.page + " of " + Math.max(list.pages, 1);
  document.getElementById("previous-page").disabled = list.page <= 1;
  document.getElementById("next-page").disabled = list.page >= list.pages;
}

function showLoadError(error) {
  status.textContent = "Could not load the tenants: " + error.message;
}

searchForm.addEventListener("submit", (event) => {
  event.preventDefault();
  setListState({ q: searchForm.elements.q.value.trim(), sort: searchForm.elements.sort.value, page: 1 });
  load().catch(showLoadError);
});
searchForm.elements.sort.addEventListener("change", () => searchForm.requestSubmit());
for (const [id, step] of [["previous-page", -1], ["next-page", 1]]) {
  document.getElementById(id).addEventListener("click", () => {
    const state = listState();
    setListState({ ...state, page: Math.max(1, state.page + step) });
    load().then(() => table.focus()).catch(showLoadError);
  });
}
table.tabIndex = -1;

const form = document.getElementById("create-form");
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors(form);
  const name = form.elements.name.value.trim();
  if (!name) return showErrors(form, { fields: [{ field: "name", message: "required: the shop's name" }] });
  try {
    const created = await busy(form, "Creating…", () => call("POST", "/tenants", { name }));
    form.reset();
    document.getElementById("secret-tenant").textContent = created.tenant.name;
    document.getElementById("secret-api-id").textContent = created.tenant.apiId;
    document.getElementById("secret-value").textContent = created.apiSecret;
    const box = document.getElementById("secret-box");
    box.hidden = false;
    box.focus();
    await load();
  } catch (error) {
    showErrors(form, error);
  }
});

document.getElementById("secret-done").addEventListener("click", () => {
  // Gone from the page as well: it cannot be shown again.
  document.getElementById("secret-value").textContent = "";
  document.getElementById("secret-box").hidden = true;
  form.elements.name.focus();
});

renderNav();
// The search box shows the URL's search from the start; a load never writes it (the shopper's
// operator may be typing while one is on its way).
searchForm.elements.q.value = listState().q;
searchForm.elements.sort.value = listState().sort;
requireOperator().then(load).catch(showLoadError);
