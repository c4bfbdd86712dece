// CPU-bound Rust workload for bench/fidelity.sh: generics, traits, closures,
// modules and std collections, so that most samples land in functions with
// mangled Rust names (legacy _ZN...17h<hash>E or v0 _R...).
// Build: rustc -C opt-level=2 -g -C force-frame-pointers=yes -o rustload rustload.rs
//
// Usage: rustload [SECONDS]   run SECONDS (default: until killed)
use std::collections::{BTreeMap, HashMap};
use std::hint::black_box;
use std::time::Instant;

mod geo {
    pub trait Shape {
        fn area(&self) -> f64;
        fn perimeter(&self) -> f64;
    }

    pub struct Circle {
        pub r: f64,
    }

    pub struct Polygon {
        pub pts: Vec<(f64, f64)>,
    }

    impl Shape for Circle {
        #[inline(never)]
        fn area(&self) -> f64 {
            std::f64::consts::PI * self.r * self.r
        }
        #[inline(never)]
        fn perimeter(&self) -> f64 {
            2.0 * std::f64::consts::PI * self.r
        }
    }

    impl Shape for Polygon {
        #[inline(never)]
        fn area(&self) -> f64 {
            let n = self.pts.len();
            let mut s = 0.0;
            for i in 0..n {
                let (p, q) = (self.pts[i], self.pts[(i + 1) % n]);
                s += p.0 * q.1 - q.0 * p.1;
            }
            s.abs() / 2.0
        }
        #[inline(never)]
        fn perimeter(&self) -> f64 {
            let n = self.pts.len();
            (0..n)
                .map(|i| {
                    let (p, q) = (self.pts[i], self.pts[(i + 1) % n]);
                    (q.0 - p.0).hypot(q.1 - p.1)
                })
                .sum()
        }
    }

    #[inline(never)]
    pub fn dot<T: Copy + Default + std::ops::Mul<Output = T> + std::ops::Add<Output = T>, const N: usize>(
        a: &[T; N],
        b: &[T; N],
    ) -> T {
        let mut s = T::default();
        for i in 0..N {
            s = s + a[i] * b[i];
        }
        s
    }
}

mod text {
    use std::collections::{BTreeMap, HashMap};

    #[inline(never)]
    pub fn make_word(mut seed: u32, len: usize) -> String {
        let mut w = String::with_capacity(len);
        for _ in 0..len {
            seed = seed.wrapping_mul(1103515245).wrapping_add(12345);
            w.push((b'a' + ((seed >> 16) % 26) as u8) as char);
        }
        w
    }

    pub trait Counter {
        fn bump(&mut self, w: &str);
        fn len(&self) -> usize;
    }

    impl Counter for HashMap<String, u32> {
        #[inline(never)]
        fn bump(&mut self, w: &str) {
            *self.entry(w.to_string()).or_insert(0) += 1;
        }
        fn len(&self) -> usize {
            HashMap::len(self)
        }
    }

    impl Counter for BTreeMap<String, u32> {
        #[inline(never)]
        fn bump(&mut self, w: &str) {
            *self.entry(w.to_string()).or_insert(0) += 1;
        }
        fn len(&self) -> usize {
            BTreeMap::len(self)
        }
    }

    #[inline(never)]
    pub fn count_words<C: Counter>(c: &mut C, words: &[String]) -> usize {
        for w in words {
            c.bump(w);
        }
        c.len()
    }

    #[inline(never)]
    pub fn sort_words<F: FnMut(&String, &String) -> std::cmp::Ordering>(v: &mut Vec<String>, f: F) {
        v.sort_by(f);
    }
}

mod algo {
    pub struct Matrix<T> {
        n: usize,
        a: Vec<T>,
    }

    impl<T: Copy + Default + std::ops::Mul<Output = T> + std::ops::AddAssign> Matrix<T> {
        pub fn new(n: usize) -> Self {
            Matrix { n, a: vec![T::default(); n * n] }
        }
        pub fn set(&mut self, i: usize, j: usize, v: T) {
            self.a[i * self.n + j] = v;
        }
        pub fn get(&self, i: usize, j: usize) -> T {
            self.a[i * self.n + j]
        }
        #[inline(never)]
        pub fn multiply(&self, o: &Matrix<T>) -> Matrix<T> {
            let mut r = Matrix::new(self.n);
            for i in 0..self.n {
                for k in 0..self.n {
                    let x = self.get(i, k);
                    for j in 0..self.n {
                        r.a[i * self.n + j] += x * o.a[k * self.n + j];
                    }
                }
            }
            r
        }
    }

    #[inline(never)]
    pub fn integrate<F: Fn(f64) -> f64>(f: F, a: f64, b: f64, steps: usize) -> f64 {
        let h = (b - a) / steps as f64;
        (0..steps).map(|i| f(a + (i as f64 + 0.5) * h)).sum::<f64>() * h
    }

    #[inline(never)]
    pub fn apply_all(fs: &[Box<dyn Fn(f64) -> f64>], x: f64) -> f64 {
        fs.iter().map(|f| f(x)).sum()
    }

    #[inline(never)]
    pub fn collatz_len(mut n: u64) -> u64 {
        let mut k = 0;
        while n != 1 {
            n = if n & 1 == 1 { 3 * n + 1 } else { n / 2 };
            k += 1;
        }
        k
    }
}

use geo::Shape;

fn stage_geo() -> f64 {
    let mut a = [0f64; 64];
    let mut b = [0f64; 64];
    let mut c = [0f32; 16];
    let mut d = [0f32; 16];
    for i in 0..64 {
        a[i] = i as f64 * 0.5;
        b[i] = 1.0 / (i as f64 + 1.0);
    }
    for i in 0..16 {
        c[i] = i as f32;
        d[i] = 16.0 - i as f32;
    }
    let mut s = 0.0;
    for _ in 0..20000 {
        s += geo::dot(black_box(&a), &b) + geo::dot(black_box(&c), &d) as f64;
    }
    let mut shapes: Vec<Box<dyn Shape>> = Vec::new();
    for i in 0..200 {
        if i % 2 == 1 {
            shapes.push(Box::new(geo::Circle { r: i as f64 * 0.1 }));
        } else {
            let pts = (0..3 + i % 13)
                .map(|k| ((k as f64 * 0.7).cos() * i as f64, (k as f64 * 0.7).sin() * i as f64))
                .collect();
            shapes.push(Box::new(geo::Polygon { pts }));
        }
    }
    for _ in 0..100 {
        for sh in &shapes {
            s += black_box(sh).area() + sh.perimeter();
        }
    }
    s
}

fn stage_text(seed: u32) -> usize {
    let mut words: Vec<String> = (0..20000u32)
        .map(|i| text::make_word(seed.wrapping_add(i % 3000), 3 + (i % 9) as usize))
        .collect();
    let mut hm: HashMap<String, u32> = HashMap::new();
    let mut bm: BTreeMap<String, u32> = BTreeMap::new();
    let n = text::count_words(&mut hm, &words) + text::count_words(&mut bm, &words);
    text::sort_words(&mut words, |x, y| x.len().cmp(&y.len()).then_with(|| x.cmp(y)));
    n + words[0].len() + hm.len() + bm.len()
}

fn stage_algo(round: u64) -> f64 {
    let mut m = algo::Matrix::<f64>::new(48);
    let mut q = algo::Matrix::<f64>::new(48);
    for i in 0..48 {
        for j in 0..48 {
            m.set(i, j, ((i + j) % 7) as f64);
            q.set(i, j, ((i * j) % 5) as f64);
        }
    }
    let r = m.multiply(&q);
    let k = (round % 3 + 1) as f64;
    let mut s = r.get(3, 4);
    s += algo::integrate(|x| (k * x).sin() * x, 0.0, 3.0, 200000);
    s += algo::integrate(|x| (-x * x).exp(), -2.0, 2.0, 200000);
    let fs: Vec<Box<dyn Fn(f64) -> f64>> =
        vec![Box::new(|x| x * x), Box::new(move |x| (x + k).sqrt()), Box::new(|x: f64| x.ln_1p())];
    for i in 0..100000 {
        s += algo::apply_all(&fs, black_box(i as f64 * 0.01));
    }
    let mut c = 0;
    for n in 1..60000u64 {
        c += algo::collatz_len(black_box(n + round));
    }
    s + c as f64
}

fn main() {
    let secs: f64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0.0);
    let t0 = Instant::now();
    let mut round = 0u64;
    loop {
        black_box(stage_geo());
        black_box(stage_text((round as u32).wrapping_mul(7919)));
        black_box(stage_algo(round));
        round += 1;
        if secs > 0.0 && t0.elapsed().as_secs_f64() >= secs {
            break;
        }
    }
}
