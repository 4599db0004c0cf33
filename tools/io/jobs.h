/* jobs.h - reading the inputs of many FILE arguments N at a time (-j N),
 * on libuv's thread pool, with their results delivered in input order.
 *
 * Tasks (uv_queue_work) each read a batch of whole inputs - files, or
 * every .sgf member of one archive - with one of N contexts: an
 * input_reader reading in place (one read buffer) and the command's state
 * (its parser), through the command's begin/data/end callbacks. At most N
 * tasks are queued at once; the pool has N + 1 threads (jobs_pool_size():
 * UV_THREADPOOL_SIZE, which libuv limits to 1024, so N is at most
 * JOBS_MAX = 256 anyway). What an input gives, a fixed-size result, is
 * delivered on the loop's thread, in after_work and uv_async callbacks,
 * in exactly the order input_read() would have read the inputs: the
 * arguments in order, a directory in sorted walk order (the loop's thread
 * walks directories and hands out their files). Inputs complete out of
 * order; results wait in a bounded window until every earlier one has
 * been delivered.
 *
 * Standard input ("-") is read on the loop's thread with the command's
 * ordinary input_sink, in its place in the order; so is a directory that
 * a task finds where a file was expected (a symbolic link to a directory
 * met during a walk, or an argument named *.sgf, which is not checked
 * before it is handed out). Everything that is delivered, printed or
 * reported happens on the loop's thread (the caller's).
 *
 * Memory: at most JOBS_WINDOW x N inputs are handed out or waiting to be
 * delivered. Each slot of that window holds a path and room for one
 * result; a slot that has held an archive keeps room for JOBS_RECORDS
 * results (a task whose archive has that many waiting stops until the
 * loop's thread has delivered them). Per task context: one read buffer,
 * and libarchive's while it reads an archive.
 */
#ifndef SGF_TOOLS_JOBS_H
#define SGF_TOOLS_JOBS_H

#include <stddef.h>

#include "input.h"

#define JOBS_MAX 256    /* the largest N of -j N */
#define JOBS_WINDOW 64  /* inputs in flight per task */
#define JOBS_RECORDS 64 /* results waiting per input (an archive) */
#define JOBS_BATCH 8    /* inputs a task takes at a time, at most */

typedef struct jobs_ops {
  size_t result_size; /* bytes of one input's result (> 0) */

  /* In the pool's threads. create() is called on the calling thread
   * before any task runs, once per task context; its state is then used
   * by one task at a time. NULL: out of memory. */
  void *(*create)(void *arg);
  void (*destroy)(void *state);
  /* One input, as for input_sink: begin(), data() for its bytes, then
   * end() fills result, also when reading broke off part way (error says
   * why, and deliver() gets it too). An input that could not be read at
   * all has no begin() or end() but a failure, delivered with fail()
   * below; a FILE with no SGF input in it, with sink->none(). */
  void (*begin)(void *state, const char *name);
  int (*data)(void *state, const char *buf, size_t len);
  void (*end)(void *state, const char *name, const char *error, void *result);

  /* On the main thread, in input order. error: NULL, or why reading the
   * input broke off after what result counts. */
  void (*deliver)(void *arg, const char *name, const void *result,
                  const char *error);
  void (*fail)(void *arg, const char *name, const char *error);
  /* How the main thread reads what it reads itself (ctx is arg); its
   * fail() must do what fail() above does, its end() what end() and
   * deliver() do. */
  const input_sink *sink;
  /* Optional, in the pool's threads like begin(): input_sink's note()
   * (NULL: none, so bad UTF-16 is end()'s error). */
  void (*note)(void *state, int what, uint64_t off);
} jobs_ops;

/* Read every input of files[0..nfiles) nthreads at a time on the pool;
 * main is the calling thread's reader. Returns 0 when it ran, or -1,
 * having read nothing, if the task contexts or the loop could not be had
 * (the caller may then read sequentially). */
int jobs_run(input_reader *main, char **files, int nfiles, unsigned nthreads,
             const jobs_ops *ops, void *arg);

/* Parse the N of -j N / --jobs=N: 1 to JOBS_MAX. 0, or -1 (reported on
 * stderr, with a pointer to 'sgf CMD --help'). */
int jobs_parse(const char *cmd, const char *arg, unsigned *out);

/* Size libuv's thread pool for N tasks at once: UV_THREADPOOL_SIZE = N + 1
 * (the one more serves the loop's own file reads). libuv reads it once,
 * when the process first uses the pool, and takes at most JOBS_POOL_MAX;
 * so this must come before anything queues work or reads a file with a
 * callback. jobs_run() and ranges_run() call it first. */
#define JOBS_POOL_MAX 1024
void jobs_pool_size(unsigned n);

#endif /* SGF_TOOLS_JOBS_H */
