//! The declarations of a translation unit with their context. Function
//! bodies are not entered: what they declare is local.

use cufront_syntax::{SyntaxKind, SyntaxNode};
use rowan::GreenNodeData;

use cufront_syntax::green;

/// One enclosing scope.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Seg {
    /// `None` for an anonymous namespace.
    Namespace {
        name: Option<String>,
        inline: bool,
    },
    Class(String),
}

/// Where a declaration is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ctx {
    /// Enclosing namespaces and classes, outermost first.
    pub scope: Vec<Seg>,
    /// Inside `extern "C"`.
    pub extern_c: bool,
    /// Inside a `template <...>` (of the declaration itself or of an enclosing class).
    pub templated: bool,
    /// Directly under `template <>` (an explicit specialization).
    pub specialization: bool,
    /// An explicit instantiation (`template void f<int>(int);`).
    pub instantiation: bool,
    /// Class member (directly in a member list).
    pub member: bool,
}

impl Ctx {
    pub fn in_anonymous_namespace(&self) -> bool {
        self.scope.iter().any(|s| matches!(s, Seg::Namespace { name: None, .. }))
    }
    pub fn in_class(&self) -> bool {
        self.scope.iter().any(|s| matches!(s, Seg::Class(_)))
    }
}

/// Calls `f` on every declaration node (any `Decl` kind, including the
/// containers themselves) in source order, with its context. Class members
/// are visited after the declaration that holds the class.
pub fn walk(root: &SyntaxNode, f: &mut dyn FnMut(&SyntaxNode, &Ctx)) {
    // One context, changed on the way in and restored on the way out.
    let mut ctx = Ctx::default();
    for c in root.children() {
        walk_decl(&c, &mut ctx, f);
    }
}

/// [`walk`] over one top-level declaration `node` (a child of the root),
/// for callers that pass over some of the unit's declarations.
pub fn walk_top_level(node: &SyntaxNode, f: &mut dyn FnMut(&SyntaxNode, &Ctx)) {
    walk_decl(node, &mut Ctx::default(), f);
}

/// The parts of a `Ctx` that a container changes (the scope is pushed and truncated).
#[derive(Clone, Copy)]
struct Flags {
    extern_c: bool,
    templated: bool,
    specialization: bool,
    instantiation: bool,
    member: bool,
}

fn save(ctx: &Ctx) -> (usize, Flags) {
    (
        ctx.scope.len(),
        Flags {
            extern_c: ctx.extern_c,
            templated: ctx.templated,
            specialization: ctx.specialization,
            instantiation: ctx.instantiation,
            member: ctx.member,
        },
    )
}

fn restore(ctx: &mut Ctx, (len, flags): (usize, Flags)) {
    ctx.scope.truncate(len);
    ctx.extern_c = flags.extern_c;
    ctx.templated = flags.templated;
    ctx.specialization = flags.specialization;
    ctx.instantiation = flags.instantiation;
    ctx.member = flags.member;
}

fn walk_decl(node: &SyntaxNode, ctx: &mut Ctx, f: &mut dyn FnMut(&SyntaxNode, &Ctx)) {
    use SyntaxKind as K;
    match node.kind() {
        K::NAMESPACE_DEF => {
            f(node, ctx);
            let saved = save(ctx);
            // `namespace a::b {` has one NAME per component.
            let name = node
                .children()
                .filter(|c| matches!(c.kind(), K::NAME | K::QUALIFIED_NAME))
                .map(|n| identifiers(&n))
                .reduce(|mut a, b| {
                    a.extend(b);
                    a
                });
            let inline =
                node.green().children().any(|t| t.as_token().is_some_and(|t| green::token_kind(t) == K::INLINE_KW));
            match name {
                // `namespace a::b::c {` (C++17 nested form) opens each in turn.
                Some(parts) if !parts.is_empty() => {
                    for p in parts {
                        ctx.scope.push(Seg::Namespace { name: Some(p), inline });
                    }
                }
                _ => ctx.scope.push(Seg::Namespace { name: None, inline }),
            }
            ctx.member = false;
            for c in node.children() {
                walk_decl(&c, ctx, f);
            }
            restore(ctx, saved);
        }
        K::LINKAGE_SPEC => {
            f(node, ctx);
            let saved = save(ctx);
            let green = node.green();
            let abi = green.children().filter_map(|t| t.into_token()).find(|t| green::token_kind(t) == K::STRING);
            ctx.extern_c = abi.is_some_and(|t| t.text() == "\"C\"");
            for c in node.children() {
                walk_decl(&c, ctx, f);
            }
            restore(ctx, saved);
        }
        K::TEMPLATE_DECL | K::EXPLICIT_SPECIALIZATION | K::EXPLICIT_INSTANTIATION | K::EXPORT_DECL | K::MEMBER_DECL => {
            f(node, ctx);
            let saved = save(ctx);
            match node.kind() {
                K::TEMPLATE_DECL => {
                    let green = node.green();
                    let empty = green::child_nodes(&green)
                        .find(|c| green::node_kind(c) == K::TEMPLATE_PARAM_LIST)
                        .is_some_and(|l| green::child_nodes(l).next().is_none());
                    if empty {
                        ctx.specialization = true;
                    } else {
                        ctx.templated = true;
                    }
                }
                K::EXPLICIT_SPECIALIZATION => ctx.specialization = true,
                K::EXPLICIT_INSTANTIATION => ctx.instantiation = true,
                _ => {}
            }
            for c in node.children() {
                walk_decl(&c, ctx, f);
            }
            restore(ctx, saved);
        }
        K::SIMPLE_DECL | K::FUNCTION_DEF | K::FRIEND_DECL => {
            f(node, ctx);
            // Most declarations define no class: asked of the green tree
            // first, so that only class definitions make cursors.
            let defines_class = {
                let green = node.green();
                green::child_nodes(&green).find(|c| green::node_kind(c) == K::DECL_SPECIFIERS).is_some_and(|s| {
                    green::child_nodes(s).any(|c| {
                        green::node_kind(c) == K::CLASS_SPECIFIER
                            && green::child_nodes(c).any(|l| green::node_kind(l) == K::MEMBER_LIST)
                    })
                })
            };
            if !defines_class {
                return;
            }
            let Some(specs) = node.children().find(|c| c.kind() == K::DECL_SPECIFIERS) else {
                return;
            };
            for class in specs.children().filter(|c| c.kind() == K::CLASS_SPECIFIER) {
                let Some(list) = class.children().find(|c| c.kind() == K::MEMBER_LIST) else {
                    continue;
                };
                let saved = save(ctx);
                ctx.scope.push(Seg::Class(class_name(&class).unwrap_or_default()));
                ctx.member = true;
                ctx.specialization = false;
                for m in list.children() {
                    walk_decl(&m, ctx, f);
                }
                restore(ctx, saved);
            }
        }
        _ => {
            if is_decl_kind(node.kind()) {
                f(node, ctx);
            }
        }
    }
}

fn is_decl_kind(k: SyntaxKind) -> bool {
    use SyntaxKind as K;
    matches!(
        k,
        K::NAMESPACE_ALIAS
            | K::USING_DIRECTIVE
            | K::USING_DECL
            | K::ALIAS_DECL
            | K::DEDUCTION_GUIDE
            | K::CONCEPT_DEF
            | K::STATIC_ASSERT_DECL
            | K::ASM_DECL
            | K::EMPTY_DECL
            | K::ATTRIBUTE_DECL
            | K::ACCESS_SPECIFIER
    )
}

/// The identifiers of a name node, in order (`a::b::c` → a, b, c).
pub fn identifiers(n: &SyntaxNode) -> Vec<String> {
    green_identifiers(&n.green())
}

pub(crate) fn green_identifiers(n: &GreenNodeData) -> Vec<String> {
    let mut out = Vec::new();
    green::tokens(n, &mut |_| false, &mut |t| {
        if SyntaxKind::from(t.kind().0) == SyntaxKind::IDENT {
            out.push(t.text().to_string());
        }
        true
    });
    out
}

/// The name of a class specifier: the last component, without template arguments.
pub fn class_name(class: &SyntaxNode) -> Option<String> {
    use SyntaxKind as K;
    let class = class.green();
    let name = green::child_nodes(&class).find(|c| green::node_kind(c) == K::NAME).or_else(|| {
        green::child_nodes(green::child_nodes(&class).find(|c| green::node_kind(c) == K::CLASS_HEAD)?)
            .find(|c| green::node_kind(c) == K::NAME)
    })?;
    green_last_component(name).map(str::to_string)
}

/// The last component of a (possibly qualified) name, without template arguments.
pub fn last_component(name: &SyntaxNode) -> Option<String> {
    green_last_component(&name.green()).map(str::to_string)
}

pub(crate) fn green_last_component(name: &GreenNodeData) -> Option<&str> {
    use SyntaxKind as K;
    let mut last = None;
    for c in name.children() {
        match c {
            rowan::NodeOrToken::Token(t) if SyntaxKind::from(t.kind().0) == K::IDENT => last = Some(t.text()),
            rowan::NodeOrToken::Node(n) => match green::node_kind(n) {
                K::NAME_REF | K::NAME => last = green::first_of(n, K::IDENT).map(|t| t.text()),
                K::TEMPLATE_ID => {
                    last = green::child_nodes(n)
                        .find(|c| green::node_kind(c) == K::NAME_REF)
                        .and_then(green_last_component)
                }
                K::QUALIFIED_NAME => last = green_last_component(n),
                _ => {}
            },
            _ => {}
        }
    }
    last
}
