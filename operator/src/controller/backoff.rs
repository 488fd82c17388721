//! Capped exponential backoff per object, for `error_policy`.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use kube::runtime::reflector::ObjectRef;

use crate::api::v1alpha1::Memcached;

/// Retry delays that double with each consecutive failure of the same object, up to a cap,
/// and start over once the object reconciles successfully.
pub struct Backoff {
    base: Duration,
    cap: Duration,
    failures: Mutex<HashMap<ObjectRef<Memcached>, u32>>,
}

impl Backoff {
    /// Delays of `base`, `2 * base`, `4 * base`, ... never above `cap`.
    pub fn new(base: Duration, cap: Duration) -> Self {
        Self {
            base,
            cap,
            failures: Mutex::default(),
        }
    }

    /// Records one more failure of `object` and returns how long to wait before the retry.
    pub fn next_delay(&self, object: ObjectRef<Memcached>) -> Duration {
        let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        let count = failures.entry(object).or_insert(0);
        let factor = 1u32.checked_shl(*count).unwrap_or(u32::MAX);
        *count = count.saturating_add(1);
        self.base.saturating_mul(factor).min(self.cap)
    }

    /// Forgets the failures of `object` after it reconciled successfully.
    pub fn reset(&self, object: &ObjectRef<Memcached>) {
        self.failures
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(object);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_up_to_the_cap_and_resets() {
        let backoff = Backoff::new(Duration::from_secs(1), Duration::from_secs(10));
        let a = ObjectRef::<Memcached>::new("a").within("ns");
        let b = ObjectRef::<Memcached>::new("b").within("ns");
        let delays: Vec<u64> = (0..6)
            .map(|_| backoff.next_delay(a.clone()).as_secs())
            .collect();
        assert_eq!(delays, [1, 2, 4, 8, 10, 10]);
        assert_eq!(
            backoff.next_delay(b.clone()).as_secs(),
            1,
            "each object has its own count"
        );
        backoff.reset(&a);
        assert_eq!(backoff.next_delay(a).as_secs(), 1);
        for _ in 0..100 {
            assert!(backoff.next_delay(b.clone()) <= Duration::from_secs(10));
        }
    }
}
