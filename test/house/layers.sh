#!/bin/sh
# layers.sh - each folder of lib/ and tools/ includes only what its
# layer may use. The build enforces the same with include paths (each
# folder's local.mk); this test also catches a relative path ("../core/
# parser.h") that include paths cannot stop.
#
#   lib/common    itself
#   lib/simd      itself, config.h
#   lib/core      itself, lib/common, lib/simd
#   lib/read, lib/tree, lib/write, lib/value, lib/check
#                 itself, lib/common
#   tools/common  itself
#   tools/io      itself
#   tools/json    itself, tools/common (the JSON converter)
#   tools/cmd     itself, tools/common, the public headers of tools/io
#                 (not its *_priv.h), tools/json's json_conv.h
#   tools/serve   the same as tools/cmd, and tools/cmd's sgf.h (what the
#                 commands share: `sgf serve` and `sgf send` are commands
#                 in a folder of their own)
# A folder named FOLDER=HEADER gives that one header only.
# Every layer may include the public headers (<sgfstream.h>, <sgfstream/...>).
top_srcdir=${top_srcdir:-.}
cd "$top_srcdir" || exit 99
fail=0
allowed() { # FOLDER -> the folders it may include from, besides itself
  case $1 in
  lib/simd) echo "config" ;;
  lib/core) echo "lib/common lib/simd" ;;
  lib/read | lib/tree | lib/write | lib/value | lib/check) echo "lib/common" ;;
  tools/json) echo "tools/common" ;;
  tools/cmd) echo "tools/common tools/io tools/json=json_conv.h" ;;
  tools/serve) echo "tools/common tools/io tools/json=json_conv.h tools/cmd=sgf.h" ;;
  *) echo "" ;;
  esac
}
for dir in lib/* tools/*; do
  [ -d "$dir" ] || continue
  for f in "$dir"/*.c "$dir"/*.h; do
    [ -f "$f" ] || continue
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
    while read -r inc; do
      [ -f "include/$inc" ] && continue # a public header (sgfstream/...)
      case $inc in
      */*) echo "FAIL: $f includes \"$inc\": a path, not a header of an allowed folder"
           echo x >>"${TMPDIR:-/tmp}/check-layers.$$"; continue ;;
      esac
      [ -f "$dir/$inc" ] && continue
      [ -f "include/$inc" ] && continue # a public header
      ok=0
      for a in $(allowed "$dir"); do
        if [ "$a" = config ] && [ "$inc" = config.h ]; then ok=1; fi
        case $inc in *_priv.h) continue ;; esac
        case $a in
        *=*) [ "${a#*=}" = "$inc" ] && [ -f "${a%%=*}/$inc" ] && ok=1 ;;
        *) [ -f "$a/$inc" ] && ok=1 ;;
        esac
      done
      if [ $ok -eq 0 ]; then
        echo "FAIL: $f includes \"$inc\", which $dir may not use"
        echo x >>"${TMPDIR:-/tmp}/check-layers.$$"
      fi
    done
  done
done
if [ -s "${TMPDIR:-/tmp}/check-layers.$$" ]; then fail=1; fi
rm -f "${TMPDIR:-/tmp}/check-layers.$$"
[ $fail -eq 0 ] && echo "check-layers: every #include is allowed"
exit $fail
