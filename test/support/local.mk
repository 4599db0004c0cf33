# test/support: what the tests share, built once as the convenience
# library libsgftest (LDADD, test/local.mk), which the fuzz targets and
# the benchmark link too: the fuzz harness (harness*.c: the checks behind
# the fuzz targets, also run by test/unit/hostile, alloc, regressions and
# tree_paths), the counting allocator (countalloc.c, also the benchmark's
# memory peak), the cmocka tests' helpers (testutil.c), the value and
# move logs (valuelog.c, movelog.c). And inplace-lib.sh, sourced by
# test/tool/inplace.sh and test/corpus/inplace.sh.
check_LTLIBRARIES = test/support/libsgftest.la
test_support_libsgftest_la_SOURCES = \
	test/support/harness.c test/support/harness.h \
	test/support/harness_priv.h test/support/harness_tree.c \
	test/support/harness_cursor.c test/support/harness_text.c \
	test/support/harness_whole.c test/support/harness_paths.c \
	test/support/harness_charset.c test/support/harness_quiet.c \
	test/support/harness_moves.c test/support/harness_check.c \
	test/support/countalloc.c test/support/countalloc.h \
	test/support/testutil.c test/support/testutil.h \
	test/support/valuelog.c test/support/valuelog.h \
	test/support/movelog.c test/support/movelog.h
test_support_libsgftest_la_CPPFLAGS = $(TEST_CPPFLAGS)
EXTRA_DIST += test/support/inplace-lib.sh
