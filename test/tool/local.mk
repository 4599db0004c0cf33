# test/tool: the sgf tool's commands, one script each (each skips without
# the tool). Their runs over ../shared are in test/corpus.
TOOL_TESTS = test/tool/write.sh test/tool/archives.sh test/tool/detect.sh \
	test/tool/truncated.sh test/tool/stats-jobs.sh test/tool/events.sh \
	test/tool/exit.sh test/tool/inplace.sh test/tool/help.sh \
	test/tool/split-dirs.sh test/tool/check-ignore.sh test/tool/fds.sh \
	test/tool/ff4.sh test/tool/progress.sh test/tool/summary.sh \
	test/tool/shards-open.sh test/tool/json.sh test/tool/json-bugs.sh \
	test/tool/json-long-runs.sh \
	test/tool/check-semantic.sh test/tool/utf16.sh test/tool/filter.sh \
	test/tool/filter-limits.sh test/tool/runs.sh test/tool/runs-ir.sh
TESTS += $(TOOL_TESTS)
EXTRA_DIST += $(TOOL_TESTS)
