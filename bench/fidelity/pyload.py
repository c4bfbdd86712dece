"""CPU-bound Python workload for bench/fidelity.sh, run with python3.12+ -X perf.

Usage: python3.12 -X perf pyload.py TRIGGER_FILE [SECONDS]

It idles until TRIGGER_FILE exists (the benchmark creates it after both
profilers have started), then defines its hot functions (from a source
string) and runs them, so that their perf trampolines, the lines
"py::NAME:FILE" of /tmp/perf-PID.map, are all written after the profilers
started. Stops after SECONDS (default 60) of work.
"""
import os
import sys
import time

HOT_SOURCE = '''
import collections, json, re

def fib_recursive(n):
    return n if n < 2 else fib_recursive(n - 1) + fib_recursive(n - 2)

def sieve_of_eratosthenes(limit):
    composite = bytearray(limit + 1)
    count = 0
    for i in range(2, limit + 1):
        if composite[i]:
            continue
        count += 1
        for j in range(i * i, limit + 1, i):
            composite[j] = 1
    return count

class Vector3:
    __slots__ = ("x", "y", "z")
    def __init__(self, x, y, z):
        self.x, self.y, self.z = x, y, z
    def add_scaled(self, o, k):
        return Vector3(self.x + o.x * k, self.y + o.y * k, self.z + o.z * k)
    def length_squared(self):
        return self.x * self.x + self.y * self.y + self.z * self.z

def simulate_particles(n, steps):
    ps = [Vector3(i, i * 0.5, -i) for i in range(n)]
    g = Vector3(0, -9.8, 0)
    e = 0.0
    for _ in range(steps):
        ps = [p.add_scaled(g, 0.001) for p in ps]
        e += sum(p.length_squared() for p in ps)
    return e

def build_words(n):
    words, seed = [], 17
    for i in range(n):
        chars = []
        for _ in range(3 + i % 9):
            seed = (seed * 1103515245 + 12345) & 0xFFFFFFFF
            chars.append(chr(97 + (seed >> 16) % 26))
        words.append("".join(chars))
    return words

def count_words(words):
    return len(collections.Counter(words))

def sort_words_by_length(words):
    return sorted(words, key=lambda w: (len(w), w))

def json_round_trip(n):
    o = {"items": [{"id": i, "name": "item%d" % i, "tags": ["a", "b", str(i % 7)]} for i in range(n)]}
    return len(json.loads(json.dumps(o))["items"])

def regex_scan(text):
    return sum(1 for _ in re.finditer(r"([a-z]+)(\\d+)", text))

def run_hot_loop(deadline):
    text = "abc123 def456 ghi789 " * 2000
    rounds = sink = 0
    while time.monotonic() < deadline:
        sink += fib_recursive(18)
        sink += sieve_of_eratosthenes(60000)
        sink += simulate_particles(200, 5)
        words = build_words(2000)
        sink += count_words(words)
        sink += len(sort_words_by_length(words))
        sink += json_round_trip(300)
        sink += regex_scan(text)
        rounds += 1
    return rounds
'''


def main():
    trigger = sys.argv[1]
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 60.0
    while not os.path.exists(trigger):
        time.sleep(0.02)
    ns = {"time": time}
    exec(compile(HOT_SOURCE, "pyload_hot.py", "exec"), ns)
    rounds = ns["run_hot_loop"](time.monotonic() + seconds)
    print("pyload: %d rounds" % rounds)


if __name__ == "__main__":
    main()
