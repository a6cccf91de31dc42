//! Execution spaces of functions (spec 20 §3) and memory spaces of
//! variables (spec 20 §8) as one declaration's attributes give them, and
//! the syntactic identity of a declarator (its declarations, its name's
//! parts, its spelled key). Merging a function's attributes over its
//! redeclarations is semantic: `hir::exec_space` does it.

use cufront_syntax::{SyntaxKind, SyntaxNode};
use rowan::GreenNodeData;

use crate::attrs::CudaAttrs;
use crate::decl;
use crate::walk::{self, Ctx, Seg};
use cufront_syntax::green;

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
