// TypeScript declarations of svc's browser SDK: the globals of the interface spec ("SDK objects in
// the browser"), consent, and the events widgets dispatch. Served at SDK_URL/sdk/svc.d.ts; see
// docs/integration.md ("TypeScript"). A global script (no import or export): reference it with
// `/// <reference path="./svc.d.ts" />` or list it in tsconfig's "files".

/** The widget types a page can hold (`data-svc-widget-id`). */
type SvcWidgetId = "SET" | "SIMILAR" | "SET-Custom" | "SET-Compose";
/** The widget types whose SKU a shop can change (`_svc.updateWidgetSku`). */
type SvcSkuWidgetId = "SET" | "SIMILAR" | "SET-Custom";
/** `data-touchpoint`: where on the shop the widget stands. */
type SvcTouchpoint = "product" | "cart-layer" | "cart" | "content" | "category" | "search";

/**
 * The visitor's consent to svc's cookie and storage (docs/integration.md, "Consent").
 * `pending` and `denied`: nothing is written, no interaction is attributed; widgets still render.
 */
type SvcConsentState = "pending" | "granted" | "denied";

/** `window._svc`: the loader's queue until the SDK has loaded, then the SDK's API. */
interface SvcApi {
  /** Scans the page for widgets and fills new ones. */
  initCSE(): void;
  /** A new visual variant (colour, pattern; never a size): widgets of this type show content for `sku`. */
  updateWidgetSku(widgetId: SvcSkuWidgetId, sku: string): void;
  /** Shows a demo widget; only SET-Compose supports demo mode. */
  demo(widgetId: "SET-Compose"): void;
  /** The visitor's answer to the shop's consent banner; `granted` starts the cookie at once. */
  consent(state: SvcConsentState): void;
  /** True once the SDK has loaded and run the calls queued before it. */
  readonly loaded?: boolean;
}

/** One order line of a purchase. */
interface SvcOrderLine {
  /** The SKU exactly as in the feed, as a string. */
  sku: string;
  /** Units of the line, an integer. */
  amount: number;
  /** Gross unit price (not the line total) in the smallest currency unit (cents), an integer. */
  price: number;
}

/** The payload of `svclytics("purchase", ...)` on the page after checkout. */
interface SvcPurchase {
  /** Always the constant "anonymous": no personal data. */
  customerid: "anonymous";
  /** Unique per order; repeats are ignored. */
  orderid: string;
  products: SvcOrderLine[];
}

/** `svclytics`: defined by the snippet as a queue, replaced by the SDK. */
interface Svclytics {
  (eventName: "purchase", payload: SvcPurchase): void;
}

/** `window._svc_shop_plugin`: defined by the shop. */
interface SvcShopPlugin {
  /**
   * Called by the add-to-cart buttons with the variant's SKU, quantity 1 and a Promise constructor.
   * Resolve when the product is in the cart, reject (with an Error) when it is not.
   */
  addToCart(sku: string, quantity: number, Promise: PromiseConstructor): PromiseLike<unknown>;
  /** The shop's A/B test group, sent with every widget event. */
  testgroup?: string;
  /** Optional, for single-page apps: the product's path (or full URL on another origin), instead of following the link. */
  navigateTo?(path: string): void;
}

/** `window._svc_config`: set by the shop before the snippet. */
interface SvcConfig {
  /** Demo mode (only SET-Compose). */
  isDemoMode?: boolean;
  /** The visitor's consent as the page starts; absent: the tenant's default set by svc's operator. */
  consent?: SvcConsentState;
}

/** What a widget says about itself in every event's detail. */
interface SvcWidgetDetail {
  widgetId: SvcWidgetId;
  touchpoint: string;
  /** `data-sku`, "" when the widget has none. */
  sku: string;
}

/** `svc:rendered`: the widget shows products (its container is shown unless the shop hid it). */
interface SvcRenderedDetail extends SvcWidgetDetail {
  /** The SKUs shown, one per position. */
  products: string[];
}

/** Why svc hid a widget's container. */
type SvcHiddenReason =
  | "invalid"    // an attribute is missing or wrong (the console names it)
  | "empty"      // svc has no content for it
  | "failed"     // the content request failed, timed out, or the SDK could not run
  | "demo-only"; // SET-Compose outside demo mode

/** `svc:hidden`: svc hid the widget's container. */
interface SvcHiddenDetail {
  reason: SvcHiddenReason;
  /** The cause in words, as in the console's `[svc]` warning. */
  message: string;
  widgetId: string;
  touchpoint: string;
  sku: string;
}

/** `svc:add-to-cart`: the shop's addToCart answered. */
interface SvcAddToCartDetail extends SvcWidgetDetail {
  /** The SKU handed to addToCart (the chosen product, which may be an alternative). */
  product: string;
  /** resolved: its promise resolved; rejected: it rejected or threw; unknown: it returned no promise. */
  status: "resolved" | "rejected" | "unknown";
  /** Why, for rejected and unknown: the rejection's message, or what was wrong. */
  reason?: string;
}

/** The events svc dispatches on the widget element (`div[data-svc-widget-id]`); they bubble. */
interface SvcEventMap {
  "svc:rendered": CustomEvent<SvcRenderedDetail>;
  "svc:hidden": CustomEvent<SvcHiddenDetail>;
  "svc:add-to-cart": CustomEvent<SvcAddToCartDetail>;
}

// The events bubble to the document and window: listen on any of them.
interface HTMLElementEventMap extends SvcEventMap {}
interface DocumentEventMap extends SvcEventMap {}
interface WindowEventMap extends SvcEventMap {}

/** Undefined until the snippet's loader ran: call it as `window._svc?.initCSE()`. */
declare var _svc: SvcApi | undefined;
declare var svclytics: Svclytics;
declare var _svc_shop_plugin: SvcShopPlugin | undefined;
declare var _svc_config: SvcConfig | undefined;
