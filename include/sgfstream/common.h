/* sgfstream/common.h - what every public header of sgfstream shares:
 * the export macro, input positions and the allocator hooks. Nothing
 * else: it includes only <stddef.h> and <stdint.h>, so that any header
 * can include it without pulling in an API.
 *
 * HOW THE HEADERS FIT. <sgfstream.h> is the umbrella: it declares
 * nothing and includes the headers of sgfstream/ (the list is there).
 * Each of those includes, inside its include guard, only the headers of
 * sgfstream/ it uses, never <sgfstream.h>: the headers form a tree with
 * this one at its root, and each stands alone (test/house/headers.sh compiles
 * each one alone as C11 and as C++11, and checks that none includes
 * <sgfstream.h>).
 */
#ifndef SGFSTREAM_COMMON_H
#define SGFSTREAM_COMMON_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32) && defined(SGF_BUILDING_DLL)
#define SGF_EXTERN __declspec(dllexport)
#elif defined(__GNUC__) && __GNUC__ >= 4
#define SGF_EXTERN __attribute__((visibility("default")))
#else
#define SGF_EXTERN
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* A place in the input. */
typedef struct sgf_pos {
  uint64_t offset; /* 0-based byte offset from the start of input */
  uint64_t line;   /* 1-based */
  uint64_t column; /* 1-based, in bytes */
} sgf_pos;

/* Allocator hooks. Sizes are passed on free and realloc. realloc may be
 * NULL (then malloc + copy + free is used). ctx is passed through. */
typedef struct sgf_allocator {
  void *(*malloc)(void *ctx, size_t size);
  void *(*realloc)(void *ctx, void *ptr, size_t old_size, size_t new_size);
  void (*free)(void *ctx, void *ptr, size_t size);
  void *ctx;
} sgf_allocator;

#ifdef __cplusplus
}
#endif

#endif /* SGFSTREAM_COMMON_H */
