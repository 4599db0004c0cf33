# lib/core: the push parser (tokenizer, life cycle, positions), the
# diagnostics catalogue, the error codes and unescaping. Depends on libc only. Includes:
# the public headers, lib/common, lib/simd. Its private header parser.h is
# visible to no other layer.
noinst_LTLIBRARIES += lib/core/libcore.la
lib_core_libcore_la_SOURCES = \
	lib/core/parser.c lib/core/parser.h lib/core/emit.h \
	lib/core/tokenize.c lib/core/tokenize_batch.c lib/core/dbcs.c \
	lib/core/finish.c lib/core/run.c \
	lib/core/diag.c lib/core/error.c lib/core/utf16.c
lib_core_libcore_la_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/lib/common -I$(top_srcdir)/lib/simd
lib_core_libcore_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
