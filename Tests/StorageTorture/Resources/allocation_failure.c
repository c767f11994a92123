// An LD_PRELOAD shim of the storage torture test: while armed, every malloc, realloc, calloc or
// posix_memalign of at least the armed number of bytes that the program's own code asks for (the
// package's code is linked into the program) fails with ENOMEM, as when memory runs out. The
// allocations of shared libraries (the Swift runtime's arrays and strings, Foundation's Data) are
// left alone: they trap on failure by design, which no code of the package can change; smaller
// ones all succeed. A writer process arms it around one write and flush
// (`storage_torture_fail_allocations(bytes)`, found with dlsym; 0 disarms). Built by the driver
// with the toolchain's clang.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <sys/auxv.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_realloc(void *block, size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static volatile size_t armed_threshold = 0;
/// Where the program (not a shared library) is loaded.
static void *program_base = NULL;

__attribute__((constructor)) static void find_program(void) {
  Dl_info info;
  // The program's entry point lies in the program, exported symbols or not.
  if (dladdr((void *)getauxval(AT_ENTRY), &info)) program_base = info.dli_fbase;
}

void storage_torture_fail_allocations(size_t threshold) { armed_threshold = threshold; }

/// Whether an allocation of `size` bytes asked for from `caller` fails now.
static int fails(size_t size, void *caller) {
  if (armed_threshold == 0 || size < armed_threshold) return 0;
  Dl_info info;
  return program_base != NULL && dladdr(caller, &info) && info.dli_fbase == program_base;
}

void *malloc(size_t size) {
  if (fails(size, __builtin_return_address(0))) { errno = ENOMEM; return NULL; }
  return __libc_malloc(size);
}

void *realloc(void *block, size_t size) {
  if (fails(size, __builtin_return_address(0))) { errno = ENOMEM; return NULL; }
  return __libc_realloc(block, size);
}

void *calloc(size_t count, size_t size) {
  if (size != 0 && fails(count * size, __builtin_return_address(0))) { errno = ENOMEM; return NULL; }
  return __libc_calloc(count, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
  if (fails(size, __builtin_return_address(0))) return ENOMEM;
  void *block = __libc_memalign(alignment, size);
  if (block == NULL) return ENOMEM;
  *result = block;
  return 0;
}
