// The C half of LinkHostFiles: a folder's names copied out of readdir's storage.
#include "CFileSystem.h"

#include <dirent.h>
#include <errno.h>
#include <string.h>

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
