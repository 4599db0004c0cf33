# test/fuzz: the fuzz harness and what is built on it.
# test/test_hostile.c: hostile inputs (huge values, deep nesting, every
# byte value ...) with bounded memory; test/test_alloc.c: allocation-
# failure loops; test/test_regressions.c: replays test/regressions/* (inputs
# the fuzzers once failed on) through the fuzz targets' checks. All three
# share test/fuzz/harness.c with the libFuzzer targets, which are built
# with './configure CC=clang --enable-fuzzers': 'make fuzz' runs each for
# FUZZ_SECONDS, 'make fuzz-smoke' for FUZZ_SMOKE_SECONDS (see SECURITY.md).
FUZZ_HARNESS = test/fuzz/harness.c test/fuzz/harness.h \
	test/fuzz/harness_tree.c test/fuzz/harness_priv.h \
	test/fuzz/harness_cursor.c test/fuzz/harness_text.c \
	test/fuzz/harness_whole.c test/fuzz/harness_paths.c test/valuelog.c test/valuelog.h \
	test/fuzz/harness_charset.c \
	test/fuzz/harness_quiet.c test/fuzz/harness_moves.c \
	test/fuzz/harness_check.c \
	test/movelog.c test/movelog.h \
	test/testutil.c test/testutil.h
FUZZ_CPPFLAGS = $(TEST_CPPFLAGS) -I$(top_srcdir)/test/fuzz
if HAVE_CMOCKA
check_PROGRAMS += test/test_hostile test/test_alloc test/test_regressions
TESTS += test/test_hostile test/test_alloc test/test_regressions
test_test_hostile_SOURCES = test/test_hostile.c $(FUZZ_HARNESS)
test_test_hostile_CPPFLAGS = $(FUZZ_CPPFLAGS)
test_test_hostile_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
test_test_hostile_LDADD = $(TEST_LIBS) $(CMOCKA_LIBS)
test_test_alloc_SOURCES = test/test_alloc.c $(FUZZ_HARNESS)
test_test_alloc_CPPFLAGS = $(FUZZ_CPPFLAGS)
test_test_alloc_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
test_test_alloc_LDADD = $(TEST_LIBS) $(CMOCKA_LIBS)
test_test_regressions_SOURCES = test/test_regressions.c $(FUZZ_HARNESS)
test_test_regressions_CPPFLAGS = $(FUZZ_CPPFLAGS)
test_test_regressions_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
test_test_regressions_LDADD = $(TEST_LIBS) $(CMOCKA_LIBS)
endif
# the tree builder's fast and general paths build the same trees: every
# golden case and the shared corpus (a sample of its archives)
check_PROGRAMS += test/test_tree_paths
TESTS += test/test_tree_paths
FULL_TESTS += test/test_tree_paths
test_test_tree_paths_SOURCES = test/test_tree_paths.c $(FUZZ_HARNESS)
test_test_tree_paths_CPPFLAGS = $(FUZZ_CPPFLAGS)
test_test_tree_paths_LDADD = $(TEST_LIBS)
if BUILD_TOOLS
test_test_tree_paths_CPPFLAGS += -DHAVE_LIBARCHIVE $(ARCHIVE_CFLAGS)
test_test_tree_paths_LDADD += $(ARCHIVE_LIBS)
endif
EXTRA_DIST += SECURITY.md test/regressions test/fuzz/make-seeds.sh \
	test/fuzz/run.sh test/fuzz/README.md test/fuzz/coverage.sh

FUZZ_SECONDS = 60
FUZZ_SMOKE_SECONDS = 8
if ENABLE_FUZZERS
noinst_PROGRAMS += test/fuzz/fuzz_parse test/fuzz/fuzz_split \
	test/fuzz/fuzz_reader test/fuzz/fuzz_tree test/fuzz/fuzz_roundtrip \
	test/fuzz/fuzz_writer test/fuzz/fuzz_cursor test/fuzz/fuzz_unescape \
	test/fuzz/fuzz_tree_paths
test_fuzz_fuzz_tree_paths_SOURCES = test/fuzz/fuzz_tree_paths.c $(FUZZ_HARNESS)
test_fuzz_fuzz_tree_paths_CPPFLAGS = $(FUZZ_CPPFLAGS)
test_fuzz_fuzz_tree_paths_LDADD = $(TEST_LIBS)
test_fuzz_fuzz_tree_paths_LDFLAGS = $(FUZZ_LDFLAGS) -no-install
test_fuzz_fuzz_parse_SOURCES = test/fuzz/fuzz_parse.c $(FUZZ_HARNESS)
test_fuzz_fuzz_parse_CPPFLAGS = $(FUZZ_CPPFLAGS)
test_fuzz_fuzz_parse_LDADD = $(TEST_LIBS)
test_fuzz_fuzz_parse_LDFLAGS = $(FUZZ_LDFLAGS) -no-install
test_fuzz_fuzz_split_SOURCES = test/fuzz/fuzz_split.c $(FUZZ_HARNESS)
test_fuzz_fuzz_split_CPPFLAGS = $(FUZZ_CPPFLAGS)
test_fuzz_fuzz_split_LDADD = $(TEST_LIBS)
test_fuzz_fuzz_split_LDFLAGS = $(FUZZ_LDFLAGS) -no-install
test_fuzz_fuzz_reader_SOURCES = test/fuzz/fuzz_reader.c $(FUZZ_HARNESS)
test_fuzz_fuzz_reader_CPPFLAGS = $(FUZZ_CPPFLAGS)
test_fuzz_fuzz_reader_LDADD = $(TEST_LIBS)
test_fuzz_fuzz_reader_LDFLAGS = $(FUZZ_LDFLAGS) -no-install
test_fuzz_fuzz_tree_SOURCES = test/fuzz/fuzz_tree.c $(FUZZ_HARNESS)
test_fuzz_fuzz_tree_CPPFLAGS = $(FUZZ_CPPFLAGS)
test_fuzz_fuzz_tree_LDADD = $(TEST_LIBS)
test_fuzz_fuzz_tree_LDFLAGS = $(FUZZ_LDFLAGS) -no-install
test_fuzz_fuzz_roundtrip_SOURCES = test/fuzz/fuzz_roundtrip.c $(FUZZ_HARNESS)
test_fuzz_fuzz_roundtrip_CPPFLAGS = $(FUZZ_CPPFLAGS)
test_fuzz_fuzz_roundtrip_LDADD = $(TEST_LIBS)
test_fuzz_fuzz_roundtrip_LDFLAGS = $(FUZZ_LDFLAGS) -no-install
test_fuzz_fuzz_writer_SOURCES = test/fuzz/fuzz_writer.c $(FUZZ_HARNESS)
test_fuzz_fuzz_writer_CPPFLAGS = $(FUZZ_CPPFLAGS)
test_fuzz_fuzz_writer_LDADD = $(TEST_LIBS)
test_fuzz_fuzz_writer_LDFLAGS = $(FUZZ_LDFLAGS) -no-install
test_fuzz_fuzz_cursor_SOURCES = test/fuzz/fuzz_cursor.c $(FUZZ_HARNESS)
test_fuzz_fuzz_cursor_CPPFLAGS = $(FUZZ_CPPFLAGS)
test_fuzz_fuzz_cursor_LDADD = $(TEST_LIBS)
test_fuzz_fuzz_cursor_LDFLAGS = $(FUZZ_LDFLAGS) -no-install
test_fuzz_fuzz_unescape_SOURCES = test/fuzz/fuzz_unescape.c $(FUZZ_HARNESS)
test_fuzz_fuzz_unescape_CPPFLAGS = $(FUZZ_CPPFLAGS)
test_fuzz_fuzz_unescape_LDADD = $(TEST_LIBS)
test_fuzz_fuzz_unescape_LDFLAGS = $(FUZZ_LDFLAGS) -no-install
FUZZ_TARGETS = test/fuzz/fuzz_parse$(EXEEXT) test/fuzz/fuzz_split$(EXEEXT) \
	test/fuzz/fuzz_reader$(EXEEXT) test/fuzz/fuzz_tree$(EXEEXT) \
	test/fuzz/fuzz_roundtrip$(EXEEXT) test/fuzz/fuzz_writer$(EXEEXT) \
	test/fuzz/fuzz_cursor$(EXEEXT) test/fuzz/fuzz_unescape$(EXEEXT)
# fuzz_value: the typed values (sgfstream/value.h).
noinst_PROGRAMS += test/fuzz/fuzz_value
test_fuzz_fuzz_value_SOURCES = test/fuzz/fuzz_value.c
test_fuzz_fuzz_value_CPPFLAGS = $(FUZZ_CPPFLAGS)
test_fuzz_fuzz_value_LDADD = $(TEST_LIBS)
test_fuzz_fuzz_value_LDFLAGS = $(FUZZ_LDFLAGS) -no-install
FUZZ_TARGETS += test/fuzz/fuzz_value$(EXEEXT) test/fuzz/fuzz_tree_paths$(EXEEXT)
# fuzz_charset: text to UTF-8 (sgfstream/charset.h), the text decoders and
# the tools' UTF-16 converter, pieces against whole.
noinst_PROGRAMS += test/fuzz/fuzz_charset
test_fuzz_fuzz_charset_SOURCES = test/fuzz/fuzz_charset.c $(FUZZ_HARNESS)
test_fuzz_fuzz_charset_CPPFLAGS = $(FUZZ_CPPFLAGS)
test_fuzz_fuzz_charset_LDADD = $(TEST_LIBS)
test_fuzz_fuzz_charset_LDFLAGS = $(FUZZ_LDFLAGS) -no-install
FUZZ_TARGETS += test/fuzz/fuzz_charset$(EXEEXT)
# fuzz_batch: batched events against on_value (fz_check_batch).
noinst_PROGRAMS += test/fuzz/fuzz_batch
test_fuzz_fuzz_batch_SOURCES = test/fuzz/fuzz_batch.c $(FUZZ_HARNESS)
test_fuzz_fuzz_batch_CPPFLAGS = $(FUZZ_CPPFLAGS)
test_fuzz_fuzz_batch_LDADD = $(TEST_LIBS)
test_fuzz_fuzz_batch_LDFLAGS = $(FUZZ_LDFLAGS) -no-install
FUZZ_TARGETS += test/fuzz/fuzz_batch$(EXEEXT)
fuzz: $(FUZZ_TARGETS)
	top_srcdir='$(top_srcdir)' $(SHELL) $(srcdir)/test/fuzz/run.sh $(FUZZ_SECONDS)
fuzz-smoke: $(FUZZ_TARGETS)
	top_srcdir='$(top_srcdir)' $(SHELL) $(srcdir)/test/fuzz/run.sh $(FUZZ_SMOKE_SECONDS)
else
fuzz fuzz-smoke:
	@echo "the fuzz targets need: ./configure CC=clang --enable-fuzzers" >&2
	@exit 1
endif
clean-local: clean-fuzz
clean-fuzz:
	rm -rf fuzz-seeds fuzz-artifacts
.PHONY: fuzz fuzz-smoke clean-fuzz

# sgf serve's connection state machine and HTTP request path, without
# sockets: test/serve_fuzz_conn and test/serve_fuzz_http run each target
# over a bounded number of random streams (make check); with
# --enable-fuzzers they are libFuzzer targets too.
if BUILD_TOOLS
if HAVE_HTTP_PARSER
SERVE_FUZZ_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tools/serve \
	$(COMMON_CPPFLAGS)
check_PROGRAMS += test/serve_fuzz_conn test/serve_fuzz_http
TESTS += test/serve_fuzz_conn test/serve_fuzz_http
test_serve_fuzz_conn_SOURCES = test/fuzz/fuzz_serve_conn.c tools/serve/conn.c
test_serve_fuzz_conn_CPPFLAGS = $(SERVE_FUZZ_CPPFLAGS) -DSERVE_FUZZ_MAIN
test_serve_fuzz_conn_LDADD = $(COMMON_LIBS) lib/libsgfstream.la
test_serve_fuzz_http_SOURCES = test/fuzz/fuzz_serve_http.c \
	tools/serve/http.c tools/serve/conn.c
test_serve_fuzz_http_CPPFLAGS = $(SERVE_FUZZ_CPPFLAGS) -DSERVE_FUZZ_MAIN
test_serve_fuzz_http_CFLAGS = $(AM_CFLAGS) $(UV_CFLAGS)
test_serve_fuzz_http_LDADD = $(COMMON_LIBS) lib/libsgfstream.la \
	$(HTTP_PARSER_LIBS) $(UV_LIBS)
if ENABLE_FUZZERS
noinst_PROGRAMS += test/fuzz/fuzz_serve_conn test/fuzz/fuzz_serve_http
test_fuzz_fuzz_serve_conn_SOURCES = test/fuzz/fuzz_serve_conn.c \
	tools/serve/conn.c
test_fuzz_fuzz_serve_conn_CPPFLAGS = $(SERVE_FUZZ_CPPFLAGS)
test_fuzz_fuzz_serve_conn_LDADD = $(COMMON_LIBS) lib/libsgfstream.la
test_fuzz_fuzz_serve_conn_LDFLAGS = $(FUZZ_LDFLAGS) -no-install
test_fuzz_fuzz_serve_http_SOURCES = test/fuzz/fuzz_serve_http.c \
	tools/serve/http.c tools/serve/conn.c
test_fuzz_fuzz_serve_http_CPPFLAGS = $(SERVE_FUZZ_CPPFLAGS)
test_fuzz_fuzz_serve_http_CFLAGS = $(AM_CFLAGS) $(UV_CFLAGS)
test_fuzz_fuzz_serve_http_LDADD = $(COMMON_LIBS) lib/libsgfstream.la \
	$(HTTP_PARSER_LIBS) $(UV_LIBS)
test_fuzz_fuzz_serve_http_LDFLAGS = $(FUZZ_LDFLAGS) -no-install
FUZZ_TARGETS += test/fuzz/fuzz_serve_conn$(EXEEXT) \
	test/fuzz/fuzz_serve_http$(EXEEXT)
endif
endif
endif
