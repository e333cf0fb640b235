/// CFileSystem: the one directory listing linkhost does (static files, page locales).
///
/// `readdir` answers with a pointer into the directory stream's own storage, which Swift could only
/// read through an unsafe pointer. This wrapper copies the names into a buffer the caller owns, so the
/// Swift side (LinkHostFiles) hands over an array and reads plain bytes back.
#ifndef CFILESYSTEM_H
#define CFILESYSTEM_H

#include <stddef.h>

/// Writes the names in the folder at `path`, without `.` and `..`, into `names`, each followed by a NUL
/// byte, in the order the file system lists them. Returns the number of bytes written; -1 when the folder
/// cannot be listed (errno says why); -2 when the names need more than `capacity` bytes, with the size
/// they need in *needed so the caller can ask again with a buffer that large.
long cfs_directory_names(const char *path, char *names, size_t capacity, size_t *needed);

#endif
