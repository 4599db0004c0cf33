#!/bin/sh
# ff4.sh - `sgf fmt --ff4` on real files: an FF[3] record of
# ../shared/corpus/dev converted and then parsed strictly with no
# diagnostic at all, and every file of ../shared/corpus/edge/ (the
# strangest) through --ff4 with round-trip checks: the output is
# strict-clean, a second --ff4 writes the same bytes, and nothing was
# lost: the same games, variations and nodes as plain `fmt` writes, and
# as many values, plus one for each FF[4] or GM[1] the conversion
# reported adding. Skips (77) without the corpus or the sgf tool. make
# check takes one file of edge/ in 3 (in sorted order), make check-full
# (SGF_TEST_FULL=1) every file; SGF_CORPUS_EVERY=N overrides.
top_builddir=${top_builddir:-.}
sgf="$top_builddir/sgf"
if [ ! -x "$sgf" ]; then
  echo "tool-ff4-corpus: $sgf not built (--disable-tools?): skipped"
  exit 77
fi
corpus="${top_srcdir:-${srcdir:-.}}/../shared/corpus"
if [ ! -d "$corpus/edge" ]; then
  echo "tool-ff4-corpus: no $corpus/edge: skipped"
  exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-ff4c.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0

# games vars nodes values of a file, by `sgf stats` (its second line)
counts() {
  "$sgf" stats "$1" 2>/dev/null | sed -n 2p | awk '{print $1, $2, $3, $5}'
}

# Findings of sgf check (warnings + errors, semantic checks included).
findings()
{
  "$sgf" check "$1" 2>&1 | tail -n 1 |
    sed -n 's/.*(\([0-9]*\) warnings*, \([0-9]*\) error.*/\1 \2/p' | {
    read -r w e && echo $((w + e))
  }
}

# An FF[3] record: converted, syntax-strict-clean with no diagnostic
# (the semantic checks may still find what the record itself got wrong,
# such as TM[30:00(5x1:00)]: --ff4 keeps a value it cannot convert).
ff3=$(grep -rl 'FF\[3\]' "$corpus/dev" --include='*.sgf' 2>/dev/null |
  LC_ALL=C sort | head -n 1)
if [ -n "$ff3" ]; then
  "$sgf" fmt --ff4 "$ff3" >"$tmp/ff3.sgf" 2>"$tmp/err"
  st=$?
  if [ $st != 1 ] || ! grep -q 'FF\[3\] written FF\[4\]' "$tmp/err"; then
    echo "FAIL: $ff3: --ff4 exit $st, no FF[3] conversion reported"
    cat "$tmp/err"; fail=1
  fi
  # exit status 0: not even a warning
  if ! "$sgf" check --strict --syntax-only "$tmp/ff3.sgf" >"$tmp/out" 2>&1; then
    echo "FAIL: $ff3 converted is not strict-clean:"; cat "$tmp/out"; fail=1
  fi
  grep -q '^(;FF\[4\]' "$tmp/ff3.sgf" ||
    { echo "FAIL: $ff3 converted does not begin with FF[4]"; fail=1; }
else
  echo "tool-ff4-corpus: no FF[3] record in $corpus/dev"
fi

if [ "${SGF_TEST_FULL:-0}" != 0 ]; then every=${SGF_CORPUS_EVERY:-1}
else every=${SGF_CORPUS_EVERY:-3}; fi
files=0
i=0
for f in "$corpus"/edge/*; do
  [ -f "$f" ] || continue
  i=$((i + 1))
  [ "$every" -le 1 ] || [ $((i % every)) = 1 ] || continue
  "$sgf" fmt "$f" >"$tmp/plain.sgf" 2>/dev/null
  plain=$?
  "$sgf" fmt --ff4 "$f" >"$tmp/a.sgf" 2>"$tmp/err"
  st=$?
  if [ $st -ge 2 ]; then # errors: fmt writes nothing to keep
    [ $plain -lt 2 ] && { echo "FAIL: $f: fmt --ff4 failed ($st)"; fail=1; }
    continue
  fi
  files=$((files + 1))
  if ! "$sgf" check --strict --syntax-only -q "$tmp/a.sgf" >/dev/null 2>&1; then
    echo "FAIL: $f: --ff4 output is not strict-clean"; fail=1
  fi
  # --ff4 adds no semantic finding to what plain fmt's output has
  fp=$(findings "$tmp/plain.sgf") fa=$(findings "$tmp/a.sgf")
  if [ -z "$fa" ] || [ -z "$fp" ] || [ "$fa" -gt "$fp" ]; then
    echo "FAIL: $f: sgf check findings $fa after --ff4, $fp before"; fail=1
  fi
  "$sgf" fmt --ff4 "$tmp/a.sgf" >"$tmp/b.sgf" 2>/dev/null
  if ! cmp -s "$tmp/a.sgf" "$tmp/b.sgf"; then
    echo "FAIL: $f: a second --ff4 changes the output"; fail=1
  fi
  added=$(grep -c 'FF\[4\] added\|GM\[1\] added' "$tmp/err")
  set -- $(counts "$tmp/plain.sgf")
  want="$1 $2 $3 $(($4 + added))"
  got=$(counts "$tmp/a.sgf")
  if [ "$got" != "$want" ]; then
    echo "FAIL: $f: games vars nodes values $got, expected $want"; fail=1
  fi
done
[ $files -gt 0 ] || [ $fail != 0 ] ||
  { echo "tool-ff4-corpus: nothing converted"; exit 77; }
echo "tool-ff4-corpus: $files files converted (one in $every of edge/)"
exit $fail
