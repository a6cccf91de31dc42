//! `expression must have a constant value` (EDG 28, an error) followed by
//! `the value of %nd cannot be used as a constant` (note 2689): a variable
//! that is not a constant named where a constant expression is required,
//! at namespace scope: an array bound of a variable (`int arr[n];`), a
//! template argument in its type (`A<n> a;`), an argument of a kernel's
//! `__launch_bounds__`, `__maxnreg__` or `__cluster_dims__`. Checked
//! against the real front end.
//!
//! Certainty: only an operand that is a name alone, resolved by hir's
//! lookup to a variable that is neither `const`, `constexpr` nor a
//! reference (a `const` one may be a constant, decided by its initializer:
//! left out). Block scope is not checked (GNU variable-length arrays).

use cufront_base_db::{SourceDatabase, TranslationUnit};
use cufront_diagnostics::{Arg, DiagId, Entity as DiagEntity, EntityKind, Severity};
use cufront_hir::VarId;
use cufront_hir::instances::FnDecl;
use cufront_hir::item_tree::{Path, PathSegment, TypeRef};
use cufront_hir::scopes::{DeclKey, Def, Ns, def_map, resolve_path};
use cufront_syntax::{SyntaxKind as K, SyntaxNode, TextSize};
use rustc_hash::FxHashSet;

use crate::Found;

const NOT_CONSTANT: DiagId = DiagId(28);
const VARIABLE_NOT_CONSTANT: DiagId = DiagId(2689);
const CALL_NOT_CONSTEXPR: DiagId = DiagId(2703);

pub(crate) fn findings(db: &dyn SourceDatabase, tu: TranslationUnit) -> Vec<Found> {
    let map = def_map(db, tu);
    let starts: rustc_hash::FxHashMap<_, _> = crate::calls::item_starts(db, tu).into_iter().collect();
    let mut out = Vec::new();
    // Operands that must be constants: a name, where, and the scope it is
    // looked up from.
    let mut candidates: Vec<(String, u32, cufront_hir::scopes::ScopeIdx)> = Vec::new();
    for (item, start) in crate::calls::user_items(db, tu) {
        let Some(src) = cufront_hir::item_source(db, item).as_ref() else { continue };
        let root = SyntaxNode::new_root(src.green.clone());
        let tree = cufront_hir::item_tree_of(db, item);
        let offsets = cufront_hir::item_offsets(db, item);
        let mut seen_specifiers: FxHashSet<u32> = FxHashSet::default();
        for (i, _) in tree.vars.iter().enumerate() {
            let Some(&at) = offsets.vars.get(i) else { continue };
            let Some(tok) = cufront_syntax::green::token_at(&root, TextSize::from(at)) else { continue };
            let Some(declarator) = tok.parent_ancestors().find(|n| n.kind() == K::DECLARATOR) else { continue };
            let Some(decl) = declarator.ancestors().find(|n| n.kind() == K::SIMPLE_DECL) else { continue };
            // Namespace scope only: not in a class or a function.
            if decl.ancestors().any(|a| matches!(a.kind(), K::MEMBER_LIST | K::FUNCTION_DEF | K::COMPOUND_STMT)) {
                continue;
            }
            let me = VarId::new(db, item, i as u32);
            let Some(&scope) = map.parent.get(&DeclKey::Var(me)) else { continue };
            let mut operands: Vec<SyntaxNode> = declarator
                .children()
                .filter(|c| c.kind() == K::ARRAY_DECLARATOR)
                .filter_map(|a| a.children().find(|c| c.kind() == K::ID_EXPR))
                .collect();
            if let Some(specs) = decl.children().find(|c| c.kind() == K::DECL_SPECIFIERS)
                && seen_specifiers.insert(u32::from(specs.text_range().start()))
            {
                operands.extend(
                    specs
                        .descendants()
                        .filter(|n| n.kind() == K::TEMPLATE_ARG)
                        .filter_map(|a| a.children().find(|c| c.kind() == K::ID_EXPR)),
                );
            }
            for op in operands {
                let Some(name) = single_name(&op) else { continue };
                candidates.push((name, start + u32::from(op.text_range().start()), scope));
            }
        }
        // Launch-configuration attribute arguments of kernels.
        for (i, f) in tree.fns.iter().enumerate() {
            let Some(&at) = offsets.fns.get(i) else { continue };
            if !f.linkage.cuda.launch_config {
                continue;
            }
            let decl = cufront_hir::instances::FnDecl::Fn(cufront_hir::FnId::new(db, item, i as u32));
            let Some(scope) = cufront_hir::instances::fn_scope(db, decl) else { continue };
            for attr in ["launch_bounds", "maxnreg", "cluster_dims"] {
                let Some(pos) = crate::decls::cuda_attribute_at(&root, at, &[attr], false) else { continue };
                let Some(tok) = cufront_syntax::green::token_at(&root, TextSize::from(pos)) else { continue };
                let Some(node) = tok.parent_ancestors().find(|n| n.kind() == K::ATTRIBUTE) else { continue };
                for (name, off) in attribute_operands(&node) {
                    candidates.push((name, start + off, scope));
                }
            }
        }
    }
    // `constexpr` variables initialized by a call of a function that is
    // not `constexpr`.
    for (item, start) in crate::calls::user_items(db, tu) {
        let tree = cufront_hir::item_tree_of(db, item);
        for v in crate::calls::defined_variables(db, item) {
            if !tree.vars.get(v.idx(db) as usize).is_some_and(|d| d.linkage.is_constexpr) {
                continue;
            }
            if let Some((at, callee)) = non_constexpr_call(db, v) {
                let Some(declared) = first_declaration(db, &starts, callee) else { continue };
                let declared_at = Some(crate::redefinition::position(db, tu, declared));
                let Some(name) = callee_name(db, callee) else { continue };
                let entity =
                    DiagEntity { kind: Some(EntityKind::Function), name, declared_at, ..DiagEntity::default() };
                let at = start + at;
                let found = |id, severity, args| Found::new(at, id, severity, args);
                out.push(found(NOT_CONSTANT, Severity::Error, vec![]));
                out.push(found(CALL_NOT_CONSTEXPR, Severity::Note, vec![Arg::Entity(entity)]));
            }
        }
    }
    for (name, at, scope) in candidates {
        let path = Path { global: false, segments: vec![PathSegment { name: name.clone(), args: None }] };
        let Some(Def::Var(w)) = resolve_path(db, &map, scope, &path, Ns::Value) else { continue };
        let wt = cufront_hir::item_tree_of(db, w.item(db));
        let Some(wd) = wt.vars.get(w.idx(db) as usize) else { continue };
        if wd.is_const || wd.linkage.is_constexpr || matches!(wd.ty, TypeRef::LRef(_) | TypeRef::RRef(_)) {
            continue;
        }
        let Some(declared) = starts
            .get(&w.item(db))
            .zip(cufront_hir::item_offsets(db, w.item(db)).vars.get(w.idx(db) as usize))
            .map(|(s, o)| s + o)
        else {
            continue;
        };
        let declared_at = Some(crate::redefinition::position(db, tu, declared));
        let Some(&wscope) = map.parent.get(&DeclKey::Var(w)) else { continue };
        let Some(qual) = crate::names::scope_chain(db, tu, wscope) else { continue };
        let name: String = qual.into_iter().map(|(_, n)| format!("{n}::")).chain([name]).collect();
        let entity = DiagEntity { kind: Some(EntityKind::Variable), name, declared_at, ..DiagEntity::default() };
        let found = |id, severity, args| Found::new(at, id, severity, args);
        out.push(found(NOT_CONSTANT, Severity::Error, vec![]));
        out.push(found(VARIABLE_NOT_CONSTANT, Severity::Note, vec![Arg::Entity(entity)]));
    }
    out
}

/// The initializer of `constexpr` variable `v` when it is a call of a
/// function that no declaration makes `constexpr`: where the call is
/// (relative to the item) and the callee.
fn non_constexpr_call(db: &dyn SourceDatabase, v: VarId) -> Option<(u32, FnDecl)> {
    use cufront_hir::body::{Expr, Init, Stmt};
    use cufront_hir::infer::{self, CallSite, Callee, InferOwner};
    let body = infer::var_init::var_init_body(db, cufront_hir::instances::VarDecl::Var(v));
    let local = body.stmts.iter().find_map(|s| match s {
        Stmt::Decl(ls) => ls.first().copied(),
        _ => None,
    })?;
    let e = match &body.local(local).init {
        Init::Assign(e) => *e,
        Init::Paren(a) | Init::Brace(a) if a.len() == 1 => a[0],
        _ => return None,
    };
    let Expr::Call { callee, .. } = body.expr(e) else { return None };
    let r = infer::infer(db, InferOwner::Var(v));
    let target = r.calls.iter().find_map(|(site, c)| match (site, c) {
        (CallSite::Expr(x), Callee::Entity(cufront_hir::Entity::Fn(f))) if *x == e => Some(FnDecl::Fn(*f)),
        _ => None,
    })?;
    if cufront_hir::exec_space::fn_is_constexpr(db, target) {
        return None;
    }
    Some((u32::from(body.expr_ranges[callee.0 as usize].start()), target))
}

/// Where the first declaration of a function is (offset in the unit).
fn first_declaration(
    db: &dyn SourceDatabase,
    starts: &rustc_hash::FxHashMap<cufront_hir::ItemId, u32>,
    f: FnDecl,
) -> Option<u32> {
    let at = |d: FnDecl| {
        let FnDecl::Fn(f) = d else { return None };
        Some(starts.get(&f.item(db))? + cufront_hir::item_offsets(db, f.item(db)).fns.get(f.idx(db) as usize)?)
    };
    std::iter::once(f).chain(cufront_hir::exec_space::redeclarations(db, f)).filter_map(at).min()
}

/// A function's qualified name, as the notes give it.
fn callee_name(db: &dyn SourceDatabase, f: FnDecl) -> Option<String> {
    let cufront_hir::item_tree::FnName::Ident(n) = &f.data(db)?.name else { return None };
    let qual: String = crate::names::scope_names(db, f)?.into_iter().map(|(_, n)| format!("{n}::")).collect();
    Some(format!("{qual}{n}"))
}

/// The arguments of an attribute that are one identifier each, with their
/// offsets (relative to the item).
fn attribute_operands(attr: &SyntaxNode) -> Vec<(String, u32)> {
    let Some(args) = attr.children().find(|c| c.kind() == K::ATTRIBUTE_ARGS) else { return Vec::new() };
    let toks: Vec<_> =
        args.descendants_with_tokens().filter_map(|t| t.into_token()).filter(|t| !t.kind().is_trivia()).collect();
    // Between the parentheses, split at the commas.
    let inner = match toks.as_slice() {
        [open, inner @ .., close] if open.kind() == K::L_PAREN && close.kind() == K::R_PAREN => inner,
        _ => return Vec::new(),
    };
    inner
        .split(|t| t.kind() == K::COMMA)
        .filter_map(|op| match op {
            [t] if t.kind() == K::IDENT => Some((t.text().to_string(), u32::from(t.text_range().start()))),
            _ => None,
        })
        .collect()
}

/// The identifier of an id-expression that is one unqualified name.
fn single_name(id_expr: &SyntaxNode) -> Option<String> {
    let toks: Vec<_> =
        id_expr.descendants_with_tokens().filter_map(|t| t.into_token()).filter(|t| !t.kind().is_trivia()).collect();
    match toks.as_slice() {
        [t] if t.kind() == K::IDENT => Some(t.text().to_string()),
        _ => None,
    }
}
