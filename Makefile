# linkhost: the two commands people need are `make run` and `make test`; everything else is for developers.
SWIFT  ?= swift
CONFIG ?= config/linkhost.json
SUDO   := $(shell [ "$$(id -u)" = 0 ] || command -v sudo >/dev/null && [ "$$(id -u)" != 0 ] && echo sudo)
APT    := DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get

.PHONY: deps test-deps build release run test check-html screenshots fuzz clean

# Installs libmicrohttpd's headers when pkg-config cannot find them (fresh Debian/Ubuntu machines).
deps:
	@if ! pkg-config --exists libmicrohttpd 2>/dev/null; then \
		echo "make: installing libmicrohttpd-dev and pkg-config with apt-get"; \
		$(APT) update -qq && $(APT) install -y -qq --no-install-recommends libmicrohttpd-dev pkg-config >/dev/null; \
	fi

# Test tools: zbarimg decodes QR codes, openssl and curl make and test HTTPS, prometheus_client parses /metrics.
test-deps: deps
	@missing=""; \
	command -v zbarimg >/dev/null 2>&1 || missing="$$missing zbar-tools"; \
	command -v openssl >/dev/null 2>&1 || missing="$$missing openssl"; \
	command -v curl >/dev/null 2>&1 || missing="$$missing curl"; \
	command -v python3 >/dev/null 2>&1 || missing="$$missing python3 python3-pip"; \
	if [ -n "$$missing" ]; then \
		echo "make: installing$$missing with apt-get"; \
		$(APT) update -qq && $(APT) install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi
	@python3 -c "import prometheus_client" 2>/dev/null || python3 -m pip install -q prometheus_client 2>/dev/null || python3 -m pip install -q --break-system-packages prometheus_client

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# Serves the default config on :8080 (override: make run CONFIG=path ARGS="--port 9000").
run: release
	.build/release/linkhost serve --config $(CONFIG) $(ARGS)

test: test-deps
	$(SWIFT) build
	$(SWIFT) test

# The W3C Nu HTML checker over every page rendered from the shipped template and public/.
check-html: build
	scripts/check-html.sh

# Headless Chromium screenshots of the pages at phone and desktop widths, into docs/screenshots/.
screenshots: build
	scripts/screenshot.sh

# libFuzzer over the config loader, router, template and AASA matcher (FUZZ_SECONDS each, default 600).
FUZZ_SECONDS ?= 600
fuzz:
	scripts/fuzz.sh $(FUZZ_SECONDS)

clean:
	rm -rf .build
