/* SPDX-License-Identifier: MIT */
/*
 * test_result_fd.c - common/result.c on a descriptor: the runner's end of
 * the driver's pipe (--result-fd), as grader/proc.c hands it over.
 */
#include "unit.h"

#include <errno.h>
#include <fcntl.h>

#include "result.h"

/* Everything the read end holds until its end of file. */
static char *read_to_eof(int fd)
{
	static char buf[4096];
	size_t len = 0;
	ssize_t n;

	while ((n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	return buf;
}

static void record_through_a_pipe(void **state)
{
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(wb_result_open_fd(p[1]), 0);
	assert_int_equal(wb_result_fd(), p[1]);
	/* The runner's main then opens "no file": the pipe is kept. */
	assert_int_equal(wb_result_open(NULL), 0);
	assert_int_equal(wb_result_fd(), p[1]);
	wb_result("seed", "%d", 7);
	wb_result("detail", "two\nlines");
	wb_result("verdict", "%s", "PASS");
	wb_result_end();
	assert_int_equal(wb_result_fd(), -1);
	/* Closed at "end": the reader gets everything, then end of file. */
	assert_string_equal(read_to_eof(p[0]),
			    "seed 7\ndetail two lines\nverdict PASS\nend\n");
	close(p[0]);
}

static void descriptor_must_be_open_for_writing(void **state)
{
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	errno = 0;
	assert_int_equal(wb_result_open_fd(p[0]), -1); /* the read end */
	assert_int_equal(errno, EBADF);
	close(p[0]);
	close(p[1]);
	errno = 0;
	assert_int_equal(wb_result_open_fd(p[1]), -1); /* closed */
	assert_int_equal(errno, EBADF);
	errno = 0;
	assert_int_equal(wb_result_open_fd(-1), -1);
	assert_int_equal(errno, EBADF);
	assert_int_equal(wb_result_fd(), -1);
	/* Nothing open: writes are swallowed, not a crash. */
	wb_result("verdict", "%s", "PASS");
	wb_result_end();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(record_through_a_pipe),
		cmocka_unit_test(descriptor_must_be_open_for_writing),
	};

	return cmocka_run_group_tests_name("result_fd", tests, NULL, NULL);
}
