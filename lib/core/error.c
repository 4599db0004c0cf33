/* error.c - names and messages of the result codes (generated from
 * SGF_ERROR_MAP in sgfstream/error.h). */
#include "sgfstream.h"

const char *sgf_strerror(int code) {
  switch (code) {
#define XX(NAME, num, msg) \
  case SGF_##NAME:         \
    return msg;
    SGF_ERROR_MAP(XX)
#undef XX
    default:
      return "unknown error";
  }
}

const char *sgf_err_name(int code) {
  switch (code) {
#define XX(NAME, num, msg) \
  case SGF_##NAME:         \
    return #NAME;
    SGF_ERROR_MAP(XX)
#undef XX
    default:
      return "UNKNOWN";
  }
}
