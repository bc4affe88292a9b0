// The test's Vue shop (client-rendered, or server-rendered and hydrated): a product page whose "Next product" changes the product (a client-side route change).
import { createApp, createSSRApp, defineComponent, h, ref } from "vue";
import { renderToString } from "vue/server-renderer";
import { SimilarWidget } from "../../docs/examples/vue/SimilarWidget.js";

const App = defineComponent({
  props: { skus: { type: Array, required: true } },
  setup(props) {
    const at = ref(0);
    return () => h("main", [
      h("h1", "Product " + props.skus[at.value]),
      h("button", { id: "next", onClick: () => { at.value = (at.value + 1) % props.skus.length; } }, "Next product"),
      h(SimilarWidget, { sku: props.skus[at.value] }),
    ]);
  },
});

export function serverHtml(props) { return renderToString(createSSRApp(App, props)); }

export function start(props, hydrate) {
  (hydrate ? createSSRApp : createApp)(App, props).mount("#root");
}
