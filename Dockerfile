# linkhost container image.
#
#   docker build -t linkhost .
#   docker run -p 8080:8080 -v "$PWD/config:/etc/linkhost:ro" linkhost
#
# Two stages. "build" compiles a release binary with the Swift standard library linked in
# statically and leaves it, stripped, at /out/linkhost. "runtime" is Debian 13 slim plus the
# shared libraries the binary still needs (libmicrohttpd, GnuTLS, libqrencode). scripts/check-docker.sh
# builds the runtime stage of this very file, replacing the build stage with a directory that holds a
# binary built on the host (--build-context build=DIR), so keep the stage name and /out/linkhost.
#
# The stages are on different Debian releases on purpose: the build stays on swift:6.3-bookworm,
# Debian 12 like the machines the project is developed and tested on, and the runtime is Debian 13
# for its security support and its libmicrohttpd 1.0.1. The binary is built
# against Debian 12's libmicrohttpd 0.9.75 headers and asks the library it loads for its version
# at start: on 1.0 it turns on the strict request parser (MHD_OPTION_CLIENT_DISCIPLINE_LVL), which
# 0.9.75 does not know. Both are libmicrohttpd.so.12, and glibc 2.41 runs what 2.36 linked.

# ---- build ----------------------------------------------------------------------------------
FROM swift:6.3-bookworm AS build

# Debian's package versions are not pinned: the archive keeps only the current one, and a pin
# would break the build at the next security update. The base image tag fixes the release.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libmicrohttpd-dev libgnutls28-dev libqrencode-dev \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /src
# Package.swift names the test and fuzz targets too, so their folders must exist for the manifest to load.
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
COPY Fuzz/Targets ./Fuzz/Targets

RUN swift build -c release --static-swift-stdlib --product linkhost \
    && mkdir -p /out \
    && cp "$(swift build -c release --static-swift-stdlib --show-bin-path)/linkhost" /out/linkhost \
    && strip /out/linkhost \
    && /out/linkhost --version

# ---- runtime --------------------------------------------------------------------------------
FROM debian:trixie-slim AS runtime

LABEL org.opencontainers.image.title="linkhost" \
      org.opencontainers.image.description="Web host of an app's link domain: AASA, assetlinks.json, call-link pages, static files"

# The binary carries the Swift runtime; beyond glibc it loads libmicrohttpd 1.0.1, GnuTLS (for
# HTTPS and for `linkhost check`, which fetches a live domain's files), libqrencode (the call
# page's QR code) and libstdc++ (already in slim; named so that it stays). ca-certificates is the
# trust store those HTTPS checks verify against; publicsuffix is the Public Suffix List that holds wildcard
# hosts to a registrable domain. The t64 names are Debian 13's (64-bit time_t).
# The user has a fixed number so that Kubernetes' runAsNonRoot can check it without a name.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        ca-certificates libgnutls30t64 libmicrohttpd12t64 libqrencode4 libstdc++6 publicsuffix \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --gid 10001 linkhost \
    && useradd --uid 10001 --gid linkhost --no-create-home --no-log-init \
        --home-dir /nonexistent --shell /usr/sbin/nologin linkhost

COPY --from=build /out/linkhost /usr/local/bin/linkhost
COPY config/linkhost.json /etc/linkhost/linkhost.json
COPY public/ /srv/linkhost/public/

# Relative paths in the config (such as "public") resolve against the working directory.
# Address and port come from the config (default [::]:8080, which also takes IPv4);
# LINKHOST_HOST and LINKHOST_PORT override them at `docker run -e`.
WORKDIR /srv/linkhost
ENV LINKHOST_CONFIG=/etc/linkhost/linkhost.json

# Automatic HTTPS (server.tls.acme, or -e LINKHOST_ACME_HOSTS=links.example.com): HTTPS on 8443 and HTTP on
# 8080 unless the config names its httpPort (docker run -p 443:8443 -p 80:8080), keys and certificates in
# the volume, so a new container reuses them instead of ordering again.
ENV LINKHOST_ACME_DEFAULT_PORT=8443 \
    LINKHOST_ACME_DEFAULT_HTTP_PORT=8080 \
    LINKHOST_ACME_DEFAULT_STATE_DIRECTORY=/var/lib/linkhost
RUN mkdir -p /var/lib/linkhost && chown 10001:10001 /var/lib/linkhost && chmod 700 /var/lib/linkhost
VOLUME /var/lib/linkhost

USER 10001:10001
EXPOSE 8080 8443

HEALTHCHECK --interval=30s --timeout=5s --start-period=5s --retries=3 \
    CMD ["/usr/local/bin/linkhost", "healthcheck"]

ENTRYPOINT ["/usr/local/bin/linkhost"]
CMD ["serve"]
