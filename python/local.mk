# python: the Python binding (import sgfstream), built by setuptools from
# python/setup.py, not by automake: python/run-tests.sh (a test of make
# check) builds the extension against lib/libsgfstream.la of this build
# tree, into python/ of the build tree, and runs python/tests for each
# Python 3 with headers (skipped, 77, without one). `make python` builds
# it the same way for the python3 on PATH. Installing: README, Python.
TESTS += python/run-tests.sh
EXTRA_DIST += python/run-tests.sh python/setup.py python/pyproject.toml \
	python/README.md bench/python.sh bench/python-sgfmill.py \
	bench/python-stream.py
# The sources, the package and the tests (python/src/*.[ch],
# python/sgfstream/**.py, python/tests/) go by wildcard at dist time, so
# that a file added there needs no line here.
dist-hook: dist-python
dist-python:
	dd=$$(cd $(distdir) && pwd) && cd $(srcdir) && for f in python/src/*.c python/src/*.h python/sgfstream/*.py \
	    python/sgfstream/*/*.py python/tests/*.py python/tests/data/*; do \
	  [ -f "$$f" ] || continue; \
	  d=$$dd/$$(dirname $$f); mkdir -p "$$d" && cp -p "$$f" "$$d/" || exit 1; \
	done
.PHONY: dist-python
python: lib/libsgfstream.la
	cd $(srcdir)/python && SGFSTREAM_BUILD_DIR="$(abs_top_builddir)" \
	  python3 setup.py -q build_ext --build-lib "$(abs_top_builddir)/python/lib" \
	  --build-temp "$(abs_top_builddir)/python/tmp" && \
	  cp -R sgfstream "$(abs_top_builddir)/python/lib/"
.PHONY: python
clean-local: clean-python
clean-python:
	rm -rf python/lib python/tmp python/_*
.PHONY: clean-python
