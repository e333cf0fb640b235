# linkhost: the two commands people need are `make run` and `make test`; everything else is for developers.
SWIFT  ?= swift
CONFIG ?= config/linkhost.json
SUDO   := $(shell [ "$$(id -u)" = 0 ] || command -v sudo >/dev/null && [ "$$(id -u)" != 0 ] && echo sudo)
APT    := DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get

.PHONY: deps test-deps build release run test clean

# Installs libmicrohttpd's headers when pkg-config cannot find them (fresh Debian/Ubuntu machines).
deps:
	@if ! pkg-config --exists libmicrohttpd 2>/dev/null; then \
		echo "make: installing libmicrohttpd-dev and pkg-config with apt-get"; \
		$(APT) update -qq && $(APT) install -y -qq --no-install-recommends libmicrohttpd-dev pkg-config >/dev/null; \
	fi

# Test tools: zbarimg decodes the call page's QR codes in the tests.
test-deps: deps
	@if ! command -v zbarimg >/dev/null 2>&1; then \
		echo "make: installing zbar-tools with apt-get"; \
		$(APT) update -qq && $(APT) install -y -qq --no-install-recommends zbar-tools >/dev/null; \
	fi

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

clean:
	rm -rf .build
