/* svc SDK: widget scanner and _svc API, compiled from C++ (see wasm-sdk/). Everything stays inside this closure: the only globals are the spec's. */
(function () {
"use strict";
