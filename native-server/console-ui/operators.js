// The Operators page (docs/adr/0050): the accounts, adding one, removing another, and
// changing one's own password. The server checks everything; the page only shows its answers
// next to the fields (plus the one check only a form can make: the new password typed twice).
import { call, requireOperator } from "./api.js";
import { renderNav } from "./nav.js";
import { cell } from "./dom.js";
import { busy, clearErrors, showErrors } from "./forms.js";

const table = document.getElementById("operator-table");
const status = document.getElementById("list-status");
const listAlert = document.getElementById("list-alert");

// Times in UTC, the same for every operator whatever their browser's zone.
function when(seconds) {
  if (!seconds) return "never";
  return new Date(seconds * 1000).toISOString().slice(0, 16).replace("T", " ") + " UTC";
}

function showListError(message) {
  listAlert.textContent = message;
  listAlert.hidden = false;
  listAlert.focus();
}

async function remove(account, button) {
  listAlert.hidden = true;
  if (!window.confirm("Remove operator " + account.email + "? They are signed out at once.")) return;
  button.disabled = true;
  button.textContent = "Removing…";
  try {
    await call("DELETE", "/operators/" + encodeURIComponent(account.id));
    await load();
    status.textContent = "Removed " + account.email + ". " + status.textContent;
    status.focus();
  } catch (error) {
    button.disabled = false;
    button.textContent = "Remove";
    showListError("Could not remove " + account.email + ": " + error.message);
  }
}

async function load() {
  const { operators } = await call("GET", "/operators");
  const body = table.tBodies[0];
  body.replaceChildren();
  for (const account of operators) {
    const row = document.createElement("tr");
    cell(row, account.email);
    cell(row, when(account.createdAt));
    cell(row, when(account.lastSignInAt));
    if (account.you) {
      cell(row, "(you)");
    } else {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "danger";
      button.textContent = "Remove";
      button.setAttribute("aria-label", "Remove " + account.email);
      button.addEventListener("click", () => remove(account, button));
      cell(row, button);
    }
    body.appendChild(row);
  }
  table.hidden = operators.length === 0;
  status.textContent = operators.length + (operators.length === 1 ? " operator" : " operators");
}

const addForm = document.getElementById("add-form");
addForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors(addForm);
  const body = { email: addForm.elements.email.value.trim(), password: addForm.elements.password.value };
  try {
    const added = await busy(addForm, "Adding…", () => call("POST", "/operators", body));
    addForm.reset();
    await load();
    addForm.querySelector(".form-status").textContent = "Added " + added.email + ".";
  } catch (error) {
    showErrors(addForm, error);
  }
});

const passwordForm = document.getElementById("password-form");
passwordForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors(passwordForm);
  const elements = passwordForm.elements;
  if (elements.newPassword.value !== elements.newPasswordAgain.value) {
    return showErrors(passwordForm, { fields: [{ field: "newPasswordAgain", message: "does not match the new password" }] });
  }
  const body = { currentPassword: elements.currentPassword.value, newPassword: elements.newPassword.value };
  try {
    await busy(passwordForm, "Changing…", () => call("POST", "/me/password", body));
    passwordForm.reset();
    passwordForm.querySelector(".form-status").textContent = "Password changed. Your other sessions have ended.";
  } catch (error) {
    showErrors(passwordForm, error);
  }
});

renderNav();
requireOperator()
  .then((me) => {
    document.getElementById("own-username").value = me.email || "";
    if (!me.email) {
      // An operator key has no password of its own.
      passwordForm.querySelector("button[type=submit]").disabled = true;
      passwordForm.querySelector(".hint").textContent = "Signed in with an operator key: there is no password to change.";
    }
    return load();
  })
  .catch((error) => {
    status.textContent = "Could not load the operators: " + error.message;
  });
