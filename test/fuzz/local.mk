# test/fuzz: the libFuzzer targets, built with './configure CC=clang
# --enable-fuzzers' (each test/fuzz/fuzz_NAME from fuzz_NAME.c on the
# harness of test/support): 'make fuzz' runs each for FUZZ_SECONDS,
# 'make fuzz-smoke' for FUZZ_SMOKE_SECONDS (run.sh; see SECURITY.md).
# make check runs the same checks without clang: test/unit/hostile,
# alloc, regressions (test/regressions/*) and tree_paths, and
# test/serve/fuzz_conn and fuzz_http (sgf serve's targets with their own
# main()).
EXTRA_DIST += SECURITY.md test/fuzz/make-seeds.sh test/fuzz/run.sh \
	test/fuzz/README.md test/fuzz/coverage.sh

FUZZ_SECONDS = 60
FUZZ_SMOKE_SECONDS = 8
FUZZ_LIBRARY_TARGETS = test/fuzz/fuzz_parse test/fuzz/fuzz_split \
	test/fuzz/fuzz_reader test/fuzz/fuzz_tree test/fuzz/fuzz_roundtrip \
	test/fuzz/fuzz_writer test/fuzz/fuzz_cursor test/fuzz/fuzz_unescape \
	test/fuzz/fuzz_value test/fuzz/fuzz_tree_paths test/fuzz/fuzz_charset \
	test/fuzz/fuzz_batch
if ENABLE_FUZZERS
noinst_PROGRAMS += $(FUZZ_LIBRARY_TARGETS)
test_fuzz_fuzz_parse_CPPFLAGS = $(TEST_CPPFLAGS)
test_fuzz_fuzz_parse_LDFLAGS = $(FUZZ_LDFLAGS) -no-install
test_fuzz_fuzz_split_CPPFLAGS = $(TEST_CPPFLAGS)
test_fuzz_fuzz_split_LDFLAGS = $(FUZZ_LDFLAGS) -no-install
test_fuzz_fuzz_reader_CPPFLAGS = $(TEST_CPPFLAGS)
test_fuzz_fuzz_reader_LDFLAGS = $(FUZZ_LDFLAGS) -no-install
test_fuzz_fuzz_tree_CPPFLAGS = $(TEST_CPPFLAGS)
test_fuzz_fuzz_tree_LDFLAGS = $(FUZZ_LDFLAGS) -no-install
test_fuzz_fuzz_roundtrip_CPPFLAGS = $(TEST_CPPFLAGS)
test_fuzz_fuzz_roundtrip_LDFLAGS = $(FUZZ_LDFLAGS) -no-install
test_fuzz_fuzz_writer_CPPFLAGS = $(TEST_CPPFLAGS)
test_fuzz_fuzz_writer_LDFLAGS = $(FUZZ_LDFLAGS) -no-install
test_fuzz_fuzz_cursor_CPPFLAGS = $(TEST_CPPFLAGS)
test_fuzz_fuzz_cursor_LDFLAGS = $(FUZZ_LDFLAGS) -no-install
test_fuzz_fuzz_unescape_CPPFLAGS = $(TEST_CPPFLAGS)
test_fuzz_fuzz_unescape_LDFLAGS = $(FUZZ_LDFLAGS) -no-install
test_fuzz_fuzz_value_CPPFLAGS = $(TEST_CPPFLAGS)
test_fuzz_fuzz_value_LDFLAGS = $(FUZZ_LDFLAGS) -no-install
test_fuzz_fuzz_tree_paths_CPPFLAGS = $(TEST_CPPFLAGS)
test_fuzz_fuzz_tree_paths_LDFLAGS = $(FUZZ_LDFLAGS) -no-install
test_fuzz_fuzz_charset_CPPFLAGS = $(TEST_CPPFLAGS)
test_fuzz_fuzz_charset_LDFLAGS = $(FUZZ_LDFLAGS) -no-install
test_fuzz_fuzz_batch_CPPFLAGS = $(TEST_CPPFLAGS)
test_fuzz_fuzz_batch_LDFLAGS = $(FUZZ_LDFLAGS) -no-install
FUZZ_TARGETS = $(FUZZ_LIBRARY_TARGETS:=$(EXEEXT))
# sgf serve's connection state machine and HTTP request path, without
# sockets (tools/serve/conn.c, http.c): built with the tool and
# http-parser.
if BUILD_TOOLS
if HAVE_HTTP_PARSER
noinst_PROGRAMS += test/fuzz/fuzz_serve_conn test/fuzz/fuzz_serve_http
test_fuzz_fuzz_serve_conn_SOURCES = test/fuzz/fuzz_serve_conn.c \
	tools/serve/conn.c
test_fuzz_fuzz_serve_conn_CPPFLAGS = $(SERVE_TEST_CPPFLAGS)
test_fuzz_fuzz_serve_conn_LDFLAGS = $(FUZZ_LDFLAGS) -no-install
test_fuzz_fuzz_serve_http_SOURCES = test/fuzz/fuzz_serve_http.c \
	tools/serve/http.c tools/serve/conn.c
test_fuzz_fuzz_serve_http_CPPFLAGS = $(SERVE_TEST_CPPFLAGS)
test_fuzz_fuzz_serve_http_LDADD = $(SERVE_TEST_HTTP_LIBS)
test_fuzz_fuzz_serve_http_LDFLAGS = $(FUZZ_LDFLAGS) -no-install
FUZZ_TARGETS += test/fuzz/fuzz_serve_conn$(EXEEXT) \
	test/fuzz/fuzz_serve_http$(EXEEXT)
endif
endif
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
