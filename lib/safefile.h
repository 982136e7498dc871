/* Files a program running as root may open in places other users can write: every output is
 * created under a private temporary name (O_EXCL, never through a link) and renamed into place
 * when complete, so nothing is written through a symbolic link, a hard link or a FIFO planted
 * under its name, and a failed write leaves the old file whole; every input is opened without
 * blocking, must be a regular file (or a pipe the caller was handed by descriptor) and is read
 * up to a bound.  The checks follow the attacks the kernel's fs.protected_* sysctls describe
 * (Documentation/admin-guide/sysctl/fs.rst) and the advice of open(2) on O_EXCL, O_NOFOLLOW and
 * O_NONBLOCK. */
#ifndef IB_SAFEFILE_H
#define IB_SAFEFILE_H
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

/* The mode of every file created: at most rw-r--r--, whatever the umask (a umask can only take
 * bits away). */
#define SAFE_FILE_MODE 0644

/* Whether a file or directory described by st may be trusted by the running user: it belongs to
 * the effective user or to root and no other user can write it (no group or other write bit,
 * except a directory with the sticky bit, where others cannot remove or rename what is not
 * theirs; see the S_ISVTX paragraph of inode(7)).  On false, why (whylen bytes) says which
 * ("belongs to uid 1000", "is writable by others (mode 0777) without the sticky bit"). */
bool safe_stat_trusted(const struct stat *st, char *why, size_t whylen);

/* Checks that dir may take this program's outputs: a directory, not a symbolic link, trusted as
 * safe_stat_trusted says.  Returns 0, or -1 with a one-line reason in err that names dir. */
int safe_dir_check(const char *dir, char *err, size_t errlen);

/* Opens the directory at the absolute path dir one component at a time from "/", each through
 * openat(2) with O_NOFOLLOW | O_DIRECTORY, so that no symbolic link is followed anywhere on
 * the way, and checks every directory met ("/" included) with safe_stat_trusted: none may
 * belong to another user or be writable by others without the sticky bit, so nobody else can
 * swap anything below it.  With create, a missing component is made (mkdirat(2), mode 0755)
 * before it is opened.  Returns the final directory's descriptor (O_CLOEXEC; close it), or -1
 * with a one-line reason in why naming the component ("/home/u/.cache belongs to uid 1000, not
 * to the running user (uid 0) or root", "/tmp/x is a symbolic link; not followed", "open
 * /tmp/y: No such file or directory"). */
int safe_dir_open_trusted(const char *dir, bool create, char *why, size_t whylen);

/* Creates the new file name in the directory dir_fd (AT_FDCWD: the working directory) for
 * writing, the one way every output is created: exclusively (O_EXCL: never an existing file,
 * nor through a symbolic link or into a FIFO planted under the name), not following a link
 * (O_NOFOLLOW), never a controlling terminal, close-on-exec, mode SAFE_FILE_MODE less the
 * umask, with extra_flags (O_APPEND) added.  Returns the descriptor, or -1 with errno set by
 * openat(2) (EEXIST: the name is taken). */
int safe_create_new(int dir_fd, const char *name, int extra_flags);

/* Creates a new file under a name nobody has taken, as safe_create_new does: the "XXXXXX"
 * that ends name before its last suffix_len characters (".log") is replaced by six random
 * letters and digits, again while the name is taken (at most 64 times).  Returns the
 * descriptor with the name created in name, or -1 with errno set (EINVAL: no "XXXXXX" there;
 * EEXIST: every name tried was taken). */
int safe_create_unique(int dir_fd, char *name, size_t suffix_len, int extra_flags);

/* Flags of safe_out_open. */
enum {
	SAFE_OUT_DEVICES = 1,   /* an existing FIFO or character device owned by the user or root
	                           (/dev/null, a pipe the user made) is written as it is, opened
	                           without blocking (no reader: an error, never a hang); so is a
	                           pipe, socket or device handed as /dev/fd/N (>(jq .)) */
	SAFE_OUT_CHECK_DIR = 2, /* the directory must pass safe_dir_check */
};

/* An output being written: fd is where to write; the file appears under its name only on
 * safe_out_commit. */
struct safe_out {
	int fd;                       /* write here; -1 when not open */
	int dir_fd;                   /* the directory holding it; -1 for a device */
	char name[NAME_MAX + 1];      /* the final name inside the directory */
	char tmp[NAME_MAX + 1];       /* the temporary name, "" for a device */
	char path[PATH_MAX];          /* the path as given, for messages */
};

/* Opens path for writing.  A regular file (or nothing) at path is replaced at commit by a new
 * file written under a temporary name (".NAME.XXXXXX", created O_EXCL with mode
 * SAFE_FILE_MODE) in the same directory; an existing file there is refused when it is a
 * symbolic link, a directory, or belongs to another user, and, unless flags has
 * SAFE_OUT_DEVICES, when it is a FIFO, socket or device.  Returns 0, or -1 with a one-line
 * reason naming path in err (the failed system call and errno text, or what was found). */
int safe_out_open(struct safe_out *o, const char *path, unsigned flags, char *err, size_t errlen);

/* Closes the output and renames it into place (a device: just closes it).  The name is checked
 * again just before the rename: a symbolic link or another user's file planted meanwhile is
 * refused.  Returns 0, or -1 with err set; on failure the temporary file is removed and
 * whatever was at path before is left as it was. */
int safe_out_commit(struct safe_out *o, char *err, size_t errlen);

/* Abandons the output: the temporary file removed, nothing at path changed.  Safe to call on a
 * committed, aborted or zeroed-then-failed output. */
void safe_out_abort(struct safe_out *o);

/* Removes the temporary file of an output still being written, using only async-signal-safe
 * calls (unlinkat(2)): for a handler about to _exit.  o may be NULL or not open. */
void safe_out_unlink_signal_safe(const struct safe_out *o);

/* Writes all of buf[0..len) to fd, retrying short writes and EINTR.  Returns 0, or -1 with
 * errno set by write(2). */
int safe_write_all(int fd, const void *buf, size_t len);

/* Whether path names a descriptor the program was handed rather than a file found by name: "-"
 * (standard input), /dev/stdin, /dev/fd/N or /proc/self/fd/N. */
bool safe_path_is_handed_fd(const char *path);

/* Opens path for reading without blocking (a FIFO nobody writes cannot hang the open) and
 * accepts a regular file, or a pipe or FIFO only when path names a handed descriptor
 * (safe_path_is_handed_fd; "-" is standard input).  The descriptor returned blocks again.
 * Returns it, or -1 with a one-line reason in err not naming path ("is a FIFO: only regular
 * files are read (or a pipe given as - or /dev/fd/N)", "open: No such file or directory"). */
int safe_open_read(const char *path, char *err, size_t errlen);

/* Reads all of path (safe_open_read) into a new NUL-terminated buffer, at most max_bytes:
 * larger input is refused, not cut.  Returns the buffer (free it) with its length in *len, or
 * NULL with a one-line reason in err not naming path. */
char *safe_read_file(const char *path, size_t max_bytes, size_t *len, char *err, size_t errlen);

#endif
