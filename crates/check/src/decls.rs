//! The host pass's rules on declarations (spec 20 §4, §8):
//!
//! - `__global__` functions: a `void` return type (3505), no deduced
//!   return type (3506), no ellipsis (3503), not an operator (3644), not a
//!   member (3688), no exception specification (3647), `inline` ignored
//!   (warning 3507, #20050; also implicitly inline: `constexpr`, a friend
//!   definition), not defined in a friend declaration (3643). The caret is
//!   at the `global` attribute (at `friend` for 3643).
//! - namespace-scope variables: `__shared__` with `__constant__` (3481, at
//!   the later attribute), `__managed__` with either (3568), a const
//!   `__managed__` (3566), a `__managed__` reference (3567), an initialized
//!   `__shared__` (3510); the caret at the variable's name.
//! - block-scope variables (`locals`): a memory space in a host or
//!   `__host__ __device__` body (3483), an initialized `__shared__` in any
//!   body (3510).
//!
//! Facts come from the item tree (declared types lowered through hir);
//! the syntax is read only to place the caret, inside the item's own tree
//! (offsets relative to the item, so an edit elsewhere re-runs nothing).

use std::sync::Arc;

use cufront_base_db::SourceDatabase;
use cufront_diagnostics::{Arg, DiagId, Severity};
use cufront_hir::ItemId;
use cufront_hir::exec_space::{self, ExecSpace};
use cufront_hir::instances::{self, FnDecl};
use cufront_hir::item_tree::Builtin;
use cufront_hir::item_tree::{FnData, FnName, TypeRef};
use cufront_hir::scopes::{ScopeKind, def_map};
use cufront_hir::ty::{self, TyKind, canonical};
use cufront_syntax::{SyntaxKind as K, SyntaxNode, TextSize};

use crate::Raw;

const ILLEGAL_COMBINATION: DiagId = DiagId(3481);
const ONLY_ON_GLOBAL: DiagId = DiagId(3534);
const LAUNCH_BOUNDS_MEMBER: DiagId = DiagId(3535);
const MAIN_ON_DEVICE: DiagId = DiagId(3538);
const MAXNREG_ONLY_ON_GLOBAL: DiagId = DiagId(3715);
const LAUNCH_BOUNDS_AND_MAXNREG: DiagId = DiagId(3719);
const DEFAULTED_ANNOTATION: DiagId = DiagId(3469);
const GLOBAL_ELLIPSIS: DiagId = DiagId(3503);
const GLOBAL_RETURN_TYPE: DiagId = DiagId(3505);
const GLOBAL_DEDUCED_RETURN: DiagId = DiagId(3506);
const GLOBAL_INLINE: DiagId = DiagId(3507);
const ILLEGAL_INIT: DiagId = DiagId(3510);
const ILLEGAL_LOCAL_IN_HOST: DiagId = DiagId(3483);
const MANAGED_CONST: DiagId = DiagId(3566);
const MANAGED_REFERENCE: DiagId = DiagId(3567);
const MANAGED_SHARED_CONSTANT: DiagId = DiagId(3568);
const GLOBAL_FRIEND_DEFINITION: DiagId = DiagId(3643);
const GLOBAL_OPERATOR: DiagId = DiagId(3644);
const GLOBAL_EXCEPTION_SPEC: DiagId = DiagId(3647);
const GLOBAL_MEMBER: DiagId = DiagId(3688);
/// `%s arguments must be positive integers` (`__cluster_dims__`).
const NOT_POSITIVE: DiagId = DiagId(3685);
const MAX_BLOCKS_NEGATIVE: DiagId = DiagId(3705);
const EXPECTED_RPAREN: DiagId = DiagId(18);
const MAXNREG_NOT_POSITIVE: DiagId = DiagId(3717);
const GRID_CONSTANT_NOT_KERNEL: DiagId = DiagId(3702);
const INLINE_VAR_WHOLE_PROGRAM: DiagId = DiagId(3648);
/// `A %s variable cannot be marked constexpr`.
const CONSTEXPR_VARIABLE: DiagId = DiagId(3577);
const VIRTUAL_OUTSIDE_CLASS: DiagId = DiagId(239);
const MUTABLE_NOT_ALLOWED: DiagId = DiagId(719);
const EXPLICIT_NOT_ALLOWED: DiagId = DiagId(771);

/// What the host pass finds on the declarations of one top-level item,
/// at offsets relative to the item.
#[salsa::tracked(returns(clone))]
pub fn item_decl_findings(db: &dyn SourceDatabase, item: ItemId) -> Arc<Vec<Raw>> {
    let Some(src) = cufront_hir::item_source(db, item) else { return Arc::default() };
    let root = SyntaxNode::new_root(src.green.clone());
    let tree = cufront_hir::item_tree_of(db, item);
    let offsets = cufront_hir::item_offsets(db, item);
    let mut out = Vec::new();
    for (i, f) in tree.fns.iter().enumerate() {
        let Some(&at) = offsets.fns.get(i) else { continue };
        if f.linkage.cuda.global {
            let decl = FnDecl::Fn(cufront_hir::FnId::new(db, item, i as u32));
            kernel(db, decl, f, &root, at, &mut out);
        }
        if f.linkage.cuda.launch_config {
            let decl = FnDecl::Fn(cufront_hir::FnId::new(db, item, i as u32));
            launch_attributes(db, decl, f, &root, at, &mut out);
        }
        if !f.linkage.cuda.global {
            grid_constant(&root, at, &mut out);
        }
        let a = f.linkage.cuda;
        if a.global || a.host || a.device {
            let decl = FnDecl::Fn(cufront_hir::FnId::new(db, item, i as u32));
            space_combination(db, decl, &root, at, &mut out);
        }
        let is_main = f.name == FnName::Ident("main".into()) && !f.in_class && f.qualifier.is_none();
        if is_main && (f.linkage.cuda.device || f.linkage.cuda.global) {
            let caret = cuda_attribute_at(&root, at, &["device", "global"], false).unwrap_or(at);
            out.push(Raw { at: caret, id: MAIN_ON_DEVICE, severity: Severity::Error, args: vec![] });
        }
    }
    specifiers_outside_classes(&root, &mut out);
    for (t, &at) in tree.fn_templates.iter().zip(offsets.fn_templates.iter()) {
        if !t.f.linkage.cuda.global {
            grid_constant(&root, at, &mut out);
        }
    }
    for (i, f) in tree.fns.iter().enumerate() {
        if f.in_class
            && f.defaulted
            && !f.is_virtual
            && (f.linkage.cuda.host || f.linkage.cuda.device)
            && let Some(&at) = offsets.fns.get(i)
        {
            let decl = FnDecl::Fn(cufront_hir::FnId::new(db, item, i as u32));
            defaulted(db, decl, f, &root, at, &mut out);
        }
    }
    for (i, v) in tree.vars.iter().enumerate() {
        let a = v.linkage.cuda;
        if !(a.shared || a.constant || a.managed) {
            continue;
        }
        let Some(&at) = offsets.vars.get(i) else { continue };
        let has_init = offsets.var_inits.iter().any(|&(vi, _)| vi == i as u32);
        let mut push = |id, args: Vec<Arg>, at| out.push(Raw { at, id, severity: Severity::Error, args });
        if v.linkage.is_constexpr
            && let Some((space, pos)) = constexpr_space(&root, at, a)
        {
            push(CONSTEXPR_VARIABLE, vec![Arg::Str(space.into())], pos);
        }
        if a.shared && a.constant {
            let later = cuda_attribute_at(&root, at, &["shared", "constant"], true).unwrap_or(at);
            push(ILLEGAL_COMBINATION, vec![], later);
        } else if a.managed && (a.shared || a.constant) {
            push(MANAGED_SHARED_CONSTANT, vec![], at);
        } else if a.managed {
            match &v.ty {
                TypeRef::LRef(_) | TypeRef::RRef(_) => push(MANAGED_REFERENCE, vec![], at),
                _ if v.is_const => push(MANAGED_CONST, vec![], at),
                _ => {}
            }
        }
        if a.shared && has_init {
            push(ILLEGAL_INIT, vec![Arg::Str("__shared__".into()), Arg::Str(String::new())], at);
        }
    }
    Arc::new(out)
}

/// 3648: in whole-program mode (`-rdc=false`), an `inline` `__device__`,
/// `__constant__` or `__managed__` variable with external linkage (at
/// namespace scope, not `static`, outside unnamed namespaces), at its
/// name. A variable declared more than once in its scope is left alone
/// (EDG reports each declaration then, at its own time).
#[salsa::tracked(returns(clone))]
pub fn item_inline_var_findings(db: &dyn SourceDatabase, item: ItemId) -> Arc<Vec<Raw>> {
    let tree = cufront_hir::item_tree_of(db, item);
    let offsets = cufront_hir::item_offsets(db, item);
    let mut out = Vec::new();
    for (i, v) in tree.vars.iter().enumerate() {
        let a = v.linkage.cuda;
        if !(v.linkage.is_inline && (a.device || a.constant || a.managed))
            || v.linkage.is_static
            || v.linkage.is_extern
            || v.qualifier.is_some()
        {
            continue;
        }
        let Some(&at) = offsets.vars.get(i) else { continue };
        let map = def_map(db, item.tu(db));
        let me = cufront_hir::VarId::new(db, item, i as u32);
        let Some(&scope) = map.parent.get(&cufront_hir::scopes::DeclKey::Var(me)) else { continue };
        if map.scope(scope).names.get(&v.name).is_none_or(|d| d.len() != 1) {
            continue;
        }
        // External linkage: namespace scopes up to the root, none unnamed.
        let mut s = Some(scope);
        let mut external = true;
        while let Some(k) = s {
            match &map.scope(k).kind {
                ScopeKind::Root => break,
                ScopeKind::Namespace { name: Some(_), .. } => {}
                _ => external = false,
            }
            s = map.scope(k).parent;
        }
        if external {
            out.push(Raw { at, id: INLINE_VAR_WHOLE_PROGRAM, severity: Severity::Error, args: vec![] });
        }
    }
    Arc::new(out)
}

/// Where the attribute `word` (`__attribute__((word))`) is written in the
/// declaration whose name is at `name` (a local's: its body may be lazy,
/// so the text is read, back to the statement's start).
fn attribute_word_before(text: &str, name: usize, word: &str) -> Option<u32> {
    let before = text.get(..name)?;
    let start = before.rfind([';', '{', '}']).map_or(0, |i| i + 1);
    let stmt = &before[start..];
    let pattern = format!("(({word}))");
    let k = stmt.rfind(&pattern)?;
    Some((start + k + 2) as u32)
}

/// 3577: a `constexpr` `__managed__` or `__shared__` variable, at that
/// attribute (EDG goes on to the const and initializer rules).
fn constexpr_space(root: &SyntaxNode, at: u32, a: cufront_cuda::CudaAttrs) -> Option<(&'static str, u32)> {
    let (space, attr) = if a.managed {
        ("__managed__", "managed")
    } else if a.shared {
        ("__shared__", "shared")
    } else {
        return None;
    };
    Some((space, cuda_attribute_at(root, at, &[attr], false)?))
}

/// The `__global__` rules for one declaration of a kernel whose name is at `at`.
fn kernel(db: &dyn SourceDatabase, decl: FnDecl, f: &FnData, root: &SyntaxNode, at: u32, out: &mut Vec<Raw>) {
    let caret = cuda_attribute_at(root, at, &["global"], false).unwrap_or(at);
    let mut push = |id, severity, args: Vec<Arg>, at| out.push(Raw { at, id, severity, args });
    match return_kind(db, decl, f) {
        Return::Deduced => push(GLOBAL_DEDUCED_RETURN, Severity::Error, vec![], caret),
        Return::NotVoid => push(GLOBAL_RETURN_TYPE, Severity::Error, vec![], caret),
        Return::Void | Return::Unknown => {}
    }
    if f.ty.variadic {
        push(GLOBAL_ELLIPSIS, Severity::Error, vec![], caret);
    }
    if matches!(f.name, FnName::Operator(_) | FnName::Conversion(_)) {
        push(GLOBAL_OPERATOR, Severity::Error, vec![], caret);
    }
    if f.in_class && !f.friend {
        push(GLOBAL_MEMBER, Severity::Error, vec![], caret);
    }
    if f.ty.noexcept || f.noexcept_expr.is_some() || has_throw_spec(root, at) {
        push(GLOBAL_EXCEPTION_SPEC, Severity::Error, vec![], caret);
    }
    let friend_def = f.friend && f.linkage.is_definition;
    if f.linkage.is_inline || f.linkage.is_constexpr || friend_def {
        push(GLOBAL_INLINE, Severity::Warning, vec![Arg::Str("__global__".into())], caret);
    }
    if friend_def {
        let friend = keyword_before(root, at, K::FRIEND_KW).unwrap_or(caret);
        push(GLOBAL_FRIEND_DEFINITION, Severity::Error, vec![], friend);
    }
}

/// 3469 (#20012): an execution-space annotation on a non-virtual function
/// explicitly defaulted on its first declaration is ignored, one warning
/// per keyword at the keyword.
fn defaulted(db: &dyn SourceDatabase, decl: FnDecl, f: &FnData, root: &SyntaxNode, at: u32, out: &mut Vec<Raw>) {
    let map = def_map(db, decl.tu(db));
    let class = match map.scope(decl.parent(db, &map)).kind {
        cufront_hir::scopes::ScopeKind::Class(c) => {
            cufront_hir::item_tree_of(db, c.item(db)).classes.get(c.idx(db) as usize).and_then(|d| d.name.clone())
        }
        _ => None,
    };
    let name = match (&f.name, class) {
        (FnName::Ident(n), _) => n.clone(),
        (FnName::Ctor, Some(c)) => c,
        (FnName::Dtor, Some(c)) => format!("~{c}"),
        (FnName::Operator(op), _) => format!("operator{op}"),
        _ => return,
    };
    for (word, attr) in [("__host__", "host"), ("__device__", "device")] {
        let wanted = if attr == "host" { f.linkage.cuda.host } else { f.linkage.cuda.device };
        if !wanted {
            continue;
        }
        let caret = cuda_attribute_at(root, at, &[attr], false).unwrap_or(at);
        let args = vec![Arg::Str(word.into()), Arg::Str(name.clone())];
        out.push(Raw { at: caret, id: DEFAULTED_ANNOTATION, severity: Severity::Warning, args });
    }
}

/// The launch-configuration attributes (spec 20 §3.4). A fourth
/// `__launch_bounds__` argument is a syntax error at the comma before it
/// (18; the attribute stays). Where each is
/// read, at the attribute: `__launch_bounds__` on a member (3535), a
/// non-positive `__cluster_dims__` argument (3685, one per argument) or
/// `__maxnreg__` (3717), a negative max-blocks-per-cluster (third
/// `__launch_bounds__` argument, 3705); an attribute with such an argument
/// is dropped. Then the checks EDG runs after the declaration, at its
/// name: `__launch_bounds__`, `__cluster_dims__` or `__block_size__`
/// (3534) and `__maxnreg__` (3715) on a non-kernel, `__maxnreg__` with
/// `__launch_bounds__` (3719).
fn launch_attributes(
    db: &dyn SourceDatabase,
    decl: FnDecl,
    f: &FnData,
    root: &SyntaxNode,
    at: u32,
    out: &mut Vec<Raw>,
) {
    let find = |name: &str| cuda_attribute_at(root, at, &[name], false);
    let global = f.linkage.cuda.global;
    let mut push = |id, args: Vec<Arg>, at| out.push(Raw { at, id, severity: Severity::Error, args });
    // The arguments' values, in the declaration's scope (`None`: not known).
    let values = |name: &str| -> Vec<Option<i128>> {
        let Some(args) = attribute_args(root, at, name) else { return Vec::new() };
        let map = def_map(db, decl.tu(db));
        let Some(scope) = instances::fn_scope(db, decl) else { return vec![None; args.len()] };
        let cx = ty::LowerCx { db, map: &map, item: decl.item(db), scope, env: None };
        let cx = cufront_hir::consteval::EvalCx::new(cx);
        args.iter()
            .map(|toks| {
                let e = cufront_hir::syntax_util::token_const_expr(toks);
                cufront_hir::consteval::eval(&cx, &e).ok().map(|v| v.v)
            })
            .collect()
    };
    let mut lb = find("launch_bounds");
    // `__launch_bounds__` takes at most three arguments: EDG's attribute
    // parser expects the `)` at the comma after the third (and keeps the
    // attribute).
    if lb.is_some()
        && let Some(args) = attribute_args(root, at, "launch_bounds")
        && args.len() > 3
        && let Some(comma) = args[2]
            .last()
            .and_then(|t| std::iter::successors(t.next_token(), |t| t.next_token()).find(|t| !t.kind().is_trivia()))
    {
        push(EXPECTED_RPAREN, vec![], u32::from(comma.text_range().start()));
    }
    if f.in_class
        && let Some(lb) = lb
    {
        push(LAUNCH_BOUNDS_MEMBER, vec![Arg::Str("__launch_bounds__".into())], lb);
    }
    if let Some(pos) = lb
        && values("launch_bounds").get(2).copied().flatten().is_some_and(|v| v < 0)
    {
        push(MAX_BLOCKS_NEGATIVE, vec![], pos);
        lb = None;
    }
    let mut cd = find("cluster_dims");
    if let Some(pos) = cd {
        let bad = values("cluster_dims").into_iter().filter(|v| v.is_some_and(|v| v <= 0)).count();
        for _ in 0..bad {
            push(NOT_POSITIVE, vec![Arg::Str("__cluster_dims__".into())], pos);
        }
        if bad > 0 {
            cd = None;
        }
    }
    let mut mr = find("maxnreg");
    if let Some(pos) = mr
        && values("maxnreg").first().copied().flatten().is_some_and(|v| v <= 0)
    {
        push(MAXNREG_NOT_POSITIVE, vec![], pos);
        mr = None;
    }
    if !global {
        if lb.is_some() {
            push(ONLY_ON_GLOBAL, vec![Arg::Str("__launch_bounds__".into())], at);
        }
        // A `__cluster_dims__()` without arguments is accepted on any function.
        if cd.is_some() && !empty_attribute(root, at, "cluster_dims") {
            push(ONLY_ON_GLOBAL, vec![Arg::Str("__cluster_dims__".into())], at);
        } else if find("block_size").is_some() {
            push(ONLY_ON_GLOBAL, vec![Arg::Str("__block_size__".into())], at);
        }
    }
    if mr.is_some() && !global {
        push(MAXNREG_ONLY_ON_GLOBAL, vec![Arg::Str("__maxnreg__".into())], at);
    }
    if mr.is_some() && lb.is_some() {
        push(LAUNCH_BOUNDS_AND_MAXNREG, vec![Arg::Str("__launch_bounds__ and __maxnreg__".into())], at);
    }
}

/// The argument tokens of the declaration's attribute `name`, split at
/// top-level commas (`None`: no such attribute or no argument list).
fn attribute_args(root: &SyntaxNode, at: u32, name: &str) -> Option<Vec<Vec<cufront_syntax::SyntaxToken>>> {
    let pos = cuda_attribute_at(root, at, &[name], false)?;
    let tok = cufront_syntax::green::token_at(root, TextSize::from(pos))?;
    let attr = tok.parent_ancestors().find(|n| n.kind() == K::ATTRIBUTE)?;
    let toks: Vec<_> = attr
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(|t| !t.kind().is_trivia())
        .skip_while(|t| t.kind() != K::L_PAREN)
        .collect();
    let (first, rest) = toks.split_first()?;
    if first.kind() != K::L_PAREN {
        return None;
    }
    let mut args = vec![Vec::new()];
    let mut depth = 0usize;
    for t in rest {
        match t.kind() {
            K::L_PAREN | K::L_BRACK | K::L_CURLY => depth += 1,
            K::R_PAREN | K::R_BRACK | K::R_CURLY if depth == 0 => {
                return (!args.last().is_some_and(|a: &Vec<_>| a.is_empty())).then_some(args);
            }
            K::R_PAREN | K::R_BRACK | K::R_CURLY => depth -= 1,
            K::COMMA if depth == 0 => {
                args.push(Vec::new());
                continue;
            }
            _ => {}
        }
        args.last_mut()?.push(t.clone());
    }
    None
}

/// Specifiers that only a member declaration may have, on a declaration
/// outside class bodies: `virtual` (239), `explicit` (771), `mutable`
/// (719), at the keyword. Bodies are not read (block-scope declarations
/// are left out: lazy bodies keep no tree here).
fn specifiers_outside_classes(root: &SyntaxNode, out: &mut Vec<Raw>) {
    let mut walk = root.preorder();
    while let Some(ev) = walk.next() {
        let rowan::WalkEvent::Enter(n) = ev else { continue };
        match n.kind() {
            K::MEMBER_LIST | K::FUNCTION_BODY | K::LAZY_BODY | K::PARAM_LIST | K::INITIALIZER => walk.skip_subtree(),
            K::DECL_SPECIFIERS if n.parent().is_some_and(|p| matches!(p.kind(), K::SIMPLE_DECL | K::FUNCTION_DEF)) => {
                for t in n.children_with_tokens().filter_map(|e| e.into_token()) {
                    let id = match t.kind() {
                        K::VIRTUAL_KW => VIRTUAL_OUTSIDE_CLASS,
                        K::EXPLICIT_KW => EXPLICIT_NOT_ALLOWED,
                        K::MUTABLE_KW => MUTABLE_NOT_ALLOWED,
                        _ => continue,
                    };
                    let at = u32::from(t.text_range().start());
                    out.push(Raw { at, id, severity: Severity::Error, args: vec![] });
                }
                walk.skip_subtree();
            }
            _ => {}
        }
    }
}

/// 3481 on functions: `__global__` with `__host__` or `__device__`. The
/// attributes are applied in order, those of earlier declarations first;
/// one that conflicts with what is already applied is reported at itself
/// and dropped. An unannotated earlier declaration applies nothing.
fn space_combination(db: &dyn SourceDatabase, decl: FnDecl, root: &SyntaxNode, at: u32, out: &mut Vec<Raw>) {
    let (mut global, mut other) = (false, false);
    let item = decl.item(db);
    let items = &cufront_hir::top_level_items(db, item.tu(db)).items;
    let index = |i: ItemId| items.iter().position(|&x| x == i);
    let here = index(item);
    for d in exec_space::redeclarations(db, decl) {
        let FnDecl::Fn(g) = d else { continue };
        let earlier = if g.item(db) == item {
            cufront_hir::item_offsets(db, item).fns.get(g.idx(db) as usize).is_some_and(|&o| o < at)
        } else {
            index(g.item(db)) < here
        };
        if !earlier {
            continue;
        }
        let Some(gd) = d.data(db) else { continue };
        global |= gd.linkage.cuda.global;
        other |= gd.linkage.cuda.host || gd.linkage.cuda.device;
    }
    for (name, pos) in cuda_attributes(root, at, &["global", "host", "device"]) {
        let conflict = if name == "global" { other } else { global };
        if conflict {
            out.push(Raw { at: pos, id: ILLEGAL_COMBINATION, severity: Severity::Error, args: vec![] });
        } else if name == "global" {
            global = true;
        } else {
            other = true;
        }
    }
}

/// 3702: `__grid_constant__` on a parameter of a function that is not a
/// kernel, one error per such parameter, at the function's name (`at`).
fn grid_constant(root: &SyntaxNode, at: u32, out: &mut Vec<Raw>) {
    let Some(decl) = declaration_at(root, at) else { return };
    let Some(tok) = cufront_syntax::green::token_at(root, TextSize::from(at)) else { return };
    // The parameters of the declarator that names the function.
    let Some(declarator) = tok.parent_ancestors().take_while(|n| n != &decl).find(|n| n.kind() == K::DECLARATOR) else {
        return;
    };
    let Some(params) = declarator
        .children()
        .find(|n| n.kind() == K::FUNCTION_DECLARATOR)
        .and_then(|d| d.children().find(|n| n.kind() == K::PARAM_LIST))
    else {
        return;
    };
    for p in params.children().filter(|n| n.kind() == K::PARAM) {
        if has_grid_constant(&p) {
            out.push(Raw { at, id: GRID_CONSTANT_NOT_KERNEL, severity: Severity::Error, args: vec![] });
        }
    }
}

/// Whether a parameter's specifiers say `__grid_constant__`.
pub(crate) fn has_grid_constant(param: &SyntaxNode) -> bool {
    param.children().filter(|n| n.kind() == K::DECL_SPECIFIERS).any(|specs| {
        specs.children().filter(|n| n.kind() == K::GNU_ATTRIBUTE).any(|g| {
            g.children()
                .filter(|n| n.kind() == K::ATTRIBUTE)
                .any(|a| cufront_cuda::attrs::attribute_name(&a).as_deref() == Some("grid_constant"))
        })
    })
}

/// Whether the declaration's attribute `name` has an empty argument list.
fn empty_attribute(root: &SyntaxNode, at: u32, name: &str) -> bool {
    let Some(pos) = cuda_attribute_at(root, at, &[name], false) else { return false };
    let Some(tok) = cufront_syntax::green::token_at(root, TextSize::from(pos)) else { return false };
    tok.parent_ancestors()
        .find(|n| n.kind() == K::ATTRIBUTE)
        .is_some_and(|a| a.text().to_string().split_once('(').is_none_or(|(_, rest)| rest.trim() == ")"))
}

pub(crate) enum Return {
    Void,
    NotVoid,
    Deduced,
    /// Dependent or not understood: no finding.
    Unknown,
}

pub(crate) fn return_kind(db: &dyn SourceDatabase, decl: FnDecl, f: &FnData) -> Return {
    if let TypeRef::Opaque(t) = &f.ty.ret
        && matches!(t.as_str(), "auto" | "decltype(auto)")
    {
        return Return::Deduced;
    }
    let map = def_map(db, decl.tu(db));
    let Some(scope) = instances::fn_scope(db, decl) else { return Return::Unknown };
    let cx = ty::LowerCx { db, map: &map, item: decl.item(db), scope, env: None };
    match canonical(db, ty::lower(cx, &f.ty.ret)).kind(db) {
        TyKind::Builtin(Builtin::Void) => Return::Void,
        TyKind::Error(_) | TyKind::Dependent(_) | TyKind::TemplateParam { .. } => Return::Unknown,
        _ => Return::NotVoid,
    }
}

/// The declaration (or member declaration) whose declarator names at `at`.
fn declaration_at(root: &SyntaxNode, at: u32) -> Option<SyntaxNode> {
    let tok = cufront_syntax::green::token_at(root, TextSize::from(at))?;
    tok.parent_ancestors().find(|n| matches!(n.kind(), K::SIMPLE_DECL | K::FUNCTION_DEF | K::MEMBER_DECL))
}

/// Where the first (`last`: the last) of the CUDA attributes `names` of
/// the declaration at `at` is named, outside its body and parameters.
pub(crate) fn cuda_attribute_at(root: &SyntaxNode, at: u32, names: &[&str], last: bool) -> Option<u32> {
    let all = cuda_attributes(root, at, names);
    if last { all.last() } else { all.first() }.map(|(_, pos)| *pos)
}

/// The CUDA attributes `names` of the declaration at `at`, outside its
/// body and parameters, in order: name and where it is written.
fn cuda_attributes(root: &SyntaxNode, at: u32, names: &[&str]) -> Vec<(String, u32)> {
    let Some(decl) = declaration_at(root, at) else { return Vec::new() };
    let mut found = Vec::new();
    let mut walk = decl.preorder();
    while let Some(ev) = walk.next() {
        let rowan::WalkEvent::Enter(n) = ev else { continue };
        match n.kind() {
            K::FUNCTION_BODY | K::LAZY_BODY | K::PARAM_LIST | K::CTOR_INITIALIZER | K::INITIALIZER => {
                walk.skip_subtree()
            }
            K::ATTRIBUTE if n.parent().is_some_and(|p| p.kind() == K::GNU_ATTRIBUTE) => {
                let Some(name) = cufront_cuda::attrs::attribute_name(&n).filter(|a| names.contains(&a.as_str())) else {
                    continue;
                };
                if let Some(pos) = n.first_token().map(|t| u32::from(t.text_range().start())) {
                    found.push((name, pos));
                }
            }
            _ => {}
        }
    }
    found
}

/// The keyword `kind` among the tokens of the declaration at `at` and its
/// enclosing friend declaration.
fn keyword_before(root: &SyntaxNode, at: u32, kind: K) -> Option<u32> {
    let decl = declaration_at(root, at)?;
    let scope = match decl.parent() {
        Some(p) if p.kind() == K::FRIEND_DECL => p,
        _ => decl,
    };
    scope
        .children_with_tokens()
        .filter_map(|e| e.into_token())
        .chain(scope.descendants_with_tokens().filter_map(|e| e.into_token()))
        .find(|t| t.kind() == kind)
        .map(|t| u32::from(t.text_range().start()))
}

/// A dynamic exception specification (`throw()`) on the declarator at `at`.
fn has_throw_spec(root: &SyntaxNode, at: u32) -> bool {
    declaration_at(root, at).is_some_and(|d| {
        d.descendants().any(|n| {
            n.kind() == K::NOEXCEPT_SPEC
                || (n.kind() == K::FUNCTION_DECLARATOR && n.children_with_tokens().any(|t| t.kind() == K::THROW_KW))
        })
    })
}

/// What the host pass finds on the locals of one function body: a memory
/// space in a host or `__host__ __device__` body (3483), an initialized
/// `__shared__` local in any body (3510). Offsets relative to the item.
#[salsa::tracked(returns(clone))]
pub fn fn_local_findings(db: &dyn SourceDatabase, f: cufront_hir::FnId) -> Arc<Vec<Raw>> {
    let decl = FnDecl::Fn(f);
    let space = cufront_hir::exec_space::fn_exec_space(db, decl);
    let body = cufront_hir::infer::decl_body(db, decl);
    let mut out = Vec::new();
    let mut text = None;
    for (i, l) in body.locals.iter().enumerate() {
        let a = l.cuda;
        if !a.has_memory_space() {
            continue;
        }
        let Some(Some(range)) = body.local_names.get(i) else { continue };
        let at = u32::from(range.start());
        let host_body = matches!(space, ExecSpace::Host | ExecSpace::ImplicitHost | ExecSpace::HostDevice);
        if l.is_constexpr && !host_body && (a.managed || a.shared) {
            let text = text.get_or_insert_with(|| cufront_hir::consteval::interp::item_text(db, f.item(db)));
            let (space, word) = if a.managed { ("__managed__", "managed") } else { ("__shared__", "shared") };
            if let Some(pos) = attribute_word_before(text, at as usize, word) {
                let args = vec![Arg::Str(space.into())];
                out.push(Raw { at: pos, id: CONSTEXPR_VARIABLE, severity: Severity::Error, args });
                if a.managed {
                    out.push(Raw { at, id: MANAGED_CONST, severity: Severity::Error, args: vec![] });
                }
            }
        }
        let mode = if l.is_static { "a static" } else { "an automatic" };
        let what = if a.shared {
            Some(("a static", "__shared__"))
        } else if a.managed {
            Some((mode, "__managed__"))
        } else if a.constant {
            Some((mode, "__constant__"))
        } else if a.device {
            Some((mode, "__device__"))
        } else {
            None
        };
        if host_body && let Some((mode, kind)) = what {
            let args = vec![Arg::Str(mode.into()), Arg::Str(kind.into())];
            out.push(Raw { at, id: ILLEGAL_LOCAL_IN_HOST, severity: Severity::Error, args });
        }
        if a.shared && !matches!(l.init, cufront_hir::body::Init::None) {
            let args = vec![Arg::Str("__shared__".into()), Arg::Str(String::new())];
            out.push(Raw { at, id: ILLEGAL_INIT, severity: Severity::Error, args });
        }
    }
    Arc::new(out)
}
