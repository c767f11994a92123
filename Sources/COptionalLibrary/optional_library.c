#include "optional_library.h"

#include <dlfcn.h>
#include <stdio.h>

const char *optional_library_load(const char *soname, const char *package,
                                  const char *const names[], void *functions[], size_t count,
                                  char *failure, size_t size) {
  void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    snprintf(failure, size,
             "%s could not be loaded (%s); install it (Debian, Ubuntu: apt-get install %s)",
             soname, dlerror(), package);
    return failure;
  }
  for (size_t index = 0; index < count; index++) {
    functions[index] = dlsym(library, names[index]);
    if (functions[index] == NULL) {
      snprintf(failure, size, "%s has no %s", soname, names[index]);
      return failure;
    }
  }
  return NULL;
}
