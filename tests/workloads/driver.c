/* driver: arguments, deadline, threads and pid file of the workloads. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "driver.h"

static struct timespec deadline;
static pthread_t *threads;
static long nthreads;

/* Succeed once the monotonic clock has passed the deadline. */
int
driver_past_deadline(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > deadline.tv_sec ||
	       (now.tv_sec == deadline.tv_sec && now.tv_nsec >= deadline.tv_nsec);
}

/* Write our pid to path through a temporary file and a rename. */
void
driver_pidfile(const char *name, const char *path)
{
	char tmp[4096];
	FILE *f;

	if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
		fprintf(stderr, "%s: pidfile path too long\n", name);
		exit(1);
	}
	f = fopen(tmp, "w");
	if (!f || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f) != 0 ||
	    rename(tmp, path) != 0) {
		fprintf(stderr, "%s: %s: %s\n", name, path, strerror(errno));
		exit(1);
	}
}

/* Parse a positive integer argument or exit with a usage message. */
static long
driver_arg(const char *name, const char *s, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 1 || v > max) {
		fprintf(stderr, "usage: %s [SECONDS] [THREADS]\n", name);
		exit(2);
	}
	return v;
}

/* Arguments, deadline, threads, pid file. */
void
driver_start(const char *name, int argc, char **argv, const char *pidfile_env,
             void *(*thread_fn)(void *))
{
	long seconds = argc > 1 ? driver_arg(name, argv[1], 86400) : 5;
	const char *pidfile = getenv(pidfile_env);

	nthreads = argc > 2 ? driver_arg(name, argv[2], 1024) : 1;
	if (argc > 3)
		driver_arg(name, "", 0);
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += seconds;
	threads = calloc((size_t)nthreads, sizeof *threads);
	if (threads == NULL)
		exit(1);
	for (long t = 1; t < nthreads; t++) {
		int err = pthread_create(&threads[t], NULL, thread_fn, NULL);

		if (err) {
			fprintf(stderr, "%s: pthread_create: %s\n", name, strerror(err));
			exit(1);
		}
	}
	if (pidfile && *pidfile)
		driver_pidfile(name, pidfile);
}

/* Join the extra threads. */
void
driver_join(void)
{
	for (long t = 1; t < nthreads; t++)
		pthread_join(threads[t], NULL);
	free(threads);
}
