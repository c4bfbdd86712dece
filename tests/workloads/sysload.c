/*
 * sysload: known loads for the system view's tests.
 *
 * Usage:
 *   sysload busy CPU THREADS SECONDS   THREADS threads spinning on CPU (named
 *                                      spin-1, spin-2, ..., or all
 *                                      $SYSLOAD_THREAD_NAME), the main
 *                                      thread waiting for them
 *   sysload touch MIB SECONDS          MIB MiB of anonymous memory written,
 *                                      then resident while it sleeps
 *   sysload forks N                    N children forked and reaped, one at
 *                                      a time, as fast as it can
 *   sysload net MIB                    MIB MiB sent over TCP on 127.0.0.1
 *                                      to a thread that reads them all (lo
 *                                      brought up if it is down, as in a
 *                                      new network namespace)
 *   sysload write PATH MIB             MIB MiB written to PATH with O_DIRECT
 *                                      in 1 MiB writes (a block device or a
 *                                      file), then fsync
 *   sysload idle N SECONDS             N sleeping processes (children) for
 *                                      SECONDS, for benchmarks
 * With SYSLOAD_PIDFILE set, writes its pid there (atomically) once the
 * load is in place (busy: the threads spin; touch: the pages are
 * resident; idle: the children exist). Prints nothing on success.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "driver.h"

/* A number argument (min to max) or exit 2. */
static long
arg(const char *s, long min, long max)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (end == s || *end != '\0' || v < min || v > max) {
		fputs("usage: sysload busy CPU THREADS SECONDS | touch MIB SECONDS | forks N | net "
		      "MIB | write PATH MIB | idle N SECONDS\n",
		      stderr);
		exit(2);
	}
	return v;
}

/* Exit 1 with errno's message. */
static void
die(const char *what)
{
	fprintf(stderr, "sysload: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* The pid file, if asked for. */
static void
ready(void)
{
	const char *path = getenv("SYSLOAD_PIDFILE");

	if (path != NULL)
		driver_pidfile("sysload", path);
}

/* Seconds on the monotonic clock. */
static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double busy_until;

/* Spin until the deadline, named after arg (its number). */
static void *
spin(void *arg)
{
	const char *name = getenv("SYSLOAD_THREAD_NAME");
	volatile unsigned long n = 0;
	char own[16];

	snprintf(own, sizeof own, "spin-%ld", (long)(intptr_t)arg);
	prctl(PR_SET_NAME, name != NULL ? name : own);
	while (now() < busy_until)
		for (int i = 0; i < 100000; i++)
			n++;
	return NULL;
}

/* THREADS threads on one CPU. */
static void
busy(long cpu, long threads, long secs)
{
	pthread_t *t = calloc((size_t)threads, sizeof *t);
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET((int)cpu, &set);
	if (sched_setaffinity(0, sizeof set, &set) != 0) /* threads inherit it */
		die("sched_setaffinity");
	busy_until = now() + (double)secs;
	for (long i = 0; i < threads; i++)
		if (pthread_create(&t[i], NULL, spin, (void *)(intptr_t)(i + 1)) != 0)
			die("pthread_create");
	ready();
	for (long i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	free(t);
}

/* MIB MiB written, then kept resident. */
static void
touch(long mib, long secs)
{
	size_t len = (size_t)mib << 20;
	long page = sysconf(_SC_PAGESIZE);
	volatile char *p =
	    mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap");
	for (size_t i = 0; i < len; i += (size_t)page)
		p[i] = 1;
	ready();
	sleep((unsigned)secs);
}

/* N children forked and reaped. */
static void
forks(long n)
{
	ready();
	for (long i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (pid == 0)
			_exit(0);
		waitpid(pid, NULL, 0);
	}
}

/* Read everything from the listening socket's first connection. */
static void *
sink(void *arg)
{
	int lfd = *(int *)arg, fd = accept(lfd, NULL, NULL);
	char buf[65536];

	if (fd < 0)
		die("accept");
	while (read(fd, buf, sizeof buf) > 0)
		;
	close(fd);
	return NULL;
}

/* Bring lo up if it is down (a new network namespace's is). */
static void
lo_up(void)
{
	struct ifreq ifr = {0};
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "lo");
	if (fd < 0 || ioctl(fd, SIOCGIFFLAGS, &ifr) != 0)
		die("lo");
	if (!(ifr.ifr_flags & IFF_UP)) {
		ifr.ifr_flags |= IFF_UP;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr) != 0)
			die("bringing lo up");
	}
	close(fd);
}

/* MIB MiB over loopback TCP. */
static void
net(long mib)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t alen = sizeof a;
	static char buf[1 << 20];
	int lfd = socket(AF_INET, SOCK_STREAM, 0), fd;
	pthread_t t;

	lo_up();
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&a, sizeof a) != 0 || listen(lfd, 1) != 0 ||
	    getsockname(lfd, (struct sockaddr *)&a, &alen) != 0)
		die("listen on 127.0.0.1");
	if (pthread_create(&t, NULL, sink, &lfd) != 0)
		die("pthread_create");
	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) < 0 ||
	    connect(fd, (struct sockaddr *)&a, sizeof a) != 0)
		die("connect to 127.0.0.1");
	ready();
	memset(buf, 'x', sizeof buf);
	for (long i = 0; i < mib; i++)
		for (size_t off = 0; off < sizeof buf;) {
			ssize_t w = write(fd, buf + off, sizeof buf - off);

			if (w < 0)
				die("write");
			off += (size_t)w;
		}
	close(fd);
	pthread_join(t, NULL);
	close(lfd);
}

/* MIB MiB with O_DIRECT. */
static void
write_direct(const char *path, long mib)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_DIRECT, 0600);
	void *buf;

	if (fd < 0)
		die(path);
	if (posix_memalign(&buf, 4096, 1 << 20) != 0)
		die("posix_memalign");
	memset(buf, 'y', 1 << 20);
	ready();
	for (long i = 0; i < mib; i++)
		if (write(fd, buf, 1 << 20) != 1 << 20)
			die("write");
	if (fsync(fd) != 0)
		die("fsync");
	close(fd);
	free(buf);
}

/* N sleeping children for SECONDS. */
static void
idle(long n, long secs)
{
	pid_t *kids = calloc((size_t)n, sizeof *kids);

	for (long i = 0; i < n; i++) {
		if ((kids[i] = fork()) < 0)
			die("fork");
		if (kids[i] == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL); /* none outlives a killed parent */
			if (getppid() == 1)
				_exit(0);
			sleep((unsigned)secs);
			_exit(0);
		}
	}
	ready();
	for (long i = 0; i < n; i++)
		waitpid(kids[i], NULL, 0);
	free(kids);
}

int
main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	signal(SIGPIPE, SIG_IGN);
	if (strcmp(mode, "busy") == 0 && argc == 5)
		busy(arg(argv[2], 0, CPU_SETSIZE - 1), arg(argv[3], 1, 64), arg(argv[4], 1, 3600));
	else if (strcmp(mode, "touch") == 0 && argc == 4)
		touch(arg(argv[2], 1, 1 << 16), arg(argv[3], 1, 3600));
	else if (strcmp(mode, "forks") == 0 && argc == 3)
		forks(arg(argv[2], 1, 10000000));
	else if (strcmp(mode, "net") == 0 && argc == 3)
		net(arg(argv[2], 1, 1 << 20));
	else if (strcmp(mode, "write") == 0 && argc == 4)
		write_direct(argv[2], arg(argv[3], 1, 1 << 20));
	else if (strcmp(mode, "idle") == 0 && argc == 4)
		idle(arg(argv[2], 1, 100000), arg(argv[3], 1, 3600));
	else
		arg("", 1, 0);
	return 0;
}
