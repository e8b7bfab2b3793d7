# deps.sh — sourced by the README commands: installs the Debian 12 packages circ needs
# when any is missing (apt-get; root or sudo), and nothing when all are present.
CIRC_PACKAGES="cmake ninja-build gcc g++ clang libclang-rt-14-dev libunicorn-dev libcapstone-dev libz3-dev graphviz chromium
  qemu-user gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libc6-dev-arm64-cross"

circ_ensure_deps() {
    local missing=()
    for p in $CIRC_PACKAGES; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "installing: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# the arm64 multiarch packages of the ARM64-host build (docs/hosts.md; Multi-Arch:
# same, beside the amd64 ones).  Returns 0 once they are installed, 77 when this
# system's archive has no arm64 build of one of them, 1 on any other failure.
CIRC_ARM64_PACKAGES="libunicorn-dev:arm64 libcapstone-dev:arm64"

circ_ensure_arm64_deps() {
    local missing=() sudo=""
    for p in $CIRC_ARM64_PACKAGES; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    if ! dpkg --print-foreign-architectures | grep -qx arm64; then
        $sudo dpkg --add-architecture arm64 || return 1
    fi
    circ_apt_update "$sudo" || return 1
    for p in "${missing[@]}"; do
        if ! apt-cache policy "$p" | grep -q "Candidate: [0-9]"; then
            echo "no arm64 package $p in this system's archive"
            return 77
        fi
    done
    echo "installing: ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" || return 1
}

# apt-get update that fails on a fetch or signature error (apt only warns and keeps
# the old lists, which know no arm64 package); where apt's sandbox user cannot run
# gpgv, once more with the sandbox user root
circ_apt_update() {
    local sudo=$1 log
    log=$($sudo apt-get update -qq 2>&1) && ! grep -q "Failed to fetch\|GPG error" <<<"$log" && return 0
    log=$($sudo apt-get -o APT::Sandbox::User=root update -qq 2>&1) &&
        ! grep -q "Failed to fetch\|GPG error" <<<"$log" && return 0
    echo "apt-get update failed: $log" >&2
    return 1
}
