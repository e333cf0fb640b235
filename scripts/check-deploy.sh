#!/usr/bin/env bash
# Checks the deployment examples in deploy/ (see docs/docker.md).
#
#   1. kubernetes-validate --strict on deploy/kubernetes/*.yaml, for the oldest and newest
#      Kubernetes versions we claim (unknown fields and wrong types fail)
#   2. what the schema cannot see: replicas, probes on /healthz, requests and limits, non-root
#      and read-only root, rolling updates, names and ports that must agree across files, the
#      config's server.watchConfig and its mount (no subPath), the checksum annotation of the files
#      laid over public/ (--update-checksum rewrites it), the site-file shards mounted where siteFiles
#      reads (each defined or optional, no file name in two, each under 1 MiB)
#   3. `linkhost validate` on the ConfigMap's linkhost.json, with public/ and the shards' site files
#      laid out as in the pod
#   4. the systemd units (scripts/check-deploy-systemd.sh): systemd-analyze verify and security on
#      linkhost.service + linkhost.socket and on linkhost-https.service with and without its socket
#      drop-in, and a start of each socket-activated set through systemd-socket-activate
#
# Installs what it lacks (pip: kubernetes-validate; apt: systemd) unless --no-install.
set -euo pipefail

usage() {
    cat <<'EOF'
usage: scripts/check-deploy.sh [--update-checksum] [--binary PATH] [--no-install]

  --update-checksum  write the sha256 of the linkhost-public ConfigMap's files into deployment.yaml's
                     checksum/public-files annotation (after editing them), then check
  --binary PATH      linkhost binary for `linkhost validate` (default: the first of
                     .build/check-docker/release, .build/release, .build/debug; else a debug build)
  --no-install       fail instead of installing missing tools
EOF
}

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
K8S=$REPO/deploy/kubernetes
UPDATE=0
INSTALL=1
BINARY=""
# The oldest Kubernetes release still supported upstream when this was written, and the newest
# that kubernetes-validate knows.
K8S_VERSIONS=(1.30.0 latest)

while (($#)); do
    case $1 in
        --update-checksum) UPDATE=1 ;;
        --binary) BINARY=${2:?--binary needs a path}; shift ;;
        --no-install) INSTALL=0 ;;
        -h | --help) usage; exit 0 ;;
        *) printf 'check-deploy: unknown option %s\n\n' "$1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

log() { printf '==> %s\n' "$*"; }
note() { printf '    %s\n' "$*"; }
fail() {
    printf 'FAIL[%s]: %s\n' "$1" "$2" >&2
    exit 1
}

WORK=$(mktemp -d /tmp/check-deploy.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

# ---- tools ----------------------------------------------------------------------------------

if ! command -v kubernetes-validate >/dev/null; then
    ((INSTALL)) || fail setup "kubernetes-validate is missing (pip install kubernetes-validate)"
    log "installing kubernetes-validate (pip)"
    timeout 600 python3 -m pip install --quiet --disable-pip-version-check kubernetes-validate ||
        fail setup "pip install kubernetes-validate failed"
    hash -r
    if ! command -v kubernetes-validate >/dev/null; then
        PATH=$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))'):$PATH
        command -v kubernetes-validate >/dev/null || fail setup "kubernetes-validate installed, but not on PATH"
    fi
fi
python3 -c 'import yaml' 2>/dev/null || fail setup "python3 cannot import yaml (kubernetes-validate brings PyYAML)"
if ! command -v systemd-analyze >/dev/null; then
    ((INSTALL)) || fail setup "systemd-analyze is missing (apt-get install systemd)"
    log "installing systemd (apt, for systemd-analyze)"
    export DEBIAN_FRONTEND=noninteractive
    timeout 600 apt-get -q update >/dev/null || fail setup "apt-get update failed"
    timeout 900 apt-get -q install -y --no-install-recommends -o DPkg::Lock::Timeout=300 systemd >/dev/null ||
        fail setup "apt-get install systemd failed"
fi

# ---- 1. schema ------------------------------------------------------------------------------

manifests=("$K8S"/*.yaml)
[[ -e ${manifests[0]} ]] || fail setup "no manifests in $K8S"

# The sha256 of the linkhost-public ConfigMap's data (JSON, keys sorted): subPath mounts are never
# updated in a running pod, so a change to those files must roll the pods. linkhost.json is not in it:
# server.watchConfig reloads it in place (docs/kubernetes.md).
public_sum=$(python3 - "$K8S/configmap.yaml" <<'EOF'
import hashlib, json, sys, yaml
for d in yaml.safe_load_all(open(sys.argv[1])):
    if d and d.get("kind") == "ConfigMap" and d["metadata"]["name"] == "linkhost-public":
        print(hashlib.sha256(json.dumps(d.get("data", {}), sort_keys=True, separators=(",", ":")).encode()).hexdigest())
EOF
) || fail setup "cannot read $K8S/configmap.yaml"
if ((UPDATE)); then
    sed -i -E "s|^( *checksum/public-files: ).*|\\1\"$public_sum\"|" "$K8S/deployment.yaml"
    log "checksum/public-files in deployment.yaml set to $public_sum"
fi

for version in "${K8S_VERSIONS[@]}"; do
    log "kubernetes-validate --strict (Kubernetes $version): ${manifests[*]#"$REPO"/}"
    args=(--strict --quiet)
    [[ $version == latest ]] || args+=(--kubernetes-version "$version")
    timeout 120 kubernetes-validate "${args[@]}" "${manifests[@]}" || fail schema "manifests do not validate against Kubernetes $version"
done

# ---- 2. policy and consistency --------------------------------------------------------------

# The image's user, so the pod's runAsUser can be compared with it.
image_uid=$(sed -nE 's/^USER ([0-9]+).*/\1/p' "$REPO/Dockerfile" | tail -n 1)

log "policy: replicas, probes, resources, security, rollout, names, ports, watchConfig, checksum"
python3 - "$K8S" "$image_uid" "$WORK" "$public_sum" <<'EOF' || fail policy "see the problems above"
import json, os, re, sys, yaml

k8s_dir, image_uid, work, public_sum = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
docs = []
for name in sorted(os.listdir(k8s_dir)):
    if name.endswith(".yaml"):
        with open(os.path.join(k8s_dir, name)) as f:
            docs += [(name, d) for d in yaml.safe_load_all(f) if d]
by_kind = {}
for name, d in docs:
    by_kind.setdefault(d["kind"], []).append(d)
problems = []
def problem(text):
    problems.append(text)

quantity = re.compile(r"^[0-9]+(\.[0-9]+)?(m|k|M|G|T|Ki|Mi|Gi|Ti)?$")
configmaps = {c["metadata"]["name"]: c for c in by_kind.get("ConfigMap", [])}
deployments = by_kind.get("Deployment", [])
if len(deployments) != 1:
    problem(f"want exactly one Deployment, found {len(deployments)}")
    deployments = deployments[:1]

# A ConfigMap holds at most 1 MiB (kubernetes.io, "ConfigMaps").
CONFIGMAP_LIMIT = 1024 * 1024

def check_site_files(where, config, config_path, mounts, volumes):
    """The config's siteFiles folder is a volume's mount (the shards of docs/kubernetes.md): every shard defined here
    or optional, no file name in two shards, each shard under 1 MiB; their files are laid out for `linkhost validate`."""
    pattern = config.get("siteFiles")
    if not isinstance(pattern, str) or "/" not in pattern:
        return
    folder = os.path.normpath(os.path.join(os.path.dirname(config_path), pattern.rsplit("/", 1)[0]))
    mount = next((m for m in mounts if os.path.normpath(m["mountPath"]) == folder), None)
    if mount is None or "subPath" in mount:
        problem(f"{where}: the config reads its site files from {folder} (siteFiles {pattern!r}), which no volume is mounted at as a folder")
        return
    volume = volumes.get(mount["name"], {})
    sources = [s["configMap"] for s in volume.get("projected", {}).get("sources", []) if "configMap" in s]
    if "configMap" in volume:
        sources.append(volume["configMap"])
    owner = {}
    relative = os.path.relpath(folder, os.path.dirname(config_path))
    os.makedirs(os.path.join(work, "config", relative), exist_ok=True)
    for source in sources:
        cm = configmaps.get(source.get("name"))
        if cm is None:
            if source.get("optional") is not True:
                problem(f"{where}: site-file shard ConfigMap {source.get('name')} is defined by no manifest and not optional: "
                        "mark it optional: true, so a shard not created yet stops no pod")
            continue
        data = cm.get("data", {})
        size = sum(len(k.encode()) + len(v.encode()) for k, v in data.items())
        if size > CONFIGMAP_LIMIT:
            problem(f"ConfigMap {source['name']}: {size} bytes of site files, over the 1 MiB a ConfigMap holds: move tenants to another shard")
        for key, text in data.items():
            if key in owner:
                problem(f"site file {key} is in both {owner[key]} and {source['name']}: one folder holds one file of a name")
            owner[key] = source["name"]
            with open(os.path.join(work, "config", relative, key), "w") as out:
                out.write(text)

for dep in deployments:
    spec, name = dep["spec"], dep["metadata"]["name"]
    pod = spec["template"]["spec"]
    labels = spec["template"]["metadata"].get("labels", {})
    if spec.get("replicas", 1) < 2:
        problem(f"{name}: replicas {spec.get('replicas', 1)}, want 2 or more")
    strategy = spec.get("strategy", {})
    if strategy.get("type", "RollingUpdate") != "RollingUpdate":
        problem(f"{name}: strategy {strategy.get('type')}, want RollingUpdate")
    if str(strategy.get("rollingUpdate", {}).get("maxUnavailable", "25%")) not in ("0", "0%"):
        problem(f"{name}: rollingUpdate.maxUnavailable should be 0 so a rollout never drops below the replica count")
    if not all(spec["selector"]["matchLabels"].get(k) == v and labels.get(k) == v for k, v in spec["selector"]["matchLabels"].items()):
        problem(f"{name}: selector does not match the pod labels")

    # The files laid over public/ by subPath roll the pods when they change (a subPath mount never updates).
    have = spec["template"]["metadata"].get("annotations", {}).get("checksum/public-files")
    if have != public_sum:
        problem(f"{name}: annotation checksum/public-files is {have!r}, but the linkhost-public ConfigMap hashes to "
                f"{public_sum}: run scripts/check-deploy.sh --update-checksum")

    psc = pod.get("securityContext", {})
    if psc.get("runAsNonRoot") is not True:
        problem(f"{name}: pod securityContext.runAsNonRoot must be true")
    if image_uid and "runAsUser" in psc and str(psc["runAsUser"]) != image_uid:
        problem(f"{name}: runAsUser {psc['runAsUser']} differs from the image's USER {image_uid}")

    volumes = {v["name"]: v for v in pod.get("volumes", [])}
    for vol in volumes.values():
        ref = vol.get("configMap", {}).get("name")
        if ref and ref not in configmaps:
            problem(f"{name}: volume {vol['name']} refers to ConfigMap {ref}, which no manifest defines")

    for c in pod["containers"]:
        where = f"{name}/{c['name']}"
        ports = {p.get("name"): p["containerPort"] for p in c.get("ports", [])}
        probes = [(kind, c[kind]["httpGet"]) for kind in ("startupProbe", "readinessProbe", "livenessProbe")
                  if "httpGet" in c.get(kind, {})]
        for kind in ("readinessProbe", "livenessProbe"):
            if kind not in dict(probes):
                problem(f"{where}: {kind} must be an httpGet of the health path")
        for kind, probe in probes:
            if probe["port"] not in ports and probe["port"] not in ports.values():
                problem(f"{where}: {kind} port {probe['port']} is not a container port")
        res = c.get("resources", {})
        for part in ("requests", "limits"):
            for r in ("cpu", "memory"):
                value = str(res.get(part, {}).get(r, ""))
                if not quantity.match(value):
                    problem(f"{where}: resources.{part}.{r} is {value!r}, want a quantity such as 100m or 64Mi")
        csc = c.get("securityContext", {})
        if csc.get("readOnlyRootFilesystem") is not True:
            problem(f"{where}: securityContext.readOnlyRootFilesystem must be true")
        if csc.get("allowPrivilegeEscalation") is not False:
            problem(f"{where}: securityContext.allowPrivilegeEscalation must be false")
        if "ALL" not in csc.get("capabilities", {}).get("drop", []):
            problem(f"{where}: securityContext.capabilities.drop must include ALL")

        env = {e["name"]: e.get("value") for e in c.get("env", [])}
        config_path = env.get("LINKHOST_CONFIG", "/etc/linkhost/linkhost.json")
        mounts = c.get("volumeMounts", [])
        config_mount = [m for m in mounts if m["mountPath"] == os.path.dirname(config_path)]
        if not config_mount:
            problem(f"{where}: nothing is mounted at {os.path.dirname(config_path)} for {config_path}")
        elif "subPath" in config_mount[0]:
            problem(f"{where}: the config is mounted with subPath, which the kubelet never updates: mount the ConfigMap as a folder")
        else:
            cm = configmaps.get(volumes.get(config_mount[0]["name"], {}).get("configMap", {}).get("name"))
            key = os.path.basename(config_path)
            if not cm or key not in cm.get("data", {}):
                problem(f"{where}: the ConfigMap mounted at {os.path.dirname(config_path)} has no key {key}")
            else:
                try:
                    config = json.loads(cm["data"][key])
                except ValueError as error:
                    problem(f"ConfigMap {cm['metadata']['name']}: {key} is not JSON: {error}")
                else:
                    os.makedirs(f"{work}/config", exist_ok=True)
                    with open(f"{work}/config/linkhost.json", "w") as out:
                        out.write(cm["data"][key])
                    if config.get("server", {}).get("watchConfig") is not True:
                        problem(f"ConfigMap {cm['metadata']['name']}: {key} should set server.watchConfig: true, so every replica "
                                "reloads a ConfigMap update in place (docs/kubernetes.md)")
                    port = config.get("server", {}).get("port", 8080)
                    if port not in ports.values():
                        problem(f"{where}: the config listens on {port}, but the container ports are {sorted(ports.values())}")
                    observability = config.get("observability", {})
                    metrics_port = observability.get("metrics", {}).get("port")
                    if metrics_port is not None and metrics_port not in ports.values():
                        problem(f"{where}: the config serves metrics on {metrics_port}, which is not a container port")
                    check_site_files(where, config, config_path, mounts, volumes)
                    health = observability.get("healthPath", "/healthz")
                    for kind, probe in probes:
                        if probe.get("path") != health:
                            problem(f"{where}: {kind} asks {probe.get('path')}, but the config's health path is {health}")
                        elif ports.get(probe["port"], probe["port"]) != port:
                            problem(f"{where}: {kind} probes port {probe['port']}, but the server listens on {port}")

        # Files laid over public/ by subPath: every key mounted, every mount backed by a key.
        os.makedirs(f"{work}/overrides", exist_ok=True)
        for vname, vol in volumes.items():
            cm = configmaps.get(vol.get("configMap", {}).get("name"))
            if not cm or any(m["name"] == vname and "subPath" not in m for m in mounts):
                continue
            sub = {m["subPath"]: m["mountPath"] for m in mounts if m["name"] == vname}
            for key, text in cm.get("data", {}).items():
                if key not in sub:
                    problem(f"{where}: ConfigMap {cm['metadata']['name']} key {key} is mounted nowhere (add a volumeMount with subPath: {key})")
                else:
                    with open(f"{work}/overrides/{key}", "w") as out:
                        out.write(text)
                    with open(f"{work}/overrides.list", "a") as out:
                        out.write(f"{key}\t{sub[key]}\n")
            for key in sub:
                if key not in cm.get("data", {}):
                    problem(f"{where}: volumeMount subPath {key} has no key in ConfigMap {cm['metadata']['name']}")

for svc in by_kind.get("Service", []):
    pod_labels = deployments[0]["spec"]["template"]["metadata"].get("labels", {}) if deployments else {}
    if any(pod_labels.get(k) != v for k, v in svc["spec"].get("selector", {}).items()):
        problem(f"Service {svc['metadata']['name']}: selector matches no pod of the Deployment")
    names = {p.get("name") for c in deployments[0]["spec"]["template"]["spec"]["containers"] for p in c.get("ports", [])} if deployments else set()
    for p in svc["spec"]["ports"]:
        if isinstance(p.get("targetPort"), str) and p["targetPort"] not in names:
            problem(f"Service {svc['metadata']['name']}: targetPort {p['targetPort']} names no container port")

for pdb in by_kind.get("PodDisruptionBudget", []):
    pod_labels = deployments[0]["spec"]["template"]["metadata"].get("labels", {}) if deployments else {}
    if any(pod_labels.get(k) != v for k, v in pdb["spec"]["selector"].get("matchLabels", {}).items()):
        problem(f"PodDisruptionBudget {pdb['metadata']['name']}: selector matches no pod of the Deployment")

for text in problems:
    print("    problem:", text, file=sys.stderr)
if problems:
    sys.exit(1)
print(f"    {len(docs)} resources: " + ", ".join(f"{d['kind']}/{d['metadata']['name']}" for _, d in docs))
EOF

# ---- 3. the ConfigMap's config, as the pod sees it ------------------------------------------

find_binary() {
    local candidate
    for candidate in "$REPO/.build/check-docker/release/linkhost" "$REPO/.build/release/linkhost" \
        "$REPO/.build/debug/linkhost"; do
        if [[ -x $candidate ]]; then
            BINARY=$candidate
            return
        fi
    done
    command -v swift >/dev/null || fail validate "no linkhost binary and no swift to build one (pass --binary)"
    log "building linkhost (debug) for linkhost validate"
    (cd "$REPO" && timeout 1800 swift build --product linkhost) >"$WORK/swift-build.log" 2>&1 || {
        tail -n 30 "$WORK/swift-build.log" >&2
        fail validate "swift build failed"
    }
    BINARY=$REPO/.build/debug/linkhost
}
[[ -n $BINARY ]] || find_binary
[[ -x $BINARY ]] || fail validate "$BINARY is not executable"

# The pod's working directory: the image's public/ with the ConfigMap's files laid over it.
pod_dir=$WORK/srv-linkhost
mkdir -p "$pod_dir"
cp -r "$REPO/public" "$pod_dir/public"
if [[ -f $WORK/overrides.list ]]; then
    while IFS=$'\t' read -r key mount_path; do
        case $mount_path in
            /srv/linkhost/*) cp "$WORK/overrides/$key" "$pod_dir/${mount_path#/srv/linkhost/}" ;;
            *) note "override $key goes to $mount_path, outside the working directory: not validated" ;;
        esac
    done <"$WORK/overrides.list"
fi
log "validate: ${BINARY#"$REPO"/} validate on the ConfigMap's linkhost.json"
(cd "$pod_dir" && timeout 60 "$BINARY" validate --config "$WORK/config/linkhost.json") ||
    fail validate "the ConfigMap's linkhost.json does not validate"

# ---- 4. systemd units ----------------------------------------------------------------------

# verify, security exposure and a socket-activated start of each unit set: scripts/check-deploy-systemd.sh.
systemd_check=$REPO/scripts/check-deploy-systemd.sh
REPO=$REPO BINARY=$BINARY WORK=$WORK bash "$systemd_check" || fail systemd "see above"

printf 'check-deploy: OK\n'
