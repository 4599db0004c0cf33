# js: the JavaScript package (js/README.md). sgfstream.wasm is the core
# library (lib/core, lib/common, lib/simd: libc only) and js/glue.c,
# compiled by clang for wasm32-wasi against wasi-libc and linked by lld,
# when configure found that toolchain (--enable-wasm). It imports
# nothing: js/glue.c defines the one libc call that would need WASI
# (getenv). 'make js-pack' writes the npm tarball js/sgfstream-VERSION.tgz;
# js/test.sh (make check) runs the package's tests under Node.
WASM_SRC = $(srcdir)/js/glue.c \
	$(srcdir)/lib/core/parser.c $(srcdir)/lib/core/tokenize.c \
	$(srcdir)/lib/core/tokenize_batch.c $(srcdir)/lib/core/dbcs.c \
	$(srcdir)/lib/core/finish.c $(srcdir)/lib/core/run.c \
	$(srcdir)/lib/core/diag.c $(srcdir)/lib/core/error.c \
	$(srcdir)/lib/core/utf16.c $(srcdir)/lib/common/alloc.c \
	$(srcdir)/lib/common/sized.c $(srcdir)/lib/simd/scan.c \
	$(srcdir)/lib/simd/moves.c
WASM_DEPS = $(srcdir)/lib/core/parser.h $(srcdir)/lib/core/emit.h \
	$(srcdir)/lib/common/alloc.h $(srcdir)/lib/common/sized.h \
	$(srcdir)/lib/common/rawval.h $(srcdir)/lib/simd/scan.h \
	$(srcdir)/lib/simd/moves.h $(srcdir)/lib/simd/lanes.h \
	$(include_HEADERS) $(sgfinclude_HEADERS) \
	include/sgfstream/version.h config.h
# -O2: -Os saves 10 KB and costs a quarter of the speed. -msimd128: the
# scanners of lib/simd in WebAssembly SIMD (128-bit: Node 16.4, Chrome
# 91, Firefox 89, Safari 16.4 and later), a third of headers()' time.
WASM_FLAGS = --target=wasm32-wasi -msimd128 -O2 -std=c11 $(SGF_WARN_CFLAGS) \
	-I$(top_builddir) -I$(top_builddir)/include -I$(top_srcdir)/include \
	-I$(top_srcdir)/lib/common -I$(top_srcdir)/lib/simd \
	-I$(top_srcdir)/lib/core -nostartfiles -Wl,--no-entry \
	-Wl,--gc-sections -Wl,--strip-all

JS_FILES = js/package.json js/index.js js/index.mjs js/index.d.ts \
	js/sgfstream.js js/README.md
JS_TESTS = js/test/compat.test.js js/test/corpus.test.js \
	js/test/deep.test.js js/test/stream.test.js js/test/parser.test.js \
	js/test/robust.test.js js/test/pack.test.js js/test/decode.test.js \
	js/test/offsets.test.js js/test/tokens.test.js js/test/guess.test.js \
	js/test/headers.test.js js/test/corpus-files.js js/test/outside.test.js
EXTRA_DIST += js/glue.c js/local.mk js/test.sh $(JS_FILES) $(JS_TESTS)
TESTS += js/test.sh

if BUILD_WASM
noinst_DATA = js/sgfstream.wasm
js/sgfstream.wasm: $(WASM_SRC) $(WASM_DEPS)
	@$(MKDIR_P) js
	$(AM_V_GEN)$(WASM_CC) $(WASM_FLAGS) -o $@ $(WASM_SRC)
CLEANFILES += js/sgfstream.wasm
endif

# The npm package: js/sgfstream-VERSION.tgz, from a staging folder.
js-pack: js/sgfstream.wasm
	rm -rf js/pkg && $(MKDIR_P) js/pkg
	for f in $(JS_FILES); do cp $(srcdir)/$$f js/pkg/ || exit 1; done
	cp js/sgfstream.wasm js/pkg/
	cd js/pkg && npm pack --silent >/dev/null && mv sgfstream-*.tgz ..
	rm -rf js/pkg
	@ls js/sgfstream-*.tgz
CLEANFILES += js/sgfstream-*.tgz
.PHONY: js-pack

# The page (js/page/index.html, js/README.md; it parses in a Web Worker,
# js/page/worker.js): js/page/test.sh serves it (js/page/serve.mjs),
# loads it in headless Chromium over the DevTools pipe
# (js/page/browser-check.mjs), checks that the worker parses, gives it
# every test/data/sample file and drops a file with deliberate problems
# on it, and checks its table
# and warnings against `sgf json` and `sgf stats`; it writes the
# screenshot js/test-artifacts/page.png. Skips (77) without node,
# Chromium or the module.
EXTRA_DIST += js/page/index.html js/page/page.js js/page/worker.js \
	js/page/style.css js/page/serve.mjs js/page/browser-check.mjs \
	js/page/test.sh
TESTS += js/page/test.sh
CLEANFILES += js/test-artifacts/page.png
