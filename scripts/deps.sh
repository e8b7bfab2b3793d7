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
