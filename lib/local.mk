# libsgfstream: the layers of lib/*/ linked into one library; only the
# public sgf_* functions are exported.
lib_LTLIBRARIES = lib/libsgfstream.la
lib_libsgfstream_la_SOURCES =
lib_libsgfstream_la_LIBADD = lib/core/libcore.la lib/simd/libsimd.la \
	lib/common/libcommon.la lib/read/libread.la lib/tree/libtree.la \
	lib/write/libwrite.la lib/value/libvalue.la
lib_libsgfstream_la_LIBADD += lib/check/libcheck.la
# -Bsymbolic-functions: the layers call the core's public functions
# (positions, raw identifiers) on every event; bound inside the library,
# those calls skip the PLT.
lib_libsgfstream_la_LDFLAGS = -version-info $(SGF_LT_VERSION) \
	-no-undefined -export-symbols-regex '^sgf_[a-z]' \
	$(SGF_SYMBOLIC_LDFLAGS)
