// The operator's content-pool templates (shared by every tenant): list, edit as JSON, save, delete.
import { call, requireOperator } from "./api.js";
import { renderNav } from "./nav.js";
import { button, cell } from "./dom.js";
import { busy, clearErrors, showErrors } from "./forms.js";

const form = document.getElementById("template-form");
const example = {
  title: "Casual women",
  tags: ["casual"],
  departments: ["Women"],
  occasions: [],
  slots: [
    { name: "top", categories: ["T-Shirts", "Shirts"], colorFamilies: [] },
    { name: "bottom", categories: ["Jeans", "Trousers"], colorFamilies: ["blue"] },
  ],
};

function edit(template) {
  clearErrors(form);
  form.elements.id.value = template ? template.id : "";
  form.elements.id.readOnly = Boolean(template);
  const definition = template ? { ...template } : example;
  delete definition.id;
  form.elements.definition.value = JSON.stringify(definition, null, 2);
  document.getElementById("editor-heading").textContent = template ? "Edit template " + template.id : "New template";
  form.elements[template ? "definition" : "id"].focus();
}

async function load() {
  const { templates } = await call("GET", "/templates");
  const body = document.querySelector("#templates-table tbody");
  body.replaceChildren();
  for (const template of templates) {
    const row = document.createElement("tr");
    const cells = [template.id, template.title, template.tags.join(", "), template.slots.map((slot) => slot.name).join(", ")];
    for (const text of cells) cell(row, text);
    const actions = document.createElement("td");
    actions.append(
      button("Edit", "Edit " + template.id, () => edit(template)),
      " ",
      button("Delete", "Delete " + template.id, async () => {
        if (!confirm("Delete the template " + template.id + "? Every tenant's sets are rebuilt without it.")) return;
        await call("DELETE", "/templates/" + encodeURIComponent(template.id));
        document.getElementById("templates-status").textContent = "Template " + template.id + " deleted.";
        await load();
      }, "danger small"),
    );
    row.appendChild(actions);
    body.appendChild(row);
  }
  document.getElementById("templates-table").hidden = templates.length === 0;
  const status = document.getElementById("templates-status");
  if (!templates.length) status.textContent = "No templates yet.";
  else if (status.textContent === "Loading…") status.textContent = "";
}

// Errors inside the definition ("slots[1].categories: required") are shown at the JSON box, with their path.
function locate(error) {
  const fields = (error.fields && error.fields.length ? error.fields : [{ field: error.field || "", message: error.message }]).map((problem) =>
    problem.field === "id" || !problem.field ? problem : { field: "definition", message: problem.field + ": " + problem.message });
  return { message: error.message, fields };
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors(form);
  const id = form.elements.id.value.trim();
  if (!id) return showErrors(form, { fields: [{ field: "id", message: "required" }] });
  let definition;
  try {
    definition = JSON.parse(form.elements.definition.value);
  } catch (parseError) {
    return showErrors(form, { fields: [{ field: "definition", message: "not valid JSON: " + parseError.message }] });
  }
  try {
    const saved = await busy(form, "Saving…", () => call("PUT", "/templates/" + encodeURIComponent(id), definition));
    await load();
    edit(saved);
    form.querySelector(".form-status").textContent = "Template " + saved.id + " saved.";
  } catch (error) {
    showErrors(form, locate(error));
  }
});

document.getElementById("new-template").addEventListener("click", () => edit(null));

requireOperator()
  .then(() => {
    renderNav();
    edit(null);
    return load();
  })
  .catch((error) => {
    document.getElementById("templates-status").textContent = "Not loaded: " + error.message;
  });
