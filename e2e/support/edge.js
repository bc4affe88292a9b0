// The TLS edge of docs/adr/0068 for a test: a CA and a server certificate made here with openssl,
// svc-server behind nginx running the shipped deploy/nginx/svc.conf (only its ports, certificate
// paths, upstream address and operators include replaced), a second TLS server block serving a
// shop's static pages from another origin, and an NSS database in which Chromium trusts the CA.
const { freePort } = require("./freePort");
const { spawn, execFileSync } = require("node:child_process");
const fs = require("node:fs");
const https = require("node:https");
const net = require("node:net");
const os = require("node:os");
const path = require("node:path");

const repoRoot = path.resolve(__dirname, "..", "..");
const serverBinary = process.env.SVC_SERVER || path.join(repoRoot, "build", "bin", "svc-server");
const SVC_HOST = "svc.example.com";
const SHOP_HOST = "shop.example.com";

// The tools this needs, found the way a shell of root or of a user would find them.
function findTool(name) {
  for (const dir of [...(process.env.PATH || "").split(":"), "/usr/sbin", "/sbin"]) {
    const candidate = path.join(dir, name);
    if (dir && fs.existsSync(candidate)) return candidate;
  }
  return null;
}

function missingTools() {
  return ["nginx", "openssl", "certutil"].filter((tool) => !findTool(tool));
}


// A test CA and one server certificate for both hosts (EC P-256, two days).
function makeCertificates(dir) {
  const openssl = (...args) => execFileSync(findTool("openssl"), args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "ca.key", "-out", "ca.pem",
          "-days", "2", "-subj", "/CN=svc edge test CA", "-addext", "basicConstraints=critical,CA:TRUE",
          "-addext", "keyUsage=critical,keyCertSign,cRLSign");
  openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "server.key", "-out", "server.csr",
          "-subj", "/CN=" + SVC_HOST);
  fs.writeFileSync(path.join(dir, "server.ext"),
                   `subjectAltName=DNS:${SVC_HOST},DNS:${SHOP_HOST}\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n`);
  openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-days", "2",
          "-extfile", "server.ext", "-out", "server.pem");
  fs.writeFileSync(path.join(dir, "fullchain.pem"), fs.readFileSync(path.join(dir, "server.pem")) + fs.readFileSync(path.join(dir, "ca.pem")));
  return { ca: fs.readFileSync(path.join(dir, "ca.pem")), fullchain: path.join(dir, "fullchain.pem"), key: path.join(dir, "server.key") };
}

// Chromium on Linux trusts what the NSS database under $HOME/.pki/nssdb trusts: a home of its own
// for the browser, with the test CA as a trusted TLS issuer (docs/adr/0068).
function makeBrowserHome(dir) {
  const home = path.join(dir, "home");
  const db = "sql:" + path.join(home, ".pki", "nssdb");
  fs.mkdirSync(path.join(home, ".pki", "nssdb"), { recursive: true });
  execFileSync(findTool("certutil"), ["-d", db, "-N", "--empty-password"]);
  execFileSync(findTool("certutil"), ["-d", db, "-A", "-t", "C,,", "-n", "svc edge test CA", "-i", path.join(dir, "ca.pem")]);
  return home;
}

// The shipped file with only what a test machine must differ in. Each replaced text must be
// present: a changed svc.conf fails here instead of testing something else.
function edgeConfig(dir, { edgePort, redirectPort, svcPort, certificate }) {
  let config = fs.readFileSync(path.join(repoRoot, "deploy", "nginx", "svc.conf"), "utf8");
  const replace = (from, to) => {
    if (!config.includes(from)) throw new Error("deploy/nginx/svc.conf no longer contains: " + from);
    config = config.split(from).join(to);
  };
  replace("listen 443 ssl http2;", `listen 127.0.0.1:${edgePort} ssl http2;`);
  replace("listen 80;", `listen 127.0.0.1:${redirectPort};`);
  replace("server 127.0.0.1:8080;", `server 127.0.0.1:${svcPort};`);
  replace("/etc/ssl/svc/fullchain.pem", certificate.fullchain);
  replace("/etc/ssl/svc/privkey.pem", certificate.key);
  fs.copyFileSync(path.join(repoRoot, "deploy", "nginx", "svc-operators.conf"), path.join(dir, "svc-operators.conf"));
  replace("/etc/nginx/svc-operators.conf", path.join(dir, "svc-operators.conf"));
  fs.writeFileSync(path.join(dir, "svc.conf"), config);
}

// The shop: the demo shop's pages as a shop would deploy them, with the snippet naming svc's public
// URL, served by nginx from its own origin.
function writeShop(root, dataDir, svcOrigin, apiId) {
  const shopDir = path.join(root, "demo");
  fs.mkdirSync(shopDir, { recursive: true });
  for (const name of ["product.html", "checkout-success.html", "shop.js", "shop.css"]) {
    const text = fs.readFileSync(path.join(repoRoot, "web-demo", name), "utf8");
    fs.writeFileSync(path.join(shopDir, name), text.split("__SVC_SDK_URL__").join(svcOrigin).split("__SVC_API_ID__").join(apiId));
  }
  fs.copyFileSync(path.join(dataDir, "demo", "shop.json"), path.join(shopDir, "shop.json"));
  fs.cpSync(path.join(dataDir, "demo", "images"), path.join(shopDir, "images"), { recursive: true });
}

function waitForOutput(child, pattern, what) {
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(what + " did not start: " + output)), 15_000);
    const look = (chunk) => {
      output += chunk;
      const match = output.match(pattern);
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    };
    child.stdout.on("data", look);
    child.stderr.on("data", (chunk) => { output += chunk; });
    child.on("exit", (code) => reject(new Error(what + " exited with " + code + ": " + output)));
  });
}

async function waitForPort(port, what) {
  for (let attempt = 0; attempt < 150; attempt++) {
    const open = await new Promise((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => { socket.destroy(); resolve(true); });
      socket.on("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(what + " is not listening on " + port);
}

async function startEdge() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-edge-"));
  const dataDir = path.join(dir, "data");
  const [edgePort, redirectPort, shopPort, svcPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const svcOrigin = `https://${SVC_HOST}:${edgePort}`;
  const certificate = makeCertificates(dir);
  const browserHome = makeBrowserHome(dir);

  const demo = JSON.parse(execFileSync(serverBinary, ["demo", "setup", "--data-dir", dataDir], { encoding: "utf8" }));
  const shopTenant = JSON.parse(execFileSync(serverBinary, ["tenant", "create", "--data-dir", dataDir, "--name", "Edge shop"], { encoding: "utf8" }));
  const serveArgs = ["serve", "--data-dir", dataDir, "--listen", `127.0.0.1:${svcPort}`, "--public-url", svcOrigin, "--no-image-bot"];
  const svc = spawn(serverBinary, serveArgs, { stdio: ["ignore", "pipe", "pipe"] });
  await waitForOutput(svc, /listening on http:\/\/\S+/, "svc-server");

  writeShop(path.join(dir, "shop"), dataDir, svcOrigin, demo.apiId);
  edgeConfig(dir, { edgePort, redirectPort, svcPort, certificate });
  for (const temp of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) fs.mkdirSync(path.join(dir, temp));
  // The test's own main file: the shipped svc.conf is included as /etc/nginx/sites-enabled/ would.
  fs.writeFileSync(path.join(dir, "nginx.conf"), `
daemon off;
${process.getuid && process.getuid() === 0 ? "user root root;  # the temporary files are root's 0700 directories" : ""}
worker_processes auto;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log info;
events { worker_connections 1024; }
http {
    include /etc/nginx/mime.types;
    access_log ${dir}/access.log;
    client_body_temp_path ${dir}/body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
    include ${dir}/svc.conf;
    # The shop: another origin, its own static pages.
    server {
        listen 127.0.0.1:${shopPort} ssl http2;
        server_name ${SHOP_HOST};
        ssl_certificate ${certificate.fullchain};
        ssl_certificate_key ${certificate.key};
        root ${dir}/shop;
    }
}
`);
  const nginxArgs = ["-e", path.join(dir, "error.log"), "-p", dir, "-c", path.join(dir, "nginx.conf")];
  execFileSync(findTool("nginx"), [...nginxArgs, "-t"], { stdio: ["ignore", "pipe", "pipe"] });
  const nginx = spawn(findTool("nginx"), nginxArgs, { stdio: ["ignore", "pipe", "pipe"] });
  let nginxOutput = "";
  nginx.stderr.on("data", (chunk) => { nginxOutput += chunk; });
  await waitForPort(edgePort, "nginx");
  await waitForPort(shopPort, "nginx");

  // A request through the edge as a client on the internet makes it: TLS verified against the
  // test CA for the name it asks for, which DNS would resolve to this machine.
  function request({ method = "GET", path: target, headers = {}, body, host = SVC_HOST, port = edgePort, localAddress } = {}) {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const req = https.request({ host: "127.0.0.1", servername: host, port, method, path: target, ca: certificate.ca, agent: false,
                                  localAddress, headers: { host: `${host}:${port}`, ...headers } }, (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString("utf8"),
                                      milliseconds: Date.now() - started }));
      });
      req.setTimeout(15_000, () => req.destroy(new Error("no answer in 15 s: " + method + " " + target)));
      req.on("error", reject);
      if (body !== undefined) req.write(body);
      req.end();
    });
  }

  async function stop() {
    nginx.kill("SIGQUIT");
    svc.kill("SIGTERM");
    await Promise.all([nginx, svc].map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", resolve)))));
    fs.rmSync(dir, { recursive: true, force: true });
  }

  return {
    dir, dataDir, svcOrigin, shopOrigin: `https://${SHOP_HOST}:${shopPort}`, edgePort, browserHome, certificate, request, stop,
    demo, shopTenant, nginxOutput: () => nginxOutput,
    resolverRules: `MAP ${SVC_HOST} 127.0.0.1, MAP ${SHOP_HOST} 127.0.0.1`,
    svcHost: SVC_HOST,
  };
}

module.exports = { startEdge, missingTools };
