/*
 * vdsoplt: time spent where a binary has no symbols of its own: the vDSO
 * (clock_gettime never enters the kernel) and PLT stubs (every call of
 * strlen and labs goes through its @plt stub; built with -fno-builtin so
 * neither is inlined: labs is three instructions, so its stub takes a
 * good share). A profiler must name both, never as [unknown] or _init.
 *
 * Usage: vdsoplt [SECONDS]   (default 3)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int
main(int argc, char **argv)
{
	int secs = argc > 1 ? atoi(argv[1]) : 3;
	struct timespec now, end;
	unsigned long n = 0;
	const char *volatile name = argv[0]; /* read each time: no call is hoisted */

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += secs;
	do {
		/* half the time reading the clock, half calling through the PLT */
		for (int i = 0; i < 60000; i++)
			clock_gettime(CLOCK_MONOTONIC, &now);
		for (int i = 0; i < 2000000; i++)
			n += strlen(name) + (unsigned long)labs(i); /* labs: a stub as long as it */
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec < end.tv_sec ||
	         (now.tv_sec == end.tv_sec && now.tv_nsec < end.tv_nsec));
	printf("%lu\n", n);
	return 0;
}
