// The demo shop's further pages (cart layer, cart, category, search, a single-page app, an
// A/B test). Like shop.js this is the shop's code: svc appears only as widget elements,
// _svc_shop_plugin and the documented _svc calls (docs/integration.md).
"use strict";

function findProduct(catalog, sku) {
  return catalog.products.find(function (candidate) {
    return candidate.mainSku === sku || candidate.variants.some(function (variant) { return variant.sku === sku; });
  });
}

// A widget inside a container with a headline, as the guide describes.
function widgetElement(type, touchpoint, sku, id, headline) {
  var container = document.createElement("section");
  container.className = "-svc-widget-container";
  var title = document.createElement("h2");
  title.textContent = headline;
  var widget = document.createElement("div");
  widget.id = id;
  widget.setAttribute("data-svc-widget-id", type);
  widget.setAttribute("data-touchpoint", touchpoint);
  if (sku) widget.setAttribute("data-sku", sku);
  container.append(title, widget);
  return container;
}

function showProductSummary(product) {
  document.getElementById("product-name").textContent = product.name;
  document.getElementById("product-price").textContent = formatEuro(product.price);
}

// Cart layer: after an add-to-cart the shop opens a layer with the complements of the
// product just added (touchpoint cart-layer).
function renderCartLayerPage(sku) {
  var layer = document.getElementById("cart-layer");
  loadShopCatalog().then(function (catalog) {
    var product = findProduct(catalog, sku);
    if (product) showProductSummary(product);
  });
  document.getElementById("add-to-cart").addEventListener("click", function () {
    window._svc_shop_plugin.addToCart(sku, 1, Promise).then(function () {
      var slot = document.getElementById("cart-layer-widgets");
      slot.replaceChildren(widgetElement("SET", "cart-layer", sku, "layer-set-widget", "Goes well with it"));
      layer.showModal();
      if (window._svc && window._svc.initCSE) window._svc.initCSE();
    });
  });
  document.getElementById("cart-layer-close").addEventListener("click", function () { layer.close(); });
}

// Cart: its lines, and widgets for one SKU of the cart (the first line).
function renderCartPage() {
  var cart = readCart();
  var skus = Object.keys(cart);
  var status = document.getElementById("cart-status");
  if (!skus.length) {
    status.textContent = "Your cart is empty.";
    // No SKU to recommend for: the shop leaves the widgets out.
    ["cart-set-container", "cart-similar-container"].forEach(function (id) { document.getElementById(id).remove(); });
    return;
  }
  document.getElementById("cart-set-widget").setAttribute("data-sku", skus[0]);
  document.getElementById("cart-similar-widget").setAttribute("data-sku", skus[0]);
  // The lines are there at once (by SKU), named when the catalog arrives: nothing below them,
  // the widgets included, moves when the catalog comes (no layout shift of the shop's own).
  var list = document.getElementById("cart-lines");
  var items = skus.map(function (sku) {
    var item = document.createElement("li");
    item.textContent = cart[sku] + " × " + sku;
    list.append(item);
    return item;
  });
  status.textContent = skus.length + " product(s)";
  loadShopCatalog().then(function (catalog) {
    skus.forEach(function (sku, index) {
      var product = findProduct(catalog, sku);
      if (product) items[index].textContent = cart[sku] + " × " + product.name;
    });
  });
}

// Category and search listings: a SIMILAR widget for the listing's first product. The
// widget's SKU is known only once the listing is, so the widget is added then, with it
// (the SDK finds it by itself; a widget without its SKU would be hidden as invalid).
function renderListingPage(kind, term) {
  var title = document.getElementById(kind === "category" ? "category-name" : "search-title");
  var input = document.getElementById("search-input");
  if (input) input.value = term;
  loadShopCatalog().then(function (catalog) {
    var needle = term.toLowerCase();
    var hits = catalog.products.filter(function (product) {
      return kind === "category" ? product.category === term : product.name.toLowerCase().indexOf(needle) >= 0;
    });
    title.textContent = kind === "category" ? term : hits.length + " results for “" + term + "”";
    var grid = document.getElementById("product-grid");
    hits.slice(0, 24).forEach(function (product) {
      var item = document.createElement("li");
      var link = document.createElement("a");
      link.href = "product.html?sku=" + encodeURIComponent(product.sku);
      link.textContent = product.name;
      item.append(link);
      grid.append(item);
    });
    if (hits.length) {
      var headline = kind === "category" ? "Popular in this category" : "You might also like";
      document.getElementById(kind + "-widget-slot").append(widgetElement("SIMILAR", kind, hits[0].sku, kind + "-widget", headline));
    }
  });
}

// A single-page app: product links and colour changes go through history.pushState. A
// product change sets the widgets' data-sku (the SDK re-renders by itself); a colour
// change of the same product is announced with _svc.updateWidgetSku, as the spec says.
function startSinglePageShop() {
  var catalog;
  var shownMainSku = null;
  function productUrl(sku) { return "spa.html?sku=" + encodeURIComponent(sku); }
  function show(sku) {
    var product = findProduct(catalog, sku) || catalog.products[0];
    var sameModel = shownMainSku && shownMainSku.split("-")[0] === product.mainSku.split("-")[0];
    shownMainSku = product.mainSku;
    showProductSummary(product);
    var image = document.getElementById("product-image");
    image.src = product.image;
    image.alt = product.name;
    var colours = document.getElementById("product-colours");
    colours.replaceChildren();
    catalog.products.filter(function (other) { return other.mainSku.split("-")[0] === product.mainSku.split("-")[0]; })
      .forEach(function (other) {
        var link = document.createElement("a");
        link.href = productUrl(other.sku);
        link.textContent = other.color;
        link.setAttribute("data-spa-variant", "");
        if (other.mainSku === product.mainSku) link.setAttribute("aria-current", "page");
        colours.append(link, " ");
      });
    var slot = document.getElementById("spa-widgets");
    if (!slot.firstChild) {
      // The first product: the app's widget components appear, already with their SKU.
      slot.append(widgetElement("SET", "product", product.sku, "set-widget", "Complete the look"),
                  widgetElement("SIMILAR", "product", product.sku, "similar-widget", "You may also like"));
    } else if (sameModel && window._svc && window._svc.updateWidgetSku) {
      window._svc.updateWidgetSku("SET", product.sku);
      window._svc.updateWidgetSku("SIMILAR", product.sku);
    } else {
      document.getElementById("set-widget").setAttribute("data-sku", product.sku);
      document.getElementById("similar-widget").setAttribute("data-sku", product.sku);
    }
  }
  function navigate(url) {
    var sku = new URL(url, location.href).searchParams.get("sku");
    history.pushState({ sku: sku }, "", productUrl(sku));
    show(sku);
  }
  // The shop's router takes product links, also those inside the widgets.
  window._svc_shop_plugin.navigateTo = function (path) {
    var target = new URL(path, location.href);
    var sku = target.searchParams.get("sku");
    // The widgets link to product pages: the app shows the product in place.
    navigate(productUrl(sku || target.pathname.split("/").pop()));
  };
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-spa-link], a[data-spa-variant]");
    if (!link) return;
    event.preventDefault();
    navigate(link.href);
  });
  window.addEventListener("popstate", function () { show(new URLSearchParams(location.search).get("sku") || ""); });
  loadShopCatalog().then(function (loaded) {
    catalog = loaded;
    var nav = document.getElementById("spa-nav");
    catalog.products.slice(0, 6).forEach(function (product) {
      var link = document.createElement("a");
      link.href = productUrl(product.sku);
      link.textContent = product.name;
      link.setAttribute("data-spa-link", "");
      nav.append(link, " ");
    });
    show(new URLSearchParams(location.search).get("sku") || catalog.products[0].sku);
  });
}

// An A/B test: every group but "control" sees the widget; the control group does not
// have it in the DOM at all (spec: absent, not hidden with display:none).
function renderAbTestPage(group, sku) {
  window._svc_shop_plugin.testgroup = group;
  document.getElementById("ab-title").textContent = "Test group " + group;
  if (group === "control") return;
  document.getElementById("ab-slot").append(widgetElement("SIMILAR", "product", sku, "ab-widget", "You may also like"));
}
