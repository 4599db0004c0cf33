#!/bin/sh
# cases-scanners-moves.sh - test/cases-scanners.sh for test_moves alone, so
# that make check-full runs the two programs side by side (-j2) and
# reports each as it ends.
SGF_SCANNER_TESTS=test_moves
export SGF_SCANNER_TESTS
. "${top_srcdir:-${srcdir:-.}}/test/cases-scanners.sh"
