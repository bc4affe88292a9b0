// Chromium (CDP) and Firefox ESR (WebDriver BiDi) through puppeteer-core, with Debian's
// binaries: neither Playwright's nor puppeteer's own browser builds can be downloaded here.
"use strict";
const fs = require("node:fs");
const puppeteer = require("puppeteer-core");
const { Session } = require("./Session");

const LAUNCH = {
  chromium: () => ({
    browser: "chrome",
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
           "--disable-component-update", "--disable-sync"],
  }),
  firefox: () => ({
    browser: "firefox",
    protocol: "webDriverBiDi",
    executablePath: process.env.FIREFOX_PATH || "/usr/bin/firefox-esr",
    headless: true,
    extraPrefsFirefox: {
      // Host names of the registrable-domain scenario resolve to this machine, as Chromium's
      // --host-resolver-rules does in the Chromium suite.
      "network.dns.localDomains": "www.demo-shop.localhost",
    },
  }),
};

function binaryOf(name) {
  return LAUNCH[name]().executablePath;
}

class PuppeteerSession extends Session {
  constructor(engine, context, page, phone) {
    super();
    this.engine = engine;
    this.context = context;
    this.page = page;
    this.phone = phone;
    // A synthesised finger pans a scroll container in Chromium; Firefox delivers the touch
    // events but its headless build pans nothing with them (measured: scrollLeft stays 0).
    this.touchScrolls = engine === "chromium";
  }

  // `framedBy`: a page of another site that frames `url` (the scenario then works in the frame).
  async go(url, { framedBy } = {}) {
    this.frame = null;
    if (!framedBy) return void await this.page.goto(url, { waitUntil: "load" });
    await this.page.goto(`${framedBy}#${encodeURIComponent(url)}`, { waitUntil: "load" });
    for (let attempt = 0; !this.frame && attempt < 100; attempt++) {
      this.frame = this.page.frames().find((frame) => frame !== this.page.mainFrame() && frame.url().startsWith(url.slice(0, 20)));
      if (!this.frame) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (!this.frame) throw new Error(`${this.engine}: the frame of ${url} did not load`);
  }

  async evaluate(source, args) {
    // The function's source is rebuilt in the page: the same text every adapter sends.
    return (this.frame || this.page).evaluate(`(${source}).apply(null, ${JSON.stringify(args)})`);
  }

  async click(selector, index = 0) {
    const elements = await (this.frame || this.page).$$(selector);
    if (!elements[index]) throw new Error(`${this.engine}: no element ${selector} [${index}]`);
    if (this.phone) await elements[index].tap();
    else await elements[index].click();
  }

  async press(key) {
    await this.page.keyboard.press(key);
  }

  // A finger moving sideways across the element's middle.
  async swipe(selector, dx) {
    const box = await (await (this.frame || this.page).$(selector)).boundingBox();
    const y = box.y + box.height / 2;
    const from = box.x + box.width * (dx < 0 ? 0.8 : 0.2);
    const touch = await this.page.touchscreen.touchStart(from, y);
    for (let step = 1; step <= 8; step++) {
      await (touch && touch.move ? touch.move(from + (dx * step) / 8, y) : this.page.touchscreen.touchMove(from + (dx * step) / 8, y));
    }
    await (touch && touch.end ? touch.end() : this.page.touchscreen.touchEnd());
  }

  // prefers-reduced-motion as a shopper's setting would set it; false where the protocol cannot.
  async emulateReducedMotion() {
    try {
      await this.page.emulateMediaFeatures([{ name: "prefers-reduced-motion", value: "reduce" }]);
      return true;
    } catch (ignored) {
      return false;
    }
  }

  async screenshot(file) {
    await this.painted();
    await this.page.screenshot({ path: file });
  }

  async cookies() {
    const cookies = await this.page.cookies();
    return cookies.map((cookie) => ({ name: cookie.name, value: cookie.value, domain: cookie.domain, path: cookie.path,
                                      expires: cookie.session || cookie.expires < 0 ? null : cookie.expires,
                                      sameSite: cookie.sameSite }));
  }

  async close() {
    await this.context.close();
  }
}

class PuppeteerEngine {
  constructor(name) {
    this.name = name;
  }

  static available(name) {
    return fs.existsSync(binaryOf(name)) ? null : `${binaryOf(name)} is missing (scripts/install-deps.sh installs it)`;
  }

  async start() {
    this.browser = await puppeteer.launch(LAUNCH[this.name]());
    // "chrome/156.0..." or "firefox/153.7.0esr": the version the README's matrix names.
    this.version = (await this.browser.version()).replace(/^[^/]*\//, "").replace(/^HeadlessChrome\//, "");
  }

  async newSession({ phone = false } = {}) {
    const context = await this.browser.createBrowserContext();
    const page = await context.newPage();
    if (phone) await page.setViewport({ width: 390, height: 844, hasTouch: true, isMobile: this.name === "chromium" });
    else await page.setViewport({ width: 1280, height: 900 });
    return new PuppeteerSession(this.name, context, page, phone);
  }

  async stop() {
    if (this.browser) await this.browser.close();
  }
}

module.exports = { PuppeteerEngine };
