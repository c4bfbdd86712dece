/*
 * waiters: a workload whose waits are known, for the scheduler and block
 * latencies of the latency view.
 *
 * Usage: waiters pipe MS [TIMES]  a thread blocks MS ms in read() on a pipe
 *                                 (in blocked_reader) until another writes;
 *                                 TIMES times (default once)
 *        waiters hogs N SECONDS   N processes named "hog" spin for SECONDS
 *        waiters idle SECONDS     a process named "idler" sleeps 100 ms at a
 *                                 time for SECONDS
 *        waiters dio PATH COUNT   COUNT 4 KiB O_DIRECT writes to PATH (a block
 *                                 device), each at its own offset, then fsync
 * Prints nothing; exits 0, or 1 saying what failed.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int pipe_fds[2];
static long pipe_ms;

/* Sleep ms milliseconds. */
static void
sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) != 0)
		;
}

/* The writer: wakes the reader after pipe_ms. */
static void *
late_writer(void *arg)
{
	(void)arg;
	sleep_ms(pipe_ms);
	if (write(pipe_fds[1], "x", 1) != 1)
		perror("waiters: write");
	return NULL;
}

/* One byte from the pipe. Its own frame: the frame pointer walk skips
 * the caller of a frameless leaf (libc's read), which is this one, not
 * blocked_reader. */
__attribute__((noinline)) static int
read_byte(int fd)
{
	char c;

	return read(fd, &c, 1) == 1 ? 0 : 1;
}

/* Blocks in read() until the writer writes: the off-CPU stack to find. */
__attribute__((noinline)) static int
blocked_reader(void)
{
	int rc = read_byte(pipe_fds[0]);

	__asm__ volatile("" ::: "memory"); /* no tail call */
	return rc;
}

/* One wait of ms in read(). */
static int
run_pipe(long ms)
{
	pthread_t t;
	int rc;

	pipe_ms = ms;
	if (pipe(pipe_fds) != 0 || pthread_create(&t, NULL, late_writer, NULL) != 0) {
		perror("waiters: pipe");
		return 1;
	}
	rc = blocked_reader();
	pthread_join(t, NULL);
	close(pipe_fds[0]);
	close(pipe_fds[1]);
	return rc;
}

/* Spin until secs have passed. */
__attribute__((noinline)) static void
spin(long secs)
{
	struct timespec start, now;
	volatile unsigned long x = 0;

	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		for (int i = 0; i < 100000; i++)
			x += (unsigned long)i;
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec - start.tv_sec < secs);
}

/* n spinning children. */
static int
run_hogs(long n, long secs)
{
	for (long i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			prctl(PR_SET_NAME, "hog");
			spin(secs);
			_exit(0);
		}
		if (pid < 0) {
			perror("waiters: fork");
			return 1;
		}
	}
	while (wait(NULL) > 0)
		;
	return 0;
}

/* Sleep in 100 ms steps. */
static int
run_idle(long secs)
{
	prctl(PR_SET_NAME, "idler");
	for (long i = 0; i < secs * 10; i++)
		sleep_ms(100);
	return 0;
}

/* count aligned direct writes. */
static int
run_dio(const char *path, long count)
{
	int fd = open(path, O_WRONLY | O_DIRECT);
	void *buf;

	if (fd < 0 || posix_memalign(&buf, 4096, 4096) != 0) {
		perror("waiters: open");
		return 1;
	}
	memset(buf, 0xab, 4096);
	for (long i = 0; i < count; i++)
		if (pwrite(fd, buf, 4096, (off_t)i * 4096) != 4096) {
			perror("waiters: pwrite");
			return 1;
		}
	fsync(fd);
	close(fd);
	free(buf);
	return 0;
}

/* A positive number argument, or exit 2. */
static long
arg_num(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (end == s || *end != '\0' || v <= 0 || v > 1000000) {
		fprintf(stderr, "waiters: bad number '%s'\n", s);
		exit(2);
	}
	return v;
}

int
main(int argc, char **argv)
{
	if ((argc == 3 || argc == 4) && strcmp(argv[1], "pipe") == 0) {
		long times = argc == 4 ? arg_num(argv[3]) : 1;

		for (long i = 0; i < times; i++)
			if (run_pipe(arg_num(argv[2])) != 0)
				return 1;
		return 0;
	}
	if (argc == 4 && strcmp(argv[1], "hogs") == 0)
		return run_hogs(arg_num(argv[2]), arg_num(argv[3]));
	if (argc == 3 && strcmp(argv[1], "idle") == 0)
		return run_idle(arg_num(argv[2]));
	if (argc == 4 && strcmp(argv[1], "dio") == 0)
		return run_dio(argv[2], arg_num(argv[3]));
	fputs("usage: waiters pipe MS [TIMES] | hogs N SECONDS | idle SECONDS | dio PATH COUNT\n",
	      stderr);
	return 2;
}
