#!/bin/sh
# js/test.sh - the JavaScript package's tests (js/test/*.test.js, Node's
# built-in runner) against the module this build made
# (js/sgfstream.wasm), from make check. When npm is there, the package is
# packed first (npm pack of a staging folder, as 'make js-pack') and
# js/test/pack.test.js installs the tarball offline. @sabaki/sgf, for
# the side-by-side test, is found in js/node_modules or
# bench/peer/node_modules (npm install in js/, or bench/peer.sh), else
# that test skips. SGF_TEST_FULL=1 streams 1 GB instead of 12 MB.
# Skips (77) without node (18 or later) or without the module
# (configure found no wasm32-wasi toolchain).
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
wasm="$top_builddir/js/sgfstream.wasm"
if ! command -v node >/dev/null 2>&1; then
  echo "js/test.sh: node not found: skipped"
  exit 77
fi
if ! node -e 'process.exit(+process.versions.node.split(".")[0] >= 18 ? 0 : 1)'; then
  echo "js/test.sh: node $(node --version) is older than 18: skipped"
  exit 77
fi
if [ ! -f "$wasm" ]; then
  echo "js/test.sh: $wasm not built (no wasm32-wasi toolchain; configure --enable-wasm): skipped"
  exit 77
fi
js=$(cd "$srcdir/js" && pwd)
SGFSTREAM_WASM=$(cd "$(dirname "$wasm")" && pwd)/sgfstream.wasm
NODE_PATH="$js/node_modules:$(cd "$srcdir" && pwd)/bench/peer/node_modules${NODE_PATH:+:$NODE_PATH}"
export SGFSTREAM_WASM NODE_PATH
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-js.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM

if command -v npm >/dev/null 2>&1; then
  mkdir "$tmp/pkg" &&
    for f in package.json index.js index.mjs index.d.ts sgfstream.js README.md; do
      cp "$js/$f" "$tmp/pkg/" || exit 99
    done &&
    cp "$SGFSTREAM_WASM" "$tmp/pkg/" &&
    (cd "$tmp/pkg" && npm pack --silent >/dev/null 2>"$tmp/pack.err") ||
    { echo "js/test.sh: npm pack failed"; cat "$tmp/pack.err"; exit 1; }
  SGFSTREAM_TGZ=$(ls "$tmp"/pkg/sgfstream-*.tgz)
  export SGFSTREAM_TGZ
  echo "js/test.sh: packed $(basename "$SGFSTREAM_TGZ") ($(wc -c <"$SGFSTREAM_TGZ") bytes)"
else
  echo "js/test.sh: npm not found: the tarball is not tested"
fi
echo "js/test.sh: $(wc -c <"$wasm") bytes of WebAssembly"
cd "$js" && node --test test/*.test.js
