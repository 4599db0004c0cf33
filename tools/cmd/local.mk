# tools/cmd: the sgf command - option handling, dispatch and one file per
# command. Includes: the public headers, tools/io (its public headers),
# tools/common, tools/json (json_conv.h).
if BUILD_TOOLS
bin_PROGRAMS += sgf
sgf_SOURCES = \
	tools/cmd/sgf.c tools/cmd/sgf.h \
	tools/cmd/feed.c \
	tools/cmd/cmd_check.c \
	tools/cmd/cmd_stats.c \
	tools/cmd/cmd_events.c \
	tools/cmd/cmd_json.c \
	tools/cmd/cmd_fmt.c tools/cmd/cmd_mainline.c tools/cmd/cmd_split.c \
	tools/cmd/shards.c tools/cmd/shards.h \
	tools/cmd/rewrite.c tools/cmd/rewrite.h tools/cmd/drops.c \
	tools/cmd/inplace.c tools/cmd/inplace.h \
	tools/cmd/ff4.c tools/cmd/ff4.h \
	tools/cmd/cmd_filter.c tools/cmd/filter.h tools/cmd/filter_pred.c \
	tools/cmd/filter_moves.c
sgf_CPPFLAGS = $(AM_CPPFLAGS) $(IO_CPPFLAGS) $(COMMON_CPPFLAGS) \
	$(JSON_CPPFLAGS)
sgf_CFLAGS = $(AM_CFLAGS) $(UV_CFLAGS) $(ARCHIVE_CFLAGS)
sgf_LDADD = tools/io/libsgfio.la $(JSON_LIBS) $(COMMON_LIBS) \
	lib/libsgfstream.la \
	$(UV_LIBS) $(ARCHIVE_LIBS)
# doc/sgf.1 is made by configure from doc/sgf.1.in (the version)
man_MANS = doc/sgf.1
endif
EXTRA_DIST += doc/sgf.1.in
