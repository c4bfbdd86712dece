// rsnames: a Rust workload whose hot function is a method of a generic
// struct in a module, for the demangling tests (legacy and v0 mangling):
// nearly all the time is in rsnames::outer::Thing<T>::spin (legacy) /
// <rsnames::outer::Thing<u32>>::spin (v0), called from main.
// Usage: rsnames [SECONDS] (default 5); PIDFILE in the environment gets
// our pid once we run.
use std::time::Instant;

mod outer {
    pub struct Thing<T>(pub T);

    impl<T: Copy + Into<u64>> Thing<T> {
        // The hot function.
        #[inline(never)]
        pub fn spin(&self, n: u64, seed: u64) -> u64 {
            let mut a: u64 = self.0.into() ^ seed;
            for i in 0..n {
                a = a.wrapping_mul(31).wrapping_add(i) ^ (a >> 7);
            }
            a
        }
    }
}

fn main() {
    let secs: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(5.0);
    if let Ok(path) = std::env::var("PIDFILE") {
        let tmp = format!("{}.tmp", path);
        std::fs::write(&tmp, format!("{}\n", std::process::id())).expect("pid file");
        std::fs::rename(&tmp, &path).expect("pid file");
    }
    let thing = outer::Thing(3u32);
    let start = Instant::now();
    let mut sink = 0u64;
    // each call's seed is the last result: no call can be hoisted
    while start.elapsed().as_secs_f64() < secs {
        sink = thing.spin(1 << 20, sink);
    }
    std::process::exit((sink == 42) as i32);
}
