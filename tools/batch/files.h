/* SPDX-License-Identifier: MIT */
/*
 * files.h - files and folders as the batch needs them: made and removed
 * without following links, written whole or not at all, a student's
 * folder published atomically, programs and paths resolved, and files
 * read, the ones sandboxed code wrote only where it cannot have put a
 * link. Floor 0 (batch.h): uses batch.h's limits and util.
 */
#ifndef BATCH_FILES_H
#define BATCH_FILES_H

#include <stddef.h>

int bt_mkdirs(const char *path);
int bt_rmtree(const char *path);
int bt_is_dir(const char *path);
int bt_exists(const char *path);
/* Copy a regular file (at most max bytes: -1 when it is bigger). */
long bt_copy_file(const char *from, const char *to, long max);
/* Write text to path through path.tmp and a rename, flushed to disk. */
int bt_write_atomic(const char *path, const char *text);
int bt_fsync_path(const char *path);
/* Rename the finished folder tmp to dir/<id>, replacing an older one
 * atomically; and tidy what a crash in the middle of that left. */
int bt_publish(const char *dir, const char *id, const char *tmp);
void bt_recover(const char *dir, const char *id);
/* The absolute path of a program on PATH (or of name, if it has a '/'). */
int bt_which(const char *name, char *out, size_t n);
/* The absolute, symlink-free form of an existing path. */
int bt_realpath(const char *path, char *out, size_t n);
/* path is dir or lies under it (both absolute, normalised). */
int bt_path_inside(const char *path, const char *dir);
/* Read a whole file; NULL on error (max: bytes at most). */
char *bt_read(const char *path, size_t max);
/* path is a regular file whose real path lies inside dir: a file that
 * sandboxed code may have replaced by a link is never read through it. */
int bt_inside_regular(const char *path, const char *dir);

#endif /* BATCH_FILES_H */
