/*
 * libhot: a shared library whose one function spends its time in a tight
 * loop, for annotating code in a shared library. It is linked at a base
 * address of its own (-Ttext-segment), so its link-time addresses differ
 * from its file offsets and from its run-time addresses: a sample lands in
 * the loop only if all three are told apart.
 */

unsigned long hot_lib_fn(unsigned long n);

/* The hot function: nothing but the loop. */
__attribute__((noinline)) unsigned long
hot_lib_fn(unsigned long n)
{
	unsigned long acc = 3;

	for (unsigned long i = 0; i < n; i++)
		acc += (i * 5) ^ (acc >> 2);
	return acc;
}
