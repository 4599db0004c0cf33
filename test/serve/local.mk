# test/serve: sgf serve and sgf send (each script skips without them).
# lib.sh is what the scripts share (the tool, python3, a server on
# loopback); load.py and ackcheck.py are their Python halves;
# failfile.c and failsync.c are LD_PRELOAD shims the scripts compile.
# test/serve/fuzz_conn and fuzz_http run sgf serve's fuzz targets
# (test/fuzz/fuzz_serve_*.c, their own main() with SERVE_FUZZ_MAIN) over
# a bounded number of random streams.
SERVE_TEST_CPPFLAGS = $(TEST_CPPFLAGS) -I$(top_srcdir)/tools/serve \
	$(UV_CFLAGS)
SERVE_TEST_HTTP_LIBS = $(LDADD) $(HTTP_PARSER_LIBS) $(UV_LIBS)
if BUILD_TOOLS
if HAVE_HTTP_PARSER
check_PROGRAMS += test/serve/fuzz_conn test/serve/fuzz_http
TESTS += test/serve/fuzz_conn test/serve/fuzz_http
test_serve_fuzz_conn_SOURCES = test/fuzz/fuzz_serve_conn.c tools/serve/conn.c
test_serve_fuzz_conn_CPPFLAGS = $(SERVE_TEST_CPPFLAGS) -DSERVE_FUZZ_MAIN
test_serve_fuzz_http_SOURCES = test/fuzz/fuzz_serve_http.c \
	tools/serve/http.c tools/serve/conn.c
test_serve_fuzz_http_CPPFLAGS = $(SERVE_TEST_CPPFLAGS) -DSERVE_FUZZ_MAIN
test_serve_fuzz_http_LDADD = $(SERVE_TEST_HTTP_LIBS)
endif
endif
SERVE_TESTS = test/serve/load.sh test/serve/backpressure.sh \
	test/serve/sigterm.sh test/serve/limits.sh test/serve/json.sh \
	test/serve/dirsync.sh test/serve/httpmem.sh test/serve/threads.sh \
	test/serve/hup.sh test/serve/noread.sh test/serve/answer.sh \
	test/serve/drain.sh test/serve/slowloris.sh test/serve/logsize.sh \
	test/serve/memcount.sh test/serve/diskfull.sh test/serve/crash.sh \
	test/serve/httpack.sh test/serve/send.sh test/serve/failfile.sh
TESTS += $(SERVE_TESTS)
EXTRA_DIST += $(SERVE_TESTS) test/serve/lib.sh test/serve/load.py \
	test/serve/ackcheck.py test/serve/failfile.c test/serve/failsync.c
