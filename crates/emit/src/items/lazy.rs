//! The item index built on demand, for the few names a question reads.
//!
//! The module id's key is one linkage name, and it usually reads no or a
//! handful of names (`vector_add(const float *, …)` reads none), yet a
//! unit declares tens of thousands. [`LazyItems::query`] answers from an
//! index of only the entities with the names the answer reads: it records
//! every name read (lookups, the kind of a scope component, a template's
//! parameter list), and when the answer read a name that was not indexed,
//! it indexes that name too and asks again, until all names read were
//! indexed. The index then agrees with the full one ([`Items::build`]) on
//! everything the answer read: the declarations that add an entity with an
//! indexed name are replayed in source order, each reading only indexed
//! names, so every step sees what the full index saw at that point.
//!
//! The declarations are found once, in one walk, and listed by the names
//! they may declare (a superset: a false entry costs a replay, never a
//! difference); namespaces and using-directives are always replayed.

use cufront_cuda::decl;
use cufront_cuda::walk::{self, Seg};
use cufront_syntax::{SyntaxKind as K, SyntaxNode};
use rustc_hash::{FxHashMap, FxHashSet};

use super::{Items, ScopeKey, scope_key};

/// A declaration that can add to the index.
struct Decl {
    node: SyntaxNode,
    /// Index into [`Decls::scopes`].
    scope: u32,
    templated: bool,
}

/// The unit's declarations that can add to the index, in source order.
struct Decls {
    decls: Vec<Decl>,
    scopes: Vec<ScopeKey>,
    /// Declarations by a name they may declare (indices ascending).
    by_name: FxHashMap<String, Vec<u32>>,
    /// Namespace definitions and using-directives.
    always: Vec<u32>,
}

impl Decls {
    fn collect(root: &SyntaxNode) -> Decls {
        let mut out = Decls {
            decls: Vec::new(),
            scopes: Vec::new(),
            by_name: FxHashMap::default(),
            always: Vec::new(),
        };
        // The scope of the last declaration recorded, to share its key.
        let mut last_scope: Option<Vec<Seg>> = None;
        let mut names = Vec::new();
        walk::walk(root, &mut |node, ctx| {
            names.clear();
            let always = match node.kind() {
                K::NAMESPACE_DEF | K::USING_DIRECTIVE => true,
                K::ALIAS_DECL => {
                    names.extend(
                        node.children()
                            .find(|c| c.kind() == K::NAME)
                            .and_then(|n| walk::last_component(&n)),
                    );
                    false
                }
                K::SIMPLE_DECL | K::FUNCTION_DEF => {
                    declared_names(node, ctx.templated, &mut names);
                    false
                }
                _ => return,
            };
            if !always && names.is_empty() {
                return;
            }
            if last_scope.as_ref() != Some(&ctx.scope) {
                out.scopes.push(scope_key(&ctx.scope));
                last_scope = Some(ctx.scope.clone());
            }
            let i = out.decls.len() as u32;
            out.decls.push(Decl {
                node: node.clone(),
                scope: out.scopes.len() as u32 - 1,
                templated: ctx.templated,
            });
            if always {
                out.always.push(i);
            }
            for n in names.drain(..) {
                let v = out.by_name.entry(n).or_default();
                if v.last() != Some(&i) {
                    v.push(i);
                }
            }
        });
        out
    }
}

/// The names a simple declaration or function definition may add to the
/// index ([`Items::add`]): its classes and enums (and their enumerators),
/// the names of elaborated type specifiers, and, outside templates, its
/// declarators' names (typedefs and constants).
fn declared_names(node: &SyntaxNode, templated: bool, out: &mut Vec<String>) {
    let Some(specs) = node.children().find(|c| c.kind() == K::DECL_SPECIFIERS) else {
        return;
    };
    for c in specs.children() {
        match c.kind() {
            K::CLASS_SPECIFIER => out.extend(walk::class_name(&c)),
            K::ENUM_SPECIFIER => {
                for n in c.children() {
                    match n.kind() {
                        K::NAME => out.extend(walk::last_component(&n)),
                        K::ENUMERATOR_LIST => {
                            for e in n.children().filter(|e| e.kind() == K::ENUMERATOR) {
                                out.extend(
                                    e.children()
                                        .find(|c| c.kind() == K::NAME)
                                        .and_then(|n| walk::last_component(&n)),
                                );
                            }
                        }
                        _ => {}
                    }
                }
            }
            K::ELABORATED_TYPE_SPECIFIER => {
                out.extend(walk::last_component(&c));
                out.extend(
                    c.children()
                        .find(|n| n.kind() == K::NAME)
                        .and_then(|n| walk::last_component(&n)),
                );
            }
            _ => {}
        }
    }
    if !templated && node.kind() == K::SIMPLE_DECL {
        for (_, d) in cufront_cuda::spaces::declarators(node) {
            out.extend(decl::name_node(&d).and_then(|n| walk::last_component(&n)));
        }
    }
}

/// An item index of `root` that indexes what its questions read.
pub struct LazyItems<'a> {
    root: &'a SyntaxNode,
    decls: Option<Decls>,
    /// The names indexed.
    want: FxHashSet<String>,
    items: Items,
}

impl<'a> LazyItems<'a> {
    /// Nothing is read from the tree until a question needs a name.
    pub fn new(root: &'a SyntaxNode) -> LazyItems<'a> {
        LazyItems {
            root,
            decls: None,
            want: FxHashSet::default(),
            items: Items {
                only: Some(FxHashSet::default()),
                consulted: std::cell::RefCell::new(Some(FxHashSet::default())),
                ..Items::default()
            },
        }
    }

    /// The full index, built now (what the lazy one must agree with).
    pub fn full(root: &'a SyntaxNode) -> LazyItems<'a> {
        LazyItems {
            root,
            decls: None,
            want: FxHashSet::default(),
            items: Items::build(root),
        }
    }

    /// Indexes `names` now, in one replay, for the questions to come.
    pub fn prefetch(&mut self, names: impl IntoIterator<Item = String>) {
        if self.items.only.is_none() {
            return;
        }
        let before = self.want.len();
        self.want.extend(names);
        if self.want.len() != before {
            self.rebuild();
        }
    }

    /// `f`'s answer from the full index of the unit. `f` may be called more
    /// than once; it must depend on nothing but the index and its captures.
    pub fn query<R>(&mut self, mut f: impl FnMut(&Items) -> R) -> R {
        loop {
            let r = f(&self.items);
            if self.items.only.is_none() {
                return r;
            }
            let read = self.items.consulted.borrow_mut().replace(FxHashSet::default()).unwrap_or_default();
            let before = self.want.len();
            self.want.extend(read);
            if self.want.len() == before {
                return r;
            }
            self.rebuild();
        }
    }

    /// Indexes the wanted names: replays the declarations that may declare
    /// them, in source order. The names this reads are recorded for the
    /// next check.
    fn rebuild(&mut self) {
        let decls = self.decls.get_or_insert_with(|| Decls::collect(self.root));
        let mut order = decls.always.clone();
        for n in &self.want {
            if let Some(v) = decls.by_name.get(n) {
                order.extend_from_slice(v);
            }
        }
        order.sort_unstable();
        order.dedup();
        let mut items = Items {
            only: Some(self.want.clone()),
            consulted: std::cell::RefCell::new(Some(FxHashSet::default())),
            ..Items::default()
        };
        for i in order {
            let d = &decls.decls[i as usize];
            items.add(&d.node, &decls.scopes[d.scope as usize], d.templated);
        }
        self.items = items;
    }
}
