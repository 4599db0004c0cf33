/* harness.h - the checks behind the fuzz targets (test/fuzz/fuzz_*.c),
 * shared with the tests that replay what the fuzzers found
 * (test/unit/regressions.c) and with the hostile-input and
 * allocation-failure tests. Plain C11: nothing here needs libFuzzer.
 *
 * Each fz_check_* function runs one fuzz input through the library and
 * returns NULL when every check held, else a message naming the first
 * one that failed (a static buffer, overwritten by the next call). A fuzz
 * target turns a message into __builtin_trap(); a cmocka test into a
 * failure. Test code only; not thread-safe.
 */
#ifndef SGF_TEST_SUPPORT_HARNESS_H
#define SGF_TEST_SUPPORT_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include <sgfstream.h>

#include "bytebuf.h"
#include "countalloc.h"

/* ------------------------------------------------------------------ */
/* The checks of each fuzz target                                      */

/* fuzz_parse. data[0] chooses the options (see fz_decode_options), the
 * rest is fed whole, with every callback set. Checks the event grammar
 * (every value-begin has a value-end unless the parse stopped, trees
 * balance at a clean finish, nodes never follow a variation, mainline
 * mode gives at most one child per tree), depth <= max_depth, event
 * offsets non-decreasing, every position's line and column against an
 * independent count, slices pointing into the fed buffer at their
 * offset and contiguous, identifiers matching the input, diagnostics
 * well-formed with the catalogue's severities, nothing after a stop,
 * the returned status matching the diagnostics, and reset-and-reparse
 * giving the same event log. */
const char *fz_check_parse(const uint8_t *data, size_t size);

/* fuzz_split, the differential target. Header bytes:
 *   [0] options (fz_decode_options)
 *   [1] an action to inject at the same event of both runs: bits 7-6
 *       0 none, 1 SGF_SKIP, 2 SGF_ABORT at structural event (bits 5-0),
 *       3 SGF_ABORT from diagnostic number (bits 5-0)
 *   [2] pauses in the split run: every (bits 3-0) callbacks, at phase
 *       (bits 7-4) modulo it; 0 never. Diagnostics then return
 *       SGF_PAUSE too, which must count as continue.
 *   [3] n = bits 3-0: the number of chunk sizes that follow (0: feed
 *       byte by byte)
 *   [4 .. 4+n) chunk sizes, cycled (0: an empty feed, then one byte)
 * and the input after them. The input is fed whole, then again in those
 * chunks (each copied to its own heap block, freed after its feed) with
 * those pauses; the merged event logs (tools/common/eventlog.c), statuses and
 * errors must be identical, and both runs must pass fz_check_parse's
 * invariants. */
const char *fz_check_split(const uint8_t *data, size_t size);

/* Also run by fuzz_split, on the same input and header: values whole
 * (on_value) against the three value events (harness_whole.c). The input
 * is fed in the header's chunks to two parsers, one with each; their logs
 * (test/support/valuelog.h: a value is one line, '[' and ']' positioned) and
 * statuses must be equal, and the pieces must keep their contract. Then
 * the action of header byte [1] (bits 7-6: none, skip, abort, pause) is
 * injected at whole-value call number (bits 5-0) and at the matching
 * single event; the two must still agree (a pause changing nothing). */
const char *fz_check_whole(const uint8_t *data, size_t size);

/* fuzz_batch: batched events (sgf_parser_set_batch) against on_value,
 * differentially (harness_whole.c). Header bytes as fz_check_whole's,
 * but [2]: bits 5-0 the capacity less 1; bit 7 every kind stops a batch
 * (one event a batch), else bit 6 node ends do. The input is fed in the
 * header's chunks to both; the logs (test/support/valuelog.h; the batch's
 * records replayed with their positions; diagnostics compared apart when
 * a batch may hold several events) and statuses must be equal. With one
 * event a batch, the action of byte [1] is injected at that call of
 * both. Byte [3] bit 4: MOVES records opted into (each expanded into the
 * records it stands for); bit 5: a batch due after each. With MOVES
 * records and a batch due after each (bit 5, or capacity 1), the action
 * of byte [1] is taken after the MOVES record its bits 5-0 pick (mod
 * their number) and by on_value at that run's last property end, in
 * place of the call injection above. */
const char *fz_check_batch(const uint8_t *data, size_t size);

/* fuzz_reader. Header bytes:
 *   [0] options (fz_decode_options)
 *   [1] max_value_bytes = 1 + 4 * byte (1 .. 1021)
 *   [2] bits 1-0: 0 no failures, 1 fail one call, 2 fail every call
 *       from the chosen one on, 3 fail every other call from it;
 *       bit 2: give the allocator a realloc hook; bits 7-3: pause at
 *       every Nth reader callback (0 never)
 *   [3] the first failing allocation call (counted from creation)
 *   [4] chunk size (0: whole)
 *   [5] SGF_SKIP from on_node number (1-based; 0 never)
 * and the input. The reader must end cleanly (OK, or SGF_EPARSE with its
 * diagnostic; out-of-memory only when an allocation failed) and agree with
 * a model of it built on the core's events (the same options, skip and
 * limits: max_value_bytes raw bytes and max(max_value_bytes / 16, 64)
 * values per property, value-limit at the '[' of the value that crosses
 * one, marked at the property): the same properties, values, positions
 * and diagnostics, or a prefix of them when memory ran out. Peak memory
 * must stay within a constant plus a small multiple of max_value_bytes
 * (and the parser's implicit-variation stack), and nothing may be
 * outstanding after sgf_reader_destroy (sizes on free checked). */
const char *fz_check_reader(const uint8_t *data, size_t size);

/* (fuzz_reader also runs fz_unescape_check on every value delivered,
 * in pieces of the sizes [4] and [5], cycled.) */

/* fuzz_tree. Header bytes:
 *   [0] options (fz_decode_options)
 *   [1] bit 0 SGF_TREE_COLLECT, bit 1 SGF_TREE_SKIP_OVERSIZED, bit 2 take
 *       every other game with sgf_tree_builder_keep(); bits 4-3 the
 *       failure schedule (as fuzz_reader's); bit 5 a realloc hook; bits
 *       7-6 max_value_bytes (default, 64, 1024, 65536)
 *   [2] the first failing allocation call (counted from creation)
 *   [3] max_nodes (0: the default)
 *   [4] max_tree_bytes in units of 256 bytes (0: the default)
 *   [5] chunk size (0: whole)
 * and the input. Every tree delivered (and every tree kept or collected,
 * walked again at the end) must match the events the parser gave for its
 * game node for node, property for property, value for value, with
 * positions; the structure queries (ids, parents, children, sizes,
 * levels, variation depths, plies, the iterators, sgf_tree_node_at) must
 * agree with an independent walk; limits must hold; a failed allocation
 * must end the parse with out-of-memory; nothing may be outstanding after
 * everything is freed. */
const char *fz_check_tree(const uint8_t *data, size_t size);

/* fuzz_roundtrip. Header bytes:
 *   [0] options of the first parse (fz_decode_options)
 *   [1] writer: bit 0 readable layout; bits 3-1 buffer size (default,
 *       256, 257, 300, 512, 1000, 4096, 65536); bits 7-4 line width
 *       (default, 1, 2, 3, 5, 8, 13, 20, 40, 60, 78, 79, 100, 200, 1000,
 *       SIZE_MAX)
 *   [2] the sink takes at most this many bytes a call (0: all)
 *   [3] chunk size of the first parse (0: whole)
 * and the input. parse -> write -> parse: the output must parse in strict
 * mode with no diagnostic at all; when the first parse ended cleanly the
 * second must give the same events (identifiers, structure, raw values
 * modulo the writer's documented normalization: NUL bytes dropped, a lone
 * final backslash doubled), and writing the second parse must give the
 * same bytes again. The writer must not allocate after creation. When
 * the first parse ended cleanly, the tree writer too: a tree builder
 * (collecting) parses the input the same way, each game is written with
 * sgf_writer_write_tree() as it is delivered (no allocation) and the
 * collection with sgf_writer_write_collection() in the other layout;
 * each must be byte for byte the streaming writer's output in that layout
 * unless a variation was its parent's only child (writer.h lets the tree
 * writer fold it into the parent's sequence), both must hold the same
 * game trees node for node as the streaming output, and the tree
 * writer's output, parsed and written again by either writer, must stay
 * the same bytes. */
const char *fz_check_roundtrip(const uint8_t *data, size_t size);

/* fuzz_writer: the writer's event API driven by a script. Header bytes:
 *   [0] writer options, as fuzz_roundtrip's [1]
 *   [1] the sink takes at most this many bytes a call (0: all)
 * then the script, one operation a byte (low 4 bits): tree-begin, node,
 * property (identifier from the next bytes), value-begin, value-data
 * (raw bytes from the script, ']' '\\' NUL included), value-text (plain,
 * compose or SimpleText), value-end, property-end, tree-end, a whole
 * value, flush, finish. The script runs twice, with those options and
 * with the defaults (compact, 64 KiB, a sink taking everything): both must
 * succeed or fail alike; when they succeed, both outputs must parse in
 * strict mode with no diagnostic into the same events, and writing the
 * parse of the output again must give the same bytes. */
const char *fz_check_writer(const uint8_t *data, size_t size);

/* fuzz_cursor: recording a game through the cursor API of tree.h.
 * Header bytes:
 *   [0] bits 1-0 the failure schedule (as fuzz_reader's), bit 2 a
 *       realloc hook, bit 3 the parse below keeps positions
 *       (SGF_TREE_POSITIONS)
 *   [1] the first failing allocation call (counted from the start)
 *   [2] tree writer options, as fuzz_roundtrip's [1]
 *   [3] n: 0 records into sgf_tree_create(); else the next n bytes are
 *       SGF parsed (lenient, sgf_collection_parse) and the cursor edits
 *       its first game
 *   [4] limits of that parse (bits 3-0: max_nodes 4 x; bits 7-4:
 *       max_tree_bytes KiB; 0 the default); with [3] 0 and [4] not 0,
 *       "(;)" is parsed with these limits
 * then one operation a byte (low 5 bits modulo 21; the high 3 bits are
 * its flags), with its arguments in the bytes that follow: add_move (a
 * colour, main line or variation, a point: on the board, off it,
 * negative or a pass), add_node, start_variation, back, forward,
 * rewind, goto (by pre-order id, NULL, a node of another tree),
 * add_stone, add_comment, add_markup, add_label, set_text, add_value
 * (raw bytes, NUL, ']' and '\' included), set_result, header, a second
 * cursor (create, switch, destroy), a full check, a subtree written
 * alone and as variations, NULL arguments, and the edits that remove or
 * move (delete a subtree, a property or a value, promote, reparent to a
 * node near the cursor or anywhere, to another tree's or a deleted
 * node; after them the other cursor leaves a deleted subtree). Their
 * effect is checked exactly: the node's properties and values (with
 * their positions) but the one removed, the children of the parents
 * involved in their new order, the subtree moved unchanged, and the
 * structure queries against a walk. Every operation is checked
 * against tree.h: the status it returns (INVALID exactly for bad
 * arguments, NOMEM only and always when an allocation failed, LIMIT
 * only with limits), its effect read back through the public API, and,
 * on failure, the tree and the cursors unchanged. At the end (and at
 * each full check) the structure queries must agree with a walk
 * (fz_tree_dump), latest common ancestors, ancestry and distances of
 * pairs of nodes with a climb by parent links, points with their
 * documented encoding, move numbers and the side to move with a model of
 * their rules, and the tree, written by the tree writer in both layouts,
 * must parse strictly into the same nodes, properties and values (modulo
 * the writer's normalization of raw values), and written into a sink that
 * fails part way it must fail with SGF_ESINK. Nothing may be
 * outstanding after the cursors and the tree are freed. */
const char *fz_check_cursor(const uint8_t *data, size_t size);

/* fuzz_unescape. Header bytes:
 *   [0] bits 2-0: n, the number of piece sizes that follow (0: one byte
 *       a piece); bits 7-3 unused
 *   [1 .. 1+n) piece sizes, cycled (0: an empty piece, then one byte)
 * and the bytes, taken as a raw value (fz_unescape_check) and as text
 * (fz_escape_check). */
const char *fz_check_unescape(const uint8_t *data, size_t size);

/* fuzz_charset (harness_charset.c). Header bytes:
 *   [0] the charset, modulo the list in harness_charset.c (none, UTF-8,
 *       ISO-8859-1, double-byte ones and aliases, single-byte ones, one
 *       iconv does not know)
 *   [1] bit 0 SGF_CS_GUESS; bit 1 the charset as the override, not the
 *       CA; bit 2 SimpleText decoding; bit 3 UTF-16BE, not LE
 *   [2] where the first split falls (len * [2] / 255)
 *   [3] bits 3-0: the size of the later pieces, minus one
 * and the bytes, taken as text: sgf_charset_convert() (valid UTF-8 out,
 * the ISO-8859-1 reading on a decode error, the FF[4] defaults, the same
 * again with the buffer reused and with a fresh converter, split in two
 * where the whole says what the parts give), sgf_text_decode_dbcs() (as
 * sgf_text_decode() for other charsets, in place) and the streaming
 * sgf_text_decoder against sgf_text_decode(), and the tools' UTF-16
 * decoder (sgfstream/utf16.h) fed in pieces against whole. */
const char *fz_check_charset(const uint8_t *data, size_t size);

/* The unescaping of one raw value: sgf_unescape() whole must equal a
 * model of the FF[4] rules written here, give at most len bytes, work in
 * place, and equal sgf_unescaper fed in pieces of the given sizes (each
 * into a block of exactly its size; sizes as fuzz_unescape's); then the
 * text it gave must pass fz_escape_check (escaped again, it unescapes to
 * itself). NULL if all holds. fuzz_reader applies it to every value it
 * sees. */
const char *fz_unescape_check(const char *raw, size_t len, const uint8_t *sizes,
                              size_t nsizes);

/* The escaping of text: sgf_escape_text() (plain and compose) and
 * sgf_escape_simple() must give the bytes writer.h documents, at most
 * 2 * len, a valid value (no bare ']', no bare ':' in compose, no lone
 * final backslash), the same bytes in pieces, and sgf_unescape() must
 * give back the text (NUL bytes dropped; SimpleText line breaks as
 * spaces). */
const char *fz_escape_check(const char *text, size_t len, const uint8_t *sizes,
                            size_t nsizes);

/* Walk t, checking its structure queries (ids, parents, children, sizes,
 * levels, variation depths, plies, iterators, sgf_tree_node_at) against
 * an independent walk, and return a malloc'd text serialization of it
 * (every node in pre-order with its parent, position, properties and
 * values), *len its length. NULL if a check failed (*err says which). */
char *fz_tree_dump(const sgf_tree *t, size_t *len, const char **err);
/* The same; with FZ_DUMP_INDEX_MAY_FAIL, sgf_tree_node_at() may return
 * NULL (as tree.h allows when the index cannot be rebuilt after an edit:
 * memory, or the tree's byte limit) but never a wrong node. */
#define FZ_DUMP_INDEX_MAY_FAIL 0x1u
char *fz_tree_dump_opt(const sgf_tree *t, size_t *len, const char **err,
                       unsigned flags);

/* Plain SGF bytes (no header): for each of lenient, strict, mainline and
 * strict+mainline, whole versus byte by byte with pauses versus 7-byte
 * chunks, with all the invariants above. */
const char *fz_check_plain(const uint8_t *data, size_t size);

/* fuzz_tree_paths (harness_paths.c): the tree builder's fast path and
 * its general path (SGF_TREE_GENERAL_ONLY) build the same trees, the
 * same diagnostics and the same status, node by node: structure,
 * properties, identifiers as written, raw values, positions, derived
 * facts.
 *   [0] options (fz_decode_options)
 *   [1] bit 0 SGF_TREE_SKIP_OVERSIZED, bit 1 SGF_TREE_COLLECT, bit 2 a
 *       node limit of 1 + bits 7-4 (no byte limit: the two paths report
 *       tree-byte-limit at different places, a known difference)
 *   [2..] the input, fed whole and in chunks of 1 (up to 4 KiB), 2, 3, 7
 *       and 64 bytes */
const char *fz_check_tree_paths(const uint8_t *data, size_t size);
/* The same for one input and one set of options, fed in chunks of chunk
 * bytes (0: whole). */
const char *fz_tree_paths_compare(const char *data, size_t len, size_t chunk,
                                  unsigned flags, unsigned pflags,
                                  uint64_t max_nodes, uint64_t max_bytes);

/* fuzz_split, second check (harness_quiet.c): a parser with only tree,
 * diagnostic handlers (the move-run scanner passes moves in bulk)
 * reports what the same parse with a no-op on_node reports: tree begin
 * and end and diagnostics with their positions and identifiers as
 * written, the status, the final position.
 *   [0] options (fz_decode_options)
 *   [1] bits 2-0: n, the number of chunk sizes
 *   [2..2+n) chunk sizes minus one, cycled (none: whole)
 *   [2+n..] the input */
const char *fz_check_quiet(const uint8_t *data, size_t size);

/* fuzz_split, third check (harness_moves.c): on_moves differential (MOVE
 * RUNS): every event logged with its position, each run expanded as the
 * contract says, against the same handlers without on_moves; on_moves
 * continuing, pausing at every other run, skipping at every third.
 * The same header as fz_check_quiet. */
const char *fz_check_moves(const uint8_t *data, size_t size);

/* fuzz_split, fourth check (harness_check.c): the semantic checks
 * (sgfstream/check.h) with MOVE RUNS (on_moves calling sgf_check_moves)
 * must find what they find without: the same diagnostics, positions,
 * marks and order, the status and counts. Without runs fed whole; with
 * runs fed whole and in the chunks given. The same header as
 * fz_check_quiet. */
const char *fz_check_semantic(const uint8_t *data, size_t size);
/* The log of one checked parse into log (emptied first): each
 * diagnostic (code, severity, position, mark), then the status and
 * counts; with on_moves if runs; fed in chunks of chunks[i] bytes
 * (cycled; nchunks 0: whole) and cut at byte split (0: not). Returns how
 * many runs on_moves took. */
unsigned long fz_semantic_log(const char *in, size_t len,
                              const sgf_options *opt, int runs,
                              const size_t *chunks, size_t nchunks,
                              size_t split, bytebuf *log);
/* NULL if the logs are the same, else the first line that differs. */
const char *fz_semantic_differ(const bytebuf *ref, const bytebuf *got);

/* The options chosen by a header byte: bit 0 SGF_OPT_STRICT, bit 1
 * SGF_OPT_MAINLINE, bits 4-2 max_depth (default, 1, 2, 3, 4, 8, 64, 10000),
 * bits 7-5 max_ident_len (default, 1, 2, 3, 4, 8, 16, 64). */
void fz_decode_options(uint8_t byte, sgf_options *opt);

#endif /* SGF_TEST_SUPPORT_HARNESS_H */
