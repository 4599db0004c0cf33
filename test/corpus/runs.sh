#!/bin/sh
# tool-runs-corpus.sh - tool-runs.sh's comparison of the move-run paths
# with SGF_NO_RUNS=1 (every move as its events) over every file of the
# shared corpus (../shared/corpus/*/*.sgf), each command over all of them
# at once: the same output, diagnostics and exit status. Skips (77)
# without the corpus, the sgf tool or python3.
top_srcdir=${top_srcdir:-${srcdir:-.}}
exec sh "$top_srcdir/test/tool/runs.sh" --corpus
