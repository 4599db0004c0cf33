# test/corpus: the tests over the shared corpus, ../shared (each skips
# without it; SGF_CORPUS overrides its place, SGF_CORPUS_EVERY=N its
# sample in make check): sgf check and stats (sgf.sh), the semantic checks
# (check-semantic.sh), parse -> write -> parse (roundtrip.sh with
# test/corpus/roundtrip), sgf fmt -i and --ff4 (inplace.sh, ff4.sh), the
# value decoders against sgfmill (value-sgfmill.sh with
# test/corpus/value_diff and value-sgfmill.py), and split --shards with
# the merge and the Dask recipe, contrib/dask (dask-shards.sh).
check_PROGRAMS += test/corpus/roundtrip test/corpus/value_diff
test_corpus_roundtrip_CPPFLAGS = $(TEST_CPPFLAGS)
test_corpus_value_diff_CPPFLAGS = $(TEST_CPPFLAGS)
CORPUS_TESTS = test/corpus/sgf.sh test/corpus/roundtrip.sh \
	test/corpus/check-semantic.sh test/corpus/inplace.sh \
	test/corpus/ff4.sh test/corpus/value-sgfmill.sh \
	test/corpus/dask-shards.sh test/corpus/check-runs.sh \
	test/corpus/runs.sh test/corpus/json.sh
TESTS += $(CORPUS_TESTS)
EXTRA_DIST += $(CORPUS_TESTS) test/corpus/value-sgfmill.py \
	contrib/dask/sgf_dask.py contrib/dask/sgf_merge.py \
	contrib/dask/README.md contrib/dask/bench.py
