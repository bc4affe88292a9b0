// A shop's integration code in TypeScript, using every call docs/integration.md documents. Checked by
// `tsc --strict` against the svc.d.ts the real server serves (e2e/tests/sdk-types.spec.js): a
// declaration that goes missing or changes its shape fails the check.

// Before the snippet: demo mode off, consent unknown until the banner answers.
window._svc_config = { isDemoMode: false, consent: "pending" };

declare const myCart: { add(sku: string, quantity: number): Promise<void> };
declare const myRouter: { push(path: string): void };
declare const consentBanner: { onAnswer(callback: (accepted: boolean) => void): void };

window._svc_shop_plugin = {
  addToCart(sku, quantity, Promise) {
    return new Promise<void>((resolve, reject) => {
      myCart.add(sku, quantity).then(resolve, reject);
    });
  },
  navigateTo(path) { myRouter.push(path); },
  testgroup: "A",
};

consentBanner.onAnswer((accepted) => window._svc?.consent(accepted ? "granted" : "denied"));

// Widgets added later, and a new colour picked on the product page.
window._svc?.initCSE();
_svc?.updateWidgetSku("SIMILAR", "M10001-BLACK");
_svc?.updateWidgetSku("SET", "M10001-BLACK");
_svc?.updateWidgetSku("SET-Custom", "M10001-BLACK");
_svc?.demo("SET-Compose");
const ready: boolean = window._svc?.loaded === true;

// The page after checkout.
svclytics("purchase", {
  customerid: "anonymous",
  orderid: "100045",
  products: [{ sku: "M10001-BLACK-M", amount: 2, price: 4999 }],
});

// The widgets' events, on the document (they bubble) and on one widget.
document.addEventListener("svc:rendered", (event) => {
  const shown: string[] = event.detail.products;
  const where: string = event.detail.touchpoint + event.detail.sku;
  const type: "SET" | "SIMILAR" | "SET-Custom" | "SET-Compose" = event.detail.widgetId;
  console.log(shown.length, where, type, ready);
});
document.addEventListener("svc:hidden", (event) => {
  const reason: "invalid" | "empty" | "failed" | "demo-only" = event.detail.reason;
  const container = (event.target as HTMLElement).closest(".-svc-widget-container");
  console.log(reason, event.detail.message, event.detail.widgetId, event.detail.touchpoint, event.detail.sku, container);
});
const widget = document.querySelector<HTMLDivElement>("div[data-svc-widget-id]");
widget?.addEventListener("svc:add-to-cart", (event) => {
  if (event.detail.status === "rejected") console.warn(event.detail.product, event.detail.reason ?? "");
  if (event.detail.status === "resolved") console.log(event.detail.product, event.detail.widgetId, event.detail.sku);
});
window.addEventListener("svc:hidden", (event) => console.log(event.detail.reason));
