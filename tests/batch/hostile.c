/* SPDX-License-Identifier: MIT */
/*
 * hostile.c - what a hostile submission would try, as a plain program, for
 * the sandbox tests (tests/batch/test.sh runs it inside the sandbox with
 * batch --sandbox-exec, and outside, where it must get what the sandbox
 * keeps from it). One line per attempt on stdout, "GOT" when it got it.
 *
 *   hostile [--write PATH]... [--connect PORT] [--fork MAX HOLD_S]
 *           [--mem MAX_MIB] [--dev]
 *
 *   (always)   its uid and gid, and the network interfaces it sees
 *   --write    create PATH/hostile-was-here (a folder) or write into PATH
 *   --connect  connect to 127.0.0.1:PORT
 *   --fork     fork until fork fails or MAX children, keep them HOLD_S
 *              seconds, then end them: "fork: N processes, then <why>";
 *              HOLD_S -1 leaves them running, for the sandbox to end
 *   --mem      allocate and touch 16 MiB at a time up to MAX_MIB, saying
 *              each step (a cgroup's memory.max kills it mid-way)
 *   --dev      the /dev/nvidia* nodes it sees
 */
#define _DEFAULT_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void try_write(const char *path)
{
	char file[4096];
	struct stat st;
	int fd;

	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		snprintf(file, sizeof(file), "%s/hostile-was-here", path);
	else
		snprintf(file, sizeof(file), "%s", path);
	fd = open(file, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW, 0644);
	if (fd < 0) {
		printf("write %s: refused (%s)\n", path, strerror(errno));
		return;
	}
	if (write(fd, "hostile\n", 8) == 8)
		printf("write %s: GOT it\n", path);
	else
		printf("write %s: refused (%s)\n", path, strerror(errno));
	close(fd);
}

static void try_connect(int port)
{
	struct sockaddr_in a;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons(port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && !connect(fd, (struct sockaddr *)&a, sizeof(a)))
		printf("connect 127.0.0.1:%d: GOT a connection\n", port);
	else
		printf("connect 127.0.0.1:%d: refused (%s)\n", port, strerror(errno));
	if (fd >= 0)
		close(fd);
}

static void interfaces(void)
{
	struct if_nameindex *list = if_nameindex(), *i;

	printf("interfaces:");
	for (i = list; i && i->if_index; i++)
		printf(" %s", i->if_name);
	printf("\n");
	if (list)
		if_freenameindex(list);
}

static void try_fork(int max, int hold)
{
	pid_t *kids = calloc(max, sizeof(*kids));
	int n = 0, err = 0;

	while (kids && n < max) {
		pid_t p = fork();

		if (p < 0) {
			err = errno;
			break;
		}
		if (p == 0) {
			pause();
			_exit(0);
		}
		kids[n++] = p;
	}
	printf("fork: %d processes, then %s\n", n,
	       err ? strerror(err) : "it stopped asking");
	fflush(stdout);
	if (hold < 0) {
		free(kids);
		return;
	}
	sleep(hold);
	for (int i = 0; i < n; i++)
		kill(kids[i], SIGKILL);
	while (wait(NULL) > 0)
		;
	free(kids);
}

static void try_mem(long max_mib)
{
	long got = 0;

	while (got < max_mib) {
		char *p = malloc(16 << 20);

		if (!p) {
			printf("mem: stopped at %ld MiB (%s)\n", got, strerror(errno));
			return;
		}
		memset(p, 1, 16 << 20);
		got += 16;
		printf("mem: %ld MiB\n", got);
		fflush(stdout);
	}
	printf("mem: GOT all %ld MiB\n", got);
}

static void devices(void)
{
	struct dirent **list;
	int n = scandir("/dev", &list, NULL, alphasort);

	printf("dev:");
	for (int i = 0; i < n; i++) {
		if (!strncmp(list[i]->d_name, "nvidia", 6))
			printf(" %s", list[i]->d_name);
		free(list[i]);
	}
	printf("\n");
	if (n >= 0)
		free(list);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("hostile: uid %d, gid %d\n", (int)getuid(), (int)getgid());
	interfaces();
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--write") && i + 1 < argc) {
			try_write(argv[++i]);
		} else if (!strcmp(argv[i], "--connect") && i + 1 < argc) {
			try_connect(atoi(argv[++i]));
		} else if (!strcmp(argv[i], "--fork") && i + 2 < argc) {
			try_fork(atoi(argv[i + 1]), atoi(argv[i + 2]));
			i += 2;
		} else if (!strcmp(argv[i], "--mem") && i + 1 < argc) {
			try_mem(atol(argv[++i]));
		} else if (!strcmp(argv[i], "--dev")) {
			devices();
		} else {
			fprintf(stderr, "hostile: bad argument %s\n", argv[i]);
			return 2;
		}
	}
	printf("hostile: done\n");
	return 0;
}
