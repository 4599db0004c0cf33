#!/bin/sh
# js/page/test.sh - the page's test (js/page/browser-check.mjs) from make
# check: js/page/index.html served on 127.0.0.1 and loaded in headless
# Chromium (Debian's chromium), its parser found running in a Web Worker,
# every test/data/sample file given to its
# file input, a file with deliberate problems dropped on it, and its
# table and warnings checked against `sgf json` and `sgf stats` on the
# same files. The screenshot goes to js/test-artifacts/page.png in the
# build folder. CHROMIUM names the browser (default: chromium,
# chromium-browser or google-chrome on PATH). Skips (77) without node
# (18 or later), Chromium, the WebAssembly module (configure found no
# wasm32-wasi toolchain) or the sgf tool.
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
wasm="$top_builddir/js/sgfstream.wasm"
sgf="$top_builddir/sgf"
if ! command -v node >/dev/null 2>&1; then
  echo "js/page/test.sh: node not found: skipped"
  exit 77
fi
if ! node -e 'process.exit(+process.versions.node.split(".")[0] >= 18 ? 0 : 1)'; then
  echo "js/page/test.sh: node $(node --version) is older than 18: skipped"
  exit 77
fi
chromium=${CHROMIUM:-}
if [ -z "$chromium" ]; then
  for c in chromium chromium-browser google-chrome; do
    if command -v "$c" >/dev/null 2>&1; then
      chromium=$(command -v "$c")
      break
    fi
  done
fi
if [ -z "$chromium" ]; then
  echo "js/page/test.sh: no chromium on PATH (apt-get install chromium; or set CHROMIUM): skipped"
  exit 77
fi
if [ ! -f "$wasm" ]; then
  echo "js/page/test.sh: $wasm not built (no wasm32-wasi toolchain; configure --enable-wasm): skipped"
  exit 77
fi
if [ ! -x "$sgf" ]; then
  echo "js/page/test.sh: $sgf not built (--disable-tools?): skipped"
  exit 77
fi
exec node "$srcdir/js/page/browser-check.mjs" --sgf "$sgf" --chromium "$chromium" \
  --data "$srcdir/test/data/sample" --root "$srcdir/js" --wasm "$wasm" \
  --out "$top_builddir/js/test-artifacts"
