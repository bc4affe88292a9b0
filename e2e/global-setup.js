// Starts one real svc-server for the e2e run: a fresh data dir, the demo tenant and
// catalog imported by the real CLI, the server on a free loopback port.
const { spawn, execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const repoRoot = path.resolve(__dirname, "..");
const serverBinary = process.env.SVC_SERVER || path.join(repoRoot, "build", "bin", "svc-server");

module.exports = async function globalSetup() {
  // A deployment started by someone else (the cluster suite: three nodes behind haproxy,
  // tests/cluster/): its URL, demo tenant and operator as JSON; nothing is started or stopped here.
  if (process.env.SVC_E2E_TARGET) {
    const target = JSON.parse(process.env.SVC_E2E_TARGET);
    process.env.SVC_BASE_URL = target.baseURL;
    process.env.SVC_API_ID = target.apiId;
    process.env.SVC_FIRST_SKU = target.firstSku;
    process.env.SVC_DATA_DIR = target.dataDir;
    process.env.SVC_OPERATOR_EMAIL = target.operatorEmail;
    process.env.SVC_OPERATOR_PASSWORD = target.operatorPassword;
    return async () => {};
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-e2e-"));
  const setup = JSON.parse(execFileSync(serverBinary, ["demo", "setup", "--data-dir", dataDir], { encoding: "utf8" }));
  // The console's first operator, made the way an operator does (docs/operations.md, Console).
  const operator = { email: "operator@example.com", password: "e2e operator password" };
  execFileSync(serverBinary, ["operator", "create", "--data-dir", dataDir, "--email", operator.email],
               { encoding: "utf8", env: { ...process.env, SVC_OPERATOR_PASSWORD: operator.password } });
  const server = spawn(serverBinary, ["serve", "--data-dir", dataDir, "--listen", "127.0.0.1:0"], { stdio: ["ignore", "pipe", "inherit"] });
  const baseURL = await new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error("svc-server did not start: " + output)), 15_000);
    server.stdout.on("data", (chunk) => {
      output += chunk;
      const match = output.match(/listening on (http:\/\/[^\s]+)/);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    server.on("exit", (code) => reject(new Error("svc-server exited with " + code + ": " + output)));
  });
  process.env.SVC_BASE_URL = baseURL;
  process.env.SVC_API_ID = setup.apiId;
  process.env.SVC_FIRST_SKU = setup.firstSku;
  process.env.SVC_DATA_DIR = dataDir;
  process.env.SVC_OPERATOR_EMAIL = operator.email;
  process.env.SVC_OPERATOR_PASSWORD = operator.password;
  return async () => {
    server.kill("SIGTERM");
    await new Promise((resolve) => server.once("exit", resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
};
