# lib/common: what every layer of the library shares - the allocator hooks
# (sgf_allocator) behind one set of helpers, and the copy of a versioned
# struct (its size first) that reads only what the caller's header knew,
# and how the reader and the tree keep properties behind the public views
# (rawval.h). Includes: the public headers.
noinst_LTLIBRARIES += lib/common/libcommon.la
lib_common_libcommon_la_SOURCES = lib/common/alloc.c lib/common/alloc.h \
	lib/common/sized.c lib/common/sized.h \
	lib/common/rawval.h
lib_common_libcommon_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
