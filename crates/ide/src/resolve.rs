//! What the identifier at an offset of a unit names.
//!
//! In order, the first that answers:
//! 1. The name of a declaration: the declaration itself.
//! 2. Inside a function: a parameter or local declared before it in an
//!    enclosing block (syntactic scopes; members and qualified names are
//!    never locals).
//! 3. Inside a non-template function: `hir`'s inference (`infer`), whose
//!    name and overload resolution gives the entity; the entity's
//!    declaration comes from `item_offsets`.
//! 4. Declarations with that name (`symbols::name_index`), narrowed by what
//!    the syntax says: the written qualifier, member access, call position.
//!    Several may remain: navigation shows them all.

use cufront_base_db::SourceDatabase;
use cufront_hir::body::fn_body;
use cufront_hir::infer::{self, InferOwner, Resolution};
use cufront_hir::instances::{FnDecl, VarDecl};
use cufront_hir::{Entity, FnId, ItemId, TyId};
use cufront_syntax::{SyntaxKind as K, SyntaxNode, SyntaxToken, TextRange, TextSize};

use crate::Ctx;
use crate::symbols::{self, Decl, DeclKind};

/// A declaration of the unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    /// `item_decls(item)[idx]`; `start` is the item's offset in the unit.
    Decl { item: ItemId, start: u32, idx: u32 },
    /// A parameter or block-scope variable: its name and its declaration (unit offsets).
    Local { name: TextRange, decl: TextRange },
}

/// The answer for one identifier.
pub(crate) struct Resolved {
    pub token: SyntaxToken,
    pub targets: Vec<Target>,
    /// The identifier declares its first target.
    pub is_declaration: bool,
    /// What `hir` resolved it to, when it did.
    pub entity: Option<Entity>,
    /// The type of the innermost expression `hir` typed at the identifier.
    pub expr_ty: Option<TyId>,
}

/// The identifier at (or just before) `offset`.
pub(crate) fn ident_at(root: &SyntaxNode, offset: u32) -> Option<SyntaxToken> {
    let at = root.token_at_offset(TextSize::from(offset));
    let pick = |t: &SyntaxToken| t.kind() == K::IDENT;
    at.clone().right_biased().filter(pick).or_else(|| at.left_biased().filter(pick))
}

pub(crate) fn resolve(cx: &Ctx<'_>, root: &SyntaxNode, offset: u32, use_hir: bool) -> Option<Resolved> {
    let token = ident_at(root, offset)?;
    resolve_token(cx, token, use_hir)
}

pub(crate) fn resolve_token(cx: &Ctx<'_>, token: SyntaxToken, use_hir: bool) -> Option<Resolved> {
    let db = cx.db;
    let starts = symbols::item_starts(db, cx.unit.tu);
    let at: u32 = token.text_range().start().into();
    let (item, start) = symbols::item_at(&starts, at)?;
    let rel = TextRange::new(
        token.text_range().start() - TextSize::from(start),
        token.text_range().end() - TextSize::from(start),
    );
    let mut out =
        Resolved { token: token.clone(), targets: Vec::new(), is_declaration: false, entity: None, expr_ty: None };

    // 1. A declaration's own name.
    let decls = symbols::item_decls(db, item);
    if let Some(idx) = decls.iter().position(|d| d.name_range == rel) {
        out.targets.push(Target::Decl { item, start, idx: idx as u32 });
        out.is_declaration = true;
        return Some(out);
    }
    let function = token.parent_ancestors().filter(|a| a.kind() == K::FUNCTION_DEF).last();
    if let Some(decl) = declares_local(&token) {
        out.targets.push(Target::Local { name: token.text_range(), decl });
        out.is_declaration = true;
        if use_hir {
            hir_at(cx, item, start, function.as_ref(), rel.start(), &mut out);
        }
        return Some(out);
    }
    // 2. Locals and parameters.
    if let Some(f) = &function
        && let Some(local) = local_decl(f, &token)
    {
        out.targets.push(local);
        if use_hir {
            hir_at(cx, item, start, function.as_ref(), rel.start(), &mut out);
        }
        return Some(out);
    }
    // 3. hir.
    if use_hir {
        hir_at(cx, item, start, function.as_ref(), rel.start(), &mut out);
        if let Some(e) = out.entity
            && let Some(t) = entity_target(cx, e)
        {
            out.targets.push(t);
            return Some(out);
        }
    }
    // 4. By name.
    out.targets = by_name(cx, &token);
    Some(out)
}

/// Whether `token` is the name a block-scope declaration or parameter
/// declares: the range of that declaration.
fn declares_local(token: &SyntaxToken) -> Option<TextRange> {
    let name_ref = token.parent().filter(|p| p.kind() == K::NAME_REF)?;
    let name = name_ref.parent().filter(|p| p.kind() == K::NAME)?;
    let declarator = name.parent().filter(|p| p.kind() == K::DECLARATOR)?;
    // The function's own declarator is not a local.
    if declarator.parent().is_some_and(|p| p.kind() == K::FUNCTION_DEF) {
        return None;
    }
    let scope = declarator.ancestors().find(|a| is_scope(a.kind()))?;
    if scope.kind() == K::FUNCTION_DEF && !declarator.ancestors().any(|a| a.kind() == K::PARAM) {
        return None;
    }
    let decl =
        declarator.ancestors().find(|a| matches!(a.kind(), K::SIMPLE_DECL | K::PARAM | K::CONDITION | K::FOR_INIT))?;
    Some(decl.text_range())
}

pub(crate) fn is_scope(k: K) -> bool {
    matches!(
        k,
        K::COMPOUND_STMT
            | K::FOR_STMT
            | K::RANGE_FOR_STMT
            | K::IF_STMT
            | K::WHILE_STMT
            | K::SWITCH_STMT
            | K::HANDLER
            | K::LAMBDA_EXPR
            | K::FUNCTION_DEF
    )
}

/// The name is used as `a.name`, `a->name` or `X::name`: never a local.
fn is_member_or_qualified(token: &SyntaxToken) -> bool {
    let Some(name_ref) = token.parent() else {
        return false;
    };
    let prev = name_ref.prev_sibling_or_token().and_then(|p| {
        let mut p = Some(p);
        while let Some(x) = &p {
            if x.kind().is_trivia() {
                p = x.prev_sibling_or_token();
            } else {
                break;
            }
        }
        p
    });
    matches!(prev.map(|p| p.kind()), Some(K::DOT | K::ARROW | K::COLON2))
}

/// The local that `token` declares, as a target.
pub(crate) fn local_target(_function: &SyntaxNode, token: &SyntaxToken) -> Option<Target> {
    declares_local(token).map(|decl| Target::Local { name: token.text_range(), decl })
}

/// The nearest earlier declaration of `token`'s name in a block that encloses it.
fn local_decl(function: &SyntaxNode, token: &SyntaxToken) -> Option<Target> {
    if is_member_or_qualified(token) {
        return None;
    }
    let use_at = token.text_range().start();
    let mut best: Option<(usize, TextSize, Target)> = None;
    for cand in function.descendants_with_tokens().filter_map(|e| e.into_token()) {
        if cand.kind() != K::IDENT || cand.text() != token.text() || cand.text_range().start() >= use_at {
            continue;
        }
        let Some(decl) = declares_local(&cand) else {
            continue;
        };
        let Some(scope) = cand.parent_ancestors().find(|a| is_scope(a.kind())) else {
            continue;
        };
        if !scope.text_range().contains_range(token.text_range()) {
            continue;
        }
        let depth = scope.ancestors().count();
        let better =
            best.as_ref().is_none_or(|(d, at, _)| depth > *d || depth == *d && cand.text_range().start() > *at);
        if better {
            best = Some((depth, cand.text_range().start(), Target::Local { name: cand.text_range(), decl }));
        }
    }
    best.map(|(_, _, t)| t)
}

/// Runs `hir`'s inference of the non-template function around the
/// identifier and records what it resolved it to.
fn hir_at(cx: &Ctx<'_>, item: ItemId, start: u32, function: Option<&SyntaxNode>, rel: TextSize, out: &mut Resolved) {
    let db = cx.db;
    let Some(function) = function else { return };
    let Some(f) = function_id(db, item, start, function) else {
        return;
    };
    let body = fn_body(db, f);
    let result = infer::infer(db, InferOwner::Fn(f));
    let mut best: Option<(TextRange, usize)> = None;
    for (i, r) in body.expr_ranges.iter().enumerate() {
        if !r.contains_range(TextRange::at(rel, TextSize::from(1))) {
            continue;
        }
        if best.is_none_or(|(b, _)| r.len() < b.len()) {
            best = Some((*r, i));
        }
    }
    let Some((range, e)) = best else { return };
    let e = cufront_hir::body::ExprId(e as u32);
    out.expr_ty = result.ty(e);
    // The smallest expression that names something at the identifier.
    let mut named: Option<(TextRange, Entity)> = None;
    for (eid, res) in &result.resolutions {
        let Some(r) = body.expr_ranges.get(eid.0 as usize) else {
            continue;
        };
        if !r.contains_range(TextRange::at(rel, TextSize::from(1))) {
            continue;
        }
        if let Resolution::Entity(ent) = res
            && named.is_none_or(|(b, _)| r.len() < b.len())
        {
            named = Some((*r, *ent));
        }
    }
    // A call names its callee: the call whose callee starts at the identifier's expression.
    if named.is_none() {
        for (site, callee) in &result.calls {
            let (infer::CallSite::Expr(ce), infer::Callee::Entity(ent)) = (site, callee) else {
                continue;
            };
            let Some(r) = body.expr_ranges.get(ce.0 as usize) else {
                continue;
            };
            if r.start() == range.start()
                || r.contains_range(range) && r.start() <= rel && named.is_none_or(|(b, _)| r.len() < b.len())
            {
                named = Some((*r, *ent));
            }
        }
    }
    out.entity = named.map(|(_, e)| e);
}

/// The `hir` function whose definition is `function` (a `FUNCTION_DEF` of
/// the item at `start`); `None` for templated ones (inferred per instance).
pub(crate) fn function_id(db: &dyn SourceDatabase, item: ItemId, start: u32, function: &SyntaxNode) -> Option<FnId> {
    if function.ancestors().any(|a| a.kind() == K::TEMPLATE_DECL) {
        return None;
    }
    let declarator = function.children().find(|c| c.kind() == K::DECLARATOR)?;
    let base = TextSize::from(start);
    let drange = declarator.text_range();
    let offs = cufront_hir::item_offsets(db, item);
    let idx = offs.fns.iter().position(|&o| drange.contains(TextSize::from(o) + base))?;
    Some(FnId::new(db, item, idx as u32))
}

/// Where an entity is declared.
pub(crate) fn entity_target(cx: &Ctx<'_>, e: Entity) -> Option<Target> {
    let db = cx.db;
    let (item, off) = match e {
        Entity::Fn(f) => fn_site(db, f)?,
        Entity::Var(v) => (v.item(db), *cufront_hir::item_offsets(db, v.item(db)).vars.get(v.idx(db) as usize)?),
        Entity::FnInst(i) => match i.decl(db) {
            FnDecl::Fn(f) => fn_site(db, f)?,
            FnDecl::Template(t) => {
                (t.item(db), *cufront_hir::item_offsets(db, t.item(db)).fn_templates.get(t.idx(db) as usize)?)
            }
        },
        Entity::VarInst(i) => match i.decl(db) {
            VarDecl::Var(v) => (v.item(db), *cufront_hir::item_offsets(db, v.item(db)).vars.get(v.idx(db) as usize)?),
            VarDecl::Template(_) => return None,
        },
        _ => return None,
    };
    let starts = symbols::item_starts(db, cx.unit.tu);
    let start = starts.start_of(item)?;
    let decls = symbols::item_decls(db, item);
    // The declarator-id starts at `off` (qualifiers included): its name is
    // the first function or variable name at or after it.
    let idx = decls
        .iter()
        .enumerate()
        .filter(|(_, d)| {
            matches!(d.kind, DeclKind::Function | DeclKind::Variable | DeclKind::Field)
                && u32::from(d.name_range.start()) >= off
        })
        .min_by_key(|(_, d)| d.name_range.start())?
        .0;
    Some(Target::Decl { item, start, idx: idx as u32 })
}

fn fn_site(db: &dyn SourceDatabase, f: FnId) -> Option<(ItemId, u32)> {
    Some((f.item(db), *cufront_hir::item_offsets(db, f.item(db)).fns.get(f.idx(db) as usize)?))
}

/// The qualifiers written before the name (`a::B::f` → [a, B]).
fn written_qualifier(token: &SyntaxToken) -> Vec<String> {
    let Some(name_ref) = token.parent() else {
        return Vec::new();
    };
    let Some(q) = name_ref.parent().filter(|p| matches!(p.kind(), K::QUALIFIED_NAME | K::NESTED_NAME_SPECIFIER)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for c in q.children() {
        if c == name_ref {
            break;
        }
        if let Some(t) = c.descendants_with_tokens().filter_map(|e| e.into_token()).find(|t| t.kind() == K::IDENT) {
            out.push(t.text().to_string());
        }
    }
    out
}

/// Declarations named like `token`, narrowed by its syntax.
fn by_name(cx: &Ctx<'_>, token: &SyntaxToken) -> Vec<Target> {
    let db = cx.db;
    let index = symbols::name_index(db, cx.unit.tu);
    let Some(cands) = index.get(token.text()) else {
        return Vec::new();
    };
    let starts = symbols::item_starts(db, cx.unit.tu);
    let qual = written_qualifier(token);
    let member = token
        .parent()
        .is_some_and(|n| n.parent().is_some_and(|p| p.kind() == K::MEMBER_EXPR) && is_member_or_qualified(token));
    let mut out = Vec::new();
    for &(item, idx) in cands {
        let decls = symbols::item_decls(db, item);
        let d = &decls[idx as usize];
        if !qual.is_empty() && !scope_ends_with(d, &qual) {
            continue;
        }
        if member && !d.member {
            continue;
        }
        let Some(start) = starts.start_of(item) else {
            continue;
        };
        out.push(Target::Decl { item, start, idx });
    }
    out
}

fn scope_ends_with(d: &Decl, qual: &[String]) -> bool {
    let scope: Vec<&str> = d.scope.iter().map(String::as_str).filter(|s| !s.is_empty()).collect();
    scope.len() >= qual.len() && scope[scope.len() - qual.len()..].iter().zip(qual).all(|(a, b)| *a == b)
}

/// What a target is, beyond where it is written: redeclarations of one
/// function (same redeclaration key), class or variable (same qualified name
/// and kind) are one.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Identity {
    Decl { kind: DeclKind, name: String, key: Option<String> },
    Local(TextRange),
}

impl Target {
    pub fn identity(&self, db: &dyn SourceDatabase) -> Identity {
        match self {
            Target::Decl { .. } => {
                let (d, _) = self.decl(db).expect("a Decl target has a declaration");
                Identity::Decl { kind: d.kind, name: d.qualified_name(), key: d.fn_key.clone() }
            }
            Target::Local { name, .. } => Identity::Local(*name),
        }
    }

    /// The declaration, for `Decl` targets.
    pub fn decl(&self, db: &dyn SourceDatabase) -> Option<(Decl, u32)> {
        match self {
            Target::Decl { item, start, idx } => Some((symbols::item_decls(db, *item)[*idx as usize].clone(), *start)),
            Target::Local { .. } => None,
        }
    }
    /// The name's range in the unit.
    pub fn name_range(&self, db: &dyn SourceDatabase) -> TextRange {
        match self {
            Target::Decl { item, start, idx } => {
                symbols::item_decls(db, *item)[*idx as usize].name_range + TextSize::from(*start)
            }
            Target::Local { name, .. } => *name,
        }
    }
}
