/* SPDX-License-Identifier: MIT */
#include "result.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>

static FILE *chan;

int wb_result_open(const char *path)
{
	if (!path && chan)
		return 0; /* opened by wb_result_open_fd() */
	chan = path ? fopen(path, "w") : stdout;
	return chan ? 0 : -1;
}

int wb_result_open_fd(int fd)
{
	int flags = fd < 0 ? -1 : fcntl(fd, F_GETFL);

	if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY) {
		errno = EBADF; /* not open, or not for writing */
		return -1;
	}
	chan = fdopen(fd, "w");
	return chan ? 0 : -1;
}

int wb_result_fd(void)
{
	return chan ? fileno(chan) : -1;
}

void wb_result(const char *key, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (!chan)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	for (char *p = line; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	fprintf(chan, "%s %s\n", key, line);
	/* Flushed at once: a crash later must not lose what was said. */
	fflush(chan);
}

void wb_result_end(void)
{
	if (!chan)
		return;
	fputs("end\n", chan);
	fflush(chan);
	if (chan != stdout)
		fclose(chan);
	chan = NULL;
}

double wb_phase_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double phase_mark = -1;

void wb_phase_begin(void)
{
	phase_mark = wb_phase_now();
}

void wb_phase(const char *name, double minus)
{
	double t = wb_phase_now(), s;

	if (phase_mark < 0)
		phase_mark = t;
	s = t - phase_mark - minus;
	wb_result("phase", "%s %.3f", name, s > 0 ? s : 0);
	phase_mark = t;
}
