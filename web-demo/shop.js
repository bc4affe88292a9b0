// The demo shop's own code: it knows its catalog (shop.json, written with the feed)
// and renders its pages. svc is only in the snippet and the widget elements.
"use strict";

// The shop's side of the svc contract (docs/integration.md): addToCart must return a
// promise, built with the Promise the SDK hands in. A test page may have defined its own.
window._svc_shop_plugin = window._svc_shop_plugin || {
  testgroup: "A",
  addToCart: function (sku, quantity, Promise) {
    return new Promise(function (resolve) {
      var cart = readCart();
      cart[sku] = (cart[sku] || 0) + quantity;
      try { sessionStorage.setItem("demo-cart", JSON.stringify(cart)); } catch (ignored) {}
      showCartCount(cart);
      resolve();
    });
  }
};

function readCart() {
  try { return JSON.parse(sessionStorage.getItem("demo-cart") || "{}"); } catch (ignored) { return {}; }
}

function showCartCount(cart) {
  var count = 0;
  for (var sku in cart) count += cart[sku];
  var badge = document.getElementById("cart-count");
  if (badge) badge.textContent = "Cart: " + count;
}

document.addEventListener("DOMContentLoaded", function () { showCartCount(readCart()); });

function loadShopCatalog() {
  return fetch("shop.json").then(function (response) {
    if (!response.ok) throw new Error("shop.json: HTTP " + response.status);
    return response.json();
  });
}

function formatEuro(cents) {
  return (cents / 100).toFixed(2).replace(".", ",") + "\u00a0€";
}

function renderProductList(grid, status) {
  loadShopCatalog().then(function (catalog) {
    status.textContent = catalog.products.length + " products";
    catalog.products.slice(0, 60).forEach(function (product) {
      var item = document.createElement("li");
      var link = document.createElement("a");
      link.href = "product.html?sku=" + encodeURIComponent(product.sku);
      var image = document.createElement("img");
      image.src = product.image;
      image.alt = product.name;
      image.width = 240;
      image.height = 320;
      image.loading = "lazy";
      var name = document.createElement("span");
      name.textContent = product.name;
      var price = document.createElement("span");
      price.className = "price";
      price.textContent = formatEuro(product.price);
      link.append(image, name, price);
      item.append(link);
      grid.append(item);
    });
  }, function (error) { status.textContent = "The catalog could not be loaded (" + error.message + ")."; });
}

function renderProductPage(sku) {
  // The widget gets its SKU before the SDK scans the page (DOMContentLoaded).
  document.getElementById("similar-widget").setAttribute("data-sku", sku);
  document.getElementById("set-widget").setAttribute("data-sku", sku);
  loadShopCatalog().then(function (catalog) {
    var product = catalog.products.find(function (candidate) {
      return candidate.mainSku === sku || candidate.variants.some(function (variant) { return variant.sku === sku; });
    });
    if (!product) {
      document.getElementById("product-name").textContent = "This product is not in the shop";
      return;
    }
    document.title = product.name + " – Demo Shop";
    document.getElementById("product-name").textContent = product.name;
    document.getElementById("product-brand").textContent = product.brand;
    var image = document.getElementById("product-image");
    image.src = product.image;
    image.alt = product.name;
    var price = document.getElementById("product-price");
    price.textContent = formatEuro(product.price);
    if (product.retailPrice > product.price) {
      var retail = document.createElement("s");
      retail.textContent = formatEuro(product.retailPrice);
      price.prepend(retail, " ");
    }
    var sizes = document.getElementById("product-size");
    product.variants.forEach(function (variant) {
      var option = document.createElement("option");
      option.value = variant.sku;
      option.textContent = variant.size + (variant.stock > 0 ? "" : " (sold out)");
      option.selected = variant.sku === sku;
      sizes.append(option);
    });
    var model = product.mainSku.split("-")[0];
    var colours = document.getElementById("product-colours");
    catalog.products.filter(function (other) { return other.mainSku.split("-")[0] === model; }).forEach(function (other) {
      var link = document.createElement("a");
      link.href = "product.html?sku=" + encodeURIComponent(other.sku);
      link.textContent = other.color;
      if (other.mainSku === product.mainSku) link.setAttribute("aria-current", "page");
      colours.append(link, " ");
    });
  });
}

// The page after checkout: the order is reported to svc with svclytics (docs/integration.md):
// customerid is always "anonymous", SKUs are strings as in the feed, prices are gross unit
// prices in cents. The demo's order id comes from the URL (a real shop has its own).
function renderCheckoutSuccess(orderId) {
  var cart = readCart();
  loadShopCatalog().then(function (catalog) {
    var lines = [];
    Object.keys(cart).forEach(function (sku) {
      var product = catalog.products.find(function (candidate) {
        return candidate.variants.some(function (variant) { return variant.sku === sku; });
      });
      if (product) lines.push({ sku: sku, amount: cart[sku], price: product.price, name: product.name });
    });
    var list = document.getElementById("order-lines");
    lines.forEach(function (line) {
      var item = document.createElement("li");
      item.textContent = line.amount + " × " + line.name + " (" + formatEuro(line.price) + ")";
      list.append(item);
    });
    var id = orderId || "DEMO-" + Date.now();
    document.getElementById("order-status").textContent = lines.length ? "Order " + id + " is confirmed." : "Your cart was empty.";
    if (!lines.length) return;
    window.svclytics("purchase", {
      customerid: "anonymous",
      orderid: id,
      products: lines.map(function (line) { return { sku: line.sku, amount: line.amount, price: line.price }; })
    });
    try { sessionStorage.removeItem("demo-cart"); } catch (ignored) {}
  });
}
