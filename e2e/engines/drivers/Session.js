// What every engine's session offers the scenarios. An engine adapter implements the
// primitives (go, evaluate, click, press, swipe, screenshot, cookies, close); the helpers
// built on them live here once, so a scenario reads the same in every engine.
"use strict";

class Session {
  // `fn` is a function run in the page (its source is sent); it may return a promise.
  async eval(fn, ...args) {
    return this.evaluate(fn.toString(), args);
  }

  // Polls `fn` in the page until it returns something truthy; that value is returned.
  async waitFor(fn, args = [], { timeout = 10_000, what = fn.toString().slice(0, 120) } = {}) {
    const until = Date.now() + timeout;
    let last;
    for (;;) {
      try {
        last = await this.evaluate(fn.toString(), args);
      } catch (error) {
        last = undefined;  // a page in the middle of navigating
        if (Date.now() > until) throw error;
      }
      if (last) return last;
      if (Date.now() > until) throw new Error(`${this.engine}: timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  // Every widget on the page claimed and answered (rendered, hidden or failed).
  async settled(timeout = 10_000) {
    return this.waitFor(() => {
      const widgets = [...document.querySelectorAll("div[data-svc-widget-id]")];
      return window._svc && window._svc.loaded && widgets.length > 0 &&
        widgets.every((widget) => /^(rendered|empty|invalid|demo-only|failed)$/.test(widget.getAttribute("data-svc-state") || "")) &&
        widgets.map((widget) => widget.id + "=" + widget.getAttribute("data-svc-state")).join(" ");
    }, [], { timeout, what: "every widget settled" });
  }

  // What the page's console and error handlers saw (the capture script the shop server puts
  // first in every page's <head>; WebKitWebDriver has no log endpoint, so one way for all).
  async problems() {
    return this.eval(() => (window.__svcTest ? window.__svcTest.problems : ["no capture script"]));
  }

  // Two animation frames: what was laid out is painted.
  async painted() {
    return this.eval(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true)))));
  }

  async cookie(name) {
    return (await this.cookies()).find((cookie) => cookie.name === name);
  }
}

module.exports = { Session };
