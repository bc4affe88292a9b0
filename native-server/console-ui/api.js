// The console's one way to the server: the operator API (docs/api/operator.openapi.yaml).
// The session cookie is HttpOnly; the CSRF token comes from /operator/api/me and goes with
// every state-changing call in X-CSRF-Token (docs/adr/0039).
let csrfToken = "";

export class ApiError extends Error {
  constructor(status, error) {
    super(error && error.message ? error.message : "HTTP " + status);
    this.status = status;
    this.code = error && error.code;
    this.field = error && error.field;
    this.fields = (error && error.fields) || [];
  }
}

export async function call(method, path, body) {
  const headers = { accept: "application/json" };
  if (method !== "GET") headers["x-csrf-token"] = csrfToken;
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch("/operator/api" + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  });
  if (response.status === 204) return null;
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, data && data.error);
  return data;
}

export async function signIn(email, password) {
  const session = await call("POST", "/session", { email, password });
  csrfToken = session.csrfToken;
  return session;
}

// Every page but sign-in: the signed-in operator, or back to sign-in.
export async function requireOperator() {
  try {
    const me = await call("GET", "/me");
    csrfToken = me.csrfToken || "";
    const who = document.getElementById("operator-email");
    if (who) who.textContent = me.email;
    const signOut = document.getElementById("sign-out");
    if (signOut) {
      signOut.addEventListener("click", async () => {
        await call("DELETE", "/session").catch(() => {});
        location.href = "./";
      });
    }
    return me;
  } catch (error) {
    if (error.status === 401) location.href = "./?next=" + encodeURIComponent(location.pathname.split("/").pop() + location.search);
    throw error;
  }
}
