# The two commands: `make demo` and `make test`. Both install what is missing
# (scripts/install-deps.sh), build native + Wasm, then run.
.PHONY: demo test build deps fuzz bench clean package

deps:
	@scripts/install-deps.sh

build: deps
	@scripts/build.sh

# The demo installs and builds only what it serves (no browsers, tests or benchmarks).
demo:
	@scripts/install-deps.sh --demo
	@scripts/build.sh demo
	@scripts/demo.sh

test: build
	@scripts/run-tests.sh

fuzz: deps
	@scripts/fuzz.sh 60

# A Debian package (build/package/svc_<version>_amd64.deb): docs/operations.md, "One host".
package: build
	@scripts/build.sh package

clean:
	rm -rf build build-wasm build-fuzz .test-output
