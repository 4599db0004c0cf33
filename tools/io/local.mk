# tools/io: the sgf tool's input and output through libuv - files, stdin,
# directories, archives and compressed files (libarchive), byte ranges,
# output files written atomically, and the -j workers. Knows nothing of
# SGF beyond file names. Includes: the public headers, libuv, libarchive,
# zlib, liblzma, libbz2 (decode.c).
if BUILD_TOOLS
noinst_LTLIBRARIES += tools/io/libsgfio.la
tools_io_libsgfio_la_SOURCES = \
	tools/io/input.c tools/io/input.h tools/io/input_priv.h \
	tools/io/stream.c tools/io/stream.h \
	tools/io/walk.c tools/io/archive.c tools/io/decode.c tools/io/decode.h \
	tools/io/input_range.c tools/io/ranges.c tools/io/ranges.h \
	tools/io/output.c tools/io/output.h \
	tools/io/recompress.c tools/io/recompress.h \
	tools/io/jobs.c tools/io/jobs.h \
	tools/io/transcode.c \
	tools/io/progress.c tools/io/progress.h
tools_io_libsgfio_la_CFLAGS = $(AM_CFLAGS) $(UV_CFLAGS) $(ARCHIVE_CFLAGS)
tools_io_libsgfio_la_LIBADD = $(UV_LIBS) $(ARCHIVE_LIBS)
endif
IO_CPPFLAGS = -I$(top_srcdir)/tools/io
