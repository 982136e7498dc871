#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>
#include "lib/safefile.h"
#include "report/jsonout.h"

json_t *report_text(const char *s)
{
	static const char replacement[] = "\xef\xbf\xbd"; /* U+FFFD in UTF-8 */
	if (!s)
		return NULL;
	size_t len = strlen(s), n = 0;
	size_t ascii = 0;
	while (ascii < len && (unsigned char)s[ascii] < 0x80)
		ascii++;
	if (ascii == len)  /* ASCII is UTF-8 as it is: no locale to load (compare names every row) */
		return json_stringn(s, len);
	char *out = len <= (SIZE_MAX - 1) / 3 ? malloc(3 * len + 1) : NULL; /* all replaced: 3x */
	if (!out)
		return NULL;
	locale_t utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
	locale_t prev = utf8 ? uselocale(utf8) : (locale_t)0;
	for (size_t i = 0; i < len;) {
		mbstate_t st;
		wchar_t wc = 0;
		size_t k = 1;
		memset(&st, 0, sizeof(st));
		if (utf8)
			k = mbrtowc(&wc, s + i, len - i, &st);
		else if ((unsigned char)s[i] > 0x7f)
			k = (size_t)-1;
		if (k == (size_t)-1 || k == (size_t)-2 || (uint32_t)wc > 0x10FFFF) {
			memcpy(out + n, replacement, 3);
			n += 3;
			i++;
		} else {
			memcpy(out + n, s + i, k);
			n += k;
			i += k;
		}
	}
	if (utf8) {
		uselocale(prev);
		freelocale(utf8);
	}
	json_t *j = json_stringn(out, n);
	free(out);
	return j;
}

#define REPORT_DUMP_FLAGS (JSON_COMPACT | JSON_PRESERVE_ORDER)

/* doc's text (malloc'd), or NULL with err set. */
static char *dump_text(const json_t *doc, char *err, size_t errlen)
{
	char *text = json_dumps(doc, REPORT_DUMP_FLAGS);
	if (!text)
		snprintf(err, errlen, "cannot serialise the JSON document (out of memory)");
	return text;
}

/* Writes text to fd and closes it.  Returns 0, or -1 with err naming the call and name. */
static int write_close(int fd, const char *name, const char *text, char *err, size_t errlen)
{
	if (safe_write_all(fd, text, strlen(text)) != 0) {
		snprintf(err, errlen, "write %s: %s", name, strerror(errno));
		close(fd);
		return -1;
	}
	if (close(fd) != 0) {
		snprintf(err, errlen, "close %s: %s", name, strerror(errno));
		return -1;
	}
	return 0;
}

int report_target_open(struct report_target *t, const char *path, char *err, size_t errlen)
{
	memset(t, 0, sizeof(*t));
	t->out.fd = t->out.dir_fd = -1;
	t->to_stdout = strcmp(path, "-") == 0;
	if (t->to_stdout)
		return 0;
	if (safe_out_open(&t->out, path, SAFE_OUT_DEVICES, err, errlen) == 0)
		return 0;
	if (strstr(err, "symbolic link"))
		snprintf(err + strlen(err), errlen - strlen(err), " (use - for stdout)");
	return -1;
}

int report_target_write(struct report_target *t, const json_t *doc, char *err, size_t errlen)
{
	char *text = dump_text(doc, err, errlen);
	int rc = -1;
	if (!text) {
		report_target_abort(t);
		return -1;
	}
	if (t->to_stdout) {
		if (fputs(text, stdout) == EOF || fputc('\n', stdout) == EOF || fflush(stdout) != 0)
			snprintf(err, errlen, "write stdout: %s", strerror(errno));
		else
			rc = 0;
	} else if (safe_write_all(t->out.fd, text, strlen(text)) != 0) {
		snprintf(err, errlen, "write %s: %s", t->out.path, strerror(errno));
		safe_out_abort(&t->out);
	} else {
		rc = safe_out_commit(&t->out, err, errlen);
	}
	free(text);
	return rc;
}

void report_target_abort(struct report_target *t)
{
	if (!t->to_stdout)
		safe_out_abort(&t->out);
}

int report_write(const json_t *doc, const char *path, char *err, size_t errlen)
{
	struct report_target t;
	if (report_target_open(&t, path, err, errlen) != 0)
		return -1;
	return report_target_write(&t, doc, err, errlen);
}

int report_create(const json_t *doc, const char *stem, char *name, size_t namelen, char *err, size_t errlen)
{
	char *text = dump_text(doc, err, errlen);
	int fd = -1;
	if (!text)
		return -1;
	for (unsigned i = 1; fd < 0 && i <= REPORT_CREATE_TRIES; i++) {
		int n = i == 1 ? snprintf(name, namelen, "%s.json", stem) : snprintf(name, namelen, "%s-%u.json", stem, i);
		if (n < 0 || (size_t)n >= namelen) {
			snprintf(err, errlen, "%s.json: file name too long", stem);
			break;
		}
		fd = safe_create_new(AT_FDCWD, name, 0);
		if (fd < 0 && (errno != EEXIST || i == REPORT_CREATE_TRIES)) {
			snprintf(err, errlen, "open %s: %s", name, strerror(errno));
			break;
		}
	}
	int rc = -1;
	if (fd >= 0) {
		rc = write_close(fd, name, text, err, errlen);
		if (rc != 0)
			unlink(name);
	}
	free(text);
	return rc;
}
