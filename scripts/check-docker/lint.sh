# shellcheck shell=bash
# check-docker.sh, stage 1: hadolint on the Dockerfile, shellcheck on the scripts that come with the image.

stage_lint() {
    log "lint: hadolint $(hadolint --version | grep -o '[0-9][0-9.]*' | head -n 1) on ${DOCKERFILE#"$REPO"/}"
    hadolint "$DOCKERFILE" || fail lint "hadolint found problems in $DOCKERFILE"
    # The scripts that come with the image, this one's modules included; the others are their owners' to lint.
    local -a modules=("$REPO"/scripts/check-docker/*.sh)
    local -a scripts=("$REPO/scripts/check-docker.sh" "${modules[@]}" "$REPO/scripts/check-deploy.sh")
    log "lint: shellcheck scripts/check-docker.sh and its ${#modules[@]} modules (scripts/check-docker/), scripts/check-deploy.sh"
    # -x follows check-docker.sh into its modules, where the settings it parses are used.
    shellcheck -x "${scripts[@]}" || fail lint "shellcheck found problems"
    stage_done lint
}
