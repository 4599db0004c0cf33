# lib/value: the property table and typed values (sgfstream/value.h):
# decoding and encoding one raw value at a time, no tree, no parser.
# Includes: the public headers and lib/common.
noinst_LTLIBRARIES += lib/value/libvalue.la
lib_value_libvalue_la_SOURCES = lib/value/value_priv.h \
	lib/value/prop_table.c lib/value/value_scalar.c \
	lib/value/value_text.c lib/value/value_escape.c lib/value/value_point.c \
	lib/value/value_typed.c lib/value/charset.c
lib_value_libvalue_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/lib/common
lib_value_libvalue_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
# the values of a property view, made by the reader or the tree
lib_value_libvalue_la_SOURCES += lib/value/value_raw.c
