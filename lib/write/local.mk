# lib/write: the streaming writer and the tree writer
# (sgfstream/writer.h), escaping. Includes: the public headers and
# lib/common.
noinst_LTLIBRARIES += lib/write/libwrite.la
lib_write_libwrite_la_SOURCES = lib/write/writer.c lib/write/writer_priv.h \
	lib/write/writer_tree.c
lib_write_libwrite_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/lib/common
lib_write_libwrite_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
