# test/house: the house rules. The library's exports (exports.sh), the
# layering of lib/ and tools/ (layers.sh), the format (format.sh), one
# environment variable read (getenv.sh), the public headers standing
# alone (headers.sh), the README's example (readme-example.sh, with
# readme-sink.c), the documentation's diagnostic codes against the
# library's catalogue (doc-diags.sh, printed by test/house/diag_list),
# test/README.md listing every file of the test folders (readme-files.sh),
# install-deps.sh waiting for a held apt/dpkg lock (stubs, nothing
# installed).
check_PROGRAMS += test/house/diag_list
HOUSE_TESTS = test/house/exports.sh test/house/layers.sh \
	test/house/headers.sh test/house/readme-example.sh \
	test/house/format.sh test/house/getenv.sh test/house/doc-diags.sh \
	test/house/install-deps.sh test/house/readme-files.sh
TESTS += $(HOUSE_TESTS)
EXTRA_DIST += $(HOUSE_TESTS) test/house/readme-sink.c
