// The console's navigation, built in one place so every page lists the same places: the
// operator-wide pages, and a tenant's pages once a tenant is chosen (?apiId=...).
// A page marks itself with <nav id="console-nav" data-page="..."> and calls renderNav().

const consolePages = [
  { page: "tenants", label: "Tenants" },
  { page: "shops", label: "Shops" },
  { page: "templates", label: "Templates" },
  { page: "operators", label: "Operators" },
];

const tenantPages = [
  { page: "tenant", label: "Settings" },
  { page: "feeds", label: "Feeds" },
  { page: "widgets", label: "Widgets" },
  { page: "sets", label: "Sets" },
  { page: "categories", label: "Categories" },
  { page: "performance", label: "Performance" },
];

function link(page, label, current, query) {
  const a = document.createElement("a");
  a.href = page + ".html" + query;
  a.textContent = label;
  if (page === current) a.setAttribute("aria-current", "page");
  return a;
}

// `tenantName` labels the tenant group ("Shop A: Settings Feeds ..."); a page without a
// tenant (tenants, shops, templates, operators) shows only the operator-wide links.
export function renderNav(apiId = "", tenantName = "") {
  const nav = document.getElementById("console-nav");
  if (!nav) return;
  const current = nav.dataset.page;
  nav.replaceChildren();
  for (const { page, label } of consolePages) nav.appendChild(link(page, label, current, ""));
  if (!apiId) return;
  const group = document.createElement("span");
  group.className = "nav-tenant";
  const name = document.createElement("strong");
  name.textContent = tenantName || apiId;
  group.appendChild(name);
  const query = "?apiId=" + encodeURIComponent(apiId);
  for (const { page, label } of tenantPages) group.appendChild(link(page, label, current, query));
  nav.appendChild(group);
}
