# test/unit: the unit tests (cmocka; each test/unit/NAME is built from
# test/unit/NAME.c with the defaults of test/local.mk), and the checks of
# the SIMD scanners (scan_check.c, built by the scripts in a temporary
# directory: natively by scan-native.sh, for AArch64 under qemu by
# neon.sh; scan-build.sh is what they share). cases-scanners.sh runs
# test/unit/cases and test/unit/moves under each scanner (sampled; the
# -cases and -moves scripts are its two halves for make check-full).
UNIT_TESTS = test/unit/cases test/unit/api test/unit/tree test/unit/writer \
	test/unit/error test/unit/abi test/unit/reentry test/unit/node_end \
	test/unit/moves test/unit/cutter test/unit/value test/unit/charset \
	test/unit/utf16 test/unit/check test/unit/typed test/unit/hostile \
	test/unit/alloc test/unit/regressions test/unit/writer_runs
if HAVE_CMOCKA
check_PROGRAMS += $(UNIT_TESTS)
TESTS += $(UNIT_TESTS)
test_unit_cases_CPPFLAGS = $(TEST_CPPFLAGS)
test_unit_api_CPPFLAGS = $(TEST_CPPFLAGS)
test_unit_tree_CPPFLAGS = $(TEST_CPPFLAGS)
test_unit_writer_CPPFLAGS = $(TEST_CPPFLAGS)
test_unit_error_CPPFLAGS = $(TEST_CPPFLAGS)
test_unit_abi_CPPFLAGS = $(TEST_CPPFLAGS)
test_unit_reentry_CPPFLAGS = $(TEST_CPPFLAGS)
test_unit_node_end_CPPFLAGS = $(TEST_CPPFLAGS)
test_unit_moves_CPPFLAGS = $(TEST_CPPFLAGS)
test_unit_cutter_CPPFLAGS = $(TEST_CPPFLAGS)
test_unit_value_CPPFLAGS = $(TEST_CPPFLAGS)
test_unit_charset_CPPFLAGS = $(TEST_CPPFLAGS)
test_unit_utf16_CPPFLAGS = $(TEST_CPPFLAGS)
test_unit_check_CPPFLAGS = $(TEST_CPPFLAGS)
test_unit_typed_CPPFLAGS = $(TEST_CPPFLAGS)
test_unit_typed_LDADD = $(LDADD) -lm
test_unit_hostile_CPPFLAGS = $(TEST_CPPFLAGS)
test_unit_alloc_CPPFLAGS = $(TEST_CPPFLAGS)
test_unit_regressions_CPPFLAGS = $(TEST_CPPFLAGS)
test_unit_writer_runs_CPPFLAGS = $(TEST_CPPFLAGS)
# The tool's input loop: pause and resume (tools/io/stream.h).
if BUILD_TOOLS
check_PROGRAMS += test/unit/stream
TESTS += test/unit/stream
test_unit_stream_CPPFLAGS = $(TEST_CPPFLAGS) $(IO_CPPFLAGS) $(UV_CFLAGS)
test_unit_stream_LDADD = tools/io/libsgfio.la $(LDADD) $(UV_LIBS) \
	$(ARCHIVE_LIBS)
endif
endif

# The tree builder's fast and general paths build the same trees: every
# golden case and the shared corpus (a sample of its archives; its
# archives only with libarchive, which comes with the tool). Not cmocka.
if BUILD_TOOLS
TREE_PATHS_ARCHIVE_CPPFLAGS = -DHAVE_LIBARCHIVE $(ARCHIVE_CFLAGS)
TREE_PATHS_ARCHIVE_LIBS = $(ARCHIVE_LIBS)
endif
check_PROGRAMS += test/unit/tree_paths
TESTS += test/unit/tree_paths
test_unit_tree_paths_CPPFLAGS = $(TEST_CPPFLAGS) $(TREE_PATHS_ARCHIVE_CPPFLAGS)
test_unit_tree_paths_LDADD = $(LDADD) $(TREE_PATHS_ARCHIVE_LIBS)

# The semantic checks with move runs (sgf_check_moves, in bulk) and
# without: crafted runs and the golden cases (check-runs.sh, with
# test/unit/check_runs; sgf check against --chunk=1). Not cmocka.
check_PROGRAMS += test/unit/check_runs
test_unit_check_runs_CPPFLAGS = $(TEST_CPPFLAGS)
TESTS += test/unit/check-runs.sh
EXTRA_DIST += test/unit/check-runs.sh

# The JSON writer's 16-byte escape scans (tools/json/json_out.h) against
# the portable ones: every byte value, position, length up to 64 and
# alignment. Not cmocka; needs tools/json.
if BUILD_TOOLS
check_PROGRAMS += test/unit/json_escape
TESTS += test/unit/json_escape
test_unit_json_escape_CPPFLAGS = $(TEST_CPPFLAGS) $(JSON_CPPFLAGS)
test_unit_json_escape_LDADD = $(JSON_LIBS) $(COMMON_LIBS) lib/libsgfstream.la
endif

# The golden cases and the move runs under each scanner; the SIMD
# scanners against the portable one (neon.sh skips without
# aarch64-linux-gnu-gcc or qemu-aarch64, and in make check).
TESTS += test/unit/cases-scanners.sh test/unit/neon.sh \
	test/unit/scan-native.sh
EXTRA_DIST += test/unit/cases-scanners.sh test/unit/cases-scanners-cases.sh \
	test/unit/cases-scanners-moves.sh test/unit/neon.sh \
	test/unit/scan-native.sh test/unit/scan-build.sh test/unit/scan_check.c
