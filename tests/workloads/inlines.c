/* inlines: a hot loop inside two always-inlined helpers, so with debug
 * info the profile must show outer_fn -> inl_a -> inl_b, the two inner
 * frames marked as inlined. Usage: inlines [SECONDS] [PAUSE_MS] (default
 * 3, 0): with a pause, it runs 2 ms of calls, then sleeps that long (a
 * process with a small share of the samples, the same share on a fast
 * machine as on a slow one). */
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

/* Milliseconds of the monotonic clock. */
static long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The hot loop, inlined into inl_a. */
static inline __attribute__((always_inline)) void
inl_b(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * 7;
}

/* A middle level, inlined into outer_fn. */
static inline __attribute__((always_inline)) void
inl_a(unsigned long n)
{
	inl_b(n);
	sink ^= n;
}

/* The real function the symbol table knows. */
__attribute__((noinline)) void outer_fn(unsigned long n);
void
outer_fn(unsigned long n)
{
	inl_a(n);
}

int
main(int argc, char **argv)
{
	time_t end = time(NULL) + (argc > 1 ? atoi(argv[1]) : 3);
	long pause = argc > 2 ? atol(argv[2]) : 0;
	struct timespec ts = {pause / 1000, pause % 1000 * 1000000};

	while (time(NULL) < end) {
		if (pause == 0) {
			outer_fn(1000000);
			continue;
		}
		for (long until = now_ms() + 2; now_ms() < until;)
			outer_fn(20000);
		nanosleep(&ts, NULL);
	}
	return 0;
}
