# lib/simd: the bulk scanners for long values (AVX2 / SSE2 / NEON /
# portable, chosen at run time), used by the tokenizer only. Includes: the
# public headers and config.h (SGF_DISABLE_SIMD).
noinst_LTLIBRARIES += lib/simd/libsimd.la
lib_simd_libsimd_la_SOURCES = lib/simd/scan.c lib/simd/scan.h \
	lib/simd/moves.c lib/simd/moves.h lib/simd/lanes.h
lib_simd_libsimd_la_CPPFLAGS = $(AM_CPPFLAGS) $(CONFIG_CPPFLAGS)
lib_simd_libsimd_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
