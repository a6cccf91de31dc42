//! Which namespace-scope CUDA entity an id-expression names: managed
//! variables (every use is rewritten, spec 30 §2.6) and the kernels and
//! device variables that host code references (the `--device-c`
//! host-reference arrays, spec 30 §2.10).
//!
//! Lookup is syntactic (no `hir` yet): a name matches an entity with the
//! same last component whose namespace encloses the use (unqualified), or
//! whose namespace path ends with the written qualifier (qualified; `::x`
//! from the global namespace). Anonymous namespaces are transparent. An
//! unqualified name declared by an enclosing block, parameter list, for/if
//! condition or class member list is local and matches nothing.
//! Using-directives, using-declarations and namespace aliases are
//! followed (at namespace scope wherever they are in an enclosing
//! namespace, in blocks when they come earlier); argument-dependent lookup
//! is not.

use cufront_cuda::attrs;
use cufront_cuda::decl;
use cufront_cuda::spaces::{ExecSpace, MemSpace, declarators, name_parts};
use cufront_cuda::walk::{self, Seg};
use cufront_syntax::{SyntaxKind as K, SyntaxNode};
use rustc_hash::FxHashMap;

use crate::Sema;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Kernel,
    Device,
    Constant,
    Managed,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Entity {
    pub kind: Kind,
    /// Enclosing namespaces, outermost first; `None` for an anonymous one.
    pub path: Vec<Option<String>>,
    pub name: String,
    /// `static`, const without `extern`, or in an anonymous namespace.
    pub internal: bool,
    pub extern_c: bool,
    pub templated: bool,
}

impl Entity {
    fn named_path(&self) -> Vec<&str> {
        self.path.iter().flatten().map(String::as_str).collect()
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Refs {
    entities: Vec<Entity>,
    by_name: FxHashMap<String, Vec<usize>>,
    /// Namespace-scope using-directives and using-declarations: where
    /// (named namespaces), and the names as written.
    usings: Vec<(Vec<String>, Using)>,
    /// Namespace aliases: name → the namespace as written.
    aliases: FxHashMap<String, Vec<String>>,
}

/// A using-directive (`using namespace a::b;`: the names) or a
/// using-declaration (`using a::k;`: the qualifiers and the name).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Using {
    Directive(Vec<String>),
    Declaration(Vec<String>, String),
}

/// The using-directive or using-declaration a node is, if any.
fn using_of(n: &SyntaxNode) -> Option<Using> {
    match n.kind() {
        K::USING_DIRECTIVE => Some(Using::Directive(walk::identifiers(n))),
        K::USING_DECL => {
            let name = n.children().find(|c| matches!(c.kind(), K::QUALIFIED_NAME | K::NAME_REF | K::NAME))?;
            let (quals, last) = name_parts(&name);
            Some(Using::Declaration(quals, last))
        }
        _ => None,
    }
}

impl Refs {
    pub fn build(root: &SyntaxNode, sema: Sema<'_>) -> Refs {
        let mut refs = Refs::default();
        walk::walk(root, &mut |node, ctx| refs.add(node, ctx, sema));
        refs
    }

    /// The entities of one top-level item (`node`, a child of the root).
    pub fn of_item(node: &SyntaxNode, sema: Sema<'_>) -> Refs {
        let mut refs = Refs::default();
        walk::walk_top_level(node, &mut |node, ctx| refs.add(node, ctx, sema));
        refs
    }

    /// Appends what `other` (a later item's) declares, as one walk over
    /// both would have.
    pub fn append(&mut self, other: &Refs) {
        for e in &other.entities {
            let slot = self.by_name.entry(e.name.clone()).or_default();
            if slot.iter().any(|&i| self.entities[i].path == e.path && self.entities[i].kind == e.kind) {
                continue;
            }
            slot.push(self.entities.len());
            self.entities.push(e.clone());
        }
        self.usings.extend(other.usings.iter().cloned());
        for (k, v) in &other.aliases {
            self.aliases.insert(k.clone(), v.clone());
        }
    }

    /// Adds what the declaration `node` of the walk (in `ctx`) declares.
    pub fn add(&mut self, node: &SyntaxNode, ctx: &walk::Ctx, sema: Sema<'_>) {
        let refs = self;
        {
            if ctx.member || ctx.in_class() {
                return;
            }
            if let Some(u) = using_of(node) {
                let at = ctx
                    .scope
                    .iter()
                    .filter_map(|s| match s {
                        Seg::Namespace { name, .. } => name.clone(),
                        Seg::Class(_) => None,
                    })
                    .collect();
                refs.usings.push((at, u));
                return;
            }
            if node.kind() == K::NAMESPACE_ALIAS {
                let name = node.children().find(|c| c.kind() == K::NAME).and_then(|n| walk::last_component(&n));
                let target = node
                    .children()
                    .filter(|c| matches!(c.kind(), K::QUALIFIED_NAME | K::NAME_REF))
                    .last()
                    .map(|n| walk::identifiers(&n));
                if let (Some(n), Some(t)) = (name, target) {
                    refs.aliases.insert(n, t);
                }
                return;
            }
            if !matches!(node.kind(), K::SIMPLE_DECL | K::FUNCTION_DEF) {
                return;
            }
            // Made for the first entity found: most declarations hold none.
            let mut path: Option<Vec<Option<String>>> = None;
            let anon = ctx.in_anonymous_namespace();
            for (specs, d) in declarators(node) {
                let kind = if decl::function_declarator(&d).is_some() {
                    if !sema.is_kernel(specs.as_ref(), &d) {
                        continue;
                    }
                    Kind::Kernel
                } else {
                    let a = attrs::of_declaration(specs.as_ref(), Some(&d));
                    match MemSpace::from_attrs(&a) {
                        MemSpace::Device => Kind::Device,
                        MemSpace::Constant => Kind::Constant,
                        MemSpace::Managed => Kind::Managed,
                        MemSpace::Host | MemSpace::Shared => continue,
                    }
                };
                let Some(name) = decl::name_node(&d) else {
                    continue;
                };
                let (quals, last) = name_parts(&name);
                if !quals.is_empty() {
                    continue;
                }
                let static_kw = decl::has_keyword(specs.as_ref(), &[K::STATIC_KW]);
                let const_internal = kind != Kind::Kernel
                    && decl::has_keyword(specs.as_ref(), &[K::CONST_KW, K::CONSTEXPR_KW])
                    && !decl::has_keyword(specs.as_ref(), &[K::EXTERN_KW]);
                let path = path.get_or_insert_with(|| {
                    ctx.scope
                        .iter()
                        .map(|s| match s {
                            Seg::Namespace { name, .. } => name.clone(),
                            Seg::Class(c) => Some(c.clone()),
                        })
                        .collect()
                });
                let e = Entity {
                    kind,
                    path: path.clone(),
                    name: last.clone(),
                    internal: static_kw || anon || const_internal,
                    extern_c: ctx.extern_c,
                    templated: ctx.templated || ctx.specialization,
                };
                let slot = refs.by_name.entry(last).or_default();
                if slot.iter().any(|&i| refs.entities[i].path == e.path && refs.entities[i].kind == e.kind) {
                    continue;
                }
                slot.push(refs.entities.len());
                refs.entities.push(e);
            }
        }
    }

    /// Whether host code naming `e` gives an internal-linkage
    /// host-reference entry (spec 30 §2.10): internal entities, and
    /// template kernels (always listed internally too).
    pub fn internal_entry(e: &Entity) -> bool {
        e.internal || (e.kind == Kind::Kernel && e.templated)
    }

    /// Where host code first names an entity with an internal-linkage
    /// host-reference entry (templates and system headers included).
    pub fn first_internal_host_ref(&self, root: &SyntaxNode, sema: Sema<'_>) -> Option<u32> {
        if !self.entities.iter().any(Refs::internal_entry) {
            return None;
        }
        let mut device = Vec::new();
        walk::walk(root, &mut |node, _| {
            if node.kind() != K::FUNCTION_DEF {
                return;
            }
            let Some(d) = node.children().find(|c| c.kind() == K::DECLARATOR) else {
                return;
            };
            let specs = node.children().find(|c| c.kind() == K::DECL_SPECIFIERS);
            if matches!(sema.function_space(specs.as_ref(), &d), ExecSpace::Global | ExecSpace::Device)
                && let Some(b) = node.children().find(|c| matches!(c.kind(), K::FUNCTION_BODY | K::LAZY_BODY))
            {
                device.push(b.text_range());
            }
        });
        device.sort_by_key(|r| r.start());
        root.descendants()
            .filter(|n| n.kind() == K::ID_EXPR)
            .filter(|n| {
                let r = n.text_range();
                let i = device.partition_point(|b| b.start() <= r.start());
                !(i > 0 && device[i - 1].contains_range(r))
            })
            .find(|n| self.resolve(n).is_some_and(Refs::internal_entry))
            .map(|n| n.text_range().start().into())
    }

    pub fn is_empty(&self) -> bool {
        self.entities.is_empty()
    }

    /// Whether an `ID_EXPR` (green) can name one of ours: its last name
    /// component is an entity's name ([`Refs::resolve`] is `None` otherwise).
    pub fn may_name(&self, id_expr: &rowan::GreenNodeData) -> bool {
        let Some(name) = id_expr
            .children()
            .filter_map(|c| c.into_node())
            .find(|c| matches!(K::from(c.kind().0), K::NAME_REF | K::QUALIFIED_NAME | K::TEMPLATE_ID))
        else {
            return false;
        };
        let (_, last) = cufront_cuda::spaces::green_name_parts(name);
        self.by_name.contains_key(&last)
    }

    /// The entity an `ID_EXPR` names, if it is one of ours.
    pub fn resolve(&self, id_expr: &SyntaxNode) -> Option<&Entity> {
        let name = id_expr.children().find(|c| matches!(c.kind(), K::NAME_REF | K::QUALIFIED_NAME | K::TEMPLATE_ID))?;
        let (quals, last) = name_parts(&name);
        let candidates = self.by_name.get(&last)?;
        // `x.name` / `p->name`: a member, not ours.
        if let Some(p) = id_expr.parent()
            && p.kind() == K::MEMBER_EXPR
            && p.children().next().as_ref() != Some(id_expr)
        {
            return None;
        }
        let global = id_expr
            .descendants_with_tokens()
            .filter_map(|t| t.into_token())
            .find(|t| !t.kind().is_trivia())
            .is_some_and(|t| t.kind() == K::COLON2);
        let here = enclosing_namespaces(id_expr);
        let here: Vec<&str> = here.iter().flatten().map(String::as_str).collect();
        // `nn::k` with `namespace nn = a::b;`.
        let mut quals = quals;
        if !global
            && let Some(first) = quals.first()
            && let Some(target) = self.aliases.get(first)
        {
            quals.splice(0..1, target.iter().cloned());
        }
        let quals: Vec<&str> = quals.iter().map(String::as_str).collect();
        // The entity `written`::name as seen from `here`.
        let names =
            |p: &[&str], written: &[&str]| p.ends_with(written) && here.starts_with(&p[..p.len() - written.len()]);
        let mut best: Option<&Entity> = None;
        for &i in candidates {
            let e = &self.entities[i];
            let p = e.named_path();
            let ok = if global {
                p == quals
            } else if quals.is_empty() {
                here.starts_with(&p)
            } else {
                names(&p, &quals)
            };
            if ok && best.is_none_or(|b| b.path.len() < e.path.len()) {
                best = Some(e);
            }
        }
        if quals.is_empty() && !global && best.is_some() && declared_locally(id_expr, &last) {
            return None;
        }
        if best.is_some() || global {
            return best;
        }
        // Through using-directives and using-declarations: those of
        // enclosing namespaces, and those earlier in enclosing blocks.
        let mut usings: Vec<Using> = self
            .usings
            .iter()
            .filter(|(at, _)| here.starts_with(&at.iter().map(String::as_str).collect::<Vec<_>>()))
            .map(|(_, u)| u.clone())
            .collect();
        usings.extend(block_usings(id_expr));
        if usings.is_empty() || (quals.is_empty() && declared_locally(id_expr, &last)) {
            return None;
        }
        for u in &usings {
            for &i in candidates {
                let e = &self.entities[i];
                let p = e.named_path();
                let ok = match u {
                    Using::Directive(ns) => {
                        let mut w: Vec<&str> = ns.iter().map(String::as_str).collect();
                        w.extend(quals.iter().copied());
                        names(&p, &w)
                    }
                    Using::Declaration(q, n) => {
                        quals.is_empty() && *n == last && {
                            let w: Vec<&str> = q.iter().map(String::as_str).collect();
                            names(&p, &w)
                        }
                    }
                };
                if ok {
                    return Some(e);
                }
            }
        }
        None
    }
}

/// The using-directives and using-declarations of the blocks around `n`
/// that come before it.
fn block_usings(n: &SyntaxNode) -> Vec<Using> {
    let mut out = Vec::new();
    for a in n.ancestors().filter(|a| a.kind() == K::COMPOUND_STMT) {
        for s in a.children() {
            if s.text_range().start() >= n.text_range().start() {
                break;
            }
            if s.kind() == K::DECL_STMT {
                out.extend(s.children().filter_map(|c| using_of(&c)));
            }
        }
    }
    out
}

/// The namespaces around a node, outermost first (`None`: anonymous).
fn enclosing_namespaces(n: &SyntaxNode) -> Vec<Option<String>> {
    let mut out = Vec::new();
    for a in n.ancestors().filter(|a| a.kind() == K::NAMESPACE_DEF) {
        // `namespace a::b {` has one NAME per component.
        let names = a
            .children()
            .filter(|c| matches!(c.kind(), K::NAME | K::QUALIFIED_NAME))
            .map(|n| walk::identifiers(&n))
            .reduce(|mut x, y| {
                x.extend(y);
                x
            });
        match names {
            Some(v) if !v.is_empty() => out.extend(v.into_iter().rev().map(Some)),
            _ => out.push(None),
        }
    }
    out.reverse();
    out
}

/// Whether `name` is declared by a scope between `n` and its namespace:
/// earlier statements of enclosing blocks, parameters, conditions, for-init
/// statements, lambda captures, or members of an enclosing class.
fn declared_locally(n: &SyntaxNode, name: &str) -> bool {
    let mut child = n.clone();
    for a in n.ancestors().skip(1) {
        match a.kind() {
            K::NAMESPACE_DEF | K::SOURCE_FILE | K::LINKAGE_SPEC => return false,
            K::MEMBER_LIST => {
                if a.children().any(|m| member_declares(&m, name)) {
                    return true;
                }
            }
            _ => {
                for s in a.children() {
                    if s.text_range().start() >= child.text_range().start() {
                        break;
                    }
                    if declares(&s, name) {
                        return true;
                    }
                }
            }
        }
        child = a;
    }
    false
}

/// Whether a member declaration (possibly under `template <...>`) declares `name`.
fn member_declares(m: &SyntaxNode, name: &str) -> bool {
    match m.kind() {
        K::SIMPLE_DECL | K::FUNCTION_DEF => declarators(m).iter().any(|(_, d)| {
            decl::name_node(d)
                .is_some_and(|nn| nn.kind() == K::NAME && walk::last_component(&nn).as_deref() == Some(name))
        }),
        K::MEMBER_DECL | K::TEMPLATE_DECL => m.children().any(|c| member_declares(&c, name)),
        _ => false,
    }
}

/// Whether a node (a statement, a declarator, a parameter list, a capture)
/// declares `name` in the scope it is part of; nested blocks, lambda bodies
/// and class bodies are not entered.
fn declares(s: &SyntaxNode, name: &str) -> bool {
    let mut stack = vec![s.clone()];
    while let Some(x) = stack.pop() {
        match x.kind() {
            K::COMPOUND_STMT
            | K::FUNCTION_BODY
            | K::LAZY_BODY
            | K::LAMBDA_EXPR
            | K::MEMBER_LIST
            | K::EQUAL_INITIALIZER
            | K::INITIALIZER
            | K::INIT_LIST
            | K::TEMPLATE_ARG_LIST => continue,
            K::DECLARATOR => {
                if let Some(nn) = decl::name_node(&x)
                    && nn.kind() == K::NAME
                    && walk::last_component(&nn).as_deref() == Some(name)
                {
                    return true;
                }
            }
            K::CAPTURE => {
                // Only an init-capture declares a new name.
                if x.children_with_tokens().any(|t| t.kind() == K::EQ)
                    && walk::identifiers(&x).first().map(String::as_str) == Some(name)
                {
                    return true;
                }
                continue;
            }
            _ => {}
        }
        stack.extend(x.children());
    }
    false
}
