// Loading a C library that only some uses of a program need (an engine's client library, the
// editor's ncurses) with dlopen on first use, instead of linking it.
//
// A linked library is loaded, with every library it needs, at each start of every program that
// links it, and a machine without it cannot start the program at all. Loaded on first use, only
// the programs that use it pay its start-up, and a machine without it runs everything else; the
// use that needs it fails with a message naming the package to install.
#ifndef OPTIONAL_LIBRARY_H
#define OPTIONAL_LIBRARY_H

#include <stddef.h>

/// Loads the shared library `soname` (RTLD_NOW | RTLD_LOCAL) and finds each of the `count`
/// functions named `names` in it, into `functions`. Returns NULL when every one was found, else
/// why not, written into `failure` (`size` bytes): "<soname> could not be loaded (<dlerror>);
/// install it (Debian, Ubuntu: apt-get install <package>)" or "<soname> has no <name>".
const char *optional_library_load(const char *soname, const char *package,
                                  const char *const names[], void *functions[], size_t count,
                                  char *failure, size_t size);

// A library whose functions keep their names: the program defines each one it calls, and the
// definition loads the library (once) and calls the library's function of that name. The
// functions are a list LIST(F, P) of F(result type, name, parameters, arguments) for a function
// and P(name, parameters, arguments) for one that returns nothing; a definition whose
// parameters differ from the library's header does not compile. With the list:
//   enum { LIST(OPTIONAL_LIBRARY_FUNCTION_INDEX, OPTIONAL_LIBRARY_PROCEDURE_INDEX) count };
//   static const char *const names[] = {LIST(OPTIONAL_LIBRARY_FUNCTION_NAME,
//                                            OPTIONAL_LIBRARY_PROCEDURE_NAME)};
//   OPTIONAL_LIBRARY_LOADER(loader, soname, package, count)   const char *loader(void) loads it
//   LIST(OPTIONAL_LIBRARY_FUNCTION, OPTIONAL_LIBRARY_PROCEDURE)
// The definitions are hidden: the program exports its own symbols (Swift's static runtime links
// with -export-dynamic), and the library's calls of its own functions are to bind to the library.
#define OPTIONAL_LIBRARY_FUNCTION_INDEX(type, name, parameters, arguments) \
  optional_library_index_##name,
#define OPTIONAL_LIBRARY_PROCEDURE_INDEX(name, parameters, arguments) optional_library_index_##name,
#define OPTIONAL_LIBRARY_FUNCTION_NAME(type, name, parameters, arguments) #name,
#define OPTIONAL_LIBRARY_PROCEDURE_NAME(name, parameters, arguments) #name,
#define OPTIONAL_LIBRARY_LOADER(loader, soname, package, count)                        \
  static void *functions[count];                                                        \
  static char failure[512];                                                             \
  static const char *loading_failure;                                                   \
  static pthread_once_t once = PTHREAD_ONCE_INIT;                                       \
  static void load(void) {                                                              \
    loading_failure = optional_library_load(soname, package, names, functions, count,   \
                                            failure, sizeof failure);                   \
  }                                                                                     \
  const char *loader(void) {                                                            \
    pthread_once(&once, load);                                                          \
    return loading_failure;                                                             \
  }
#define OPTIONAL_LIBRARY_FUNCTION(type, name, parameters, arguments)                    \
  __attribute__((visibility("hidden"))) type name parameters {                         \
    pthread_once(&once, load);                                                          \
    return ((type(*) parameters)functions[optional_library_index_##name]) arguments;    \
  }
#define OPTIONAL_LIBRARY_PROCEDURE(name, parameters, arguments)                         \
  __attribute__((visibility("hidden"))) void name parameters {                         \
    pthread_once(&once, load);                                                          \
    ((void(*) parameters)functions[optional_library_index_##name]) arguments;           \
  }

#endif
