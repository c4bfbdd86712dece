// cxxnames: a C++ workload whose hot function has a long mangled name: a
// member function template of a class template in nested namespaces,
// called from a lambda, with a functor's call operator inlined into it.
// Nearly all the time is in
//   tt::shapes::Accumulator<unsigned long, 3>::spin<tt::shapes::Mixer>(
//       unsigned long, unsigned long, tt::shapes::Mixer const&)
// called from main::{lambda(unsigned long)#1}::operator() (a tail call, so
// stacks read main -> spin).
// Usage: cxxnames [SECONDS] (default 5); PIDFILE in the environment gets
// our pid once we run.
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <unistd.h>

namespace tt
{
namespace shapes
{
// A functor, inlined into spin (an inline frame with a C++ name).
struct Mixer {
	unsigned long k;
	unsigned long operator()(unsigned long a, unsigned long i) const
	{
		return (a * k + i) % 1000003;
	}
};

template <typename T, int N> class Accumulator
{
      public:
	// The hot function.
	template <typename F> __attribute__((noinline, noclone)) T spin(T rounds, T seed, const F &f)
	{
		T a = N ^ seed;

		for (T i = 0; i < rounds; i++)
			a = f(a, i) ^ (a >> 7);
		return a;
	}
};
} // namespace shapes
} // namespace tt

// Seconds on the monotonic clock.
static double
now()
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

// Write our pid to the file PIDFILE names, through a rename.
static void
write_pidfile()
{
	const char *path = getenv("PIDFILE");
	char tmp[4096];
	FILE *f;

	if (path == nullptr)
		return;
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	if ((f = fopen(tmp, "w")) == nullptr || fprintf(f, "%d\n", (int)getpid()) < 0 ||
	    fclose(f) != 0 || rename(tmp, path) != 0) {
		perror("cxxnames: pid file");
		exit(1);
	}
}

int
main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 5, end = now() + secs;
	tt::shapes::Accumulator<unsigned long, 3> acc;
	tt::shapes::Mixer mix{31};
	unsigned long sink = 0;
	// each call's seed is the last result: no call can be hoisted
	auto run = [&](unsigned long n) __attribute__((noinline, noclone)) {
		return acc.spin(n, sink, mix);
	};

	write_pidfile();
	while (now() < end)
		sink = run(1ul << 20);
	return sink == 42;
}
