//! Completion of names: members after `.`/`->` (the object's type from
//! `hir`'s inference), names of a scope after `X::`, and otherwise the
//! visible locals and parameters plus the unit's declarations. Functions
//! that cannot run where the cursor is are left out: device-only
//! functions in host code, host-only functions in `__device__` and
//! `__global__` bodies (spec 20 §5's call rules).

use cufront_cuda::ExecSpace;
use cufront_hir::TyKind;
use cufront_syntax::{SyntaxKind as K, SyntaxNode, SyntaxToken, TextSize};
use rustc_hash::FxHashSet;

use crate::resolve::{self, Target};
use crate::symbols::{self, Decl, DeclKind};
use crate::{Ctx, LineCol};

/// One proposal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompletionItem {
    pub label: String,
    /// `None` for locals and parameters.
    pub kind: Option<DeclKind>,
    pub detail: String,
}

const LIMIT: usize = 200;

pub(crate) fn completions(cx: &Ctx<'_>, pos: LineCol) -> Vec<CompletionItem> {
    let Some(offset) = cx.offset(pos) else {
        return Vec::new();
    };
    let root = cx.parse().syntax_node();
    let Some(left) = root.token_at_offset(TextSize::from(offset)).left_biased() else {
        return Vec::new();
    };
    let (prefix, before) = if left.kind() == K::IDENT && left.text_range().start() < TextSize::from(offset) {
        // The cursor may be inside the word: what is before it is the prefix.
        let upto = usize::from(TextSize::from(offset) - left.text_range().start()).min(left.text().len());
        (left.text()[..upto].to_string(), prev_significant(&left))
    } else if left.kind().is_trivia() {
        (String::new(), prev_significant(&left).or(Some(left.clone())).filter(|t| !t.kind().is_trivia()))
    } else {
        (String::new(), Some(left.clone()))
    };
    let caller = caller_space(cx, &left);
    let mut out = match before.as_ref().map(|t| t.kind()) {
        Some(K::DOT | K::ARROW) => members(cx, before.as_ref().expect("matched"), &prefix),
        Some(K::COLON2) => scope_names(cx, &qualifier(before.as_ref().expect("matched")), &prefix),
        _ => {
            let mut v = locals(&left, &prefix);
            v.extend(unit_names(cx, &prefix));
            v
        }
    };
    let spaces = symbols::unit_spaces(cx.db, cx.unit.tu);
    out.retain(|(_, d)| match (d, caller) {
        (Some(d), Some(caller)) if d.kind == DeclKind::Function => {
            let callee = symbols::exec_space(&spaces, d, cx.unit.checks.relaxed_constexpr).space;
            callable(caller, callee)
        }
        _ => true,
    });
    let mut seen = FxHashSet::default();
    let mut items: Vec<CompletionItem> = out
        .into_iter()
        .filter(|(item, _)| seen.insert((item.label.clone(), item.detail.clone())))
        .map(|(item, _)| item)
        .collect();
    items.truncate(LIMIT);
    items
}

/// Whether code running in `caller` may call a function of `callee`'s space.
fn callable(caller: ExecSpace, callee: ExecSpace) -> bool {
    let host_only = matches!(callee, ExecSpace::Host | ExecSpace::ImplicitHost);
    match caller {
        ExecSpace::Device | ExecSpace::Global => !host_only,
        ExecSpace::Host | ExecSpace::ImplicitHost => callee != ExecSpace::Device,
        ExecSpace::HostDevice => true,
    }
}

fn prev_significant(t: &SyntaxToken) -> Option<SyntaxToken> {
    let mut p = t.prev_token();
    while let Some(x) = &p {
        if !x.kind().is_trivia() {
            break;
        }
        p = x.prev_token();
    }
    p
}

/// The execution space of the function whose body holds `t`.
fn caller_space(cx: &Ctx<'_>, t: &SyntaxToken) -> Option<ExecSpace> {
    let function = t.parent_ancestors().filter(|a| a.kind() == K::FUNCTION_DEF).last()?;
    let body = function.children().find(|c| c.kind() == K::FUNCTION_BODY)?;
    if !body.text_range().contains(t.text_range().start()) {
        return None;
    }
    let name = function.children().find(|c| c.kind() == K::DECLARATOR)?;
    let tok = name
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(|t| t.kind() == K::IDENT)
        .find(|t| t.parent_ancestors().take_while(|a| *a != name).all(|a| a.kind() != K::PARAM_LIST))?;
    let r = resolve::resolve_token(cx, tok, false)?;
    let (d, _) = r.targets.iter().find_map(|t| t.decl(cx.db))?;
    let spaces = symbols::unit_spaces(cx.db, cx.unit.tu);
    Some(symbols::exec_space(&spaces, &d, cx.unit.checks.relaxed_constexpr).space)
}

fn item(d: &Decl) -> CompletionItem {
    CompletionItem { label: d.name.clone(), kind: Some(d.kind), detail: d.signature.clone() }
}

fn wanted(name: &str, prefix: &str) -> bool {
    name.starts_with(prefix) && (prefix.starts_with('_') || !name.starts_with("__"))
}

/// Members of the class of the object before `.`/`->`.
fn members(cx: &Ctx<'_>, op: &SyntaxToken, prefix: &str) -> Vec<(CompletionItem, Option<Decl>)> {
    let Some(object) = prev_significant(op) else {
        return Vec::new();
    };
    let Some(obj_tok) =
        std::iter::successors(Some(object), |t: &SyntaxToken| t.prev_token()).find(|t| t.kind() == K::IDENT)
    else {
        return Vec::new();
    };
    let Some(res) = resolve::resolve_token(cx, obj_tok, true) else {
        return Vec::new();
    };
    let Some(mut t) = res.expr_ty else {
        return Vec::new();
    };
    // Through pointers (`->`), references, cv and typedefs to the class.
    for _ in 0..8 {
        t = cufront_hir::ty::canonical(cx.db, t);
        match t.kind(cx.db) {
            TyKind::Ptr(p) | TyKind::LRef(p) | TyKind::RRef(p) | TyKind::Qualified(p, _) => t = *p,
            _ => break,
        }
    }
    let shown = cufront_hir::ty::display(cx.db, t);
    let base = shown.split('<').next().unwrap_or("").trim().to_string();
    let mut path: Vec<String> = base.split("::").map(str::to_string).collect();
    let Some(name) = path.pop() else {
        return Vec::new();
    };
    // The class: a definition named so, in the scope the type names.
    let index = symbols::name_index(cx.db, cx.unit.tu);
    let mut out = Vec::new();
    for &(item, idx) in index.get(&name).into_iter().flatten() {
        let decls = symbols::item_decls(cx.db, item);
        let class = &decls[idx as usize];
        if !matches!(class.kind, DeclKind::Class | DeclKind::Struct | DeclKind::Union) || !class.definition {
            continue;
        }
        let scope: Vec<&str> = class.scope.iter().map(String::as_str).filter(|s| !s.is_empty()).collect();
        if scope.len() < path.len() || scope[scope.len() - path.len()..].iter().zip(&path).any(|(a, b)| a != b) {
            continue;
        }
        let mut inner = class.scope.clone();
        inner.push(class.name.clone());
        for d in decls.iter().filter(|d| d.member && d.scope == inner && wanted(&d.name, prefix)) {
            out.push((item_of(d), Some(d.clone())));
        }
        break;
    }
    out
}

fn item_of(d: &Decl) -> CompletionItem {
    item(d)
}

/// The names written before `::`.
fn qualifier(colon2: &SyntaxToken) -> Vec<String> {
    let mut out = Vec::new();
    let mut t = prev_significant(colon2);
    while let Some(x) = t {
        if x.kind() == K::IDENT {
            out.push(x.text().to_string());
            t = prev_significant(&x);
            if t.as_ref().is_some_and(|c| c.kind() == K::COLON2) {
                t = t.and_then(|c| prev_significant(&c));
                continue;
            }
        }
        break;
    }
    out.reverse();
    out
}

/// Declarations directly in the scope `qual` names.
fn scope_names(cx: &Ctx<'_>, qual: &[String], prefix: &str) -> Vec<(CompletionItem, Option<Decl>)> {
    let index = symbols::name_index(cx.db, cx.unit.tu);
    let mut out = Vec::new();
    let mut names: Vec<&String> = index.keys().filter(|n| wanted(n, prefix)).collect();
    names.sort();
    for n in names {
        for &(item, idx) in &index[n] {
            let d = &symbols::item_decls(cx.db, item)[idx as usize];
            let scope: Vec<&str> = d.scope.iter().map(String::as_str).filter(|s| !s.is_empty()).collect();
            if scope.len() >= qual.len() && scope[scope.len() - qual.len()..].iter().zip(qual).all(|(a, b)| a == b) {
                out.push((item_of(d), Some(d.clone())));
            }
        }
        if out.len() >= LIMIT {
            break;
        }
    }
    out
}

/// Parameters and locals declared before `at` in the blocks around it.
fn locals(at: &SyntaxToken, prefix: &str) -> Vec<(CompletionItem, Option<Decl>)> {
    let Some(function) = at.parent_ancestors().filter(|a| a.kind() == K::FUNCTION_DEF).last() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for cand in function.descendants_with_tokens().filter_map(|e| e.into_token()) {
        if cand.kind() != K::IDENT
            || cand.text_range().start() >= at.text_range().start()
            || !wanted(cand.text(), prefix)
        {
            continue;
        }
        if let Some(Target::Local { decl, .. }) = resolve::local_target(&function, &cand)
            && visible(&cand, at)
        {
            let node: SyntaxNode = function.covering_element(decl).into_node().unwrap_or_else(|| function.clone());
            let detail = symbols::cuda_spelling(&symbols::compact(&node));
            out.push((CompletionItem { label: cand.text().to_string(), kind: None, detail }, None));
        }
    }
    out.reverse();
    out
}

fn visible(decl: &SyntaxToken, at: &SyntaxToken) -> bool {
    decl.parent_ancestors()
        .find(|a| resolve::is_scope(a.kind()))
        .is_some_and(|s| s.text_range().contains_range(at.text_range()))
}

/// Declarations of the unit by name: user files first.
fn unit_names(cx: &Ctx<'_>, prefix: &str) -> Vec<(CompletionItem, Option<Decl>)> {
    let index = symbols::name_index(cx.db, cx.unit.tu);
    let starts = symbols::item_starts(cx.db, cx.unit.tu);
    let mut names: Vec<&String> = index.keys().filter(|n| wanted(n, prefix)).collect();
    names.sort();
    let (mut user, mut system) = (Vec::new(), Vec::new());
    for n in names {
        for &(item, idx) in &index[n] {
            let d = &symbols::item_decls(cx.db, item)[idx as usize];
            if d.member {
                continue;
            }
            let Some(start) = starts.start_of(item) else {
                continue;
            };
            let at: u32 = (d.name_range.start() + TextSize::from(start)).into();
            let sys = cx.is_system(at);
            let entry = (item_of(d), Some(d.clone()));
            if sys {
                if !prefix.is_empty() && system.len() < LIMIT {
                    system.push(entry);
                }
            } else {
                user.push(entry);
            }
        }
    }
    user.extend(system);
    user
}
