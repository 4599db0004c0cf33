/* diag.c - names, messages and severities of the diagnostic catalogue
 * (generated from SGF_DIAG_MAP in sgfstream/diag.h), and the version. */
#include "sgfstream.h"

const char *sgf_version(void) { return SGF_VERSION_STRING; }

const char *sgf_diag_name(sgf_diag_code code) {
  switch (code) {
#define XX(num, NAME, name, sev, msg) \
  case SGF_DIAG_##NAME:               \
    return name;
    SGF_DIAG_MAP(XX)
#undef XX
    default:
      return NULL;
  }
}

const char *sgf_diag_message(sgf_diag_code code) {
  switch (code) {
#define XX(num, NAME, name, sev, msg) \
  case SGF_DIAG_##NAME:               \
    return msg;
    SGF_DIAG_MAP(XX)
#undef XX
    default:
      return NULL;
  }
}

sgf_severity sgf_diag_severity(sgf_diag_code code) {
  switch (code) {
#define XX(num, NAME, name, sev, msg) \
  case SGF_DIAG_##NAME:               \
    return SGF_SEV_##sev;
    SGF_DIAG_MAP(XX)
#undef XX
    default:
      return (sgf_severity)0;
  }
}

const char *sgf_severity_name(sgf_severity s) {
  switch (s) {
    case SGF_SEV_WARNING:
      return "warning";
    case SGF_SEV_ERROR:
      return "error";
    case SGF_SEV_FATAL:
      return "fatal";
    default:
      return "unknown";
  }
}
