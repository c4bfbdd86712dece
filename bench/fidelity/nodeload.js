// CPU-bound Node workload for bench/fidelity.sh, run with --perf-basic-prof.
// Usage: node --perf-basic-prof nodeload.js TRIGGER_FILE [SECONDS]
//
// It idles until TRIGGER_FILE exists (the benchmark creates it after both
// profilers have started), and only then defines its hot functions (from a
// source string, so V8 has not even parsed them before) and runs them. Every
// JIT entry of these functions in /tmp/perf-PID.map is thus written after the
// profilers started: a profiler that reads the map only once at start-up
// cannot name them. Stops after SECONDS (default 60) of work.
'use strict';
const fs = require('fs');

const trigger = process.argv[2];
const seconds = Number(process.argv[3] || 60);

const hotSource = `
function fibRecursive(n) { return n < 2 ? n : fibRecursive(n - 1) + fibRecursive(n - 2); }
function sieveOfEratosthenes(limit) {
  const composite = new Uint8Array(limit + 1);
  let count = 0;
  for (let i = 2; i <= limit; i++) {
    if (composite[i]) continue;
    count++;
    for (let j = i * i; j <= limit; j += i) composite[j] = 1;
  }
  return count;
}
class Vector3 {
  constructor(x, y, z) { this.x = x; this.y = y; this.z = z; }
  addScaled(o, k) { return new Vector3(this.x + o.x * k, this.y + o.y * k, this.z + o.z * k); }
  lengthSquared() { return this.x * this.x + this.y * this.y + this.z * this.z; }
}
function simulateParticles(n, steps) {
  let ps = [];
  for (let i = 0; i < n; i++) ps.push(new Vector3(i, i * 0.5, -i));
  const g = new Vector3(0, -9.8, 0);
  let e = 0;
  for (let s = 0; s < steps; s++) {
    ps = ps.map(p => p.addScaled(g, 0.001));
    e += ps.reduce((acc, p) => acc + p.lengthSquared(), 0);
  }
  return e;
}
function buildWords(n) {
  const words = [];
  let seed = 17;
  for (let i = 0; i < n; i++) {
    let w = '';
    for (let k = 0; k < 3 + (i % 9); k++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      w += String.fromCharCode(97 + ((seed >>> 16) % 26));
    }
    words.push(w);
  }
  return words;
}
function countWordsInMap(words) {
  const m = new Map();
  for (const w of words) m.set(w, (m.get(w) || 0) + 1);
  return m.size;
}
function sortWordsByLength(words) {
  return words.slice().sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
}
function jsonRoundTrip(n) {
  const o = { items: [] };
  for (let i = 0; i < n; i++) o.items.push({ id: i, name: 'item' + i, tags: ['a', 'b', String(i % 7)] });
  return JSON.parse(JSON.stringify(o)).items.length;
}
function regexScan(text) {
  let c = 0;
  const re = /([a-z]+)(\\d+)/g;
  while (re.exec(text) !== null) c++;
  return c;
}
function runHotLoop(deadline) {
  const text = 'abc123 def456 ghi789 '.repeat(2000);
  let rounds = 0, sink = 0;
  while (Date.now() < deadline) {
    sink += fibRecursive(22);
    sink += sieveOfEratosthenes(200000);
    sink += simulateParticles(200, 20);
    const words = buildWords(5000);
    sink += countWordsInMap(words);
    sink += sortWordsByLength(words).length;
    sink += jsonRoundTrip(500);
    sink += regexScan(text);
    rounds++;
  }
  return [rounds, sink];
}
runHotLoop;
`;

function start() {
  const runHotLoop = eval(hotSource);
  const [rounds] = runHotLoop(Date.now() + seconds * 1000);
  console.log(`nodeload: ${rounds} rounds`);
}

(function wait() {
  if (fs.existsSync(trigger)) start();
  else setTimeout(wait, 20);
})();
