# lib/check: the semantic checks (sgfstream/check.h), a checker chained
# onto the parser's public callbacks; findings go through
# sgf_parser_report(). Includes: the public headers and lib/common.
noinst_LTLIBRARIES += lib/check/libcheck.la
lib_check_libcheck_la_SOURCES = lib/check/check_priv.h lib/check/check.c \
	lib/check/check_value.c lib/check/check_run.c
lib_check_libcheck_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/lib/common
lib_check_libcheck_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
