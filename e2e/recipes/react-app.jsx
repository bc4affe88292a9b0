// The test's React shop: a product page whose "Next product" changes the product (a client-side
// route change), with the guide's SimilarWidget or, as a control, a naive one.
import { useState } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { SimilarWidget } from "../../docs/examples/react/SimilarWidget.jsx";

function NaiveWidget({ sku }) {
  return <section className="-svc-widget-container"><h2>You may also like</h2>
    <div data-svc-widget-id="SIMILAR" data-touchpoint="product" data-sku={sku} /></section>;
}

function App({ skus, naive }) {
  const [at, setAt] = useState(0);
  const Widget = naive ? NaiveWidget : SimilarWidget;
  return (
    <main>
      <h1>Product {skus[at]}</h1>
      <button id="next" onClick={() => setAt((at + 1) % skus.length)}>Next product</button>
      <Widget sku={skus[at]} />
    </main>
  );
}

export function serverHtml(props) { return renderToString(<App {...props} />); }
export function start(props, hydrate) {
  const root = document.getElementById("root");
  if (hydrate) hydrateRoot(root, <App {...props} />);
  else createRoot(root).render(<App {...props} />);
}
