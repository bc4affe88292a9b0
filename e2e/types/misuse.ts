// What the declarations must refuse: each line below is a mistake a shop could make. tsc fails with
// "Unused '@ts-expect-error' directive" when a declaration stops catching one (too loose a type).

// @ts-expect-error _svc is undefined until the loader ran: it must be guarded.
_svc.initCSE();
// @ts-expect-error SET-Compose has no SKU to update.
_svc?.updateWidgetSku("SET-Compose", "X");
// @ts-expect-error only SET-Compose has a demo.
_svc?.demo("SIMILAR");
// @ts-expect-error consent is one of pending, granted, denied.
_svc?.consent("yes");
// @ts-expect-error consent in the config is one of the three states as well.
window._svc_config = { consent: true };
// @ts-expect-error svclytics knows only "purchase".
svclytics("order", { customerid: "anonymous", orderid: "1", products: [] });
// @ts-expect-error price is an integer number of cents, not a string.
svclytics("purchase", { customerid: "anonymous", orderid: "1", products: [{ sku: "A", amount: 1, price: "19.99" }] });
// @ts-expect-error customerid is always "anonymous": no personal data.
svclytics("purchase", { customerid: "jane@example.com", orderid: "1", products: [] });
// @ts-expect-error addToCart must return a promise.
window._svc_shop_plugin = { addToCart(sku: string) { console.log(sku); } };
// @ts-expect-error the test group is a string.
window._svc_shop_plugin = { addToCart: () => Promise.resolve(), testgroup: 7 };
document.addEventListener("svc:hidden", (event) => {
  // @ts-expect-error a hidden widget has a reason, not products.
  console.log(event.detail.products);
});
document.addEventListener("svc:add-to-cart", (event) => {
  // @ts-expect-error status is resolved, rejected or unknown.
  if (event.detail.status === "added") console.log(event);
});
