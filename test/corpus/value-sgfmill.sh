#!/bin/sh
# value-sgfmill.sh - the value decoders against sgfmill, over the shared
# corpus: test/corpus/value_diff lists, for every game of every file, the board
# size, the root node's text properties, the main line's moves, its AB /
# AW / AE points and its comments (through the core parser,
# sgfstream/value.h and, for text in UTF-8, sgfstream/charset.h);
# test/corpus/value-sgfmill.py compares them with
# sgfmill's answers in ../shared/reference/sgfmill and fails on any
# difference that is not one of its known (FF[4] versus sgfmill) cases.
#
# Folders are compared whole. Of each tar.xz archive one member in
# VALUE_SGFMILL_EVERY (default 8) is extracted and compared, to keep the
# test well under two minutes; VALUE_SGFMILL_EVERY=1 compares everything.
# That is make check-full's run (SGF_TEST_FULL=1); make check leaves out
# the sources whose answers are larger than 4 MB (aeb-pro-games: of the
# archives the smaller two stay, one member in 8).
# Skips (77) without ../shared, python3 or xz.
top_srcdir=${top_srcdir:-${srcdir:-.}}
top_builddir=${top_builddir:-.}
shared="$top_srcdir/../shared"
ref="$shared/reference/sgfmill"
dev="$shared/corpus/dev"
every=${VALUE_SGFMILL_EVERY:-8}
diff_prog="$top_builddir/test/corpus/value_diff"
if [ ! -d "$ref" ] || [ ! -d "$dev" ]; then
  echo "value-sgfmill: no $ref or $dev: skipped"
  exit 77
fi
for tool in python3 xz tar; do
  if ! command -v $tool >/dev/null 2>&1; then
    echo "value-sgfmill: no $tool: skipped"
    exit 77
  fi
done
[ -x "$diff_prog" ] || { echo "value-sgfmill: $diff_prog not built"; exit 99; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-value-sgfmill.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM

# The files sgfmill answered for, in its order: each path once.
ref_paths() {
  xz -dc "$1" | python3 -c '
import json, sys
seen = set()
dec = json.JSONDecoder()
for line in sys.stdin:
    p = dec.raw_decode(line, line.index("\"", line.index(":")))[0]  # "path" first
    if p not in seen:
        seen.add(p)
        print(p)'
}

sources=
for r in "$ref"/*.jsonl.xz; do
  src=$(basename "$r" .jsonl.xz)
  if [ "${SGF_TEST_FULL:-0}" = 0 ] &&
     [ "$(wc -c <"$r")" -gt 4194304 ]; then
    echo "value-sgfmill: $src left out (make check-full compares it)"
    continue
  fi
  if [ -d "$dev/$src" ]; then
    ref_paths "$r" >"$tmp/$src.paths" || exit 99
    root="$dev/$src"
  elif [ -f "$dev/$src.tar.xz" ]; then
    ref_paths "$r" | awk -v n="$every" 'NR % n == 1 || n == 1' \
      >"$tmp/$src.paths" || exit 99
    mkdir "$tmp/$src" || exit 99
    # Member names as the archive spells them (with or without "./").
    dot=; case $(tar -tJf "$dev/$src.tar.xz" 2>/dev/null | head -1) in
      ./*) dot=./ ;;
    esac
    sed "s|^|$dot|" "$tmp/$src.paths" >"$tmp/$src.members"
    tar -xJf "$dev/$src.tar.xz" -C "$tmp/$src" -T "$tmp/$src.members" ||
      { echo "value-sgfmill: cannot extract from $src.tar.xz"; exit 99; }
    root="$tmp/$src"
  else
    echo "value-sgfmill: no corpus for $src (skipped)"
    continue
  fi
  "$diff_prog" "$root" <"$tmp/$src.paths" >"$tmp/$src.jsonl" ||
    { echo "value-sgfmill: value_diff failed on $src"; exit 1; }
  rm -rf "${tmp:?}/$src"
  sources="$sources $src"
done
[ -n "$sources" ] || { echo "value-sgfmill: nothing to compare: skipped"; exit 77; }
# shellcheck disable=SC2086 # the source names are words
python3 "$top_srcdir/test/corpus/value-sgfmill.py" "$ref" "$tmp" $sources
