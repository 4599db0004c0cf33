# tools/json: the JSON converter (json_conv.h) - SGF games as JSON Lines,
# written as the parser's events arrive - behind `sgf json` (its options
# and inputs: tools/cmd/cmd_json.c), `sgf filter --json` and `sgf serve
# --jsonl`; one convenience library. Includes: the public headers,
# tools/common.
if BUILD_TOOLS
noinst_LTLIBRARIES += tools/json/libsgfjson.la
tools_json_libsgfjson_la_SOURCES = \
	tools/json/json_conv.c tools/json/json_conv.h \
	tools/json/json_game.h tools/json/json_value.c \
	tools/json/json_out.c tools/json/json_out.h
tools_json_libsgfjson_la_CPPFLAGS = $(AM_CPPFLAGS) $(COMMON_CPPFLAGS)
endif
JSON_CPPFLAGS = -I$(top_srcdir)/tools/json
JSON_LIBS = tools/json/libsgfjson.la
