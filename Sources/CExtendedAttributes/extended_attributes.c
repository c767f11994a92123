#include "extended_attributes.h"

#include <sys/xattr.h>

int observable_defaults_set_attribute(int descriptor, const char *name, const void *value,
                                      size_t size) {
  return fsetxattr(descriptor, name, value, size, 0);
}

ssize_t observable_defaults_get_attribute(const char *path, const char *name, void *value,
                                          size_t size) {
  return getxattr(path, name, value, size);
}
