/* inplace.c - `sgf fmt -i`, one FILE at a time (inplace.h). */
#define _POSIX_C_SOURCE 200809L

#include "inplace.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sgf.h"

#define FORCE_HINT "; --force writes anyway"

/* "sgf: WHERE: not rewritten: WHY", status 2, and the rest of the input
 * is not parsed. */
static void refuse(inplace *ip, const char *where, const char *why) {
  char msg[512];
  snprintf(msg, sizeof msg, "not rewritten: %s", why);
  report_failure(where, msg);
  ip->rw->status = exit_worse(ip->rw->status, EXIT_TROUBLE);
  ip->refused = 1;
}

/* A symbolic link met in a directory: skipped, with a warning. */
static void skip_link(inplace *ip, const char *path) {
  report_failure(path,
                 "not rewritten: a symbolic link (links in a directory "
                 "are not followed)");
  ip->rw->status = exit_worse(ip->rw->status, EXIT_WARNINGS);
}

/* Before reading: what the file is and who may write it. 0 to go on.
 * in_walk: the file was found in a directory, not named. */
static int check_file(inplace *ip, int in_walk) {
  uv_fs_t req;
  char why[256];
  uv_stat_t st;
  int rc = uv_fs_lstat(ip->loop, &req, ip->path, NULL);
  int link = rc == 0 && S_ISLNK(req.statbuf.st_mode);
  uv_fs_req_cleanup(&req);
  /* (A file the listing found that became a link since.) */
  if (link && in_walk) {
    skip_link(ip, ip->path);
    ip->refused = 1;
    return -1;
  }
  /* Named: the rewrite replaces what the link points to, which may be
   * anywhere; like a hard link, that takes --force. */
  if (link && !ip->force) {
    refuse(ip, ip->path,
           "a symbolic link: the rewrite would replace the file it points "
           "to" FORCE_HINT);
    return -1;
  }
  rc = uv_fs_stat(ip->loop, &req, ip->path, NULL);
  st = req.statbuf;
  uv_fs_req_cleanup(&req);
  if (rc < 0) {
    refuse(ip, ip->path, strerror(-rc)); /* errno values, on Unix */
    return -1;
  }
  ip->links = st.st_nlink;
  if (!S_ISREG(st.st_mode)) {
    refuse(ip, ip->path, "not a regular file");
    return -1;
  }
  if (ip->force) return 0;
  /* Renaming over a file needs only the directory's permission, so the
   * file's own is checked here. No write bit at all counts as read-only
   * even for root, who may write anything. */
  rc = uv_fs_access(ip->loop, &req, ip->path, W_OK, NULL);
  uv_fs_req_cleanup(&req);
  if (rc < 0 || (st.st_mode & 0222) == 0) {
    refuse(ip, ip->path, "the file is read-only" FORCE_HINT);
    return -1;
  }
  if (st.st_nlink > 1) {
    snprintf(why, sizeof why,
             "it has %" PRIu64
             " hard links: the rewrite would break them "
             "(the other names would keep the old content)" FORCE_HINT,
             ip->links);
    refuse(ip, ip->path, why);
    return -1;
  }
  return 0;
}

static void begin(void *ctx, const char *name) {
  inplace *ip = ctx;
  int codes[INPUT_MAX_FILTERS], n;
  rewrite_begin(ip->rw, name);
  if (ip->refused) return;
  if (strcmp(name, ip->path) != 0) { /* an archive member */
    refuse(ip, ip->path, "an archive cannot be rewritten in place");
    return;
  }
  n = input_filters(ip->in, codes, INPUT_MAX_FILTERS);
  if (n > INPUT_MAX_FILTERS) {
    refuse(ip, ip->path, "compressed too many times over");
    return;
  }
  if (n > 0) {
    if (recompress_open(&ip->z, &ip->out, codes, n) != 0) {
      refuse(ip, ip->path, ip->z.err);
      return;
    }
    ip->compressed = 1;
    sgf_writer_reset(ip->rw->w, recompress_write, &ip->z);
  } else {
    sgf_writer_reset(ip->rw->w, output_write, &ip->out);
  }
}

static int data(void *ctx, const char *buf, size_t len) {
  inplace *ip = ctx;
  if (ip->refused) return 1;
  return rewrite_data(ip->rw, buf, len);
}

/* A UTF-16 file would come back as UTF-8: its readers (and its CA, if
 * it says UTF-16) expect UTF-16, so that takes --force, like a drop. */
static void note(void *ctx, int what, uint64_t off) {
  inplace *ip = ctx;
  if (ip->refused) return;
  if (what != INPUT_NOTE_BAD_UTF16 && !ip->force) {
    refuse(ip, ip->path,
           "the file is UTF-16 and the rewrite would be UTF-8" FORCE_HINT);
    return;
  }
  rewrite_note(ip->rw, what, off);
}

/* "sgf: FILE:LINE:COL: not rewritten: the rewrite would drop input
 * (MESSAGE [NAME/CODE], and N more); --force writes anyway" */
static void refuse_drops(inplace *ip) {
  const sgf_diag *d = &ip->rw->first_drop;
  const char *msg = sgf_diag_message(d->code);
  const char *name = sgf_diag_name(d->code);
  char where[4096], why[400], more[64] = "";
  snprintf(where, sizeof where, "%s:%" PRIu64 ":%" PRIu64, ip->path,
           d->pos.line, d->pos.column);
  if (ip->rw->drops > 1)
    snprintf(more, sizeof more, ", and %" PRIu64 " more", ip->rw->drops - 1);
  snprintf(why, sizeof why,
           "the rewrite would drop input (%s [%s/%d]%s)" FORCE_HINT,
           msg ? msg : "?", name ? name : "?", (int)d->code, more);
  refuse(ip, where, why);
}

/* Why writing failed: the file's error, else the compressor's, else the
 * writer's. */
static const char *write_error(const inplace *ip) {
  if (output_error(&ip->out) != NULL) return output_error(&ip->out);
  if (ip->compressed && ip->z.err[0] != '\0') return ip->z.err;
  return sgf_strerror(sgf_writer_status(ip->rw->w));
}

/* The temporary file is complete: rename it over the name. */
static void commit(inplace *ip) {
  char why[400];
  int rc = sgf_writer_finish(ip->rw->w);
  if (rc == 0 && ip->compressed) {
    rc = recompress_close(&ip->z);
    if (rc == 0) ip->compressed = 0;
  }
  if (rc == 0 && output_commit(&ip->out) == 0) {
    if (ip->links > 1) {
      snprintf(why, sizeof why,
               "hard link broken: this name is a new file; its %" PRIu64
               " other name%s keep%s the old content",
               ip->links - 1, ip->links > 2 ? "s" : "",
               ip->links > 2 ? "" : "s");
      report_failure(ip->path, why);
      ip->rw->status = exit_worse(ip->rw->status, EXIT_WARNINGS);
    }
    return;
  }
  snprintf(why, sizeof why, "%s", write_error(ip));
  refuse(ip, ip->path, why);
}

static void end(void *ctx, const char *name, const char *error) {
  inplace *ip = ctx;
  (void)name;
  if (ip->refused) return;
  if (rewrite_end(ip->rw, error) != 0) {
    if (sgf_writer_status(ip->rw->w) != SGF_OK)
      refuse(ip, ip->path, write_error(ip));
    else
      refuse(ip, ip->path, "errors in the input");
    return;
  }
  if (ip->rw->drops > 0 && !ip->force) {
    refuse_drops(ip);
    return;
  }
  commit(ip);
}

static void fail(void *ctx, const char *name, const char *error) {
  inplace *ip = ctx;
  (void)name;
  refuse(ip, ip->path, error);
}

/* FILE held no SGF input (a directory without .sgf files, an archive
 * with no .sgf member): nothing to rewrite. */
static void none(void *ctx, const char *name, const char *why) {
  inplace *ip = ctx;
  rewrite_none(ip->rw, name, why);
}

static void rewrite_one(inplace *ip, const char *path, int in_walk) {
  static const input_sink sink = {begin, data, end, fail, none, note};
  ip->path = path;
  ip->refused = 0;
  ip->compressed = 0;
  ip->links = 0;
  if (check_file(ip, in_walk) != 0) return;
  if (output_open(&ip->out, ip->loop, path, 1, path) != 0) {
    refuse(ip, path, output_error(&ip->out));
    output_discard(&ip->out);
    return;
  }
  input_read(ip->in, path, &sink, ip);
  /* Not committed (refused, or no input at all): the temporary file
   * goes, the name keeps the old file. */
  if (ip->compressed) recompress_abort(&ip->z);
  ip->compressed = 0;
  if (ip->out.fd >= 0 || ip->out.tmp != NULL) output_discard(&ip->out);
}

void inplace_rewrite(inplace *ip, const char *path) {
  rewrite_one(ip, path, 0);
}

void inplace_rewrite_arg(inplace *ip, const char *path) {
  input_walk *w;
  const char *file, *error;
  int k, found = 0;
  if (!input_is_dir(ip->in, path)) {
    inplace_rewrite(ip, path);
    return;
  }
  w = input_walk_open(ip->in, path);
  if (w == NULL) {
    refuse(ip, path, "out of memory");
    return;
  }
  /* Only what is in the directory: a link may lead anywhere. */
  input_walk_no_links(w);
  while ((k = input_walk_next(w, &file, &error)) != INPUT_WALK_END) {
    if (k == INPUT_WALK_FAIL) {
      report_failure(file, error);
      ip->rw->status = exit_worse(ip->rw->status, EXIT_TROUBLE);
      continue;
    }
    found = 1;
    if (k == INPUT_WALK_LINK)
      skip_link(ip, file);
    else
      rewrite_one(ip, file, 1);
  }
  input_walk_close(w);
  if (!found) rewrite_none(ip->rw, path, INPUT_NO_SGF_FILE);
}
