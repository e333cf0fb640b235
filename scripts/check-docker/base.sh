# shellcheck shell=bash
# check-docker.sh, stage 3: debian:trixie-slim stood in for by a debootstrap minbase tree, trimmed like the
# slim image, cached as a tarball and imported into the check's storage.

# The base image the runtime stage starts FROM, the Debian suite it is, and the recipe of our stand-in
# for it. Bump the recipe when the debootstrap call or slim_down changes, so cached copies are rebuilt.
# Debian 13's suites are on the same mirror as this machine's Debian 12 ones, so the mirror found in
# this machine's apt sources serves both; only the suite name differs.
BASE_SUITE=trixie
BASE_REF=docker.io/library/debian:$BASE_SUITE-slim
BASE_RECIPE=$BASE_SUITE-minbase-1

# Trims a debootstrap tree towards what debian:trixie-slim holds: the same apt sources, no
# package lists or caches, no documentation or translations.
slim_down() {
    local root=$1 security=$SECURITY_MIRROR
    # Never the host's own /etc.
    [[ -n $root && $root != / && -d $root/etc/apt && -d $root/etc/dpkg ]] ||
        fail base "refusing to trim '$root': not a debootstrap tree"
    rm -f "$root/etc/apt/sources.list"
    cat >"$root/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $MIRROR
Suites: $BASE_SUITE $BASE_SUITE-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: $security
Suites: $BASE_SUITE-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    # Debian's container images configure apt to keep no caches and no translations; an image
    # built FROM them relies on that, so the stand-in must behave the same.
    cat >"$root/etc/apt/apt.conf.d/90linkhost-check-slim" <<'EOF'
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Acquire::Languages "none";
Acquire::GzipIndexes "true";
APT::AutoRemove::SuggestsImportant "false";
EOF
    cat >"$root/etc/dpkg/dpkg.cfg.d/slim" <<'EOF'
# As in Debian's slim images: no manuals, documentation or translations.
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
EOF
    find "$root/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
    rm -rf "$root/usr/share/man"/* "$root/usr/share/info"/* "$root/var/lib/apt/lists"/* \
        "$root/var/cache/apt"/*.bin "$root/var/cache/apt/archives"/*.deb "$root/var/log"/*.log
    find "$root/usr/share/locale" -mindepth 1 -maxdepth 1 -not -name locale.alias -exec rm -rf {} +
    : >"$root/etc/machine-id"
}

# apt_mirrors: MIRROR and SECURITY_MIRROR from this machine's apt sources, unless set. The
# main mirror is the first Debian "deb" source of a release suite; the security one that of a
# "-security" suite, else the main one's path with "-security" added (Debian's layout).
apt_mirrors() {
    local found
    found=$(python3 - <<'EOF'
import glob, re
sources = []  # (uri, suite)
for path in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
    for stanza in re.split(r"\n\s*\n", open(path).read()):
        fields, key = {}, None
        for line in stanza.splitlines():
            if line.startswith("#") or not line.strip():
                continue
            if line[0].isspace() and key:
                fields[key] += " " + line.strip()
            elif ":" in line:
                key, value = line.split(":", 1)
                key = key.strip().lower()
                fields[key] = value.strip()
        if "deb" in fields.get("types", "").split() and fields.get("enabled", "yes").lower() != "no":
            sources += [(fields.get("uris", "").split()[0], suite) for suite in fields.get("suites", "").split() if fields.get("uris")]
for path in ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*.list")):
    try:
        lines = open(path).read().splitlines()
    except OSError:
        continue
    for line in lines:
        m = re.match(r"\s*deb\s+(\[[^]]*\]\s+)?(\S+)\s+(\S+)", line)
        if m:
            sources.append((m.group(2), m.group(3)))
main = next((u for u, s in sources if re.fullmatch(r"[a-z]+", s) and "debian" in u), "")
security = next((u for u, s in sources if s.endswith("-security") and "debian" in u), "")
print(main.rstrip("/"), security.rstrip("/"))
EOF
    )
    [[ -n $MIRROR ]] || MIRROR=${found%% *}
    [[ -n $MIRROR ]] || fail base "no Debian mirror in this machine's apt sources: set LINKHOST_CHECK_MIRROR"
    [[ -n $SECURITY_MIRROR ]] || SECURITY_MIRROR=${found#* }
    [[ -n $SECURITY_MIRROR ]] || SECURITY_MIRROR=$MIRROR-security
}

stage_base() {
    local have=""
    if bh inspect --type image "$BASE_REF" >"$WORK/base.json" 2>/dev/null; then
        have=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(((d.get("Docker") or {}).get("config") or {}).get("Labels", {}).get("linkhost.check.base", ""))' "$WORK/base.json")
    fi
    if [[ $have == "$BASE_RECIPE" ]]; then
        log "base: $BASE_REF ($BASE_RECIPE, cached)"
        stage_done base
        return
    fi
    local tarball=$CACHE_DIR/debian-$BASE_RECIPE.tar
    if [[ ! -s $tarball ]]; then
        local rootfs=$CACHE_DIR/rootfs.tmp
        rm -rf --one-file-system "$rootfs"
        apt_mirrors
        log "base: debootstrap --variant=minbase $BASE_SUITE from $MIRROR (about a minute)"
        timeout 1200 debootstrap --variant=minbase "$BASE_SUITE" "$rootfs" "$MIRROR" >"$CACHE_DIR/debootstrap.log" 2>&1 || {
            tail -n 20 "$CACHE_DIR/debootstrap.log" >&2
            fail base "debootstrap failed (log: $CACHE_DIR/debootstrap.log)"
        }
        slim_down "$rootfs"
        tar --numeric-owner -C "$rootfs" -cf "$tarball.tmp" .
        mv "$tarball.tmp" "$tarball"
        rm -rf --one-file-system "$rootfs"
    fi
    log "base: importing $(basename "$tarball") as $BASE_REF"
    local ctr
    ctr=$(bh from --pull=never scratch)
    CLEANUP_CTRS+=("$ctr")
    bh add "$ctr" "$tarball" / >/dev/null
    bh config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        --cmd '["bash"]' --label "linkhost.check.base=$BASE_RECIPE" "$ctr"
    bh commit --quiet --format docker --rm "$ctr" "$BASE_REF" >/dev/null
    stage_done base
}
