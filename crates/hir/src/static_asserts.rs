//! Every `static_assert` of a translation unit, with the context it is
//! evaluated in, and its evaluation (spec 50 §6).
//!
//! Contexts: namespace scope, the body of a non-template class (explicit
//! specializations included), the body of a class template instance the
//! unit needs (`templates::needed_specializations`: the pattern's asserts,
//! evaluated with the instance's `Env`), and the body of a non-template
//! function. A template's own asserts are dependent: they are evaluated per
//! instance, never in the pattern (function template instances are not
//! listed yet).
//!
//! `item_asserts(item)` reads the item's green tree (and, for a lazy
//! function body that mentions `static_assert`, the unit's parse); it never
//! touches the item tree's invariant (the item tree still reads no body).
//! The condition is lowered to a `Body` (`body::lower_expr_owner`) and
//! evaluated by the interpreter of `consteval::interp`.

use std::sync::Arc;

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_syntax::{SyntaxKind as K, SyntaxNode, TextRange, TextSize};

use crate::body::{self, Body};
use crate::consteval::ConstError;
use crate::consteval::interp::{self, Site};
use crate::instances::{self, FnDecl, FnInstanceId};
use crate::scopes::{self, DeclKey, Def, DefMap, Ns, ScopeIdx, ScopeKind, def_map};
use crate::syntax_util as su;
use crate::templates::{self, InstId};
use crate::{ClassId, Entity, FnId, ItemId, item_ids, item_source, item_tree_of};

/// Where a `static_assert` is written, as read from syntax.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// At namespace scope: the names of the enclosing namespaces, outermost
    /// first (`None`: an anonymous namespace).
    Namespace(Vec<Option<String>>),
    /// In a class body: the class's index in the item tree (`None`: not
    /// found there), and whether it is templated (a pattern).
    Class { idx: Option<u32>, templated: bool },
    /// In a function body: the offset (in the item) of the function's
    /// declarator name (`None`: a lambda or unknown), whether the function is
    /// templated, and the namespaces around it.
    Function { at: Option<u32>, templated: bool, class_idx: Option<u32>, namespaces: Vec<Option<String>> },
}

/// One `static_assert` of an item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ItemAssert {
    /// Offset of the declaration in the item.
    pub at: u32,
    pub place: Place,
    /// The condition, lowered (`root_expr`). Its ranges index `text`.
    pub cond: Arc<Body>,
    /// The text its ranges are relative to (the item's, or a lazy body's).
    pub text: Arc<str>,
    pub message: Option<String>,
    /// In a function body: the typedefs and alias declarations of the body
    /// written before the assert (block scopes flattened), which shadow
    /// the names of the enclosing scopes.
    pub local_types: Vec<(String, crate::item_tree::TypeRef)>,
    /// In a function body: the `if constexpr` statements the assert is a
    /// substatement of, outermost first.
    pub branches: Vec<Branch>,
}

/// An `if constexpr` around an assert: in an instance of a templated
/// function, the assert exists only if `cond` is `taken_if`
/// ([stmt.if]/2: a discarded substatement is not instantiated).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Branch {
    /// The condition, lowered (`root_expr`); its ranges index the assert's `text`.
    pub cond: Arc<Body>,
    /// Whether the assert is in the `then` substatement (else: in the `else`).
    pub taken_if: bool,
    /// Offset of the condition in the item.
    pub at: u32,
}

/// The `static_assert`s of one top-level item, in source order.
#[salsa::tracked(returns(clone))]
pub fn item_asserts(db: &dyn SourceDatabase, item: ItemId) -> Arc<Vec<ItemAssert>> {
    let Some(src) = item_source(db, item) else { return Arc::new(Vec::new()) };
    let root = SyntaxNode::new_root(src.green.clone());
    // Most items assert nothing: asked of their tokens, without the text.
    if !cufront_syntax::green::any_token(&src.green, &mut |t| t.text().contains("static_assert")) {
        return Arc::new(Vec::new());
    }
    let item_text: Arc<str> = Arc::from(cufront_syntax::green::text(&src.green));
    let classes = class_indices(db, item, &root);
    let mut out = Vec::new();
    let mut lazy = Vec::new();
    let mut walk = root.preorder();
    while let Some(ev) = walk.next() {
        let rowan::WalkEvent::Enter(n) = ev else { continue };
        match n.kind() {
            K::STATIC_ASSERT_DECL => {
                out.push(read_assert(&n, &n, None, &classes, item_text.clone(), 0));
                walk.skip_subtree();
            }
            K::LAZY_BODY => {
                if cufront_syntax::green::any_token(&n.green(), &mut |t| t.text().contains("static_assert")) {
                    lazy.push(n.clone());
                }
                walk.skip_subtree();
            }
            _ => {}
        }
    }
    // Lazy bodies: parsed through the unit's parse.
    for l in lazy {
        let Some((parsed, start)) = crate::body::parse_lazy(db, item, &l) else { continue };
        let text: Arc<str> = Arc::from(parsed.text().to_string());
        for n in parsed.descendants().filter(|n| n.kind() == K::STATIC_ASSERT_DECL) {
            out.push(read_assert(&n, &l, Some(&parsed), &classes, text.clone(), u32::from(start)));
        }
    }
    out.sort_by_key(|a| a.at);
    Arc::new(out)
}

/// The `CLASS_SPECIFIER` definitions of an item's tree matched with the
/// item tree's classes: both are in post-order (a class is pushed after its
/// body), so the definitions align by name.
fn class_indices(db: &dyn SourceDatabase, item: ItemId, root: &SyntaxNode) -> Vec<(TextRange, u32)> {
    let tree = item_tree_of(db, item);
    let defs: Vec<(u32, Option<&str>)> = tree
        .classes
        .iter()
        .enumerate()
        .filter(|(_, c)| c.is_definition)
        .map(|(i, c)| (i as u32, c.name.as_deref()))
        .collect();
    let mut nodes = Vec::new();
    let mut walk = root.preorder();
    while let Some(ev) = walk.next() {
        match ev {
            rowan::WalkEvent::Enter(n) => {
                if matches!(n.kind(), K::FUNCTION_BODY | K::LAZY_BODY | K::CTOR_INITIALIZER | K::FUNCTION_TRY_BLOCK) {
                    walk.skip_subtree();
                }
            }
            rowan::WalkEvent::Leave(n) => {
                if n.kind() == K::CLASS_SPECIFIER && su::child(&n, K::MEMBER_LIST).is_some() {
                    nodes.push(n);
                }
            }
        }
    }
    let mut out = Vec::new();
    let mut k = 0;
    for n in nodes {
        let Some(&(idx, name)) = defs.get(k) else { break };
        if class_name(&n).as_deref() == name {
            out.push((n.text_range(), idx));
            k += 1;
        }
    }
    out
}

/// The name of a class as the item tree records it (last component).
fn class_name(node: &SyntaxNode) -> Option<String> {
    let head = su::child(node, K::CLASS_HEAD).unwrap_or_else(|| node.clone());
    let n = head.children().find(|c| matches!(c.kind(), K::NAME | K::QUALIFIED_NAME | K::TEMPLATE_ID))?;
    su::path_of(&n)?.last().map(str::to_string)
}

/// Reads one `STATIC_ASSERT_DECL`. `anchor` is the node of the item's tree
/// it is in (itself, or the lazy body it was parsed from); `base` the offset
/// of `text` in the item.
fn read_assert(
    n: &SyntaxNode,
    anchor: &SyntaxNode,
    lazy: Option<&SyntaxNode>,
    classes: &[(TextRange, u32)],
    text: Arc<str>,
    base: u32,
) -> ItemAssert {
    let exprs: Vec<SyntaxNode> = n.children().filter(|c| su::is_expr(c.kind())).collect();
    let cond = match exprs.first() {
        Some(e) => body::lower_expr_owner(e),
        None => Body::default(),
    };
    let message = exprs.get(1).map(|m| m.text().to_string());
    let at = base + u32::from(n.text_range().start());
    // Inside a function body (lazy or not)?
    let mut in_fn: Option<SyntaxNode> = None;
    let mut templated = false;
    let mut class: Option<SyntaxNode> = None;
    let mut namespaces = Vec::new();
    // In a lazy body, the path up continues from the body's node in the item.
    let mut cur = if lazy.is_some() { anchor.parent() } else { n.parent() };
    let mut body_seen = lazy.is_some();
    while let Some(x) = cur {
        match x.kind() {
            K::FUNCTION_BODY | K::LAZY_BODY => body_seen = true,
            K::FUNCTION_DEF if body_seen && in_fn.is_none() => in_fn = Some(x.clone()),
            K::LAMBDA_EXPR if in_fn.is_none() => body_seen = true,
            K::TEMPLATE_DECL => templated = true,
            K::CLASS_SPECIFIER if class.is_none() => class = Some(x.clone()),
            K::NAMESPACE_DEF => {
                // `namespace a::b {` has one NAME per component.
                let names: Vec<String> = x
                    .children()
                    .filter(|c| matches!(c.kind(), K::NAME | K::QUALIFIED_NAME))
                    .flat_map(|nn| su::idents(&nn))
                    .collect();
                if names.is_empty() {
                    namespaces.push(None);
                } else {
                    for nm in names.into_iter().rev() {
                        namespaces.push(Some(nm));
                    }
                }
            }
            _ => {}
        }
        cur = x.parent();
    }
    namespaces.reverse();
    let class_idx = class.as_ref().and_then(|c| classes.iter().find(|(r, _)| *r == c.text_range()).map(|(_, i)| *i));
    let mut local_types = Vec::new();
    if let Some(f) = &in_fn {
        let body = match lazy {
            Some(b) => Some(b.clone()),
            None => f.children().find(|c| c.kind() == K::FUNCTION_BODY),
        };
        if let Some(b) = body {
            local_types = block_types(&b, n.text_range().start());
        }
    }
    let place = match in_fn {
        Some(f) => {
            let at = su::child(&f, K::DECLARATOR).and_then(|d| name_offset(&d));
            Place::Function { at, templated, class_idx, namespaces }
        }
        None if class.is_some() => Place::Class { idx: class_idx, templated },
        None => Place::Namespace(namespaces),
    };
    let branches = if matches!(place, Place::Function { .. }) { enclosing_branches(n, base) } else { Vec::new() };
    ItemAssert { at, place, cond: Arc::new(cond), text, message, local_types, branches }
}

/// The `if constexpr` statements `n` is a substatement of, outermost first,
/// up to the function (or lambda) body. One with an init-statement or a
/// declaration as its condition is left out (never evaluated: the assert
/// then counts as instantiated, as it would without the `if`).
fn enclosing_branches(n: &SyntaxNode, base: u32) -> Vec<Branch> {
    use cufront_syntax::ast::{self, AstNode};
    let mut out = Vec::new();
    let mut x = n.clone();
    while let Some(p) = x.parent() {
        if matches!(p.kind(), K::FUNCTION_BODY | K::LAZY_BODY | K::LAMBDA_EXPR | K::FUNCTION_DEF) {
            break;
        }
        if let Some(i) = ast::IfStmt::cast(p.clone()).filter(|i| i.is_constexpr() && i.init().is_none()) {
            let taken_if = if x.kind() == K::ELSE_BRANCH {
                Some(false)
            } else {
                i.then_branch().filter(|t| *t.syntax() == x).map(|_| true)
            };
            let cond = i.condition().and_then(|c| c.syntax().children().find(|e| su::is_expr(e.kind())));
            if let (Some(taken_if), Some(c)) = (taken_if, cond) {
                let at = base + u32::from(c.text_range().start());
                out.push(Branch { cond: Arc::new(body::lower_expr_owner(&c)), taken_if, at });
            }
        }
        x = p;
    }
    out.reverse();
    out
}

/// The typedefs and alias declarations of a body before `before`.
fn block_types(body: &SyntaxNode, before: TextSize) -> Vec<(String, crate::item_tree::TypeRef)> {
    let mut out = Vec::new();
    for d in body.descendants() {
        if d.text_range().start() >= before {
            break;
        }
        match d.kind() {
            K::ALIAS_DECL => {
                let name = d.children().find(|c| c.kind() == K::NAME).and_then(|x| su::name_text(&x));
                if let (Some(name), Some(t)) = (name, su::child(&d, K::TYPE_ID)) {
                    out.push((name, crate::item_tree::type_id_ref(&t)));
                }
            }
            K::SIMPLE_DECL => {
                let specs = su::child(&d, K::DECL_SPECIFIERS);
                if !specs.as_ref().is_some_and(|s| su::spec_keywords(s).contains(&K::TYPEDEF_KW)) {
                    continue;
                }
                for decl in su::declarators(&d) {
                    if let Some(name) = su::declarator_name(&decl) {
                        out.push((name, crate::item_tree::declared_type(specs.as_ref(), Some(&decl))));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// The offset of a declarator's name: the first token of its innermost
/// declarator-id (what the item tree records for functions).
pub(crate) fn name_offset(d: &SyntaxNode) -> Option<u32> {
    let inner = su::innermost(d);
    let name = inner.children().find(|c| {
        matches!(
            c.kind(),
            K::NAME | K::QUALIFIED_NAME | K::OPERATOR_NAME | K::DESTRUCTOR_NAME | K::CONVERSION_NAME | K::TEMPLATE_ID
        )
    })?;
    Some(u32::from(name.text_range().start()))
}

/// The context a `static_assert` of the unit is evaluated in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Context {
    Namespace(ScopeIdx),
    /// A non-template class (or an explicit specialization).
    Class(ClassId),
    /// A class template instance (the pattern's assert).
    Instance(InstId),
    /// A non-template function's body (`None`: the function was not found;
    /// evaluated in the enclosing scope).
    Function(Option<FnId>, ScopeIdx),
    /// The body of a function template specialization or of a member of a
    /// class template specialization that the unit requires
    /// (`instances::required_entities`).
    FnInstance(FnInstanceId),
    /// Templated and not instantiated by the unit: not evaluated.
    Template,
    /// The class could not be matched with the item tree.
    Unknown,
}

/// A `static_assert` of the unit in one context.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StaticAssert {
    pub item: ItemId,
    /// Index into `item_asserts(item)`.
    pub index: u32,
    /// Offset in the unit.
    pub offset: u32,
    pub context: Context,
}

/// Every `static_assert` of the unit, per context: namespace scope,
/// non-template classes, function bodies, then one per needed class
/// template instance whose pattern has some. Templated ones that no
/// instance reaches are listed with `Context::Template`.
#[salsa::tracked(returns(clone))]
pub fn unit_asserts(db: &dyn SourceDatabase, tu: TranslationUnit) -> Arc<Vec<StaticAssert>> {
    // What it evaluates is no caller's (`consteval::var_template`).
    crate::consteval::var_template::isolated(|| unit_asserts_of(db, tu))
}

fn unit_asserts_of(db: &dyn SourceDatabase, tu: TranslationUnit) -> Arc<Vec<StaticAssert>> {
    let map = def_map(db, tu);
    let items = item_ids(db, tu);
    let parse_start = {
        let tl = crate::top_level_items(db, tu);
        let parse = cufront_base_db::parse(db, tu);
        let starts: Vec<u32> = parse.syntax_node().children().map(|n| u32::from(n.text_range().start())).collect();
        tl.items.iter().copied().zip(starts).collect::<rustc_hash::FxHashMap<ItemId, u32>>()
    };
    let mut out = Vec::new();
    // Pattern class → its asserts (for instances).
    let mut by_pattern: rustc_hash::FxHashMap<ClassId, Vec<(ItemId, u32, u32)>> = rustc_hash::FxHashMap::default();
    for &item in items.iter() {
        let asserts = item_asserts(db, item);
        let start = parse_start.get(&item).copied().unwrap_or(0);
        for (i, a) in asserts.iter().enumerate() {
            let offset = start + a.at;
            let context = assert_context(db, &map, item, a);
            if let (Context::Template, Place::Class { idx: Some(idx), .. }) = (&context, &a.place) {
                by_pattern.entry(ClassId::new(db, item, *idx)).or_default().push((item, i as u32, offset));
            }
            out.push(StaticAssert { item, index: i as u32, offset, context });
        }
    }
    if !by_pattern.is_empty() {
        for t in templates::needed_specializations(db, tu) {
            let inst = match t.kind(db) {
                crate::TyKind::App(a) => match templates::select(db, *a) {
                    Ok(templates::Selected::Inst(i)) => i,
                    _ => continue,
                },
                crate::TyKind::Inst(i) => *i,
                _ => continue,
            };
            if let Some(v) = by_pattern.get(&inst.class(db)) {
                for &(item, index, offset) in v {
                    out.push(StaticAssert { item, index, offset, context: Context::Instance(inst) });
                }
            }
        }
    }
    Arc::new(out)
}

/// The context an assert of `item` is evaluated in, outside instances: a
/// class template's or a templated function's own asserts are
/// `Context::Template` (evaluated per instance, never in the pattern).
pub fn assert_context(db: &dyn SourceDatabase, map: &DefMap, item: ItemId, a: &ItemAssert) -> Context {
    match &a.place {
        Place::Namespace(ns) => Context::Namespace(namespace_scope(map, ns)),
        Place::Class { idx: Some(idx), templated } => {
            let c = ClassId::new(db, item, *idx);
            if *templated || templates::is_templated(db, map, c) { Context::Template } else { Context::Class(c) }
        }
        Place::Class { idx: None, .. } => Context::Unknown,
        Place::Function { templated: true, .. } => Context::Template,
        Place::Function { at, class_idx, namespaces, .. } => {
            let class = class_idx.map(|k| ClassId::new(db, item, k));
            if class.is_some_and(|c| templates::is_templated(db, map, c)) {
                Context::Template
            } else {
                let f = at.and_then(|at| {
                    let offs = body::item_fn_offsets(db, item);
                    offs.iter().position(|o| *o == at).map(|k| FnId::new(db, item, k as u32))
                });
                let scope = match (f, class) {
                    (Some(f), _) => fn_scope(db, map, f),
                    (None, Some(c)) => map.class_scope.get(&c).copied().unwrap_or(scopes::ROOT),
                    (None, None) => namespace_scope(map, namespaces),
                };
                Context::Function(f, scope)
            }
        }
    }
}

/// The asserts of the bodies of the function template specializations and
/// members of class template specializations the unit requires
/// (`instances::required_entities`), one per instance.
#[salsa::tracked(returns(clone))]
pub fn instance_asserts(db: &dyn SourceDatabase, tu: TranslationUnit) -> Arc<Vec<StaticAssert>> {
    // What it evaluates is no caller's (`consteval::var_template`).
    crate::consteval::var_template::isolated(|| instance_asserts_of(db, tu))
}

fn instance_asserts_of(db: &dyn SourceDatabase, tu: TranslationUnit) -> Arc<Vec<StaticAssert>> {
    let mut by_fn: rustc_hash::FxHashMap<(ItemId, u32), Vec<(u32, u32)>> = rustc_hash::FxHashMap::default();
    for a in unit_asserts(db, tu).iter() {
        if a.context != Context::Template {
            continue;
        }
        let ia = item_asserts(db, a.item);
        if let Some(Place::Function { at: Some(at), .. }) = ia.get(a.index as usize).map(|x| &x.place) {
            by_fn.entry((a.item, *at)).or_default().push((a.index, a.offset));
        }
    }
    let mut out = Vec::new();
    if by_fn.is_empty() {
        return Arc::new(out);
    }
    for e in instances::required_entities(db, tu).iter() {
        let Entity::FnInst(fi) = e else { continue };
        let Some(def) = instances::fn_definition(db, fi.decl(db)) else { continue };
        let key = match def {
            FnDecl::Fn(f) => body::item_fn_offsets(db, f.item(db)).get(f.idx(db) as usize).map(|at| (f.item(db), *at)),
            FnDecl::Template(t) => crate::consteval::interp::template_def(db, t).at.map(|at| (t.item(db), at)),
        };
        let Some(key) = key else { continue };
        if let Some(v) = by_fn.get(&key) {
            for &(index, offset) in v {
                out.push(StaticAssert { item: key.0, index, offset, context: Context::FnInstance(*fi) });
            }
        }
    }
    Arc::new(out)
}

/// The scope of a function's body: its class for a member (in-class or
/// out-of-line `S::f`), else its namespace.
pub fn fn_scope(db: &dyn SourceDatabase, map: &DefMap, f: FnId) -> ScopeIdx {
    let parent = map.parent.get(&DeclKey::Fn(f)).copied().unwrap_or(scopes::ROOT);
    let tree = item_tree_of(db, f.item(db));
    let Some(data) = tree.fns.get(f.idx(db) as usize) else { return parent };
    match &data.qualifier {
        Some(q) => match scopes::resolve_path(db, map, parent, q, Ns::Scope) {
            Some(Def::Class(c)) | Some(Def::ClassTemplate(c)) => {
                map.class_scope.get(&map.class_definition(c)).copied().unwrap_or(parent)
            }
            Some(Def::Namespace(s)) => s,
            _ => parent,
        },
        None => parent,
    }
}

/// The scope of a namespace given by its names from the global one.
fn namespace_scope(map: &DefMap, names: &[Option<String>]) -> ScopeIdx {
    let mut s = scopes::ROOT;
    for n in names {
        // The namespace's own member first: `namespace cutlass::gemm::
        // collective::detail` is collective's `detail`, not `cute::detail`
        // of a using-directive in it (inline and anonymous namespaces are
        // reached through its using-directives).
        let next = std::iter::once(s).chain(map.scope(s).usings.iter().copied()).find_map(|u| match n {
            Some(n) => map.scope(u).names.get(n).and_then(|v| {
                v.iter().find_map(|d| match d {
                    Def::Namespace(x) => Some(*x),
                    _ => None,
                })
            }),
            None => (u != s && matches!(map.scope(u).kind, ScopeKind::Namespace { name: None, .. })).then_some(u),
        });
        match next {
            Some(x) => s = x,
            None => return s,
        }
    }
    s
}

/// Whether a type is, or is built from, an error or an opaque type.
fn contains_error(db: &dyn SourceDatabase, t: crate::TyId, depth: u32) -> bool {
    use crate::TyKind as T;
    if depth > 16 {
        return true;
    }
    match crate::ty::canonical(db, t).kind(db) {
        T::Error(_) | T::Dependent(_) | T::Specialization(_) | T::TemplateParam { .. } => true,
        T::Ptr(x) | T::LRef(x) | T::RRef(x) | T::Qualified(x, _) | T::Array(x, _) | T::Complex(x) | T::Vector(x, _) => {
            contains_error(db, *x, depth + 1)
        }
        T::App(a) => a.args(db).iter().any(|x| match x {
            templates::TemplateArg::Type(t) => contains_error(db, *t, depth + 1),
            templates::TemplateArg::Dependent(_) | templates::TemplateArg::ValueParam { .. } => true,
            _ => false,
        }),
        _ => false,
    }
}

/// The outcome of one assert.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    True,
    False,
    /// Templated and not instantiated: nothing to evaluate.
    Dependent,
    /// In a discarded substatement of an `if constexpr` of a function
    /// template instance: not instantiated.
    Discarded,
    NotEvaluated(ConstError),
}

/// Evaluates one assert of the unit.
pub fn evaluate(db: &dyn SourceDatabase, tu: TranslationUnit, a: &StaticAssert) -> Outcome {
    let asserts = item_asserts(db, a.item);
    let Some(ia) = asserts.get(a.index as usize) else {
        return Outcome::NotEvaluated(ConstError::Unsupported("no such assert".into()));
    };
    let map = def_map(db, tu);
    let (scope, env, item, func) = match &a.context {
        Context::Namespace(s) => (*s, None, a.item, None),
        Context::Class(c) => (map.class_scope.get(c).copied().unwrap_or(scopes::ROOT), None, a.item, None),
        Context::Instance(i) => {
            let class = map.class_definition(i.class(db));
            let env = match templates::inst_env(db, *i) {
                Ok(e) => e,
                Err(e) => return Outcome::NotEvaluated(ConstError::unsupported(e)),
            };
            (map.class_scope.get(&class).copied().unwrap_or(scopes::ROOT), Some(env), a.item, None)
        }
        Context::Function(f, s) => (*s, None, a.item, f.map(FnDecl::Fn)),
        Context::FnInstance(fi) => {
            let env = match instances::instance_env(db, *fi) {
                Ok(e) => e,
                Err(e) => return Outcome::NotEvaluated(ConstError::unsupported(e)),
            };
            let def = instances::fn_definition(db, fi.decl(db)).unwrap_or(fi.decl(db));
            let scope = instances::fn_scope(db, def).unwrap_or(scopes::ROOT);
            (scope, Some(env), a.item, Some(def))
        }
        Context::Template => return Outcome::Dependent,
        Context::Unknown => {
            return Outcome::NotEvaluated(ConstError::Unsupported("class not matched with the item tree".into()));
        }
    };
    // Local typedefs shadow: bound like template parameters.
    let env = if ia.local_types.is_empty() {
        env
    } else {
        let mut e = env.unwrap_or_default();
        for (name, t) in &ia.local_types {
            let cx = crate::ty::LowerCx { db, map: &map, item, scope, env: Some(&e) };
            let ty = crate::ty::canonical(db, crate::ty::lower(cx, t));
            // A type cufront cannot compute stays unknown (never a guess).
            let arg = if contains_error(db, ty, 0) {
                templates::TemplateArg::Dependent(name.clone())
            } else {
                templates::TemplateArg::Type(ty)
            };
            e.names.push((name.clone(), arg));
        }
        Some(e)
    };
    // Only an instance discards: outside a template, both substatements of
    // an `if constexpr` are checked ([stmt.if]/2). A condition cufront
    // cannot evaluate leaves the assert instantiated.
    if matches!(a.context, Context::FnInstance(_)) {
        for b in &ia.branches {
            let site = Site { item, scope, env: env.as_ref(), text: ia.text.clone(), func, before: b.at };
            if interp::eval_condition(db, &map, &site, &b.cond).is_ok_and(|v| v != b.taken_if) {
                return Outcome::Discarded;
            }
        }
    }
    let site = Site { item, scope, env: env.as_ref(), text: ia.text.clone(), func, before: ia.at };
    match interp::eval_condition(db, &map, &site, &ia.cond) {
        Ok(true) => Outcome::True,
        Ok(false) => Outcome::False,
        Err(e) => Outcome::NotEvaluated(e),
    }
}

/// Counts of a unit's asserts by outcome, with the first few failures.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub found: usize,
    pub dependent: usize,
    /// In a discarded `if constexpr` substatement of an instance.
    pub discarded: usize,
    pub true_: usize,
    pub false_: Vec<String>,
    pub not_evaluated: Vec<String>,
}

/// Evaluates every assert of a unit (what `inspect static-asserts` and the
/// corpus test print).
pub fn summarize(db: &dyn SourceDatabase, tu: TranslationUnit, fn_instances: bool) -> Summary {
    let mut s = Summary::default();
    let text = tu.text(db);
    let mut all: Vec<StaticAssert> = unit_asserts(db, tu).to_vec();
    if fn_instances {
        all.extend(instance_asserts(db, tu).iter().cloned());
    }
    for a in all.iter() {
        s.found += 1;
        let describe = |why: &str| {
            let end = (a.offset as usize + 120).min(text.len());
            let snippet: String =
                text[a.offset as usize..text.floor_char_boundary(end)].split_whitespace().collect::<Vec<_>>().join(" ");
            let ctx = match &a.context {
                Context::Instance(i) => format!(" in {}", templates::inst_name(db, *i)),
                Context::FnInstance(fi) => format!(" in an instance of {:?}", fi.decl(db)),
                _ => String::new(),
            };
            format!("@{}{ctx}: {snippet} -- {why}", a.offset)
        };
        match evaluate(db, tu, a) {
            Outcome::True => s.true_ += 1,
            Outcome::False => s.false_.push(describe("false")),
            Outcome::Dependent => s.dependent += 1,
            Outcome::Discarded => s.discarded += 1,
            Outcome::NotEvaluated(e) => s.not_evaluated.push(describe(&e.to_string())),
        }
    }
    s
}
