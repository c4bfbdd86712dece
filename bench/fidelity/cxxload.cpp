// CPU-bound C++ workload for bench/fidelity.sh: templates, namespaces,
// lambdas, virtual calls, std containers and algorithms, so that most
// samples land in functions whose linkage names are long mangled C++ names
// (_ZN...). Build: g++ -O2 -g -fno-omit-frame-pointer -o cxxload cxxload.cpp
//
// Usage: cxxload [SECONDS]   run SECONDS (default: until killed)
//
// The hot functions are kept out of line (noinline) so that each shows up as
// its own symbol; the rest (std:: instantiations) is whatever g++ -O2 emits.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <string>
#include <unordered_map>
#include <vector>

#define NOINLINE __attribute__((noinline))

namespace fid {
namespace geo {

template <typename T, int N>
struct Vec {
	T v[N];
};

template <typename T, int N>
NOINLINE T dot(const Vec<T, N> &a, const Vec<T, N> &b)
{
	T s = 0;
	for (int i = 0; i < N; i++)
		s += a.v[i] * b.v[i];
	return s;
}

template <typename T, int N>
NOINLINE void axpy(T k, const Vec<T, N> &x, Vec<T, N> &y)
{
	for (int i = 0; i < N; i++)
		y.v[i] = k * x.v[i] + y.v[i] * T(0.999);
}

struct Shape {
	virtual ~Shape() = default;
	virtual double area() const = 0;
	virtual double perimeter() const = 0;
};

struct Circle final : Shape {
	double r;
	explicit Circle(double r) : r(r) {}
	NOINLINE double area() const override { return M_PI * r * r; }
	NOINLINE double perimeter() const override { return 2 * M_PI * r; }
};

struct Polygon final : Shape {
	std::vector<std::pair<double, double>> pts;
	NOINLINE double area() const override
	{
		double s = 0;
		for (size_t i = 0; i < pts.size(); i++) {
			const auto &p = pts[i], &q = pts[(i + 1) % pts.size()];
			s += p.first * q.second - q.first * p.second;
		}
		return std::fabs(s) / 2;
	}
	NOINLINE double perimeter() const override
	{
		double s = 0;
		for (size_t i = 0; i < pts.size(); i++) {
			const auto &p = pts[i], &q = pts[(i + 1) % pts.size()];
			s += std::hypot(q.first - p.first, q.second - p.second);
		}
		return s;
	}
};

} // namespace geo

namespace text {

NOINLINE std::string make_word(uint32_t seed, int len)
{
	std::string w;
	for (int i = 0; i < len; i++) {
		seed = seed * 1103515245u + 12345u;
		w.push_back(char('a' + (seed >> 16) % 26));
	}
	return w;
}

template <typename Map>
NOINLINE size_t count_words(Map &m, const std::vector<std::string> &words)
{
	for (const auto &w : words)
		++m[w];
	return m.size();
}

template <typename Cmp>
NOINLINE void sort_words(std::vector<std::string> &v, Cmp cmp)
{
	std::sort(v.begin(), v.end(), cmp);
}

} // namespace text

namespace algo {

template <typename T>
class Matrix {
  public:
	explicit Matrix(int n) : n_(n), a_(size_t(n) * n) {}
	T &at(int i, int j) { return a_[size_t(i) * n_ + j]; }
	const T &at(int i, int j) const { return a_[size_t(i) * n_ + j]; }
	int n() const { return n_; }
	NOINLINE Matrix multiply(const Matrix &o) const
	{
		Matrix r(n_);
		for (int i = 0; i < n_; i++)
			for (int k = 0; k < n_; k++) {
				T x = at(i, k);
				for (int j = 0; j < n_; j++)
					r.at(i, j) += x * o.at(k, j);
			}
		return r;
	}

  private:
	int n_;
	std::vector<T> a_;
};

template <typename F>
NOINLINE double integrate(F f, double a, double b, int steps)
{
	double h = (b - a) / steps, s = 0;
	for (int i = 0; i < steps; i++)
		s += f(a + (i + 0.5) * h);
	return s * h;
}

NOINLINE double apply_all(const std::vector<std::function<double(double)>> &fs, double x)
{
	double s = 0;
	for (const auto &f : fs)
		s += f(x);
	return s;
}

NOINLINE uint64_t collatz_len(uint64_t n)
{
	uint64_t k = 0;
	while (n != 1) {
		n = (n & 1) ? 3 * n + 1 : n / 2;
		k++;
	}
	return k;
}

} // namespace algo
} // namespace fid

static volatile double sink;

static void stage_geo()
{
	fid::geo::Vec<double, 64> a{}, b{};
	fid::geo::Vec<float, 16> c{}, d{};
	for (int i = 0; i < 64; i++)
		a.v[i] = i * 0.5, b.v[i] = 1.0 / (i + 1);
	for (int i = 0; i < 16; i++)
		c.v[i] = i, d.v[i] = 16 - i;
	double s = 0;
	for (int r = 0; r < 20000; r++) {
		s += fid::geo::dot(a, b) + fid::geo::dot(c, d);
		fid::geo::axpy(0.001, a, b);
	}
	std::vector<std::unique_ptr<fid::geo::Shape>> shapes;
	for (int i = 0; i < 200; i++) {
		if (i % 2) {
			shapes.push_back(std::make_unique<fid::geo::Circle>(i * 0.1));
		} else {
			auto p = std::make_unique<fid::geo::Polygon>();
			for (int k = 0; k < 3 + i % 13; k++)
				p->pts.emplace_back(std::cos(k * 0.7) * i, std::sin(k * 0.7) * i);
			shapes.push_back(std::move(p));
		}
	}
	for (int r = 0; r < 100; r++)
		for (const auto &sh : shapes)
			s += sh->area() + sh->perimeter();
	sink = s;
}

static void stage_text(uint32_t seed)
{
	std::vector<std::string> words;
	for (int i = 0; i < 20000; i++)
		words.push_back(fid::text::make_word(seed + i % 3000, 3 + i % 9));
	std::unordered_map<std::string, int> um;
	std::map<std::string, int> om;
	size_t n = fid::text::count_words(um, words) + fid::text::count_words(om, words);
	fid::text::sort_words(words, [](const std::string &x, const std::string &y) {
		return x.size() != y.size() ? x.size() < y.size() : x < y;
	});
	sink = double(n + words.front().size());
}

static void stage_algo(int round)
{
	fid::algo::Matrix<double> m(48), q(48);
	for (int i = 0; i < 48; i++)
		for (int j = 0; j < 48; j++)
			m.at(i, j) = (i + j) % 7, q.at(i, j) = (i * j) % 5;
	auto r = m.multiply(q);
	double k = round % 3 + 1;
	double s = r.at(3, 4);
	s += fid::algo::integrate([k](double x) { return std::sin(k * x) * x; }, 0, 3, 200000);
	s += fid::algo::integrate([](double x) { return std::exp(-x * x); }, -2, 2, 200000);
	std::vector<std::function<double(double)>> fs = {
		[](double x) { return x * x; },
		[k](double x) { return std::sqrt(x + k); },
		[](double x) { return std::log1p(x); },
	};
	for (int i = 0; i < 100000; i++)
		s += fid::algo::apply_all(fs, i * 0.01);
	uint64_t c = 0;
	for (uint64_t n = 1; n < 60000; n++)
		c += fid::algo::collatz_len(n + round);
	sink = s + double(c);
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 0;
	auto t0 = std::chrono::steady_clock::now();
	for (int round = 0;; round++) {
		stage_geo();
		stage_text(uint32_t(round) * 7919u);
		stage_algo(round);
		if (secs > 0) {
			std::chrono::duration<double> el = std::chrono::steady_clock::now() - t0;
			if (el.count() >= secs)
				break;
		}
	}
	return 0;
}
