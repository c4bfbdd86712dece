/* deepinline: a hot loop under ten levels of always-inlined helpers
 * (deeper than any fixed cap a profiler might keep), in one real
 * function, so the profile must show deep_outer -> inl_10 -> ... -> inl_1,
 * every level marked as inlined, as addr2line -i lists them.
 * Usage: deepinline [SECONDS] (default 3). */
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

/* Level N of the chain: calls level N - 1, then works a little of its own
 * so that no call is a tail call the compiler could merge away. */
#define LEVEL(n, inner)                                                                            \
	static inline __attribute__((always_inline)) void inl_##n(unsigned long k)                 \
	{                                                                                          \
		inner(k);                                                                          \
		sink ^= n;                                                                         \
	}

/* The hot loop, innermost. */
static inline __attribute__((always_inline)) void
inl_1(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * 7;
}

LEVEL(2, inl_1)
LEVEL(3, inl_2)
LEVEL(4, inl_3)
LEVEL(5, inl_4)
LEVEL(6, inl_5)
LEVEL(7, inl_6)
LEVEL(8, inl_7)
LEVEL(9, inl_8)
LEVEL(10, inl_9)

/* The real function the symbol table knows. */
__attribute__((noinline)) void deep_outer(unsigned long n);
void
deep_outer(unsigned long n)
{
	inl_10(n);
}

int
main(int argc, char **argv)
{
	time_t end = time(NULL) + (argc > 1 ? atoi(argv[1]) : 3);

	while (time(NULL) < end)
		deep_outer(1000000);
	return 0;
}
