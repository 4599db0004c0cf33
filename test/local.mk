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
	export srcdir top_srcdir top_builddir CC;
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

# The sgf tool (each skips without it).
TESTS += test/tool-write.sh test/tool-archives.sh test/tool-stats-jobs.sh \
	test/tool-events.sh test/tool-exit.sh test/tool-inplace.sh \
	test/tool-inplace-corpus.sh test/tool-help.sh test/tool-split-dirs.sh \
	test/tool-check-ignore.sh test/tool-fds.sh
# The library's exports, the scanners over the golden cases, the corpus,
# and the layering of lib/ and tools/.
TESTS += test/check-exports.sh test/cases-scanners.sh test/corpus.sh \
	test/check-layers.sh test/readme-example.sh
EXTRA_DIST += test/README.md test/cases test/data test/check-exports.sh \
	test/tool-events.sh test/cases-scanners.sh test/corpus.sh \
	test/roundtrip.sh test/tool-write.sh test/tool-archives.sh \
	test/tool-stats-jobs.sh test/tool-exit.sh test/check-layers.sh \
	test/tool-inplace.sh test/tool-inplace-corpus.sh test/inplace-lib.sh \
	test/tool-help.sh test/tool-split-dirs.sh test/tool-check-ignore.sh \
	test/tool-fds.sh test/readme-example.sh
# test/neon.sh: the AArch64 NEON scanners, cross-compiled with
# test/scan_check.c and run under qemu-aarch64 (skips without
# aarch64-linux-gnu-gcc or qemu-aarch64; builds in a temporary directory).
TESTS += test/neon.sh
EXTRA_DIST += test/neon.sh test/scan_check.c
