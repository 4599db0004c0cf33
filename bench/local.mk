# bench: the benchmark programs and bench/run.
# The benchmark is built on demand only ('make bench', or
# 'make bench/bench_events'), never by 'make all' or 'make check'.
# -no-install: a real executable (no libtool wrapper) for perf/valgrind.
# bench/load.c (a file, a directory or a list of files into memory) and
# bench/util.c (clocks, the allocator check, results file) are shared;
# the counting allocator is test/support/countalloc.c (libsgftest,
# test/support/local.mk). BENCH_CPPFLAGS, BENCH_LIBS: what each uses.
BENCH_CPPFLAGS = $(AM_CPPFLAGS) $(COMMON_CPPFLAGS) -I$(top_srcdir)/test/support
BENCH_LIBS = test/support/libsgftest.la $(COMMON_LIBS) lib/libsgfstream.la
BENCH_COMMON = bench/load.c bench/load.h bench/util.c bench/util.h
EXTRA_PROGRAMS += bench/bench_events
bench_bench_events_SOURCES = bench/bench_events.c $(BENCH_COMMON)
bench_bench_events_CPPFLAGS = $(BENCH_CPPFLAGS)
bench_bench_events_LDADD = $(BENCH_LIBS)
bench_bench_events_LDFLAGS = -no-install
CLEANFILES += bench/bench_events$(EXEEXT)
# bench/bench_tree: the tree builder (sgfstream/tree.h), one game at a
# time (or --collect), with a counting allocator for the memory peak.
EXTRA_PROGRAMS += bench/bench_tree
bench_bench_tree_SOURCES = bench/bench_tree.c bench/tree_floor.c \
	bench/tree_floor.h $(BENCH_COMMON)
bench_bench_tree_CPPFLAGS = $(BENCH_CPPFLAGS)
bench_bench_tree_LDADD = $(BENCH_LIBS)
bench_bench_tree_LDFLAGS = -no-install
CLEANFILES += bench/bench_tree$(EXEEXT)
# bench/bench_write: parse + streaming writer (sgfstream/writer.h), compact
# and readable, into a sink that counts; the output is checked untimed.
EXTRA_PROGRAMS += bench/bench_write
bench_bench_write_SOURCES = bench/bench_write.c $(BENCH_COMMON)
bench_bench_write_CPPFLAGS = $(BENCH_CPPFLAGS)
bench_bench_write_LDADD = $(BENCH_LIBS)
bench_bench_write_LDFLAGS = -no-install
CLEANFILES += bench/bench_write$(EXEEXT)
# bench/bench_values: the typed value decoders (sgfstream/value.h) on the
# callbacks, against events/no-op and values/no-op in the same run
# ('make bench/bench_values; bench/bench_values bench/data/aeb.sgf').
EXTRA_PROGRAMS += bench/bench_values
bench_bench_values_SOURCES = bench/bench_values.c $(BENCH_COMMON)
bench_bench_values_CPPFLAGS = $(BENCH_CPPFLAGS)
bench_bench_values_LDADD = $(BENCH_LIBS)
bench_bench_values_LDFLAGS = -no-install
CLEANFILES += bench/bench_values$(EXEEXT)
BENCH_EXES = bench/bench_events$(EXEEXT) bench/bench_tree$(EXEEXT) \
	bench/bench_write$(EXEEXT) bench/bench_values$(EXEEXT)
EXTRA_DIST += bench/filter.sh bench/irb.sh
EXTRA_DIST += bench/README.md bench/run bench/make-corpus.sh \
	bench/stats-pipe.sh bench/peer.sh bench/peer/sabaki.js bench/peer/.gitignore
EXTRA_DIST += bench/serve.sh bench/serve-post.lua bench/compare.sh
# The JavaScript package (js/) beside @sabaki/sgf: node bench/js-bench.js.
EXTRA_DIST += bench/js-bench.js
# The Python binding (python/): bench/python.sh, and the rows bench/run adds.
EXTRA_DIST += bench/python.sh bench/python-sgfmill.py bench/python-stream.py

# bench/run finds the programs in the current (build) directory.
bench: $(BENCH_EXES)
	$(srcdir)/bench/run
bench-smoke: $(BENCH_EXES)
	$(srcdir)/bench/run --smoke
.PHONY: bench bench-smoke

# ---------------------------------------------------------------- hardening
# bench/skip_floor: the floor of skip after the root (the roots parsed
# with no handler plus the tree skipper over the rest), next to
# events/null in one process.
EXTRA_PROGRAMS += bench/skip_floor
bench_skip_floor_SOURCES = bench/skip_floor.c $(BENCH_COMMON)
bench_skip_floor_CPPFLAGS = $(BENCH_CPPFLAGS)
bench_skip_floor_LDADD = $(BENCH_LIBS)
bench_skip_floor_LDFLAGS = -no-install
CLEANFILES += bench/skip_floor$(EXEEXT)
