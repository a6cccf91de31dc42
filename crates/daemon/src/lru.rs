//! A least-recently-used map with a cap on its entries. Entries are taken
//! out while in use (a request owns its unit exclusively, so the map's lock
//! is held only to take and to put back) and evicted, least recently put
//! back first, when the cap is exceeded.

use std::collections::HashMap;

pub struct Lru<V> {
    cap: usize,
    clock: u64,
    entries: HashMap<String, (u64, V)>,
}

impl<V> Lru<V> {
    pub fn new(cap: usize) -> Lru<V> {
        Lru { cap: cap.max(1), clock: 0, entries: HashMap::new() }
    }

    pub fn cap(&self) -> usize {
        self.cap
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Removes and returns the entry of `key` (the caller puts it back).
    pub fn take(&mut self, key: &str) -> Option<V> {
        self.entries.remove(key).map(|(_, v)| v)
    }

    /// Stores `value` as the most recently used; returns what was evicted
    /// (to be dropped outside the caller's lock: freeing a unit takes time).
    pub fn put(&mut self, key: String, value: V) -> Vec<V> {
        self.clock += 1;
        let mut evicted: Vec<V> = self.entries.insert(key, (self.clock, value)).map(|(_, v)| v).into_iter().collect();
        while self.entries.len() > self.cap {
            let oldest = self.entries.iter().min_by_key(|(_, (t, _))| *t).map(|(k, _)| k.clone());
            match oldest.and_then(|k| self.entries.remove(&k)) {
                Some((_, v)) => evicted.push(v),
                None => break,
            }
        }
        evicted
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evicts_least_recently_put_back() {
        let mut l = Lru::new(2);
        assert!(l.put("a".into(), 1).is_empty());
        assert!(l.put("b".into(), 2).is_empty());
        let a = l.take("a").unwrap();
        assert!(l.put("a".into(), a).is_empty());
        assert_eq!(l.put("c".into(), 3), vec![2]);
        assert_eq!(l.len(), 2);
        assert_eq!(l.take("b"), None);
        assert_eq!(l.put("a".into(), 10), vec![1]);
        assert_eq!(l.take("a"), Some(10));
    }
}
