/* SPDX-License-Identifier: MIT */
/*
 * listen.c - a listener on the host's loopback for the sandbox test: a
 * submission's probe tries to connect to it. It prints its port on the
 * first line, then one line "connection" per connection it accepts, and
 * ends by itself after the given number of seconds.
 *
 *   listen SECONDS > file
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int seconds = argc > 1 ? atoi(argv[1]) : 600;
	struct sockaddr_in a;
	socklen_t len = sizeof(a);
	time_t end = time(NULL) + seconds;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(fd, 8) || getsockname(fd, (struct sockaddr *)&a, &len)) {
		perror("listen");
		return 1;
	}
	printf("%d\n", ntohs(a.sin_port));
	fflush(stdout);
	while (time(NULL) < end) {
		struct pollfd p = { fd, POLLIN, 0 };

		if (poll(&p, 1, 1000) == 1) {
			int c = accept(fd, NULL, NULL);

			if (c >= 0) {
				printf("connection\n");
				fflush(stdout);
				close(c);
			}
		}
	}
	return 0;
}
