# lib/tree: game trees (sgfstream/tree.h) - the builder on the public
# callbacks, storage, navigation, the cursor. Includes: the public headers
# and lib/common.
noinst_LTLIBRARIES += lib/tree/libtree.la
lib_tree_libtree_la_SOURCES = lib/tree/tree_internal.h \
	lib/tree/tree_arena.c lib/tree/tree_derive.c lib/tree/tree_nav.c \
	lib/tree/tree_build.c lib/tree/build_fast.c lib/tree/build_priv.h \
	lib/tree/tree_compact.c \
	lib/tree/tree_collection.c lib/tree/tree_cursor.c lib/tree/tree_edit.c
# typed getters on nodes, typed setters on the cursor (sgfstream/typed.h)
lib_tree_libtree_la_SOURCES += lib/tree/node_typed.c lib/tree/cursor_typed.c
lib_tree_libtree_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/lib/common
lib_tree_libtree_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
