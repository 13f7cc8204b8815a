//! Locking that survives a panic elsewhere: nothing panics while holding the host's locks, but
//! a poisoned lock must not take the host down with it.

use std::sync::{Mutex, MutexGuard};

/// Locks `mutex`, taking the data even if a thread panicked while holding it.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poison| poison.into_inner())
}
