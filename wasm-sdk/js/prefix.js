/* svc SDK: widget scanner and _svc API, compiled from C++ (see wasm-sdk/). Everything stays inside this closure: the only globals are the spec's. */
(function () {
"use strict";
// Emscripten's module footer registers with CommonJS or an AMD loader (RequireJS) when it
// sees one: on a shop's page that would be a foreign anonymous define(). Shadowed here.
var exports, module, define;
