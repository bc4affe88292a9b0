// An svc widget in a React app, client-rendered or server-rendered and hydrated (docs/integration.md,
// section 8; e2e/tests/recipe-frameworks.spec.js builds and runs it with the real React).
import { useEffect } from "react";

export function SimilarWidget({ sku, touchpoint = "product" }) {
  useEffect(() => {
    // Spec rule 1: announce a new widget (the SDK also notices it by itself); _svc is undefined
    // until the loader ran.
    window._svc?.initCSE();
  }, [sku]);
  // The SDK fills the widget and marks it and its container with attributes of its own, possibly
  // before React hydrates: React must not compare or replace what is inside (suppressHydrationWarning,
  // an empty dangerouslySetInnerHTML that React never rewrites). key: another product is another
  // widget (spec rule 3).
  return (
    <section className="-svc-widget-container" suppressHydrationWarning>
      <h2>You may also like</h2>
      <div key={sku} data-svc-widget-id="SIMILAR" data-touchpoint={touchpoint} data-sku={sku}
           suppressHydrationWarning dangerouslySetInnerHTML={{ __html: "" }} />
    </section>
  );
}
