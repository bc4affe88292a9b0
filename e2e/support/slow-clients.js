// Slow clients against a TLS edge, in a process of their own so that their TLS work does not slow
// the measuring process's own requests: CLIENTS connections that each send one byte of a request
// head a second, replaced when the server cuts one, for WINDOW_MS. Prints one JSON line: how many
// connected, how many got an answer, how long the server let each cut connection live.
// Usage: node slow-clients.js PORT SERVERNAME CA_FILE CLIENTS WINDOW_MS
const fs = require("node:fs");
const tls = require("node:tls");

const [port, servername, caFile, clients, windowMs] = process.argv.slice(2);
const ca = fs.readFileSync(caFile);
const started = Date.now();
const head = "GET /healthz HTTP/1.1\r\nHost: " + servername + "\r\nX-Slow: " + "a".repeat(64) + "\r\n\r\n";
const cut = [];
let connected = 0;
let answered = 0;  // connections that got any byte back (an answer means the head reached svc)

function slowClient() {
  if (Date.now() - started >= Number(windowMs)) return;
  const connectedAt = Date.now();
  const socket = tls.connect({ host: "127.0.0.1", port: Number(port), servername, ca });
  let sent = 0;
  let timer = null;
  socket.on("secureConnect", () => {
    connected++;
    timer = setInterval(() => socket.write(head[sent++ % head.length]), 1000);
  });
  socket.on("data", () => { answered++; });
  socket.on("error", () => {});
  socket.on("close", () => {
    clearInterval(timer);
    if (Date.now() - started < Number(windowMs)) {
      cut.push(Date.now() - connectedAt);
      slowClient();
    }
  });
}

// Arriving over the first second, as clients do, not in one instant.
for (let i = 0; i < Number(clients); i++) setTimeout(slowClient, (i * 1000) / Number(clients));
setTimeout(() => {
  process.stdout.write(JSON.stringify({ connected, answered, cut }) + "\n");
  process.exit(0);
}, Number(windowMs));
