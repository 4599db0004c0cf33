/* readme-sink.c - drives the README's typed values example's sink
 * (to_stdout) with more than one writer buffer of output: every game of
 * the files named, parsed by the library and written
 * through that very sink (the file names come on standard input, one a
 * line). test/house/readme-example.sh builds it with the
 * example's code included (its main renamed) and counts the games that
 * come out against the games that went in. Prints the number of games
 * written on stderr; exits 1 when the writer reports a failure. */
#define main readme_typed_main
#include "typed.c"
#undef main

#include <stdlib.h>

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *buf = NULL;
  size_t cap = 0, n = 0, got;
  if (!f) return NULL;
  do {
    if (n == cap) {
      char *nb = realloc(buf, cap = cap ? 2 * cap : 65536);
      if (!nb) break;
      buf = nb;
    }
    got = fread(buf + n, 1, cap - n, f);
    n += got;
  } while (got > 0);
  fclose(f);
  *len = n;
  return buf;
}

int main(void) {
  sgf_writer *w = sgf_writer_create(to_stdout, NULL, NULL);
  size_t games = 0;
  char name[4096];
  if (!w) return 2;
  while (fgets(name, sizeof name, stdin)) {
    size_t len = strlen(name);
    if (len > 0 && name[len - 1] == '\n') name[--len] = '\0';
    char *data = slurp(name, &len);
    sgf_collection *col =
        data ? sgf_collection_parse(data, len, NULL, NULL) : NULL;
    if (col) {
      games += sgf_collection_count(col);
      sgf_writer_write_collection(w, col);
      sgf_collection_free(col);
    }
    free(data);
  }
  int st = sgf_writer_finish(w);
  sgf_writer_destroy(w);
  fprintf(stderr, "%zu\n", games);
  return st == SGF_OK ? 0 : 1;
}
