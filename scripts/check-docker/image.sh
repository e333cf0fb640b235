# shellcheck shell=bash
# check-docker.sh, stage 4 and the start of 5: the runtime stage built by buildah, the image's configuration
# (user, HEALTHCHECK, entrypoint) and the libraries its binary loads inside the image.

stage_image() {
    log "image: buildah build --target runtime --build-context build=<host binary> (storage $DRIVER)"
    local rc=0
    timeout 1200 "${BH[@]}" build --isolation chroot --format docker --pull=never --layers \
        --target runtime --build-context "build=$WORK/build-context" \
        -f "$DOCKERFILE" -t "$TAG" "$REPO" </dev/null >"$WORK/build.log" 2>&1 || rc=$?
    cp "$WORK/build.log" "$CACHE_DIR/last-build.log"
    if ((rc != 0)); then
        tail -n 30 "$WORK/build.log" >&2
        fail build "buildah build failed with status $rc (log: $CACHE_DIR/last-build.log)"
    fi
    note "$(grep -c -- '--> Using cache' "$WORK/build.log" || true) cached steps; built $TAG, $(bh images --format '{{.Size}}' "$TAG" | head -n 1)"
    # Layers of earlier builds that no tag uses any more.
    bh rmi --prune >/dev/null 2>&1 || true
    stage_done image
}

read_image_config() {
    bh inspect --type image "$TAG" >"$WORK/image.json"
    # Writes shell assignments (checked values) and NUL-separated argument lists.
    python3 - "$WORK/image.json" "$WORK" >"$WORK/image.env" <<'EOF' || fail config "$(cat "$WORK/config-error" 2>/dev/null)"
import json, re, shlex, sys
image, work = json.load(open(sys.argv[1])), sys.argv[2]
config = (image.get("Docker") or {}).get("config") or {}
problems = []
user = config.get("User") or ""
m = re.fullmatch(r"(\d+)(?::(\d+))?", user)
if not m:
    problems.append(f"USER is {user!r}: want a numeric non-root user such as 10001:10001")
elif int(m.group(1)) == 0:
    problems.append("USER is root (0)")
health = (config.get("Healthcheck") or {}).get("Test") or []
if not health:
    problems.append("no HEALTHCHECK in the image (built with --format oci?)")
elif health[0] != "CMD":
    problems.append(f"HEALTHCHECK is {health!r}: want the JSON (exec) form, CMD [...]")
entrypoint = config.get("Entrypoint") or []
if not entrypoint:
    problems.append("no ENTRYPOINT")
if "8080/tcp" not in (config.get("ExposedPorts") or {}):
    problems.append("EXPOSE 8080 is missing")
env = dict(e.split("=", 1) for e in config.get("Env") or [])
if not env.get("LINKHOST_CONFIG"):
    problems.append("ENV LINKHOST_CONFIG is not set")
if problems:
    open(f"{work}/config-error", "w").write("; ".join(problems))
    sys.exit(1)
with open(f"{work}/server.argv", "w") as f:
    f.write("".join(a + "\0" for a in entrypoint + (config.get("Cmd") or [])))
with open(f"{work}/health.argv", "w") as f:
    f.write("".join(a + "\0" for a in health[1:]))
print(f"IMAGE_UID={m.group(1)}")
print(f"IMAGE_USER={shlex.quote(user)}")
print(f"IMAGE_WORKDIR={shlex.quote(config.get('WorkingDir') or '/')}")
print(f"IMAGE_CONFIG={shlex.quote(env['LINKHOST_CONFIG'])}")
print(f"HEALTH_TIMEOUT_S={((config.get('Healthcheck') or {}).get('Timeout') or 30_000_000_000) // 1_000_000_000}")
EOF
    # shellcheck disable=SC1091
    source "$WORK/image.env"
    mapfile -d '' SERVER_ARGV <"$WORK/server.argv"
    mapfile -d '' HEALTH_ARGV <"$WORK/health.argv"
    log "config: USER $IMAGE_USER, WORKDIR $IMAGE_WORKDIR, LINKHOST_CONFIG=$IMAGE_CONFIG"
    note "entrypoint: ${SERVER_ARGV[*]}"
    note "healthcheck: ${HEALTH_ARGV[*]} (timeout ${HEALTH_TIMEOUT_S}s)"
}

check_libraries() {
    local exe=${SERVER_ARGV[0]} rc=0
    timeout 60 "${BH[@]}" run --isolation chroot "$CTR" -- ldd "$exe" </dev/null >"$WORK/ldd.txt" 2>&1 || rc=$?
    if grep -q 'not a dynamic executable' "$WORK/ldd.txt"; then
        note "ldd: $exe is fully static"
        return
    fi
    ((rc == 0)) || grep -q 'not found' "$WORK/ldd.txt" || {
        cat "$WORK/ldd.txt" >&2
        fail ldd "ldd $exe failed in the image (status $rc)"
    }
    local swift_libs missing
    swift_libs=$(grep -E 'lib(swift[A-Za-z_]*|_?Foundation[A-Za-z_]*|dispatch|BlocksRuntime|icu[a-z0-9_]*)\.so' "$WORK/ldd.txt" || true)
    if [[ -n $swift_libs ]]; then
        printf '%s\n' "$swift_libs" >&2
        fail not-static "$exe loads the Swift runtime from shared libraries, which the image does not have: build with --static-swift-stdlib"
    fi
    missing=$(grep 'not found' "$WORK/ldd.txt" || true)
    if [[ -n $missing ]]; then
        printf '%s\n' "$missing" >&2
        fail ldd "shared libraries missing from the image: $(awk '/not found/ { printf "%s ", $1 }' "$WORK/ldd.txt")- add the Debian package that ships them to the runtime stage's apt-get install"
    fi
    note "ldd: all $(grep -c '=>' "$WORK/ldd.txt") libraries resolve, no Swift runtime libraries"
    # GnuTLS verifies `linkhost check`'s HTTPS fetches against the system trust store.
    if grep -q 'libgnutls' "$WORK/ldd.txt"; then
        timeout 30 "${BH[@]}" run --isolation chroot "$CTR" -- test -s /etc/ssl/certs/ca-certificates.crt </dev/null ||
            fail trust-store "the binary uses GnuTLS for HTTPS, but the image has no /etc/ssl/certs/ca-certificates.crt: install ca-certificates"
        note "trust store: /etc/ssl/certs/ca-certificates.crt"
    fi
}
