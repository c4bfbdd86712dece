/* tt-execme-7f3a: a program with a unique name that execs itself, so a
 * trace of sched:sched_process_exec shows that name as the filename.
 * Usage: tt-execme-7f3a [N]: execs itself N more times (default 3), each
 * time with N - 1, then exits 0. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 3;
	char next[32];

	if (n <= 0)
		return 0;
	snprintf(next, sizeof next, "%ld", n - 1);
	/* by the path we were started with, so the filename names us */
	execl(argv[0], argv[0], next, (char *)NULL);
	perror("tt-execme-7f3a: exec");
	return 1;
}
