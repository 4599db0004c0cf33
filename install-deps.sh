#!/bin/sh
# Install what building, testing and benchmarking sgfstream needs, from
# Debian packages. Runs apt-get as root, or through sudo when not root.
set -e
# gcc-aarch64-linux-gnu, libc6-dev-arm64-cross and qemu-user (qemu-aarch64):
# test/unit/neon.sh builds the NEON scanners for AArch64 and runs them under
# emulation (about 56 MB to download, 15 s to install).
# clang-format: test/house/format.sh (the house style, .clang-format).
# bzip2 zip zstd lz4 p7zip-full: test/tool/archives.sh makes compressed
# files and archives with them (a few MB). jq, python3: test/tool/json.sh
# loads every line of `sgf json` with both.
# python3-distributed: test/corpus/dask-shards.sh runs contrib/dask/sgf_dask.py
# on a Dask LocalCluster (Dask and its dependencies, about 10 MB).
# python3-dev python3-setuptools: the Python binding (python/, built and
# tested by make check for Debian's python3 and the python3 on PATH);
# python3-venv python3-pip: the README's install into a virtual
# environment (Debian's python3 refuses pip into the system, PEP 668).
# libhttp-parser-dev: sgf serve and sgf send (without it they are not
# built); curl, wrk: bench/serve.sh (the HTTP path's client and load).
# lld-14 wasi-libc libclang-rt-14-dev-wasm32: clang's wasm32-wasi target,
# for js/sgfstream.wasm (configure --enable-wasm; js/README.md says why
# not emscripten); nodejs npm: the JavaScript package's tests (js/test.sh)
# and npm pack (about 30 MB), only when node or npm is missing (a Node
# from elsewhere, NodeSource's with its own npm, is kept: Debian's npm
# package would conflict with it).
PKGS="build-essential autoconf automake libtool pkg-config
      libuv1-dev libarchive-dev zlib1g-dev liblzma-dev libbz2-dev libcmocka-dev xz-utils time
      bzip2 zip zstd lz4 p7zip-full jq python3
      clang clang-format libclang-rt-14-dev valgrind
      gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
      python3-distributed
      libhttp-parser-dev curl wrk
      python3-dev python3-setuptools python3-venv python3-pip
      lld-14 wasi-libc libclang-rt-14-dev-wasm32"
command -v node >/dev/null 2>&1 || PKGS="$PKGS nodejs"
command -v npm >/dev/null 2>&1 || PKGS="$PKGS npm"
# chromium: js/page/test.sh loads the page (js/page/) in it, headless,
# driven over the DevTools protocol through a pipe (no chromium-driver, no
# npm package); the largest package here, over 100 MB with its libraries.
PKGS="$PKGS chromium"
if [ "$(id -u)" -eq 0 ]; then SUDO=; else SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
# Another apt or dpkg (unattended-upgrades on a fresh machine, a second
# terminal) holds the lock: wait for it, up to INSTALL_DEPS_WAIT seconds
# (default 900), instead of failing at once. apt waits for the dpkg lock
# itself (DPkg::Lock::Timeout); the lists lock of `apt-get update` it does
# not, so a failure that names a lock is tried again every 5 seconds.
wait_max=${INSTALL_DEPS_WAIT:-900}
apt_get() {
  waited=0
  err=$(mktemp) || exit 1
  while :; do
    if $SUDO apt-get -o DPkg::Lock::Timeout="$wait_max" "$@" 2>"$err"; then
      rm -f "$err"
      return 0
    fi
    if ! grep -qi 'lock' "$err" || [ "$waited" -ge "$wait_max" ]; then
      cat "$err" >&2
      rm -f "$err"
      return 1
    fi
    [ "$waited" -eq 0 ] &&
      echo "install-deps: another apt or dpkg holds the lock; waiting (up to ${wait_max}s)" >&2
    sleep 5
    waited=$((waited + 5))
  done
}
# shellcheck disable=SC2086
if ! dpkg -s $PKGS >/dev/null 2>&1; then
  apt_get update -qq
  apt_get install -y -qq --no-install-recommends $PKGS >/dev/null
fi
echo "install-deps: all build dependencies are installed"
