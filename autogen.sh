#!/bin/sh
# Regenerate the build system (configure, Makefile.in) from configure.ac
# and Makefile.am. Needs autoconf, automake, libtool and pkg-config.
set -e
cd "$(dirname "$0")"
autoreconf -fi
