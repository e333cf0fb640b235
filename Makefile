# linkhost: the two commands people need are `make run` and `make test`; everything else is for developers.
SWIFT  ?= swift
CONFIG ?= config/linkhost.json
SUDO   := $(shell [ "$$(id -u)" = 0 ] || command -v sudo >/dev/null && [ "$$(id -u)" != 0 ] && echo sudo)
APT    := DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get

.PHONY: deps test-deps build release package run test diagnostics-doc config-doc preview-image builtin-public check-recipes check-apple check-html soak-tests screenshots fuzz sanitize soak slowloris flood bench bench-engine bench-tenants bench-profile clean

# Installs the C libraries' headers when pkg-config cannot find them (fresh Debian/Ubuntu machines):
# libmicrohttpd (the server) and libqrencode (QR codes on call pages); and the Public Suffix List that holds
# wildcard hosts to a registrable domain (Debian's publicsuffix: without it a site file's wildcard is refused).
deps:
	@if ! pkg-config --exists libmicrohttpd libqrencode 2>/dev/null; then \
		echo "make: installing libmicrohttpd-dev, libqrencode-dev and pkg-config with apt-get"; \
		$(APT) update -qq && $(APT) install -y -qq --no-install-recommends libmicrohttpd-dev libqrencode-dev pkg-config >/dev/null; \
	fi
	@if [ ! -f /usr/share/publicsuffix/public_suffix_list.dat ]; then \
		echo "make: installing publicsuffix with apt-get"; \
		$(APT) update -qq && $(APT) install -y -qq --no-install-recommends publicsuffix >/dev/null; \
	fi

# Test tools: zbarimg decodes QR codes, openssl and curl make and test HTTPS, prometheus_client parses /metrics,
# jsonschema checks configs against config/linkhost.schema.json as editors do (scripts/schema-check.py);
# nginx and Varnish are the shared caches, Chromium the browser, uap-core's corpus the real User-Agents of the
# call-page cache tests; pebble and pebble-challtestsrv the ACME CA and mock DNS of the automatic-HTTPS tests;
# systemd-socket-activate (Debian's systemd) passes sockets the way a .socket unit does; rsvg-convert
# (librsvg2-bin) rasterises the SVG QR codes. A missing one fails the tests that need it (README.md, Development).
# A policy-rc.d refuses service starts during the install: the tests run their own.
test-deps: deps
	@missing=""; \
	command -v zbarimg >/dev/null 2>&1 || missing="$$missing zbar-tools"; \
	command -v rsvg-convert >/dev/null 2>&1 || missing="$$missing librsvg2-bin"; \
	command -v openssl >/dev/null 2>&1 || missing="$$missing openssl"; \
	command -v curl >/dev/null 2>&1 || missing="$$missing curl"; \
	command -v pebble >/dev/null 2>&1 || missing="$$missing pebble"; \
	command -v python3 >/dev/null 2>&1 || missing="$$missing python3 python3-pip"; \
	command -v systemd-socket-activate >/dev/null 2>&1 || missing="$$missing systemd"; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	[ -x /usr/sbin/nginx ] || missing="$$missing nginx"; \
	[ -x /usr/sbin/varnishd ] || missing="$$missing varnish"; \
	[ -f /usr/share/uap-core/tests/test_ua.yaml ] || missing="$$missing uap-core"; \
	if [ -n "$$missing" ]; then \
		echo "make: installing$$missing with apt-get"; \
		policy=""; if [ ! -e /usr/sbin/policy-rc.d ]; then printf '#!/bin/sh\nexit 101\n' | $(SUDO) tee /usr/sbin/policy-rc.d >/dev/null && $(SUDO) chmod 755 /usr/sbin/policy-rc.d && policy=1; fi; \
		status=0; $(APT) update -qq && $(APT) install -y -qq --no-install-recommends $$missing >/dev/null || status=$$?; \
		if [ -n "$$policy" ]; then $(SUDO) rm -f /usr/sbin/policy-rc.d; fi; \
		[ $$status = 0 ] || exit $$status; \
	fi
	@python3 -c "import prometheus_client" 2>/dev/null || python3 -m pip install -q prometheus_client 2>/dev/null || python3 -m pip install -q --break-system-packages prometheus_client
	@python3 -c "import jsonschema" 2>/dev/null || python3 -m pip install -q jsonschema 2>/dev/null || python3 -m pip install -q --break-system-packages jsonschema

build: deps
	$(SWIFT) build

# The Swift runtime linked in statically, as the Docker image ships it: 6 MB less resident at start than the
# shared libraries (Benchmarks/FINDINGS.md), and nothing to install beside the binary but the C libraries.
release: deps
	$(SWIFT) build -c release --static-swift-stdlib

# The binary, public/ and deploy/ in one archive, for a server with the runtime libraries and no Swift
# (README.md, "A VPS with systemd, with automatic HTTPS"). Every file is root's (0:0) whoever builds it: the
# recipe unpacks as root, and tar -x as root keeps the owners an archive names. PACKAGE_BINARY, PACKAGE_FROM
# (the folder holding public/ and deploy/) and PACKAGE_OUT let PackageArchiveTests pack other files.
PACKAGE_BINARY ?= .build/release/linkhost
PACKAGE_FROM ?= $(CURDIR)
PACKAGE_OUT ?= .build/linkhost.tar.gz
package: release
	tar --owner=0 --group=0 --numeric-owner -czf $(PACKAGE_OUT) -C $(dir $(PACKAGE_BINARY)) $(notdir $(PACKAGE_BINARY)) -C $(PACKAGE_FROM) public deploy

# Serves the default config on :8080 (override: make run CONFIG=path ARGS="--port 9000").
run: release
	.build/release/linkhost serve --config $(CONFIG) $(ARGS)

# The unit tests run in a pass of their own, before the integration tests: a test body that computes holds one of
# the cooperative pool's two threads while it runs, and beside them the integration tests' awaits (a connection's
# next step, a wait for a log line) waited for a thread past the server's own deadlines (a 408 after 10 s).
# The suites that keep both cores busy for a minute or more (hundreds of sites loaded again and again, a fuzz
# run, 40 MB snapshots, 25 tenants checked, 1,000 tenants' metrics, an overload) run after the rest, so the socket tests' time limits
# measure linkhost, not a neighbour's load on a 2-core machine (with them, the renegotiation test: an openssl
# session whose steps each wait for the last). Every test still runs, in one of the three passes.
HEAVY_TESTS = ReloadMemoryTests|FleetMetricsTests|DerivedRulesFuzzTests|SignalStateTests|CheckFleetTests|HostileLoadTests|TLSRenegotiationTests

# The checks that need no build come first, each with a self-test that plants a violation in a copy and requires
# the check to name it: every import declared in Package.swift (scripts/check-imports.py), and no blocking call
# in async test code outside the helpers made for it (scripts/check-test-blocking.py).
test: test-deps
	python3 scripts/check-imports.py
	python3 scripts/check-imports.py --self-test
	python3 scripts/check-test-blocking.py
	python3 scripts/check-test-blocking.py --self-test
	$(SWIFT) build
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --skip 'IntegrationTests|$(HEAVY_TESTS)'
	$(SWIFT) test --skip-build --filter 'IntegrationTests' --skip '$(HEAVY_TESTS)'
	$(SWIFT) test --skip-build --filter '$(HEAVY_TESTS)'

# `make test` N times in a row beside a one-core busy loop, one line per run (docs/soak-tests.md).
N ?= 5
soak-tests:
	scripts/soak-tests.sh $(N)

# Typechecks CallLinks for iOS 15 and macOS 12 against the standard library's Apple availability (no SDK needed).
check-apple:
	scripts/check-apple-availability.sh

# Rewrites docs/diagnostics.md from the codes in Sources/LinkHostCore/Lint/LintCode.swift.
diagnostics-doc: deps
	LINKHOST_RECORD_DIAGNOSTICS=1 $(SWIFT) test --filter "LintCodeTests"

# docs/configuration.md, the config reference, from Sources/LinkHostCore/Config/ConfigKeyTable*.swift (the integrator runs it after merging keys).
config-doc: deps
	LINKHOST_RECORD_CONFIG_KEYS=1 $(SWIFT) test --filter "ConfigKeyTableTests/configurationDoc"

# Sources/LinkHostCore/Page/DefaultPreviewImage+PNG.swift, the default og:image's bytes, from its drawing
# (after changing DefaultPreviewImage.draw: no snapshot draws it, so match and validate start fast).
preview-image: deps
	LINKHOST_RECORD_PREVIEW_IMAGE=1 $(SWIFT) test --filter "DefaultPreviewImageTests"

# Sources/LinkHostCore/Page/BuiltInPublic/, the page compiled into the binary, from public/ (run it after editing
# public/: BuiltInPublicTests fails until the two agree; docs/call-page.md, "The page built into linkhost").
builtin-public: deps
	LINKHOST_RECORD_BUILTIN_PUBLIC=1 $(SWIFT) test --filter "BuiltInPublicTests/generatedSources"

# The README's and the deployment docs' commands run as written, with the stand-ins of docs/recipes.md
# (Pebble for the CA, a network namespace for ports 80 and 443); reuses the test build.
check-recipes: build
	scripts/check-recipes.sh

# The W3C Nu HTML checker over every page rendered from the shipped template, locales and public/.
check-html: build
	scripts/check-html.sh

# Headless Chromium as a phone, a tablet and a computer (en, de, ar), into docs/screenshots/.
screenshots: build
	scripts/screenshot.sh

# libFuzzer over the config loader, router, template, AASA matcher, app-file readers and Android rules (FUZZ_SECONDS each, default 600).
FUZZ_SECONDS ?= 600
fuzz:
	scripts/fuzz.sh $(FUZZ_SECONDS)

# The integration suite against a linkhost built with AddressSanitizer and LeakSanitizer: any memory
# error aborts the server, any leak makes its exit code non-zero, and the tests see both.
sanitize: test-deps
	$(SWIFT) build --sanitize=address --scratch-path .build/asan --product linkhost
	$(SWIFT) build --build-tests
	LINKHOST_BINARY=$$(find .build/asan -path '*debug/linkhost' -type f | head -n 1) ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
		$(SWIFT) test --skip-build --filter IntegrationTests

# Overload checks against the release build on 127.0.0.1 (each prints one PASS/FAIL line).
# SOAK_MINUTES (default 10) sets the soak's length; the soak needs wrk.
soak: release
	@command -v wrk >/dev/null || $(APT) install -y -qq wrk >/dev/null
	LINKHOST_BINARY=.build/release/linkhost scripts/soak.sh

slowloris: release
	LINKHOST_BINARY=.build/release/linkhost python3 scripts/slowloris.py

flood: release
	LINKHOST_BINARY=.build/release/linkhost python3 scripts/flood.py

# linkhost beside nginx (issue 7): Benchmarks/RESULTS.md with PASS/FAIL per target.
# QUICK=1 for a smoke run; ROUNDS, DURATION and the rest in Benchmarks/README.md.
bench: deps
	Benchmarks/run.sh

# Only the engine rows of make bench (linkhost, bare libmicrohttpd, nginx on the AASA and the rendered page):
# Benchmarks/ENGINE.md, in about ROUNDS × 12 × DURATION seconds.
bench-engine: deps
	BENCH_COMMAND=engine Benchmarks/run.sh

# Thousands of tenants (issues 33, 42): Benchmarks/TENANTS.md, 10,000 tenants in site files (TENANTS=) of the operator's
# shape and the minimal one (TENANT_SHAPES=operator,minimal) and 1,000 sites × ten templates; one row alone with
# TENANT_ROWS=ready|resident|reload|reloads|validate|validate-templates (comma-separated).
bench-tenants: deps
	BENCH_COMMAND=tenants Benchmarks/run.sh

# Where linkhost's time goes: callgrind and perf into Benchmarks/PROFILE.md.
bench-profile: deps
	Benchmarks/profile.sh

clean:
	rm -rf .build
