# test: what every test folder shares. The tests are sorted by kind, one
# folder and one local.mk each (test/README.md lists every file):
#   test/support  code and scripts the tests share (libsgftest)
#   test/unit     the unit tests (cmocka), the scanner checks
#   test/fuzz     the libFuzzer targets
#   test/tool     the sgf tool's commands
#   test/serve    sgf serve and sgf send
#   test/house    the house rules: layers, format, exports, headers, docs
#   test/corpus   the tests over ../shared (skip without it)
# test/cases (golden event logs), test/data and test/regressions are data.
TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = $(SHELL)
AM_TESTS_ENVIRONMENT = \
	srcdir='$(srcdir)'; top_srcdir='$(top_srcdir)'; \
	top_builddir='$(top_builddir)'; CC='$(CC)'; \
	SGF_TEST_CFLAGS='$(CFLAGS)'; SGF_TEST_LDFLAGS='$(LDFLAGS)'; \
	export srcdir top_srcdir top_builddir CC SGF_TEST_CFLAGS SGF_TEST_LDFLAGS; \
	case "$${SGF_TEST_FULL:-0}" in 0) SGF_TEST_QUICK=$${SGF_TEST_QUICK-1}; \
	export SGF_TEST_QUICK;; esac;

# The defaults of every test program (and fuzz target): the public
# headers, tools/common, test/support and cmocka's; linked with
# test/support/libsgftest.la, libsgfcommon, the library and cmocka. LDADD
# is the default of every program without its own _LDADD: only the
# tests' (the tool and the benchmark name theirs). A test program names
# TEST_CPPFLAGS in its _CPPFLAGS (AM_CPPFLAGS is the library's too), and
# anything more only where it needs more.
TEST_CPPFLAGS = $(AM_CPPFLAGS) $(COMMON_CPPFLAGS) \
	-I$(top_srcdir)/test/support $(CMOCKA_CFLAGS)
TEST_LIBS = test/support/libsgftest.la $(COMMON_LIBS) lib/libsgfstream.la
LDADD = $(TEST_LIBS) $(CMOCKA_LIBS)
EXTRA_DIST += test/README.md test/cases test/data test/regressions

# make check runs test/unit/cases and test/unit/moves quick
# (SGF_TEST_QUICK=1, a sample of the split points and callbacks: set
# SGF_TEST_QUICK=0 for the whole run) and leaves test/unit/neon.sh to make
# check-full.
# make check-full: the exhaustive runs of the tests make check samples,
# with SGF_TEST_FULL=1 (test/README.md): every split of every golden case
# under every scanner (two entries, so that -j2 runs them side by side),
# the full NEON and native scanner checks, the whole shared corpus. Its
# summary goes to test-suite-full.log; .ci/run runs it after make check.
# The longest first (neon.sh, about 5 minutes of CPU under qemu), so that
# -j2 runs the others beside it.
FULL_TESTS = test/unit/neon.sh test/unit/cases-scanners-cases.sh \
	test/unit/cases-scanners-moves.sh test/corpus/value-sgfmill.sh \
	test/corpus/sgf.sh test/corpus/roundtrip.sh \
	test/unit/scan-native.sh test/corpus/check-semantic.sh \
	test/corpus/inplace.sh test/corpus/ff4.sh test/unit/tree_paths \
	test/corpus/check-runs.sh
check-full: all
	SGF_TEST_FULL=1 $(MAKE) $(AM_MAKEFLAGS) check TESTS='$(FULL_TESTS)' \
	  TEST_SUITE_LOG=test-suite-full.log
CLEANFILES += test-suite-full.log
.PHONY: check-full
