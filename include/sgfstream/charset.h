/* sgfstream/charset.h - Text and SimpleText values to UTF-8, per game.
 *
 * A converter belongs to one game at a time: reset it at each game, give
 * it the game's CA value when the root node is complete (CA may follow
 * text in the root node, so a consumer holds the root node's text until
 * then), and convert each text value's bytes - after FF[4] decoding
 * (sgf_text_decode) - to UTF-8.
 *
 * WHICH CHARSET. An override (for files that declare none or the wrong
 * one) comes first, then the game's CA, then the FF[4] default: text that
 * is valid UTF-8 is read as UTF-8 (servers such as Fox write UTF-8 with
 * no CA, and Latin-1 text that is also valid UTF-8 is vanishingly rare),
 * other text as ISO-8859-1. Charset names are iconv's (glibc); a few
 * names files use for a subset are read as the superset real writers
 * produce (GB2312 and GBK as GB18030, Shift_JIS as CP932, EUC-KR as
 * CP949). A CA iconv does not know is refused by sgf_charset_set_ca and
 * the default applies.
 *
 * GUESSING (SGF_CS_GUESS). Text with no CA that is not UTF-8, text that
 * does not decode in its CA, and non-ASCII text declared ISO-8859-1 (the
 * CA many programs write whatever they write) is tried as UTF-8, then as
 * each of EUC-KR, GB18030, Big5 and Shift_JIS: of those that decode
 * cleanly, the one whose double-byte characters most often fall where
 * that charset puts its common characters wins (hangul, GB2312 level 1
 * and 2, Big5 level 1, kana and JIS level 1 kanji). ISO-8859-1 text that
 * decodes as no candidate with only common characters stays ISO-8859-1.
 * When a guess overrules a declared CA, the result says so (a warning for
 * the user); the guess is a heuristic, short texts may be misread.
 *
 * DECODE ERRORS. Bytes that do not decode in the charset chosen give
 * SGF_ESYNTAX with the byte offset (within the converted text) of the
 * first such byte; the output then holds the whole text read as
 * ISO-8859-1 (every byte one code point, reversible), never a silent
 * replacement: the caller reports the error. The output is always valid
 * UTF-8.
 *
 * The library's only dependency stays libc: iconv is part of glibc.
 */
#ifndef SGFSTREAM_CHARSET_H
#define SGFSTREAM_CHARSET_H

#include <stddef.h>

#include "sgfstream/common.h"
#include "sgfstream/error.h"
#include "sgfstream/value.h" /* sgf_text_decode_dbcs */

#ifdef __cplusplus
extern "C" {
#endif

#define SGF_CS_GUESS 0x1u /* guess among the charsets real files use */

typedef struct sgf_charset_options {
  size_t size;                    /* sizeof; set by sgf_charset_options_init */
  unsigned flags;                 /* SGF_CS_* */
  const char *override;           /* charset for every game, or NULL (copied) */
  const sgf_allocator *allocator; /* NULL: libc (copied) */
} sgf_charset_options;

SGF_EXTERN void sgf_charset_options_init(sgf_charset_options *o);

typedef struct sgf_charset sgf_charset;

/* NULL if memory runs out, the options are invalid, or iconv does not
 * know the override. */
SGF_EXTERN sgf_charset *sgf_charset_create(const sgf_charset_options *o);
SGF_EXTERN void sgf_charset_destroy(sgf_charset *c);

/* A new game: forget its CA. */
SGF_EXTERN void sgf_charset_reset(sgf_charset *c);

/* The game's CA value (decoded SimpleText, surrounding blanks ignored).
 * 0, or SGF_EINVAL when iconv does not know it (the default applies). */
SGF_EXTERN int sgf_charset_set_ca(sgf_charset *c, const char *name, size_t len);

/* How a text was read (sgf_charset_convert). */
typedef struct sgf_charset_info {
  const char *charset; /* the charset used ("UTF-8", "ISO-8859-1", CA's
                          or the override as given); valid until the
                          next reset or set_ca */
  int guessed;         /* 1: a guess overruled the declared CA */
  size_t len;          /* bytes written, also with SGF_ESYNTAX */
} sgf_charset_info;

/* Convert len bytes of in to UTF-8 into *out, a buffer of *cap bytes
 * grown through the converter's allocator as needed (*out NULL, *cap 0
 * to start; free it with sgf_charset_free). Returns the bytes written
 * (>= 0; no NUL added), SGF_ESYNTAX (see DECODE ERRORS; *err_off set),
 * SGF_ENOMEM or SGF_EINVAL. info may be NULL. */
SGF_EXTERN int sgf_charset_convert(sgf_charset *c, const char *in, size_t len,
                                   char **out, size_t *cap,
                                   sgf_charset_info *info, size_t *err_off);
SGF_EXTERN void sgf_charset_free(sgf_charset *c, char *buf, size_t cap);

/* The charset text is declared in before any guess: the override, else
 * the game's CA as given; NULL when there is neither. */
SGF_EXTERN const char *sgf_charset_declared(const sgf_charset *c);

/* sgf_text_decode_dbcs(), FF[4] text decoding for text in a double-byte
 * charset, is in sgfstream/value.h with the rest of text decoding. */

/* Is s valid UTF-8? Returns len, or the offset of the first byte that
 * does not begin a valid sequence. */
SGF_EXTERN size_t sgf_utf8_valid(const char *s, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* SGFSTREAM_CHARSET_H */
