/* deepinline: a hot loop under ten levels of always-inlined helpers
 * (deeper than any fixed cap a profiler might keep), in one real
 * function, so the profile must show deep_outer -> inl_10 -> ... -> inl_1,
 * every level marked as inlined, as addr2line -i lists them.
 * Usage: deepinline [SECONDS] (default 3). */
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

#define INL static inline __attribute__((always_inline)) void

/* The hot loop, innermost. */
INL
inl_1(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * 7;
}

/* Nine levels above it, each with work of its own after the call so none
 * is a tail call the compiler could merge. */
INL
inl_2(unsigned long n)
{
	inl_1(n);
	sink ^= 2;
}
INL
inl_3(unsigned long n)
{
	inl_2(n);
	sink ^= 3;
}
INL
inl_4(unsigned long n)
{
	inl_3(n);
	sink ^= 4;
}
INL
inl_5(unsigned long n)
{
	inl_4(n);
	sink ^= 5;
}
INL
inl_6(unsigned long n)
{
	inl_5(n);
	sink ^= 6;
}
INL
inl_7(unsigned long n)
{
	inl_6(n);
	sink ^= 7;
}
INL
inl_8(unsigned long n)
{
	inl_7(n);
	sink ^= 8;
}
INL
inl_9(unsigned long n)
{
	inl_8(n);
	sink ^= 9;
}
INL
inl_10(unsigned long n)
{
	inl_9(n);
	sink ^= 10;
}

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
