// User extended attributes (setxattr(2), getxattr(2)) for ObservableDefaultsCore: the writer's
// mark on a suite file. Glibc's Swift module does not include <sys/xattr.h>.
#ifndef EXTENDED_ATTRIBUTES_H
#define EXTENDED_ATTRIBUTES_H

#include <stddef.h>
#include <sys/types.h>

/// fsetxattr(2): sets attribute `name` of the file open as `descriptor`; 0, or -1 and errno.
int observable_defaults_set_attribute(int descriptor, const char *name, const void *value,
                                      size_t size);

/// getxattr(2): reads attribute `name` of the file at `path` into `value`; its length, or -1
/// and errno (ENODATA: no such attribute; ENOTSUP: the file system keeps none).
ssize_t observable_defaults_get_attribute(const char *path, const char *name, void *value,
                                          size_t size);

#endif
