/* diag_list.c - the library's diagnostic catalogue, one "NAME CODE" line
 * per diagnostic, for test/house/doc-diags.sh (the documentation's lists must
 * give every diagnostic its real code). */
#include <stdio.h>

#include <sgfstream.h>

int main(void) {
  int code;
  for (code = 1; code < SGF_DIAG_MAX_; code++) {
    const char *name = sgf_diag_name((sgf_diag_code)code);
    if (name != NULL) printf("%s %d\n", name, code);
  }
  return 0;
}
