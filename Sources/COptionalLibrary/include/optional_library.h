// Loading a C library that only some uses of a program need (an engine's client library) with
// dlopen on first use, instead of linking it.
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

#endif
