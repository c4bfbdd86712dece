// CPU-bound Java workload for bench/fidelity.sh. The benchmark runs
// `jcmd PID Compiler.perfmap` a few seconds into the profiling window, which
// writes /tmp/perf-PID.map (JIT-compiled methods) only then: a profiler that
// reads the map only once at start-up cannot name the JIT code.
// Usage: java JavaLoad [SECONDS]   (default 60)
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.DoubleUnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class JavaLoad {
	static int fibRecursive(int n) {
		return n < 2 ? n : fibRecursive(n - 1) + fibRecursive(n - 2);
	}

	static int sieveOfEratosthenes(int limit) {
		boolean[] composite = new boolean[limit + 1];
		int count = 0;
		for (int i = 2; i <= limit; i++) {
			if (composite[i])
				continue;
			count++;
			for (long j = (long) i * i; j <= limit; j += i)
				composite[(int) j] = true;
		}
		return count;
	}

	static final class Vector3 {
		final double x, y, z;

		Vector3(double x, double y, double z) {
			this.x = x;
			this.y = y;
			this.z = z;
		}

		Vector3 addScaled(Vector3 o, double k) {
			return new Vector3(x + o.x * k, y + o.y * k, z + o.z * k);
		}

		double lengthSquared() {
			return x * x + y * y + z * z;
		}
	}

	static double simulateParticles(int n, int steps) {
		Vector3[] ps = new Vector3[n];
		for (int i = 0; i < n; i++)
			ps[i] = new Vector3(i, i * 0.5, -i);
		Vector3 g = new Vector3(0, -9.8, 0);
		double e = 0;
		for (int s = 0; s < steps; s++) {
			for (int i = 0; i < n; i++)
				ps[i] = ps[i].addScaled(g, 0.001);
			e += Arrays.stream(ps).mapToDouble(Vector3::lengthSquared).sum();
		}
		return e;
	}

	static List<String> buildWords(int n) {
		List<String> words = new ArrayList<>(n);
		long seed = 17;
		for (int i = 0; i < n; i++) {
			StringBuilder sb = new StringBuilder();
			for (int k = 0; k < 3 + i % 9; k++) {
				seed = (seed * 1103515245L + 12345L) & 0xFFFFFFFFL;
				sb.append((char) ('a' + (seed >>> 16) % 26));
			}
			words.add(sb.toString());
		}
		return words;
	}

	static int countWords(List<String> words) {
		Map<String, Integer> hm = new HashMap<>();
		Map<String, Integer> tm = new TreeMap<>();
		for (String w : words) {
			hm.merge(w, 1, Integer::sum);
			tm.merge(w, 1, Integer::sum);
		}
		return hm.size() + tm.size();
	}

	static int sortWordsByLength(List<String> words) {
		List<String> v = new ArrayList<>(words);
		v.sort((a, b) -> a.length() != b.length() ? a.length() - b.length() : a.compareTo(b));
		return v.get(0).length();
	}

	static double integrate(DoubleUnaryOperator f, double a, double b, int steps) {
		double h = (b - a) / steps, s = 0;
		for (int i = 0; i < steps; i++)
			s += f.applyAsDouble(a + (i + 0.5) * h);
		return s * h;
	}

	static int regexScan(String text, Pattern p) {
		Matcher m = p.matcher(text);
		int c = 0;
		while (m.find())
			c++;
		return c;
	}

	public static void main(String[] args) {
		double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 60;
		long deadline = System.nanoTime() + (long) (seconds * 1e9);
		String text = "abc123 def456 ghi789 ".repeat(2000);
		Pattern p = Pattern.compile("([a-z]+)(\\d+)");
		long rounds = 0;
		double sink = 0;
		while (System.nanoTime() < deadline) {
			sink += fibRecursive(25);
			sink += sieveOfEratosthenes(300000);
			sink += simulateParticles(300, 30);
			List<String> words = buildWords(5000);
			sink += countWords(words);
			sink += sortWordsByLength(words);
			sink += integrate(x -> Math.sin(x) * x, 0, 3, 100000);
			sink += regexScan(text, p);
			rounds++;
		}
		System.out.println("JavaLoad: " + rounds + " rounds " + (sink > 0));
	}
}
