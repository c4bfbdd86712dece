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
 *                                 device, or a file made), each at its own
 *                                 offset, then fsync: waits for the disk in
 *                                 write_direct
 *        waiters lock MS [TIMES]  a thread holds a mutex MS ms (asleep) while
 *                                 the main thread waits for it in
 *                                 blocked_locker; TIMES times (default once)
 *        waiters fault PATH MB    writes MB MiB to the file PATH (made), drops
 *                                 its pages from the page cache, maps it and
 *                                 reads a byte of each page in faulting_reader
 *                                 (no readahead): a page fault waiting for the
 *                                 disk at each page
 * Prints nothing; exits 0, or 1 saying what failed. With WAITERS_ELAPSED set
 * to a path, writes there how long (ns) the waiting part took: the pipe
 * reads, the direct writes, the lock waits or the faulting reads.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
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

/* Now, in ns. */
static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Say how long the waiting part took, from t0, where WAITERS_ELAPSED says. */
static int
say_elapsed(uint64_t t0)
{
	const char *path = getenv("WAITERS_ELAPSED");
	FILE *f;

	if (path == NULL)
		return 0;
	if ((f = fopen(path, "w")) == NULL ||
	    fprintf(f, "%llu\n", (unsigned long long)(now_ns() - t0)) < 0 || fclose(f) != 0) {
		perror("waiters: WAITERS_ELAPSED");
		return 1;
	}
	return 0;
}

/* One direct write. Its own frame, as read_byte is (the frame pointer
 * walk skips the caller of a frameless leaf). */
__attribute__((noinline)) static ssize_t
write_one(int fd, const void *buf, off_t at)
{
	ssize_t n = pwrite(fd, buf, 4096, at);

	__asm__ volatile("" ::: "memory"); /* no tail call */
	return n;
}

/* count aligned direct writes at their offsets: each waits for the disk. */
__attribute__((noinline)) static int
write_direct(int fd, const void *buf, long count)
{
	for (long i = 0; i < count; i++)
		if (write_one(fd, buf, (off_t)i * 4096) != 4096) {
			perror("waiters: pwrite");
			return 1;
		}
	__asm__ volatile("" ::: "memory"); /* no tail call */
	return 0;
}

/* count aligned direct writes. */
static int
run_dio(const char *path, long count)
{
	int fd = open(path, O_WRONLY | O_DIRECT | O_CREAT, 0600);
	uint64_t t0;
	void *buf;

	if (fd < 0 || posix_memalign(&buf, 4096, 4096) != 0) {
		perror("waiters: open");
		return 1;
	}
	memset(buf, 0xab, 4096);
	t0 = now_ns();
	if (write_direct(fd, buf, count) != 0)
		return 1;
	fsync(fd);
	close(fd);
	free(buf);
	return say_elapsed(t0);
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t held = PTHREAD_MUTEX_INITIALIZER; /* ...for started */
static pthread_cond_t started = PTHREAD_COND_INITIALIZER;
static int holding;

/* The holder: takes the lock, says so, sleeps holding it. */
static void *
lock_holder(void *arg)
{
	pthread_mutex_lock(&lock);
	pthread_mutex_lock(&held);
	holding = 1;
	pthread_cond_signal(&started);
	pthread_mutex_unlock(&held);
	sleep_ms(*(long *)arg);
	pthread_mutex_unlock(&lock);
	return NULL;
}

/* Takes the lock. Its own frame, as read_byte is. */
__attribute__((noinline)) static void
lock_it(void)
{
	pthread_mutex_lock(&lock);
	__asm__ volatile("" ::: "memory"); /* no tail call */
}

/* Waits for the lock the holder holds: the off-CPU stack to find. */
__attribute__((noinline)) static void
blocked_locker(void)
{
	lock_it();
	pthread_mutex_unlock(&lock);
	__asm__ volatile("" ::: "memory"); /* no tail call */
}

/* One wait of ms for a mutex. */
static int
run_lock(long ms, uint64_t *waited)
{
	pthread_t t;
	uint64_t t0;

	holding = 0;
	if (pthread_create(&t, NULL, lock_holder, &ms) != 0) {
		perror("waiters: pthread_create");
		return 1;
	}
	pthread_mutex_lock(&held);
	while (!holding)
		pthread_cond_wait(&started, &held);
	pthread_mutex_unlock(&held);
	t0 = now_ns();
	blocked_locker();
	*waited += now_ns() - t0;
	pthread_join(t, NULL);
	return 0;
}

/* A byte of each page: a fault waiting for the disk at each. */
__attribute__((noinline)) static unsigned long
faulting_reader(const volatile unsigned char *p, size_t len)
{
	unsigned long sum = 0;

	for (size_t off = 0; off < len; off += 4096)
		sum += p[off];
	__asm__ volatile("" ::: "memory"); /* no tail call */
	return sum;
}

/* mb MiB written, dropped from the page cache, then faulted back in. */
static int
run_fault(const char *path, long mb)
{
	size_t len = (size_t)mb << 20;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	unsigned char *buf = malloc(1 << 20), *map;
	uint64_t t0;

	if (fd < 0 || buf == NULL) {
		perror("waiters: open");
		return 1;
	}
	memset(buf, 0x5a, 1 << 20);
	for (long i = 0; i < mb; i++)
		if (write(fd, buf, 1 << 20) != 1 << 20) {
			perror("waiters: write");
			return 1;
		}
	free(buf);
	/* written back first: only clean pages can be dropped */
	if (fsync(fd) != 0 || posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) != 0 ||
	    (map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0)) == MAP_FAILED ||
	    madvise(map, len, MADV_RANDOM) != 0) {
		perror("waiters: fault set-up");
		return 1;
	}
	t0 = now_ns();
	if (faulting_reader(map, len) != (unsigned long)(len / 4096) * 0x5a) {
		fputs("waiters: the file read back wrong\n", stderr);
		return 1;
	}
	munmap(map, len);
	close(fd);
	return say_elapsed(t0);
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
		uint64_t t0 = now_ns();

		for (long i = 0; i < times; i++)
			if (run_pipe(arg_num(argv[2])) != 0)
				return 1;
		return say_elapsed(t0);
	}
	if ((argc == 3 || argc == 4) && strcmp(argv[1], "lock") == 0) {
		long times = argc == 4 ? arg_num(argv[3]) : 1;
		uint64_t waited = 0;

		for (long i = 0; i < times; i++)
			if (run_lock(arg_num(argv[2]), &waited) != 0)
				return 1;
		return say_elapsed(now_ns() - waited);
	}
	if (argc == 4 && strcmp(argv[1], "fault") == 0)
		return run_fault(argv[2], arg_num(argv[3]));
	if (argc == 4 && strcmp(argv[1], "hogs") == 0)
		return run_hogs(arg_num(argv[2]), arg_num(argv[3]));
	if (argc == 3 && strcmp(argv[1], "idle") == 0)
		return run_idle(arg_num(argv[2]));
	if (argc == 4 && strcmp(argv[1], "dio") == 0)
		return run_dio(argv[2], arg_num(argv[3]));
	fputs("usage: waiters pipe MS [TIMES] | hogs N SECONDS | idle SECONDS | dio PATH COUNT | "
	      "lock MS [TIMES] | fault PATH MB\n",
	      stderr);
	return 2;
}
