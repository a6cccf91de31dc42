//! Execution spaces of functions (merged over redeclarations, spec 20 §3.1)
//! and memory spaces of variables (spec 20 §8).

use std::cell::RefCell;

use cufront_syntax::{SyntaxKind, SyntaxNode, TextRange};
use rowan::GreenNodeData;
use rustc_hash::FxHashMap;

use crate::attrs::{self, CudaAttrs};
use crate::decl;
use crate::green;
use crate::walk::{self, Ctx, Seg};

/// Where a function runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExecSpace {
    /// No annotation: host.
    ImplicitHost,
    Host,
    Device,
    HostDevice,
    Global,
}

impl ExecSpace {
    pub fn from_attrs(a: &CudaAttrs) -> ExecSpace {
        match (a.global, a.host, a.device) {
            (true, _, _) => ExecSpace::Global,
            (false, true, true) => ExecSpace::HostDevice,
            (false, false, true) => ExecSpace::Device,
            (false, true, false) => ExecSpace::Host,
            (false, false, false) => ExecSpace::ImplicitHost,
        }
    }
    /// Device-only: no host code exists for it (spec 20 §2 `is_device_only`).
    pub fn is_device_only(self) -> bool {
        self == ExecSpace::Device
    }
}

/// Where a variable lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemSpace {
    Host,
    Device,
    Constant,
    Shared,
    Managed,
}

impl MemSpace {
    pub fn from_attrs(a: &CudaAttrs) -> MemSpace {
        if a.managed {
            MemSpace::Managed
        } else if a.shared {
            MemSpace::Shared
        } else if a.constant {
            MemSpace::Constant
        } else if a.device {
            MemSpace::Device
        } else {
            MemSpace::Host
        }
    }
}

/// The CUDA attributes of every function of a unit, merged over its
/// declarations (an attribute on any declaration applies to all of them).
///
/// An index answers for declarators of the tree it was built from (the
/// walk's context of a declarator follows from its place), and remembers
/// each answer: the host output asks about every function several times.
#[derive(Clone, Debug, Default)]
pub struct SpaceIndex {
    functions: FxHashMap<String, CudaAttrs>,
    /// Functions declared `constexpr` somewhere: EDG prints every
    /// declaration of them with `constexpr` (g++ rejects a redeclaration
    /// that differs in it).
    constexpr: rustc_hash::FxHashSet<String>,
    /// The keys without parameter types of every function in the maps:
    /// most functions have no CUDA attribute, and their full keys (the
    /// parameter types as text) are not computed.
    names: rustc_hash::FxHashSet<String>,
    /// Answers so far, by the declarator's range: (merged attributes, constexpr).
    known: RefCell<FxHashMap<TextRange, (Option<CudaAttrs>, bool)>>,
}

/// Two indexes are equal when they hold the same facts (what was asked of them aside).
impl PartialEq for SpaceIndex {
    fn eq(&self, other: &SpaceIndex) -> bool {
        self.functions == other.functions && self.constexpr == other.constexpr && self.names == other.names
    }
}
impl Eq for SpaceIndex {}

impl SpaceIndex {
    pub fn build(root: &SyntaxNode) -> SpaceIndex {
        let mut index = SpaceIndex::default();
        walk::walk(root, &mut |node, ctx| {
            for (specs, declarator) in declarators(node) {
                if decl::function_declarator(&declarator).is_none() {
                    continue;
                }
                let a = attrs::of_declarator(specs.as_ref(), &declarator);
                let constexpr = decl::has_keyword(specs.as_ref(), &[SyntaxKind::CONSTEXPR_KW]);
                // Merging nothing changes nothing: only declarations that
                // carry something are recorded.
                if a == CudaAttrs::default() && !constexpr {
                    continue;
                }
                let Some(key) = function_key(&declarator, ctx) else {
                    continue;
                };
                if let Some(prefix) = function_key_prefix(&declarator, ctx) {
                    index.names.insert(prefix);
                }
                if constexpr {
                    index.constexpr.insert(key.clone());
                }
                let slot = index.functions.entry(key).or_default();
                *slot = slot.merge(a);
            }
        });
        index
    }

    /// The key of a function that some declaration gives attributes or
    /// `constexpr`; `None` for all others.
    fn known_key(&self, declarator: &SyntaxNode, ctx: &Ctx) -> Option<String> {
        let mut key = function_key_prefix(declarator, ctx)?;
        if !self.names.contains(&key) {
            return None;
        }
        key.push_str(&decl::signature_text(&decl::function_declarator(declarator)?));
        Some(key)
    }

    /// What the index knows of the function declared by `declarator`,
    /// computed once per declarator.
    fn lookup(&self, declarator: &SyntaxNode, ctx: &Ctx) -> (Option<CudaAttrs>, bool) {
        let range = declarator.text_range();
        if let Some(&answer) = self.known.borrow().get(&range) {
            return answer;
        }
        let answer = match self.known_key(declarator, ctx) {
            Some(k) => (self.functions.get(&k).copied(), self.constexpr.contains(&k)),
            None => (None, false),
        };
        self.known.borrow_mut().insert(range, answer);
        answer
    }

    /// The merged attributes of the function declared by `declarator` in `ctx`.
    pub fn function_attrs(&self, declarator: &SyntaxNode, ctx: &Ctx) -> Option<CudaAttrs> {
        self.lookup(declarator, ctx).0
    }

    /// Whether any declaration of the function is `constexpr`.
    pub fn is_constexpr(&self, declarator: &SyntaxNode, ctx: &Ctx) -> bool {
        self.lookup(declarator, ctx).1
    }

    pub fn function_space(&self, declarator: &SyntaxNode, ctx: &Ctx) -> ExecSpace {
        self.function_attrs(declarator, ctx).map_or(ExecSpace::ImplicitHost, |a| ExecSpace::from_attrs(&a))
    }
}

/// The (specifiers, declarator) pairs of a `SIMPLE_DECL` or `FUNCTION_DEF`
/// (nothing for other nodes).
pub fn declarators(node: &SyntaxNode) -> Vec<(Option<SyntaxNode>, SyntaxNode)> {
    let specs = node.children().find(|c| c.kind() == SyntaxKind::DECL_SPECIFIERS);
    match node.kind() {
        SyntaxKind::FUNCTION_DEF => {
            node.children().filter(|c| c.kind() == SyntaxKind::DECLARATOR).map(|d| (specs.clone(), d)).collect()
        }
        SyntaxKind::SIMPLE_DECL => node
            .children()
            .filter(|c| c.kind() == SyntaxKind::INIT_DECLARATOR_LIST)
            .flat_map(|l| l.children())
            .filter(|c| c.kind() == SyntaxKind::INIT_DECLARATOR)
            .filter_map(|i| i.children().find(|c| c.kind() == SyntaxKind::DECLARATOR))
            .map(|d| (specs.clone(), d))
            .collect(),
        _ => Vec::new(),
    }
}

/// The identity of a function for matching redeclarations: its scope and
/// name (qualifiers of an out-of-class definition included), whether it is a
/// template, and its parameter types as written.
pub fn function_key(declarator: &SyntaxNode, ctx: &Ctx) -> Option<String> {
    let f = decl::function_declarator(declarator)?;
    let mut key = function_key_prefix(declarator, ctx)?;
    key.push_str(&decl::signature_text(&f));
    Some(key)
}

/// The key up to the parameter types: scope, name, template-ness.
fn function_key_prefix(declarator: &SyntaxNode, ctx: &Ctx) -> Option<String> {
    let name = decl::name_node(declarator)?;
    let (quals, last) = name_parts(&name);
    let mut key = String::new();
    // A friend function is a member of the innermost enclosing namespace.
    let mut scope = &ctx.scope[..];
    if ctx.member && is_friend(declarator) {
        while let Some((Seg::Class(_), rest)) = scope.split_last() {
            scope = rest;
        }
    }
    for s in scope {
        match s {
            Seg::Namespace { name: Some(n), .. } | Seg::Class(n) => key.push_str(n),
            Seg::Namespace { name: None, .. } => key.push_str("{anon}"),
        }
        key.push_str("::");
    }
    for q in quals {
        key.push_str(&q);
        key.push_str("::");
    }
    key.push_str(&last);
    if ctx.templated {
        key.push_str("<>");
    }
    Some(key)
}

/// Whether the declaration of `declarator` is a `friend` declaration.
fn is_friend(declarator: &SyntaxNode) -> bool {
    let Some(d) =
        declarator.ancestors().find(|a| matches!(a.kind(), SyntaxKind::SIMPLE_DECL | SyntaxKind::FUNCTION_DEF))
    else {
        return false;
    };
    let specs = d.children().find(|c| c.kind() == SyntaxKind::DECL_SPECIFIERS);
    decl::has_keyword(specs.as_ref(), &[SyntaxKind::FRIEND_KW])
}

/// The qualifiers and the last component of a declarator-id, template
/// arguments left out (`A<T>::B::f` → ([A, B], f); `S::operator+` → ([S], operator+)).
pub fn name_parts(name: &SyntaxNode) -> (Vec<String>, String) {
    green_name_parts(&name.green())
}

/// [`name_parts`] of a green node.
pub fn green_name_parts(name: &GreenNodeData) -> (Vec<String>, String) {
    use SyntaxKind as K;
    if matches!(
        green::node_kind(name),
        K::DESTRUCTOR_NAME | K::OPERATOR_NAME | K::CONVERSION_NAME | K::LITERAL_OPERATOR_NAME
    ) {
        return (Vec::new(), green_compact_text(name));
    }
    let mut parts: Vec<String> = Vec::new();
    collect_parts(name, &mut parts);
    let last = parts.pop().unwrap_or_default();
    (parts, last)
}

fn collect_parts(node: &GreenNodeData, out: &mut Vec<String>) {
    use SyntaxKind as K;
    for c in node.children() {
        match c {
            rowan::NodeOrToken::Token(t) if SyntaxKind::from(t.kind().0) == K::IDENT => out.push(t.text().to_string()),
            rowan::NodeOrToken::Node(n) => match green::node_kind(n) {
                K::NAME_REF => out.extend(green::first_of(n, K::IDENT).map(|t| t.text().to_string())),
                K::NAME => collect_parts(n, out),
                K::TEMPLATE_ID => out.push(walk::green_last_component(n).unwrap_or_default().to_string()),
                K::NESTED_NAME_SPECIFIER | K::QUALIFIED_NAME => collect_parts(n, out),
                K::DESTRUCTOR_NAME | K::OPERATOR_NAME | K::CONVERSION_NAME | K::LITERAL_OPERATOR_NAME => {
                    out.push(green_compact_text(n))
                }
                _ => {}
            },
            _ => {}
        }
    }
}

/// The text of a node without trivia, tokens joined by one space where two
/// words would otherwise run together.
pub fn compact_text(n: &SyntaxNode) -> String {
    green_compact_text(&n.green())
}

fn green_compact_text(n: &GreenNodeData) -> String {
    let mut out = String::new();
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    green::tokens(n, &mut |_| false, &mut |t| {
        if SyntaxKind::from(t.kind().0).is_trivia() {
            return true;
        }
        if out.chars().last().is_some_and(word) && t.text().starts_with(word) {
            out.push(' ');
        }
        out.push_str(t.text());
        true
    });
    out
}
