// The C half of LinkHostFiles: a folder's names copied out of readdir's storage; opens, fstat and
// replacements relative to a folder descriptor.
// syncfs(2) is a GNU extension of glibc.
#define _GNU_SOURCE
#include "CFileSystem.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

long cfs_directory_names(const char *path, char *names, size_t capacity, size_t *needed) {
    DIR *folder = opendir(path);
    if (folder == NULL) return -1;
    size_t used = 0;
    errno = 0;
    struct dirent *entry;
    // The whole folder is walked even when the buffer is full, so one retry with *needed always fits
    // (unless the folder grows in between, when the caller asks once more).
    while ((entry = readdir(folder)) != NULL) {
        const char *name = entry->d_name;
        if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) continue;
        size_t length = strlen(name) + 1;
        if (used + length <= capacity) memcpy(names + used, name, length);
        used += length;
    }
    // readdir returns NULL both at the end and on an error; only errno tells them apart.
    int failure = errno;
    closedir(folder);
    if (failure != 0) {
        errno = failure;
        return -1;
    }
    *needed = used;
    return used <= capacity ? (long)used : -2;
}

// The rest: opening, checking and replacing files relative to a folder descriptor.
int cfs_working_directory(void) { return AT_FDCWD; }

unsigned int cfs_effective_user(void) { return (unsigned int)geteuid(); }

long long cfs_user_id(const char *name) {
    long size = sysconf(_SC_GETPW_R_SIZE_MAX);
    if (size < 1024) size = 16384;
    char *buffer = malloc((size_t)size);
    if (buffer == NULL) return -1;
    struct passwd entry;
    struct passwd *found = NULL;
    long long uid = getpwnam_r(name, &entry, buffer, (size_t)size, &found) == 0 && found != NULL ? (long long)found->pw_uid : -1;
    free(buffer);
    return uid;
}

static void describe(const struct stat *status, struct cfs_file_facts *facts) {
    mode_t type = status->st_mode & S_IFMT;
    facts->kind = type == S_IFREG ? CFS_REGULAR : type == S_IFDIR ? CFS_DIRECTORY : type == S_IFLNK ? CFS_SYMLINK
        : type == S_IFIFO ? CFS_FIFO : type == S_IFSOCK ? CFS_SOCKET : (type == S_IFCHR || type == S_IFBLK) ? CFS_DEVICE : CFS_OTHER;
    facts->mode = (unsigned int)(status->st_mode & 07777);
    facts->owner = (unsigned int)status->st_uid;
    facts->size = (long long)status->st_size;
}

int cfs_facts_at(int folder, const char *name, struct cfs_file_facts *facts) {
    struct stat status;
    if (fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) != 0) return -1;
    describe(&status, facts);
    return 0;
}

int cfs_descriptor_facts(int descriptor, struct cfs_file_facts *facts) {
    struct stat status;
    if (fstat(descriptor, &status) != 0) return -1;
    describe(&status, facts);
    return 0;
}

// Opens each folder of `path` but its last component in turn, relative to `folder` (or to "/" when `path` is
// absolute), every one with O_NOFOLLOW|O_DIRECTORY, so no symbolic link on the way is followed, even one
// renamed into place a moment ago. Returns the descriptor of the last folder (`folder` itself when `path`
// has one component; *owned says whether the caller must close it) and copies the last component into
// `last` (PATH_MAX bytes); -1 with errno (ELOOP or ENOTDIR for a link on the way, EINVAL for "..").
static int walk_to_parent(int folder, const char *path, char *last, int *owned) {
    char copy[PATH_MAX];
    if (strlen(path) >= sizeof copy) { errno = ENAMETOOLONG; return -1; }
    strcpy(copy, path);
    int current = folder;
    *owned = 0;
    char *cursor = copy;
    if (*cursor == '/') {
        current = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (current < 0) return -1;
        *owned = 1;
    }
    for (;;) {
        while (*cursor == '/') cursor++;
        char *slash = strchr(cursor, '/');
        if (slash == NULL) break;
        *slash = 0;
        if (strcmp(cursor, "..") == 0) {
            if (*owned) close(current);
            errno = EINVAL;
            return -1;
        }
        if (strcmp(cursor, ".") != 0) {
            int next = openat(current, cursor, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            int failure = errno;
            if (*owned) close(current);
            if (next < 0) { errno = failure; return -1; }
            current = next;
            *owned = 1;
        }
        cursor = slash + 1;
    }
    if (strcmp(cursor, "..") == 0) {
        if (*owned) close(current);
        errno = EINVAL;
        return -1;
    }
    strcpy(last, *cursor ? cursor : ".");
    return current;
}

int cfs_open_folder(int folder, const char *name, int create, int follow) {
    if (follow) {
        if (create && mkdirat(folder, name, 0700) != 0 && errno != EEXIST) return -1;
        return openat(folder, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    }
    char last[PATH_MAX];
    int owned = 0;
    int parent = walk_to_parent(folder, name, last, &owned);
    if (parent < 0) return -1;
    int descriptor = -1;
    if (!create || mkdirat(parent, last, 0700) == 0 || errno == EEXIST) {
        descriptor = openat(parent, last, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    }
    int failure = errno;
    if (owned) close(parent);
    errno = failure;
    return descriptor;
}

int cfs_open_for_reading(int folder, const char *name, int follow, int wait, struct cfs_file_facts *facts) {
    int flags = O_RDONLY | O_CLOEXEC | (wait ? 0 : O_NONBLOCK);
    int descriptor;
    if (follow) {
        descriptor = openat(folder, name, flags);
    } else {
        char last[PATH_MAX];
        int owned = 0;
        int parent = walk_to_parent(folder, name, last, &owned);
        if (parent < 0) return -1;
        descriptor = openat(parent, last, flags | O_NOFOLLOW);
        int failure = errno;
        if (owned) close(parent);
        errno = failure;
    }
    if (descriptor < 0) return -1;
    if (cfs_descriptor_facts(descriptor, facts) != 0) {
        int failure = errno;
        close(descriptor);
        errno = failure;
        return -1;
    }
    // Reads of a regular file do not block anyway; clearing the flag keeps a slow disk from reading EAGAIN.
    int status = fcntl(descriptor, F_GETFL);
    if (status >= 0) fcntl(descriptor, F_SETFL, status & ~O_NONBLOCK);
    return descriptor;
}

int cfs_open_lock(int folder, const char *name) {
    return openat(folder, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
}

static int replace_file(int folder, const char *name, const char *temporary, const void *bytes, size_t count, int flush);

int cfs_replace_file(int folder, const char *name, const char *temporary, const void *bytes, size_t count) {
    return replace_file(folder, name, temporary, bytes, count, 1);
}

int cfs_replace_file_unsynced(int folder, const char *name, const char *temporary, const void *bytes, size_t count) {
    return replace_file(folder, name, temporary, bytes, count, 0);
}

int cfs_sync_file_system(int folder) {
#if defined(__linux__)
    return syncfs(folder);
#else
    (void)folder;
    sync();
    return 0;
#endif
}

static int replace_file(int folder, const char *name, const char *temporary, const void *bytes, size_t count, int flush) {
    int descriptor = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (descriptor < 0 && errno == EEXIST) {
        // A crash's leftover, or an entry someone planted: unlinkat removes the entry itself (a link, not
        // what it points to), and the exclusive create then makes a file of our own or fails.
        if (unlinkat(folder, temporary, 0) != 0) return -CFS_STEP_CREATE;
        descriptor = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    }
    if (descriptor < 0) return -CFS_STEP_CREATE;
    const unsigned char *next = bytes;
    size_t left = count;
    int step = 0;
    while (left > 0) {
        ssize_t written = write(descriptor, next, left);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) { step = CFS_STEP_WRITE; break; }
        next += written;
        left -= (size_t)written;
    }
    // The mode is set on the descriptor: the umask may have narrowed it, never widened it, but say it once.
    if (step == 0 && fchmod(descriptor, 0600) != 0) step = CFS_STEP_WRITE;
    if (step == 0 && flush && fsync(descriptor) != 0) step = CFS_STEP_FLUSH;
    int failure = errno;
    close(descriptor);
    if (step == 0 && renameat(folder, temporary, folder, name) != 0) { step = CFS_STEP_RENAME; failure = errno; }
    if (step != 0) {
        unlinkat(folder, temporary, 0);
        errno = failure;
        return -step;
    }
    if (flush) fsync(folder);
    return 0;
}
