# lib/read: the property reader (sgfstream/reader.h), a client of the
# public callbacks. Includes: the public headers and lib/common.
noinst_LTLIBRARIES += lib/read/libread.la
lib_read_libread_la_SOURCES = lib/read/reader.c
lib_read_libread_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/lib/common
lib_read_libread_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
