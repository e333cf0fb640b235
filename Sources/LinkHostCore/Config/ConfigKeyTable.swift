/// Every key of the config file, one row each: adding a key is one row here plus the code that reads it.
///
/// The order is the README's. The file's own keys and the server's come here; the site-level keys
/// (`apps`, `android`, `callLinks`, `aasa`, `static`, `sites`) in `ConfigKeyTable+Sites.swift`.
enum ConfigKeyTable {
    /// The whole table.
    static let rows: [ConfigKey] = file + server + siteLevel + observability + sites

    /// The file's own keys.
    static let file: [ConfigKey] = [
        ConfigKey("$schema", "string", site: .topLevelOnly, "the JSON Schema that editors check the file against (`config/linkhost.schema.json`); linkhost ignores it"),
        ConfigKey("example", "boolean", default: "false", note: "the shipped config: `true`", site: .topLevelOnly,
                  "marks the shipped example config: `serve` warns loudly off loopback; with automatic HTTPS the guard judges content, so `serve` refuses (and `validate` reports LH121 as an error) the example or any config carrying its apps, packages, fingerprints or URLs, marked or not, unless `LINKHOST_ALLOW_EXAMPLE=1`; without it `validate` warns (LH121) about the mark and the example's Team ID `ABCDE12345` or package `com.example.video`. Remove it with the example's apps"),
    ]

    /// `server`: the listener and its limits.
    static let server: [ConfigKey] = [
        ConfigKey("server", "object", site: .topLevelOnly, "listener and connection limits; `LINKHOST_HOST`, `LINKHOST_PORT` and `LINKHOST_HTTP_PORT` override host, port and httpPort"),
        ConfigKey("server.host", "string", default: "\"::\"", reload: .restart, site: .topLevelOnly, "address to bind: `::` dual stack, `0.0.0.0` IPv4 only, or one address"),
        ConfigKey("server.port", "integer 0–65535", default: "8080", reload: .restart, site: .topLevelOnly, "TCP port (0: any free port)"),
        ConfigKey("server.httpPort", "integer 0–65535", note: "none (image with ACME: `8080`)", reload: .restart, site: .topLevelOnly,
                  "plain-HTTP listener beside HTTPS: ACME challenges, association files, health and metrics; 308 to HTTPS for the rest on the hosts the config names (and loopback names); any other Host gets 404. Required with ACME"),
        ConfigKey("server.threads", "integer 0–1024", default: "0", site: .topLevelOnly, "worker threads (0: one per core)"),
        ConfigKey("server.connectionTimeout", "integer 1–3600", default: "15", site: .topLevelOnly, "seconds an idle connection is kept"),
        ConfigKey("server.connectionLimit", "integer 1–1000000", default: "4096", site: .topLevelOnly, "most connections at once"),
        ConfigKey("server.perIPConnectionLimit", "integer 0–1000000", default: "256", site: .topLevelOnly, "most connections per client address; set `0` behind a proxy or CDN"),
        ConfigKey("server.headerTimeout", "integer 0–3600", default: "10", site: .topLevelOnly,
                  "seconds a request head may take to arrive whole after the connection opened or the previous response ended, however slowly it trickles (slowloris); then 408 and close; `0` turns it off"),
        ConfigKey("server.shutdownTimeout", "integer 0–600", default: "10", site: .topLevelOnly, "seconds in-flight requests get on SIGTERM"),
        ConfigKey("server.connectionMemoryLimit", "integer 4096–1048576", default: "8192", site: .topLevelOnly, "bytes per connection for request line and headers; larger requests get 414/431"),
        ConfigKey("server.pageCacheBytes", "integer 0–17179869184", default: "33554432", note: "32 MiB", site: .topLevelOnly,
                  "bytes that rendered call pages and QR images may hold, all sites together (each site's `callLinks.pageCacheSize` counts pages; this bounds their sum, so many sites or wildcard hosts cannot outgrow a pod's memory limit); when full, every cache is emptied and fills again; `0` keeps none"),
        ConfigKey("server.staticFilesBytes", "integer 0–17179869184", default: "67108864", note: "64 MiB", site: .topLevelOnly,
                  "bytes that the static files of every site may hold together, read at load and kept in memory (a folder or file several sites serve counts once; each file at most 16 MiB); a site file whose folder would pass it fails alone (LH135) like any site file that does not load, the operator's own sites (top level, `sites`) refuse the config; with `server.pageCacheBytes` it is most of what a pod's memory limit must hold"),
        ConfigKey("server.strictHosts", "boolean", default: "false", site: .topLevelOnly,
                  "a host no site lists gets `404` (`Cache-Control: no-store`) instead of the default site's files, so a host in onboarding never serves another tenant's apps; the top level then answers only the names in `server.tls.acme.hosts` (see [Sites](#sites)); health and metrics answer on every host"),
        ConfigKey("server.watchConfig", "boolean", default: "false", site: .topLevelOnly,
                  "reload by itself within about two seconds when the config file changes — renamed over, a Kubernetes ConfigMap's `..data` symlink swapped, edited in place — all or nothing, as SIGHUP (polls the path once a second; see [docs/kubernetes.md](docs/kubernetes.md))"),
        ConfigKey("server.stateDirectory", "string", note: "none", reload: .restart, site: .topLevelOnly,
                  "a folder (0700, linkhost's own, checked as the ACME store's) where `serve` keeps what must outlive the process: each site file's last good version and who held each host, id and app (`sites/`), so a restart or a new replica with the same volume serves a broken tenant's last good version and keeps each claim with its holder (see [docs/kubernetes.md](docs/kubernetes.md)); the ACME store's default becomes its `acme` subfolder; only what changed is written, each file renamed into place whole"),
        ConfigKey("server.trustedProxies", "array of addresses and CIDR blocks", default: "[]", note: "none", site: .topLevelOnly,
                  "addresses and CIDR blocks, IPv4 and IPv6 (`[\"10.0.0.0/8\", \"2001:db8::/32\"]`) of the proxies, load balancers or CDN in front: from these peers only, the access log's `remote` is the rightmost `X-Forwarded-For` hop not in the list (every line of the field, in order), else `CF-Connecting-IP`; from any other peer both are ignored, and a hop that is not an address leaves the peer's"),
        ConfigKey("server.tls", "object", note: "off", site: .topLevelOnly,
                  "HTTPS on `server.port`: certificate files or `acme`, not both (LH117); `hsts` alone sets the `Strict-Transport-Security` of the HTTPS that `LINKHOST_ACME_HOSTS` turns on"),
        ConfigKey("server.tls.certificateFile", "string", note: "off", site: .topLevelOnly, "PEM certificate chain, leaf first: serve HTTPS (with `privateKeyFile`); re-read on SIGHUP, applied only if the new pair works together"),
        ConfigKey("server.tls.privateKeyFile", "string", note: "off", site: .topLevelOnly, "the unencrypted PEM key of `certificateFile`"),
        ConfigKey("server.tls.acme", "object", note: "off", reload: .restart, site: .topLevelOnly,
                  "automatic HTTPS: linkhost obtains and renews a certificate per site from an ACME CA; not together with certificate files"),
        ConfigKey("server.tls.acme.email", "string", reload: .restart, site: .topLevelOnly, "contact address for the CA's expiry notices; `LINKHOST_ACME_EMAIL` overrides it"),
        ConfigKey("server.tls.acme.directory", "https URL", default: "\"https://acme-v02.api.letsencrypt.org/directory\"", note: "Let's Encrypt production", reload: .restart, site: .topLevelOnly,
                  "the CA's directory URL; try `https://acme-staging-v02.api.letsencrypt.org/directory` first; `LINKHOST_ACME_DIRECTORY` overrides it"),
        ConfigKey("server.tls.acme.caFile", "string", note: "system store", reload: .restart, site: .topLevelOnly, "PEM CA certificates trusted for the directory's HTTPS (private or test CAs)"),
        ConfigKey("server.tls.acme.stateDirectory", "string", default: "\"state/acme\"", note: "image: `/var/lib/linkhost`", reload: .restart, site: .topLevelOnly,
                  "account key and certificates (0700, files 0600); must belong to linkhost's user and be writable by no one else, or `serve` refuses to start (see docs/https.md)"),
        ConfigKey("server.tls.acme.externalAccountBinding", "object", reload: .restart, site: .topLevelOnly, "for CAs that require external account binding (RFC 8555 §7.3.4)"),
        ConfigKey("server.tls.acme.externalAccountBinding.keyID", "string", reload: .restart, site: .topLevelOnly, "the key ID the CA gave"),
        ConfigKey("server.tls.acme.externalAccountBinding.hmacKey", "base64url string", reload: .restart, site: .topLevelOnly, "the MAC key the CA gave"),
        ConfigKey("server.tls.acme.hosts", "array of host names", reload: .restart, site: .topLevelOnly,
                  "host names of the default site (the top level), certified together; its certificate answers handshakes without SNI; `LINKHOST_ACME_HOSTS` (comma-separated) sets them and turns ACME on"),
        ConfigKey("server.tls.hsts", "boolean or object", default: "true", note: "on: `max-age=31536000`", site: .topLevelOnly,
                  "`Strict-Transport-Security` (RFC 6797) on every HTTPS response, never on plain HTTP nor on the HTTP listener beside HTTPS: `true`, `false`, or an object of the three keys below"),
        ConfigKey("server.tls.hsts.maxAge", "integer 0–63072000", default: "31536000", site: .topLevelOnly, "seconds a browser keeps to HTTPS for the host; 0 tells it to forget"),
        ConfigKey("server.tls.hsts.includeSubDomains", "boolean", default: "false", site: .topLevelOnly, "the same for every subdomain of the host"),
        ConfigKey("server.tls.hsts.preload", "boolean", default: "false", site: .topLevelOnly, "consent to the browsers' preload list (hstspreload.org); needs the other two at a year or more (LH109)"),
    ]

    /// `observability`: access log, health probe, metrics.
    static let observability: [ConfigKey] = [
        ConfigKey("observability", "object", site: .topLevelOnly, "access log, health probe and metrics; the same on every host"),
        ConfigKey("observability.accessLog", "`json`, `common`, `combined` or `off`", default: "\"json\"", reload: .restart, site: .topLevelOnly, "access-log format, lines on stdout"),
        ConfigKey("observability.healthPath", "path", default: "\"/healthz\"", site: .topLevelOnly, "health probe path"),
        ConfigKey("observability.metrics", "object", site: .topLevelOnly, "the Prometheus metrics page"),
        ConfigKey("observability.metrics.enabled", "boolean", default: "true", site: .topLevelOnly,
                  "whether metrics are served at all; a change is refused while `metrics.port` is set (before or after)"),
        ConfigKey("observability.metrics.path", "path", default: "\"/metrics\"", site: .topLevelOnly, "metrics page path"),
        ConfigKey("observability.metrics.port", "integer 1–65535", note: "the public listener", reload: .restart, site: .topLevelOnly, "a port of their own for metrics, off the public listener"),
        ConfigKey("observability.metrics.host", "string", default: "\"127.0.0.1\"", reload: .restart, site: .topLevelOnly, "the address of that port"),
        ConfigKey("observability.metrics.perSiteLatency", "boolean", default: "false", site: .topLevelOnly,
                  "latency histograms by site and route, not by route only: 15 more series for each route a site answered (45 for AASA, assetlinks and call pages)"),
    ]
}
