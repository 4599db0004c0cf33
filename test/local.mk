# test: the unit tests (cmocka), the golden cases, the tool's shell tests
# and the corpus tests. test/cases/<name>/ holds golden event logs (see
# test/test_cases.c); test/corpus.sh runs the sgf tool over
# ../shared/corpus when it exists. Includes: the public headers,
# tools/common, test/ (testutil.h, valuelog.h).
TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = $(SHELL)
AM_TESTS_ENVIRONMENT = \
	srcdir='$(srcdir)'; top_srcdir='$(top_srcdir)'; \
	top_builddir='$(top_builddir)'; CC='$(CC)'; \
	SGF_TEST_CFLAGS='$(CFLAGS)'; SGF_TEST_LDFLAGS='$(LDFLAGS)'; \
	export srcdir top_srcdir top_builddir CC SGF_TEST_CFLAGS SGF_TEST_LDFLAGS; \
	case "$${SGF_TEST_FULL:-0}" in 0) SGF_TEST_QUICK=$${SGF_TEST_QUICK-1}; \
	export SGF_TEST_QUICK;; esac;
TEST_CPPFLAGS = $(AM_CPPFLAGS) $(COMMON_CPPFLAGS) -I$(top_srcdir)/test
TESTUTIL = test/testutil.c test/testutil.h
TEST_LIBS = $(COMMON_LIBS) lib/libsgfstream.la

if HAVE_CMOCKA
check_PROGRAMS += test/test_cases test/test_api test/test_tree \
	test/test_writer test/roundtrip test/test_error test/test_abi \
	test/test_reentry test/test_node_end
TESTS += test/test_cases test/test_api test/test_tree test/test_writer \
	test/test_error test/test_abi test/test_reentry test/test_node_end
# on_node_end (the headers scan) and sgf_parser_diag_count()
test_test_node_end_SOURCES = test/test_node_end.c $(TESTUTIL)
test_test_node_end_CPPFLAGS = $(TEST_CPPFLAGS)
test_test_node_end_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
test_test_node_end_LDADD = $(TEST_LIBS) $(CMOCKA_LIBS)
# every code of the error space; a caller built against an older (shorter)
# struct; feed/finish/reset/destroy called from inside every callback
test_test_error_SOURCES = test/test_error.c
test_test_error_CPPFLAGS = $(TEST_CPPFLAGS)
test_test_error_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
test_test_error_LDADD = $(TEST_LIBS) $(CMOCKA_LIBS)
test_test_abi_SOURCES = test/test_abi.c
test_test_abi_CPPFLAGS = $(TEST_CPPFLAGS)
test_test_abi_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
test_test_abi_LDADD = $(TEST_LIBS) $(CMOCKA_LIBS)
test_test_reentry_SOURCES = test/test_reentry.c
test_test_reentry_CPPFLAGS = $(TEST_CPPFLAGS)
test_test_reentry_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
test_test_reentry_LDADD = $(TEST_LIBS) $(CMOCKA_LIBS)
test_test_cases_SOURCES = test/test_cases.c $(TESTUTIL) \
	test/valuelog.c test/valuelog.h
test_test_cases_CPPFLAGS = $(TEST_CPPFLAGS)
test_test_cases_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
test_test_cases_LDADD = $(TEST_LIBS) $(CMOCKA_LIBS)
test_test_api_SOURCES = test/test_api.c $(TESTUTIL)
test_test_api_CPPFLAGS = $(TEST_CPPFLAGS)
test_test_api_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
test_test_api_LDADD = $(TEST_LIBS) $(CMOCKA_LIBS)
test_test_tree_SOURCES = test/test_tree.c
test_test_tree_CPPFLAGS = $(TEST_CPPFLAGS)
test_test_tree_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
test_test_tree_LDADD = $(TEST_LIBS) $(CMOCKA_LIBS)
test_test_writer_SOURCES = test/test_writer.c $(TESTUTIL)
test_test_writer_CPPFLAGS = $(TEST_CPPFLAGS)
test_test_writer_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
test_test_writer_LDADD = $(TEST_LIBS) $(CMOCKA_LIBS)
# parse -> write -> parse over the shared corpus (test/roundtrip.sh)
test_roundtrip_SOURCES = test/roundtrip.c $(TESTUTIL)
test_roundtrip_CPPFLAGS = $(TEST_CPPFLAGS)
test_roundtrip_LDADD = $(TEST_LIBS)
TESTS += test/roundtrip.sh
endif

# The move-run scanner (lib/simd/moves.c) against the general path (with
# each scanner forced: test/cases-scanners.sh).
if HAVE_CMOCKA
check_PROGRAMS += test/test_moves
TESTS += test/test_moves
test_test_moves_SOURCES = test/test_moves.c test/movelog.c test/movelog.h $(TESTUTIL) \
	test/valuelog.c test/valuelog.h
test_test_moves_CPPFLAGS = $(TEST_CPPFLAGS)
test_test_moves_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
test_test_moves_LDADD = $(TEST_LIBS) $(CMOCKA_LIBS)
endif

# The game cutter (tools/common/cutter.h) and SGF_MAX_HELD_BYTES: games
# cut byte-exact with pieces split at the bound.
if HAVE_CMOCKA
check_PROGRAMS += test/test_cutter
TESTS += test/test_cutter
test_test_cutter_SOURCES = test/test_cutter.c
test_test_cutter_CPPFLAGS = $(TEST_CPPFLAGS)
test_test_cutter_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
test_test_cutter_LDADD = $(TEST_LIBS) $(CMOCKA_LIBS)
endif

# The tool's input loop: pause and resume (tools/io/stream.h).
if HAVE_CMOCKA
if BUILD_TOOLS
check_PROGRAMS += test/test_stream
TESTS += test/test_stream
test_test_stream_SOURCES = test/test_stream.c
test_test_stream_CPPFLAGS = $(TEST_CPPFLAGS) $(IO_CPPFLAGS)
test_test_stream_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) $(UV_CFLAGS)
test_test_stream_LDADD = tools/io/libsgfio.la $(TEST_LIBS) $(CMOCKA_LIBS) \
	$(UV_LIBS) $(ARCHIVE_LIBS)
endif
endif

# The sgf tool (each skips without it).
TESTS += test/tool-write.sh test/tool-archives.sh test/tool-detect.sh \
	test/tool-truncated.sh test/tool-stats-jobs.sh \
	test/tool-events.sh test/tool-exit.sh test/tool-inplace.sh \
	test/tool-inplace-corpus.sh test/tool-help.sh test/tool-split-dirs.sh \
	test/tool-check-ignore.sh test/tool-fds.sh
# sgf fmt --ff4: the conversions by hand, and on the corpus.
TESTS += test/tool-ff4.sh test/tool-ff4-corpus.sh
EXTRA_DIST += test/tool-ff4.sh test/tool-ff4-corpus.sh
# The progress line (tools/io/progress.h), under a pseudo-terminal.
TESTS += test/tool-progress.sh test/tool-summary.sh
EXTRA_DIST += test/tool-progress.sh test/tool-summary.sh
# split --shards of inputs that end inside a game: closed in the shards.
TESTS += test/tool-shards-open.sh
EXTRA_DIST += test/tool-shards-open.sh
# split --shards, the merge and the Dask recipe (contrib/dask), end to end.
TESTS += test/dask-shards.sh
EXTRA_DIST += test/dask-shards.sh contrib/dask/sgf_dask.py \
	contrib/dask/sgf_merge.py contrib/dask/README.md \
	contrib/dask/bench.py
# The library's exports, the scanners over the golden cases, the corpus,
# the layering of lib/ and tools/, and the public headers standing alone.
TESTS += test/check-exports.sh test/cases-scanners.sh test/corpus.sh \
	test/check-layers.sh test/headers.sh test/readme-example.sh \
	test/check-format.sh test/check-getenv.sh
EXTRA_DIST += test/README.md test/cases test/data test/check-exports.sh \
	test/tool-events.sh test/cases-scanners.sh test/corpus.sh \
	test/roundtrip.sh test/tool-write.sh test/tool-archives.sh \
	test/tool-detect.sh test/tool-truncated.sh \
	test/tool-stats-jobs.sh test/tool-exit.sh test/check-layers.sh \
	test/tool-inplace.sh test/tool-inplace-corpus.sh test/inplace-lib.sh \
	test/tool-help.sh test/tool-split-dirs.sh test/tool-check-ignore.sh \
	test/tool-fds.sh test/headers.sh test/readme-example.sh test/readme-sink.c \
	test/check-format.sh test/check-getenv.sh
	test/tool-fds.sh test/headers.sh test/readme-example.sh \
	test/check-format.sh
# The documentation's diagnostic codes (the man page's NAME (CODE) pairs,
# the README's) against the library's catalogue, printed by diag_list.
check_PROGRAMS += test/diag_list
test_diag_list_SOURCES = test/diag_list.c
test_diag_list_CPPFLAGS = $(AM_CPPFLAGS)
test_diag_list_LDADD = lib/libsgfstream.la
TESTS += test/doc-diags.sh
EXTRA_DIST += test/doc-diags.sh
# test/neon.sh: the AArch64 NEON scanners, cross-compiled with
# test/scan_check.c and run under qemu-aarch64 (skips without
# aarch64-linux-gnu-gcc or qemu-aarch64; builds in a temporary directory).
TESTS += test/neon.sh test/scan-native.sh
EXTRA_DIST += test/neon.sh test/scan-native.sh test/scan-build.sh \
	test/scan_check.c

# make check runs test_cases and test_moves quick (SGF_TEST_QUICK=1, a
# sample of the split points and callbacks: set SGF_TEST_QUICK=0 for the
# whole run) and leaves neon.sh to make check-full.
# make check-full: the exhaustive runs of the tests make check samples,
# with SGF_TEST_FULL=1 (test/README.md): every split of every golden case
# under every scanner (two entries, so that -j2 runs them side by side),
# the full NEON and native scanner checks, the whole shared corpus. Its
# summary goes to test-suite-full.log; .ci/run runs it after make check.
# The longest first (neon.sh, about 5 minutes of CPU under qemu), so that
# -j2 runs the others beside it.
FULL_TESTS = test/neon.sh test/cases-scanners-cases.sh \
	test/cases-scanners-moves.sh test/value-sgfmill.sh test/corpus.sh \
	test/roundtrip.sh \
	test/scan-native.sh test/corpus-check.sh test/tool-inplace-corpus.sh \
	test/tool-ff4-corpus.sh
EXTRA_DIST += test/cases-scanners-cases.sh test/cases-scanners-moves.sh
check-full: all
	SGF_TEST_FULL=1 $(MAKE) $(AM_MAKEFLAGS) check TESTS='$(FULL_TESTS)' \
	  TEST_SUITE_LOG=test-suite-full.log
CLEANFILES += test-suite-full.log
.PHONY: check-full

# lib/value (sgfstream/value.h): the unit tests (test/test_value.c), and a
# differential test against sgfmill's answers for ../shared/corpus/dev
# (test/value-sgfmill.sh runs test/value_diff and compares with
# test/value-sgfmill.py; skips without the shared data or python3).
VALUE_TEST_CPPFLAGS = $(TEST_CPPFLAGS)
check_PROGRAMS += test/value_diff
test_value_diff_SOURCES = test/value_diff.c $(TESTUTIL)
test_value_diff_CPPFLAGS = $(TEST_CPPFLAGS)
test_value_diff_LDADD = $(TEST_LIBS)
TESTS += test/value-sgfmill.sh
EXTRA_DIST += test/value-sgfmill.sh test/value-sgfmill.py
if HAVE_CMOCKA
check_PROGRAMS += test/test_value
TESTS += test/test_value
test_test_value_SOURCES = test/test_value.c
test_test_value_CPPFLAGS = $(VALUE_TEST_CPPFLAGS)
test_test_value_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
test_test_value_LDADD = $(TEST_LIBS) $(CMOCKA_LIBS)
endif
# the charset converter (sgfstream/charset.h), and `sgf json`
if HAVE_CMOCKA
check_PROGRAMS += test/test_charset
TESTS += test/test_charset
test_test_charset_SOURCES = test/test_charset.c
test_test_charset_CPPFLAGS = $(TEST_CPPFLAGS)
test_test_charset_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
test_test_charset_LDADD = $(TEST_LIBS) $(CMOCKA_LIBS)
# UTF-16 input (sgfstream/utf16.h): the decoder in chunks, and the
# parser with SGF_OPT_UTF16 at every split; a leading NUL is not UTF-16
check_PROGRAMS += test/test_utf16
TESTS += test/test_utf16
test_test_utf16_SOURCES = test/test_utf16.c
test_test_utf16_CPPFLAGS = $(TEST_CPPFLAGS)
test_test_utf16_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
test_test_utf16_LDADD = $(TEST_LIBS) $(CMOCKA_LIBS)
endif
TESTS += test/tool-json.sh
EXTRA_DIST += test/tool-json.sh
# issue 26: `sgf json`'s memory bounded for what it does not write (peak
# RSS over a 100 MB comment), one diagnostic per value, CA as ASCII,
# U+0085, U+2028, U+2029 escaped
TESTS += test/tool-json-bugs.sh
EXTRA_DIST += test/tool-json-bugs.sh
# issue 30: sgf json at output speed - its fast paths write, over the
# whole corpus, what the general path (SGF_JSON_SLOW) writes; the 16-byte
# escape scans equal the portable ones for every byte, position, length
# up to 64 and alignment
TESTS += test/tool-json-corpus.sh
EXTRA_DIST += test/tool-json-corpus.sh
if BUILD_TOOLS
check_PROGRAMS += test/json_escape
TESTS += test/json_escape
test_json_escape_SOURCES = test/json_escape.c
test_json_escape_CPPFLAGS = $(TEST_CPPFLAGS) $(JSON_CPPFLAGS)
test_json_escape_LDADD = $(JSON_LIBS) $(COMMON_LIBS) lib/libsgfstream.la
endif
# the semantic checks (sgfstream/check.h, lib/check): each check by hand,
# split anywhere
if HAVE_CMOCKA
check_PROGRAMS += test/test_check
TESTS += test/test_check
test_test_check_SOURCES = test/test_check.c
test_test_check_CPPFLAGS = $(TEST_CPPFLAGS)
test_test_check_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
test_test_check_LDADD = $(TEST_LIBS) $(CMOCKA_LIBS)
endif
# `sgf check` with its semantic checks: the options (tool-check-semantic),
# and the corpus (counts per check, in the log; skips without it)
TESTS += test/tool-check-semantic.sh test/corpus-check.sh
EXTRA_DIST += test/tool-check-semantic.sh test/corpus-check.sh

# typed getters on nodes, typed setters on the cursor (sgfstream/typed.h)
if HAVE_CMOCKA
check_PROGRAMS += test/test_typed
TESTS += test/test_typed
test_test_typed_SOURCES = test/test_typed.c
test_test_typed_CPPFLAGS = $(TEST_CPPFLAGS)
test_test_typed_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
test_test_typed_LDADD = $(TEST_LIBS) $(CMOCKA_LIBS) -lm
endif

# UTF-16 input read converted by every command (tools/io/transcode.c)
TESTS += test/tool-utf16.sh
EXTRA_DIST += test/tool-utf16.sh

# `sgf filter`: by hand, against Python over `sgf json`, symmetries, --unique
TESTS += test/tool-filter.sh test/tool-filter-limits.sh
EXTRA_DIST += test/tool-filter.sh test/tool-filter-limits.sh

# sgf serve and sgf send (each skips without them): the load test, the
# slow sink's backpressure, SIGTERM under load, the limits.
TESTS += test/serve-load.sh test/serve-backpressure.sh test/serve-sigterm.sh \
	test/serve-limits.sh
EXTRA_DIST += test/serve-lib.sh test/serve_load.py test/serve-load.sh \
	test/serve-backpressure.sh test/serve-sigterm.sh test/serve-limits.sh

# sgf serve --jsonl: each line sgf json's for its game (raw, split, HTTP)
TESTS += test/serve-json.sh
EXTRA_DIST += test/serve-json.sh

# sgf serve --dir: a failed fsync of the directory stores a game once
TESTS += test/serve-dirsync.sh
EXTRA_DIST += test/serve-dirsync.sh test/serve_failsync.c

# sgf serve --max-memory: an HTTP body is held back, not read on
TESTS += test/serve-httpmem.sh
EXTRA_DIST += test/serve-httpmem.sh

# sgf serve --threads: whole lines in one sink, counters summed
TESTS += test/serve-threads.sh
EXTRA_DIST += test/serve-threads.sh

# sgf serve: SIGHUP reopens the sink file in every thread
TESTS += test/serve-hup.sh
EXTRA_DIST += test/serve-hup.sh
# install-deps.sh waits for a held apt/dpkg lock (stubs, nothing installed).
TESTS += test/install-deps.sh
EXTRA_DIST += test/install-deps.sh

# sgf serve: bounds (issue 27): clients that never read their answers,
# a POST's answer, SIGTERM's drain, slow headers, the log's size,
# --max-memory counting what the server holds
TESTS += test/serve-noread.sh test/serve-answer.sh test/serve-drain.sh \
	test/serve-slowloris.sh test/serve-logsize.sh test/serve-memcount.sh
EXTRA_DIST += test/serve-noread.sh test/serve-answer.sh test/serve-drain.sh \
	test/serve-slowloris.sh test/serve-logsize.sh test/serve-memcount.sh

# sgf serve's acknowledgment contract: a full disk, kill -9 and restart,
# an incomplete POST, the answer's order, --max-quarantine; sgf send's
# inputs, failures and --rate
TESTS += test/serve-diskfull.sh test/serve-crash.sh test/serve-httpack.sh \
	test/serve-send.sh test/serve-failfile.sh
EXTRA_DIST += test/serve-diskfull.sh test/serve-crash.sh \
	test/serve-httpack.sh test/serve-send.sh test/serve-ackcheck.py \
	test/serve-failfile.sh test/serve_failfile.c
