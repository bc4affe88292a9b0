// WebKitGTK (the engine of Safari) through WebKitWebDriver, the W3C WebDriver server Debian
// ships, driving MiniBrowser under an Xvfb display of our own. The few WebDriver commands the
// suite needs are sent as plain HTTP: no client library knows WebKitGTK's capabilities.
//
// Two things WebKitGTK cannot do here, and what the suite does instead:
// - MiniBrowser's toolbar keeps its window at least 447 px wide, so a phone's 390 px viewport
//   is a 390x844 iframe of the shop's own origin (a frame is a viewport of its own: media
//   queries, innerWidth and overflow are the frame's), entered after each navigation.
// - It synthesises no touch input (a touch pointer arrives as a mouse), so `swipe` throws and
//   `touchScrolls` is false; the scenario then checks what makes a swipe work.
"use strict";
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const { Session } = require("./Session");
const { freePort } = require("../../support/freePort");

// Longer than any command of a scenario takes (page loads included), far below the scenario timeout.
const COMMAND_TIMEOUT_MS = 25_000;
// Two attempts at a new session and a driver restart fit in a scenario's 60 s.
const SESSION_TIMEOUT_MS = 20_000;

const DRIVER = process.env.WEBKIT_DRIVER_PATH || "/usr/bin/WebKitWebDriver";
const BROWSER = process.env.WEBKIT_BROWSER_PATH || "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";
const KEYS = { Tab: "\uE004", Enter: "\uE007", ArrowLeft: "\uE012", ArrowRight: "\uE014", Space: "\uE00D" };
const ELEMENT = "element-6066-11e4-a52e-4f735466cecf";

class WebDriverError extends Error {}

class WebKitSession extends Session {
  constructor(engine, call, id, phone) {
    super();
    this.engine = engine.name;
    this.call = (method, path, body) => call(method, `/session/${id}${path}`, body);
    this.phone = phone;
    this.touchScrolls = false;
  }

  async go(url, { framedBy } = {}) {
    // A phone's page: the frame page lives on the page's own origin, so the page stays first-party.
    if (!framedBy && this.phone) framedBy = new URL(url).origin + "/__phone.html";
    if (!framedBy) return this.call("POST", "/url", { url });
    await this.call("POST", "/url", { url: `${framedBy}#${encodeURIComponent(url)}` });
    await this.call("POST", "/frame", { id: 0 });
    await this.waitFor(() => document.readyState === "complete" && location.href !== "about:blank", [], { what: "the framed page" });
  }

  async evaluate(source, args) {
    // Async execution takes a function that returns a promise the same way as the others.
    const script = `var done = arguments[arguments.length - 1];
      Promise.resolve().then(function () { return (${source}).apply(null, ${JSON.stringify(args)}); })
        .then(function (value) { done({ ok: value === undefined ? null : value }); },
              function (error) { done({ error: String(error && error.stack || error) }); });`;
    const result = await this.call("POST", "/execute/async", { script, args: [] });
    if (result && result.error) throw new Error(`${this.engine}: page threw: ${result.error}`);
    return result ? result.ok : result;
  }

  async element(selector, index) {
    const found = await this.call("POST", "/elements", { using: "css selector", value: selector });
    if (!found[index]) throw new Error(`${this.engine}: no element ${selector} [${index}]`);
    return found[index][ELEMENT];
  }

  async click(selector, index = 0) {
    await this.call("POST", `/element/${await this.element(selector, index)}/click`, {});
  }

  async press(key) {
    const value = KEYS[key] || key;
    await this.call("POST", "/actions", { actions: [{ type: "key", id: "keyboard", actions: [{ type: "keyDown", value }, { type: "keyUp", value }] }] });
    await this.call("DELETE", "/actions");
  }

  async swipe() {
    throw new Error("WebKitWebDriver synthesises no touch input");
  }

  // WebDriver has no media emulation.
  async emulateReducedMotion() {
    return false;
  }

  async screenshot(file) {
    await this.painted();
    let png;
    if (this.phone) {
      await this.call("POST", "/frame/parent", {});
      try {
        // scrollIntoView in the frame scrolls the frame page too (overflow: hidden stops only the user).
        await this.call("POST", "/execute/sync", { script: "window.scrollTo(0, 0);", args: [] });
        // The whole window: WebKitGTK's element screenshot of the frame comes out shifted
        // (a black band on top), so the image is the window, the phone's 390 px at its left.
        png = await this.call("GET", "/screenshot");
      } finally {
        await this.call("POST", "/frame", { id: 0 });
      }
    } else {
      png = await this.call("GET", "/screenshot");
    }
    fs.writeFileSync(file, Buffer.from(png, "base64"));
  }

  async cookies() {
    return (await this.call("GET", "/cookie")).map((cookie) => ({
      name: cookie.name, value: cookie.value, domain: cookie.domain, path: cookie.path,
      expires: cookie.expiry === undefined ? null : cookie.expiry, sameSite: cookie.sameSite,
    }));
  }

  async close() {
    await this.call("DELETE", "").catch(() => {});
  }
}

class WebKitEngine {
  constructor() {
    this.name = "webkit";
  }

  static available() {
    for (const file of [DRIVER, BROWSER]) if (!fs.existsSync(file)) return `${file} is missing (scripts/install-deps.sh installs webkit2gtk-driver)`;
    const onPath = (process.env.PATH || "").split(":").some((dir) => dir && fs.existsSync(`${dir}/Xvfb`));
    return onPath ? null : "Xvfb is missing (scripts/install-deps.sh installs xvfb)";
  }

  async start() {
    this.xvfb = spawn("Xvfb", ["-displayfd", "3", "-screen", "0", "1400x1100x24", "-nolisten", "tcp"],
                      { stdio: ["ignore", "ignore", "pipe", "pipe"] });
    const display = await new Promise((resolve, reject) => {
      this.xvfb.on("error", reject);
      this.xvfb.on("exit", (code) => reject(new Error("Xvfb exited with " + code)));
      this.xvfb.stdio[3].once("data", (chunk) => resolve(String(chunk).trim()));
    });
    this.display = display;
    await this.startDriver();
    const probe = await this.open();
    this.version = probe.version;
    await probe.session.close();
  }

  // The driver in a process group of its own, so stopping it also stops the MiniBrowser it launched.
  async startDriver() {
    this.port = await freePort();
    this.driver = spawn(DRIVER, ["--port=" + this.port], { env: { ...process.env, DISPLAY: ":" + this.display }, stdio: ["ignore", "ignore", "pipe"], detached: true });
    for (let attempt = 0; ; attempt++) {
      try {
        const status = await this.call("GET", "/status");
        if (status.ready !== false) break;
      } catch (error) {
        if (attempt > 100) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async stopDriver() {
    const driver = this.driver;
    if (!driver || driver.exitCode !== null || driver.signalCode !== null) return;
    const exited = new Promise((resolve) => driver.once("exit", resolve));
    try { process.kill(-driver.pid, "SIGKILL"); } catch { /* already gone */ }
    await exited;
  }

  async call(method, path, body, timeoutMs = COMMAND_TIMEOUT_MS) {
    // A driver command that hangs fails here, naming itself, instead of as a silent scenario timeout.
    let response;
    try {
      response = await fetch(`http://127.0.0.1:${this.port}${path}`, {
        method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      if (error.name !== "TimeoutError") throw error;
      throw new WebDriverError(`${method} ${path}: no answer from WebKitWebDriver within ${timeoutMs} ms`, { cause: "timeout" });
    }
    const json = await response.json();
    if (!response.ok) throw new WebDriverError(`${method} ${path}: ${JSON.stringify(json.value).slice(0, 400)}`);
    return json.value;
  }

  async open(phone = false) {
    const capabilities = {
      browserName: "MiniBrowser",
      "webkitgtk:browserOptions": { binary: BROWSER, args: ["--automation"] },
    };
    let created;
    try {
      created = await this.call("POST", "/session", { capabilities: { alwaysMatch: capabilities } }, SESSION_TIMEOUT_MS);
    } catch (error) {
      // Under load WebKitWebDriver now and then never answers a new session (seen about once in
      // 20 on a busy 2-core machine, and in CI). A driver that hung is not asked again: it and
      // its browser are replaced, and the session is asked for once more.
      if (!(error instanceof WebDriverError) || error.cause !== "timeout") throw error;
      console.error(`webkit: ${error.message}; restarting WebKitWebDriver once`);
      await this.stopDriver();
      await this.startDriver();
      created = await this.call("POST", "/session", { capabilities: { alwaysMatch: capabilities } }, SESSION_TIMEOUT_MS);
    }
    const { sessionId, capabilities: granted } = created;
    const session = new WebKitSession(this, this.call.bind(this), sessionId, phone);
    // MiniBrowser's toolbar takes its height from the window: the viewport is what is left.
    await session.call("POST", "/window/rect", phone ? { width: 480, height: 960 } : { width: 1280, height: 940 });
    return { session, version: granted.browserVersion };
  }

  async newSession({ phone = false } = {}) {
    return (await this.open(phone)).session;
  }

  async stop() {
    await this.stopDriver();
    if (this.xvfb && this.xvfb.exitCode === null) {
      this.xvfb.kill("SIGTERM");
      await new Promise((resolve) => this.xvfb.once("exit", resolve));
    }
  }
}

module.exports = { WebKitEngine };
