/// CFileSystem: the directory listing linkhost does (static files, page locales), and the few calls that
/// open, check and replace files relative to a folder descriptor (the ACME state folder, reads at load).
///
/// `readdir` answers with a pointer into the directory stream's own storage, which Swift could only
/// read through an unsafe pointer. This wrapper copies the names into a buffer the caller owns, so the
/// Swift side (LinkHostFiles) hands over an array and reads plain bytes back. `openat` and `fstat` are
/// here because their flags and struct layout are C's; what the answers mean is decided in Swift.
#ifndef CFILESYSTEM_H
#define CFILESYSTEM_H

#include <stddef.h>

/// Writes the names in the folder at `path`, without `.` and `..`, into `names`, each followed by a NUL
/// byte, in the order the file system lists them. Returns the number of bytes written; -1 when the folder
/// cannot be listed (errno says why); -2 when the names need more than `capacity` bytes, with the size
/// they need in *needed so the caller can ask again with a buffer that large.
long cfs_directory_names(const char *path, char *names, size_t capacity, size_t *needed);

/// The kinds of file `cfs_facts` tells apart.
enum cfs_kind { CFS_REGULAR = 1, CFS_DIRECTORY = 2, CFS_SYMLINK = 3, CFS_FIFO = 4, CFS_SOCKET = 5, CFS_DEVICE = 6, CFS_OTHER = 7 };

/// What `fstat` says of a file, in the fields linkhost decides on.
struct cfs_file_facts {
    int kind;
    unsigned int mode;
    unsigned int owner;
    long long size;
};

/// The value of `folder` that means "relative to the working directory" (AT_FDCWD).
int cfs_working_directory(void);

/// The effective user ID of this process.
unsigned int cfs_effective_user(void);

/// The user ID of the user called `name` in the system's user database (getpwnam_r), or -1 when none is.
long long cfs_user_id(const char *name);

/// `fstatat` of `name` in `folder` without following a final symbolic link; 0, or -1 with errno.
int cfs_facts_at(int folder, const char *name, struct cfs_file_facts *facts);

/// `fstat` of an open descriptor; 0, or -1 with errno.
int cfs_descriptor_facts(int descriptor, struct cfs_file_facts *facts);

/// Opens the folder `name` in `folder` (read-only, close-on-exec), first creating it with mode 0700 when
/// `create` is set and it is missing. Symbolic links are followed only when `follow` is set; otherwise
/// `name` may be a path (relative to `folder`, or absolute) whose every component is opened in turn with
/// O_NOFOLLOW, and a link anywhere on it fails the open with ELOOP or ENOTDIR. Returns the descriptor, or
/// -1 with errno.
int cfs_open_folder(int folder, const char *name, int create, int follow);

/// Opens `name` in `folder` for reading without blocking on a FIFO or a device (O_NONBLOCK, cleared once
/// open) unless `wait` is set, and fills `facts` from `fstat` of the open file so the caller decides on what
/// it actually opened. With `follow` set, links are followed as the system does; without it, `name` may be
/// a path (relative to `folder`, or absolute) opened one component at a time with O_NOFOLLOW, so no
/// symbolic link anywhere on it is followed (ELOOP or ENOTDIR; EINVAL for ".."). Returns the descriptor,
/// or -1 with errno.
int cfs_open_for_reading(int folder, const char *name, int follow, int wait, struct cfs_file_facts *facts);

/// Opens (creating it with mode 0600 when missing) the lock file `name` in `folder`, never through a
/// symbolic link. Returns the descriptor, or -1 with errno.
int cfs_open_lock(int folder, const char *name);

/// Steps of `cfs_replace_file`, returned negated when that step fails (errno says why).
enum cfs_replace_step { CFS_STEP_CREATE = 1, CFS_STEP_WRITE = 2, CFS_STEP_FLUSH = 3, CFS_STEP_RENAME = 4 };

/// Replaces `name` in `folder` with `count` bytes in one rename: a new file `temporary` is created with
/// O_CREAT|O_EXCL|O_NOFOLLOW and mode 0600 (a leftover or planted entry of that name is removed first, never
/// opened), written, flushed with fsync, renamed over `name`, and the folder is flushed. Returns 0, or the
/// negated `cfs_replace_step` that failed with errno set; the temporary file is removed on failure.
int cfs_replace_file(int folder, const char *name, const char *temporary, const void *bytes, size_t count);

/// `cfs_replace_file` without either flush, for many files written in a row and made durable together by one
/// `cfs_sync_file_system` before whatever names them is written. The rename still never shows a half-written file
/// to a running reader.
int cfs_replace_file_unsynced(int folder, const char *name, const char *temporary, const void *bytes, size_t count);

/// Flushes the whole file system `folder` lies on (Linux `syncfs`; `sync` elsewhere). Returns 0, or -1 with errno.
int cfs_sync_file_system(int folder);

#endif
