# tools/cmd: the sgf command - option handling, dispatch and one file per
# command. Includes: the public headers, tools/io (its public headers),
# tools/common.
if BUILD_TOOLS
bin_PROGRAMS += sgf
sgf_SOURCES = \
	tools/cmd/sgf.c tools/cmd/sgf.h \
	tools/cmd/feed.c \
	tools/cmd/cmd_check.c \
	tools/cmd/cmd_stats.c \
	tools/cmd/cmd_events.c \
	tools/json/json_conv.c tools/json/json_value.c tools/json/json_game.h \
	tools/json/json_out.c tools/json/json_out.h tools/json/json_conv.h \
	tools/cmd/cmd_fmt.c tools/cmd/cmd_mainline.c tools/cmd/cmd_split.c \
	tools/cmd/shards.c tools/cmd/shards.h \
	tools/cmd/rewrite.c tools/cmd/rewrite.h tools/cmd/drops.c \
	tools/cmd/inplace.c tools/cmd/inplace.h \
	tools/cmd/ff4.c tools/cmd/ff4.h \
	tools/cmd/cmd_filter.c tools/cmd/filter.h tools/cmd/filter_pred.c \
	tools/cmd/filter_moves.c
sgf_CPPFLAGS = $(AM_CPPFLAGS) $(IO_CPPFLAGS) $(COMMON_CPPFLAGS) \
	-I$(top_srcdir)/tools/cmd -I$(top_srcdir)/tools/json
sgf_CFLAGS = $(AM_CFLAGS) $(UV_CFLAGS) $(ARCHIVE_CFLAGS)
sgf_LDADD = tools/io/libsgfio.la $(COMMON_LIBS) lib/libsgfstream.la \
	$(UV_LIBS) $(ARCHIVE_LIBS)
# doc/sgf.1 is made by configure from doc/sgf.1.in (the version)
man_MANS = doc/sgf.1
endif
EXTRA_DIST += doc/sgf.1.in
