// Errors shown where they belong: each next to its field (aria-invalid + aria-describedby, so
// a screen reader reads it with the field), anything else in the form's alert.

export function clearErrors(form) {
  for (const element of form.querySelectorAll("[aria-invalid]")) element.removeAttribute("aria-invalid");
  for (const message of form.querySelectorAll(".field-error")) {
    message.textContent = "";
    message.hidden = true;
  }
  const alert = form.querySelector(".form-alert");
  if (alert) {
    alert.textContent = "";
    alert.hidden = true;
  }
}

// `fieldFor(name)` maps an API field name to a control; unmapped errors go to the alert.
export function showErrors(form, error, fieldFor = (name) => form.elements.namedItem(name)) {
  clearErrors(form);
  const problems = error.fields && error.fields.length ? error.fields : [{ field: error.field || "", message: error.message }];
  const general = [];
  let first = null;
  for (const problem of problems) {
    const control = problem.field ? fieldFor(problem.field) : null;
    const message = control && document.getElementById(control.id + "-error");
    if (!control || !message) {
      general.push(problem.field ? problem.field + ": " + problem.message : problem.message);
      continue;
    }
    control.setAttribute("aria-invalid", "true");
    message.textContent = problem.message;
    message.hidden = false;
    first = first || control;
  }
  const alert = form.querySelector(".form-alert");
  if (alert && general.length) {
    alert.textContent = general.join(" ");
    alert.hidden = false;
  }
  if (first) first.focus();
  else if (alert && general.length) alert.focus();
}

// Disables the form's submit button while `work` runs and says so: long calls show progress.
export async function busy(form, label, work) {
  const button = form.querySelector("button[type=submit]");
  const status = form.querySelector(".form-status");
  const original = button ? button.textContent : "";
  if (button) {
    button.disabled = true;
    button.textContent = label;
  }
  if (status) status.textContent = label;
  try {
    return await work();
  } finally {
    if (button) {
      button.disabled = false;
      button.textContent = original;
    }
    if (status && status.textContent === label) status.textContent = "";
  }
}

// A form filled from a request starts disabled (its `fieldset.form-body`, in the page's HTML) and
// is enabled here once the stored values are shown: what an operator typed before they arrived
// would otherwise be overwritten by them, and a save would send the stored values instead.
export function formLoaded(form) {
  const body = form.querySelector("fieldset.form-body");
  if (body) body.disabled = false;
  form.removeAttribute("aria-busy");
}
