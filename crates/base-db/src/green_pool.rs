//! Green trees shared by the translation units of one database.
//!
//! Ten units that include the same headers hold ten equal trees of those
//! headers, and ten equal item trees lowered from them: most of an editor's
//! memory. A [`GreenPool`] keeps one green node per distinct top-level item
//! (by content: a hash, confirmed by `green_eq`) and hands it to every full
//! parse that has an equal item, so the units' roots point at the same
//! subtrees. Values computed from one item's green alone (its lowered item
//! tree) are kept beside it ([`GreenPool::derived`]) and shared the same way.
//!
//! Invariants:
//! - The pool changes which allocation holds a tree, never the tree: a parse
//!   made through the pool is equal to the parse it was made from, and a
//!   derived value is what its reader would have computed. Queries read the
//!   pool; their results do not depend on its state.
//! - An entry lives while an owner (a translation unit: its database's
//!   [`GreenPool::new_space`] and its salsa id) whose last full parse used it exists: [`GreenPool::share`] replaces the
//!   owner's set, [`GreenPool::release`] drops it. Trees outside the pool
//!   hold their subtrees by reference counts, so dropping an entry never
//!   invalidates a tree.

use std::any::Any;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};

use cufront_syntax::{GreenNode, green_eq};
use rowan::{GreenNodeData, NodeOrToken};
use rustc_hash::{FxHashMap, FxHasher};

/// A value derived from one pooled green node (type-erased: the pool lives
/// below the crates whose values it keeps).
pub type Derived = Arc<dyn Any + Send + Sync>;

/// A translation unit of a database that uses the pool: the database's
/// space ([`GreenPool::new_space`]; several databases may share one pool)
/// and the unit's salsa id.
pub type Owner = (u64, u64);

#[derive(Default)]
pub struct GreenPool {
    inner: Mutex<Inner>,
    spaces: std::sync::atomic::AtomicU64,
}

impl std::fmt::Debug for GreenPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let inner = self.lock();
        f.debug_struct("GreenPool").field("entries", &inner.entries.len()).field("owners", &inner.owners.len()).finish()
    }
}

#[derive(Default)]
struct Inner {
    /// Content hash → the pooled nodes with that hash (by address).
    by_hash: FxHashMap<u64, Vec<usize>>,
    /// Address → entry. The entry holds the node, so the address is not reused.
    entries: FxHashMap<usize, Entry>,
    /// Owner → the addresses its last full parse used (each once).
    owners: FxHashMap<Owner, Vec<usize>>,
}

struct Entry {
    green: GreenNode,
    hash: u64,
    /// How many owners' sets name this entry.
    owners: u32,
    derived: Vec<(u64, Derived)>,
}

/// Counts of a pool (for tests and measurements).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PoolStats {
    pub entries: usize,
    pub owners: usize,
    pub derived: usize,
}

fn addr(g: &GreenNodeData) -> usize {
    g as *const GreenNodeData as usize
}

/// A hash of a tree's kinds and token texts (equal trees, equal hashes).
/// An explicit stack: trees are as deep as `MAX_TREE_DEPTH`.
fn content_hash(root: &GreenNodeData) -> u64 {
    let mut h = FxHasher::default();
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        n.kind().0.hash(&mut h);
        n.children().len().hash(&mut h);
        for c in n.children() {
            match c {
                NodeOrToken::Node(child) => {
                    // Children are hashed after this node's tokens; the
                    // length of each keeps the order unambiguous.
                    u32::from(child.text_len()).hash(&mut h);
                    stack.push(child);
                }
                NodeOrToken::Token(t) => {
                    t.kind().0.hash(&mut h);
                    t.text().hash(&mut h);
                }
            }
        }
    }
    h.finish()
}

impl GreenPool {
    pub fn new() -> GreenPool {
        GreenPool::default()
    }

    /// A fresh owner space for a database that uses this pool.
    pub fn new_space(&self) -> u64 {
        self.spaces.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic while the lock was held left the maps consistent (every
        // update is a single insert or remove), so a poisoned lock is usable.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `root` with each child node replaced by the pooled node equal to it
    /// (pooled now if there is none); `owner`'s set becomes those nodes.
    pub fn share(&self, owner: Owner, root: &GreenNode) -> GreenNode {
        let mut inner = self.lock();
        let mut used = Vec::new();
        let mut replaced = false;
        let children: Vec<NodeOrToken<GreenNode, rowan::GreenToken>> = root
            .children()
            .map(|c| match c {
                NodeOrToken::Token(t) => NodeOrToken::Token(t.to_owned()),
                NodeOrToken::Node(n) => {
                    let pooled = inner.intern(n);
                    replaced |= addr(&pooled) != addr(n);
                    used.push(addr(&pooled));
                    NodeOrToken::Node(pooled)
                }
            })
            .collect();
        used.sort_unstable();
        used.dedup();
        for a in &used {
            if let Some(e) = inner.entries.get_mut(a) {
                e.owners += 1;
            }
        }
        if let Some(old) = inner.owners.insert(owner, used) {
            inner.unuse(&old);
        }
        if replaced { GreenNode::new(root.kind(), children) } else { root.clone() }
    }

    /// Forgets `owner`'s set (its unit is gone); entries no owner names are dropped.
    pub fn release(&self, owner: Owner) {
        let mut inner = self.lock();
        if let Some(old) = inner.owners.remove(&owner) {
            inner.unuse(&old);
        }
    }

    /// The value `key` of the pooled node `green`, computed by `compute` the
    /// first time; for a node the pool does not hold, `compute`'s value, not kept.
    pub fn derived(&self, green: &GreenNode, key: u64, compute: impl FnOnce() -> Derived) -> Derived {
        let a = addr(green);
        {
            let inner = self.lock();
            match inner.entries.get(&a) {
                None => {
                    drop(inner);
                    return compute();
                }
                Some(e) => {
                    if let Some((_, v)) = e.derived.iter().find(|(k, _)| *k == key) {
                        return v.clone();
                    }
                }
            }
        }
        // Computed without the lock (lowering an item takes a while); a
        // second thread that raced us keeps the first value stored.
        let value = compute();
        let mut inner = self.lock();
        match inner.entries.get_mut(&a) {
            Some(e) => match e.derived.iter().find(|(k, _)| *k == key) {
                Some((_, v)) => v.clone(),
                None => {
                    e.derived.push((key, value.clone()));
                    value
                }
            },
            None => value,
        }
    }

    pub fn stats(&self) -> PoolStats {
        let inner = self.lock();
        PoolStats {
            entries: inner.entries.len(),
            owners: inner.owners.len(),
            derived: inner.entries.values().map(|e| e.derived.len()).sum(),
        }
    }
}

impl Inner {
    /// The pooled node equal to `n`, pooling `n` if there is none.
    fn intern(&mut self, n: &GreenNodeData) -> GreenNode {
        if let Some(e) = self.entries.get(&addr(n)) {
            return e.green.clone();
        }
        let hash = content_hash(n);
        if let Some(same) = self.by_hash.get(&hash) {
            for a in same {
                let e = &self.entries[a];
                if green_eq(&e.green, n) {
                    return e.green.clone();
                }
            }
        }
        let green = n.to_owned();
        self.by_hash.entry(hash).or_default().push(addr(n));
        self.entries.insert(addr(n), Entry { green: green.clone(), hash, owners: 0, derived: Vec::new() });
        green
    }

    fn unuse(&mut self, addrs: &[usize]) {
        for a in addrs {
            let Some(e) = self.entries.get_mut(a) else { continue };
            e.owners = e.owners.saturating_sub(1);
            if e.owners == 0 {
                let hash = e.hash;
                self.entries.remove(a);
                if let Some(v) = self.by_hash.get_mut(&hash) {
                    v.retain(|x| x != a);
                    if v.is_empty() {
                        self.by_hash.remove(&hash);
                    }
                }
            }
        }
    }
}
