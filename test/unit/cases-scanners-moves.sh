#!/bin/sh
# cases-scanners-moves.sh - test/unit/cases-scanners.sh for test/unit/moves alone, so
# that make check-full runs the two programs side by side (-j2) and
# reports each as it ends.
SGF_SCANNER_TESTS=moves
export SGF_SCANNER_TESTS
. "${top_srcdir:-${srcdir:-.}}/test/unit/cases-scanners.sh"
