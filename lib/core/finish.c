/* finish.c - the end of input: sgf_parser_finish() parses the bytes held
 * back for look-ahead, then closes whatever is still open, state by
 * state, with the diagnostics and events that say so. It delivers them
 * with the tokenizer's discipline (emit.h) on an empty buffer: a pause
 * in finish resumes where it stopped.
 */
#include <stdint.h>
#include <string.h>

#include "emit.h"
#include "parser.h"

static int finish_core(sgf_parser *p) {
  static const unsigned char nothing[1];
  const unsigned char *buf = nothing, *s = nothing;
  const uint64_t base = p->offset;
  const uint64_t bias = base - (uint64_t)(uintptr_t)buf;
  int st = p->state;
  sgf__brec br = {0}; /* batched events: emit.h */

  p->ev.live = 1;
  p->closing = 0;
  if (SGF__BATCH) {
    sgf__batch_pass(p, buf);
    BREC_LOAD();
  }

  for (;;) {
    switch (st) {
      case ST_DONE:
        FLUSH();
        p->state = st;
        p->ev.live = 0;
        return SGF_OK;
      case ST_TOP:
        st = ST_DONE;
        if (!p->seen_tree) DIAG_HERE(SGF_DIAG_NO_GAME_TREE);
        continue;
      case ST_BOM:
        st = ST_TOP;
        JUNK(SGF_DIAG_JUNK_BEFORE, &sgf__input_start);
        continue;
      case ST_TOP_OPEN:
      case ST_TOP_IDENT:
      case ST_TOP_IDENT_WS:
        st = ST_TOP;
        JUNK_TOP(&p->cand_pos);
        continue;
      case ST_CONFIRM_NODE:
        CONFIRM_NODE();
        continue;
      case ST_OPEN:
        st = p->open_ret;
        DIAG(SGF_DIAG_EMPTY_TREE, &p->open_pos, NULL);
        continue;
      case ST_SEQ_START:
        DIAG_HERE(SGF_DIAG_TREE_WITHOUT_NODE);
        p->ev.offset = OFF(s);
        st = ST_NODE;
        EMIT_NODE();
        continue;
      case ST_IDENT:
      case ST_AFTER_IDENT:
        sgf__ident_finish(p);
        st = ST_NODE;
        DIAG(SGF_DIAG_NO_VALUE, &p->ident_pos, NULL);
        continue;
      case ST_PROP: /* paused at the property and the '[' never fed again */
        st = ST_AFTER_VALUE;
        continue;
      case ST_VALUE:
      case ST_VALUE_ESC:
      case ST_VALUE_TRAIL: {
        sgf__mark h;
        HERE(h);
        p->ev.offset = h.off;
        DIAG(SGF_DIAG_UNCLOSED_VALUE, &h, &p->value_pos);
      }
        st = ST_AFTER_VALUE;
        EMIT_VEND();
        continue;
      case ST_AFTER_VALUE:
        p->ev.offset = OFF(s);
        st = ST_NODE;
        EMIT(on_property_end);
        continue;
      case ST_ORPHAN:
      case ST_ORPHAN_ESC:
      case ST_LONG_IDENT:
      case ST_DROP_VALUES:
        st = ST_NODE;
        continue;
      case ST_NODE:
        NODE_END();
        if (st != ST_NODE) continue;
        /* fall through */
      case ST_AFTER_CHILD:
      case ST_SKIP:
      case ST_SKIP_VALUE:
      case ST_SKIP_ESC:
        if (p->depth == 0) {
          st = ST_TOP;
          continue;
        }
        st = ST_FIN_CLOSE;
        {
          sgf__mark h;
          HERE(h);
          DIAG(SGF_DIAG_UNCLOSED_TREE, &h, &p->tree_open);
        }
        continue;
      case ST_FIN_CLOSE:
        if (p->depth == 0) {
          st = ST_DONE;
          continue;
        }
        if (p->nimplicit && p->implicit[p->nimplicit - 1] == p->depth)
          p->nimplicit--;
        p->depth--;
        if (p->skip_target) {
          if (p->depth >= p->skip_target) continue;
          p->skip_target = 0;
          if (p->skip_silent) {
            p->skip_silent = 0;
            continue;
          }
        }
        p->ev.offset = OFF(s);
        EMIT_TREE_END();
        continue;
      default:
        st = ST_DONE;
        continue;
    }
  }

paused:
  return sgf__leave(p, st, SGF_PAUSED);

aborted:
  FLUSH_AT_STOP(); /* the events before the stop */
  return sgf__leave(p, st, SGF_EABORTED);

failed:
  FLUSH_AT_STOP();
  return sgf__leave(p, st, SGF_EPARSE);
}

/* The bytes held back for look-ahead are parsed first: nothing follows
 * them now, which decides every ']' they wait on. */
int sgf_parser_finish(sgf_parser *p) {
  if (p->ev.live) return SGF_EBUSY;
  if (p->status != SGF_OK) return p->status;
  if (p->state != ST_DONE) {
    int r = sgf__finish_input(p);
    if (r != SGF_OK) return r;
  }
  while (p->la_len) {
    size_t u;
    int r;
    p->at_eof = 1;
    r = sgf__feed_core(p, p->la, p->la_len, &u);
    sgf__keep_raw(p);
    p->at_eof = 0;
    p->la_len -= u;
    if (p->la_len) memmove(p->la, p->la + u, p->la_len);
    if (r != SGF_OK) return r;
  }
  return finish_core(p);
}
