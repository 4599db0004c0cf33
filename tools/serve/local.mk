# tools/serve: `sgf serve` (a libuv server storing the games it receives)
# and `sgf send`, linked into the sgf command. The per-connection state
# machine (conn.c) knows no sockets: the fuzz targets feed it bytes.
# HTTP needs nodejs' http-parser (libhttp-parser-dev); without it serve
# and send are left out (configure says so). Includes: what tools/cmd
# does, and of tools/cmd its sgf.h (what commands share); --jsonl's lines
# come from tools/json (json_conv.h).
if BUILD_TOOLS
if HAVE_HTTP_PARSER
sgf_SOURCES += \
	tools/serve/cmd_serve.c tools/serve/server.c tools/serve/server.h \
	tools/serve/raw.c tools/serve/http.c tools/serve/stats.c \
	tools/serve/conn.c tools/serve/conn.h \
	tools/serve/sink.c tools/serve/sink.h \
	tools/serve/normalize.c tools/serve/normalize.h \
	tools/serve/log.c tools/serve/log.h \
	tools/serve/send.c
sgf_CPPFLAGS += -DSGF_WITH_SERVE -I$(top_srcdir)/tools/serve \
	-I$(top_srcdir)/tools/cmd
sgf_LDADD += $(HTTP_PARSER_LIBS)
endif
endif
