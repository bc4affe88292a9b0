import { signIn } from "./api.js";
import { busy, clearErrors, showErrors } from "./forms.js";

const form = document.getElementById("sign-in-form");
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors(form);
  const email = form.elements.email.value.trim();
  const password = form.elements.password.value;
  try {
    await busy(form, "Signing in…", () => signIn(email, password));
    // Only a page of the console itself, never another site.
    const next = new URLSearchParams(location.search).get("next") || "";
    location.href = /^[a-z-]+\.html(\?[A-Za-z0-9=&%-]*)?$/.test(next) ? next : "tenants.html";
  } catch (error) {
    form.elements.password.value = "";
    if (error.status === 401 || error.status === 429) {
      // Which of the two was wrong is not said (and not known to the server's answer).
      showErrors(form, { fields: [{ field: "password", message: error.message }] });
    } else {
      showErrors(form, error);
    }
  }
});
