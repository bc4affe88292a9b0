// An svc widget in a Vue 3 app (docs/integration.md, section 8; e2e/tests/recipe-frameworks.spec.js
// builds and runs it with the real Vue). A render function, so no template compiler is needed.
import { defineComponent, h, nextTick, onMounted, watch } from "vue";

export const SimilarWidget = defineComponent({
  props: { sku: { type: String, required: true }, touchpoint: { type: String, default: "product" } },
  setup(props) {
    // Spec rule 1: announce a new widget once it is in the page; _svc is undefined until the loader ran.
    const announce = () => nextTick(() => window._svc?.initCSE());
    onMounted(announce);
    watch(() => props.sku, announce);
    // key: another product is another widget (spec rule 3). The SDK fills the element and marks it:
    // data-allow-mismatch lets a server-rendered page hydrate over what svc already put there.
    return () => h("section", { class: "-svc-widget-container", "data-allow-mismatch": "attribute" }, [
      h("h2", "You may also like"),
      h("div", { key: props.sku, "data-svc-widget-id": "SIMILAR", "data-touchpoint": props.touchpoint,
                 "data-sku": props.sku, "data-allow-mismatch": "" }),
    ]);
  },
});
