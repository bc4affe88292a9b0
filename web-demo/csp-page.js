// The strict-CSP page's own code (inline scripts are not allowed there).
renderProductPage(new URLSearchParams(location.search).get("sku") || "");
