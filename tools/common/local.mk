# tools/common: code shared by the sgf tool, the tests and the benchmark,
# built as one convenience library (also without the tool, for the tests
# and the fuzz targets): the event log (the `sgf events` format and the
# golden logs of test/cases), the counters behind `sgf stats`, the game
# cutter of `sgf filter`, `sgf serve` and `sgf split --shards`, and the
# growable byte buffer (bytebuf.c). The counting allocator, which only
# the tests, the fuzz targets and the benchmark use, is in test/support.
# Includes: the public headers.
noinst_LTLIBRARIES += tools/common/libsgfcommon.la
tools_common_libsgfcommon_la_SOURCES = \
	tools/common/eventlog.c tools/common/eventlog.h \
	tools/common/bytebuf.c tools/common/bytebuf.h tools/common/decimal.h \
	tools/common/cutter.c tools/common/cutter.h \
	tools/common/stats.c tools/common/stats.h \
	tools/common/summary.c tools/common/summary.h
COMMON_CPPFLAGS = -I$(top_srcdir)/tools/common
COMMON_LIBS = tools/common/libsgfcommon.la
