// Small DOM builders the console's tables share. Text always goes in as text (never HTML):
// everything on these pages comes from tenants' feeds and operators' input.

// Appends a <td> holding the contents (strings as text, nodes as they are) and returns it.
export function cell(row, ...contents) {
  const td = document.createElement("td");
  for (const content of contents) td.append(content instanceof Node ? content : String(content ?? ""));
  row.appendChild(td);
  return td;
}

// A plain button; accessibleName labels it for screen readers where the visible label is
// ambiguous in a table ("Edit" on every row).
export function button(label, accessibleName, onClick, className = "secondary small") {
  const element = document.createElement("button");
  element.type = "button";
  element.className = className;
  element.textContent = label;
  if (accessibleName) element.setAttribute("aria-label", accessibleName);
  element.addEventListener("click", onClick);
  return element;
}
