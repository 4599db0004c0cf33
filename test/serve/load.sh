#!/bin/sh
# load.sh - `sgf serve` under load (test/serve/load.py): 200
# concurrent clients on loopback send real corpus games in random chunks
# with random pauses, some disconnecting midway, some sending garbage,
# some over HTTP; every complete game is stored once and byte-identical,
# every abandoned one quarantined, memory bounded, GET /health answers.
# SERVE_CLIENTS sets the number of clients. Skips (77) without serve,
# python3 or ../shared/corpus.
name=serve-load
. "${top_srcdir:-.}/test/serve/lib.sh"
corpus="$src/../shared/corpus/dev"
if [ ! -d "$corpus" ]; then
  echo "$name: no $corpus: skipped"
  exit 77
fi
timeout 300 python3 "$src/test/serve/load.py" "$sgf" "$corpus" "$tmp" \
  "${SERVE_CLIENTS:-200}"
