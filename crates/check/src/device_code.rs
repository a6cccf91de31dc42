//! Constructs device code cannot contain, as cicc's front end reports
//! them while parsing (the device pass of `check`; spec 61), checked
//! against the real nvcc:
//!
//! - `throw` and `try` (a function-try-block too): `device code does not
//!   support exception handling` (3517), at the keyword;
//! - `typeid`: `The operator 'typeid' is not allowed in device code`
//!   (3645), at the keyword;
//! - a `thread_local` local: `cannot use thread_local specifier for
//!   variable declarations in device code` (3571), at the start of its
//!   declaration (`static` of `static thread_local`);
//! - an automatic `__device__`, `__constant__` or `__managed__` local of a
//!   `__device__` or `__global__` body (3484), at its name (in a
//!   `__host__ __device__` body it is the host pass's 3483);
//! - a kernel launch in whole-program mode (`-rdc=false`): `kernel launch
//!   from __device__ or __global__ functions requires separate compilation
//!   mode` (3480), at the launched expression.
//!
//! Device code is the body of a `__device__`, `__global__` or `__host__
//! __device__` function and the lambdas in it, and the body of an extended
//! `__device__` (or `__host__ __device__`) lambda in a host function; a
//! lambda annotated `__host__` alone is host code.
//!
//! After the unit is parsed (cicc's late phase, without source lines, only
//! on a unit without errors, before the late call errors of `device`):
//! an `extern __shared__` local of complete type (not an array of unknown
//! bound) that the body uses, `extern declaration of the entity %s is
//! treated as a static definition` (20044, a warning;
//! `fn_extern_shared_findings`).
//!
//! Certainty: templated bodies are skipped (EDG reports in instances,
//! which are not checked yet), and so are classes defined in a body (their
//! member functions have spaces of their own). Only explicit annotations
//! make device code (a `constexpr` function is host code here).

use std::sync::Arc;

use cufront_base_db::SourceDatabase;
use cufront_diagnostics::{Arg, DiagId, Severity};
use cufront_hir::FnId;
use cufront_hir::exec_space::{self, ExecSpace};
use cufront_hir::instances::{self, FnDecl};
use cufront_hir::scopes::def_map;
use cufront_syntax::{SyntaxKind as K, SyntaxNode, TextRange, TextSize};

use crate::Raw;
use crate::calls::{innermost_lambda, lambda_space, lambdas_of};

const KERNEL_LAUNCH_NEEDS_RDC: DiagId = DiagId(3480);
const ILLEGAL_LOCAL_IN_DEVICE: DiagId = DiagId(3484);
const NO_EXCEPTIONS_ON_DEVICE: DiagId = DiagId(3517);
const THREAD_LOCAL_IN_DEVICE_CODE: DiagId = DiagId(3571);
const UNSUPPORTED_OPERATOR: DiagId = DiagId(3645);
const EXTERN_TREATED_AS_STATIC: DiagId = DiagId(3501);

/// What the device pass finds on the constructs of one body (offsets
/// relative to the item), in source order. `whole_program`: `-rdc=false`.
#[salsa::tracked(returns(clone))]
pub fn fn_device_code_findings(
    db: &dyn SourceDatabase,
    f: FnId,
    extended_lambda: bool,
    whole_program: bool,
) -> Arc<Vec<Raw>> {
    let decl = FnDecl::Fn(f);
    let space = exec_space::fn_exec_space(db, decl);
    let body = cufront_hir::infer::decl_body(db, decl);
    let lambdas = lambdas_of(&body);
    // Which space code at a range is in (`None`: not device code).
    let device_at = |range: TextRange| -> Option<ExecSpace> {
        let s = match innermost_lambda(&lambdas, range) {
            None => space,
            Some(l) => match lambda_space(l, space, extended_lambda) {
                Some(s) => s,
                // A `__device__` lambda.
                None => ExecSpace::Device,
            },
        };
        matches!(s, ExecSpace::Device | ExecSpace::Global | ExecSpace::HostDevice).then_some(s)
    };
    let any_device = device_at(TextRange::empty(0.into())).is_some() || (extended_lambda && !lambdas.is_empty());
    if !any_device || templated(db, decl) {
        return Arc::default();
    }
    let Some((root, base)) = body_syntax(db, f) else { return Arc::default() };
    let mut out = Vec::new();
    for (i, l) in body.locals.iter().enumerate() {
        let Some(Some(name)) = body.local_names.get(i) else { continue };
        let Some(s) = device_at(*name) else { continue };
        if l.is_thread_local {
            if let Some(start) = declaration_start(&root, base, *name) {
                out.push(Raw { at: start, id: THREAD_LOCAL_IN_DEVICE_CODE, severity: Severity::Error, args: vec![] });
            }
            continue;
        }
        let a = l.cuda;
        let kind = if a.shared {
            None
        } else if a.managed {
            Some("__managed__")
        } else if a.constant {
            Some("__constant__")
        } else if a.device {
            Some("__device__")
        } else {
            None
        };
        if let Some(kind) = kind
            && !l.is_static
            && s != ExecSpace::HostDevice
        {
            let args = vec![Arg::Str("an automatic".into()), Arg::Str(kind.into())];
            out.push(Raw { at: u32::from(name.start()), id: ILLEGAL_LOCAL_IN_DEVICE, severity: Severity::Error, args });
        }
    }
    for tok in root.descendants_with_tokens().filter_map(|e| e.into_token()) {
        let parent = tok.parent().map(|p| p.kind());
        let id = match (tok.kind(), parent) {
            (K::TRY_KW, Some(K::TRY_BLOCK | K::FUNCTION_TRY_BLOCK)) | (K::THROW_KW, Some(K::THROW_EXPR)) => {
                NO_EXCEPTIONS_ON_DEVICE
            }
            (K::TYPEID_KW, Some(K::TYPEID_EXPR)) => UNSUPPORTED_OPERATOR,
            _ => continue,
        };
        if in_local_class(&tok) {
            continue;
        }
        let at = base + tok.text_range().start();
        if device_at(TextRange::empty(at)).is_none() {
            continue;
        }
        let args = if id == UNSUPPORTED_OPERATOR { vec![Arg::Str("typeid".into())] } else { vec![] };
        out.push(Raw { at: at.into(), id, severity: Severity::Error, args });
    }
    if whole_program {
        for launch in root.descendants().filter(|n| n.kind() == K::KERNEL_LAUNCH) {
            let Some(first) = launch.first_token() else { continue };
            let first = if first.kind().is_trivia() {
                match std::iter::successors(Some(first), |t| t.next_token()).find(|t| !t.kind().is_trivia()) {
                    Some(t) => t,
                    None => continue,
                }
            } else {
                first
            };
            if in_local_class(&first) {
                continue;
            }
            let at = base + first.text_range().start();
            if device_at(TextRange::empty(at)).is_some() {
                let (id, severity) = (KERNEL_LAUNCH_NEEDS_RDC, Severity::Error);
                out.push(Raw { at: at.into(), id, severity, args: vec![] });
            }
        }
    }
    out.sort_by_key(|r| r.at);
    Arc::new(out)
}

/// The late warnings on the `extern __shared__` locals of one device body
/// (offsets relative to the item), in source order.
#[salsa::tracked(returns(clone))]
pub fn fn_extern_shared_findings(db: &dyn SourceDatabase, f: FnId, extended_lambda: bool) -> Arc<Vec<Raw>> {
    use cufront_hir::item_tree::TypeRef;
    use cufront_hir::syntax_util as su;
    let decl = FnDecl::Fn(f);
    let space = exec_space::fn_exec_space(db, decl);
    if !matches!(space, ExecSpace::Device | ExecSpace::Global | ExecSpace::HostDevice) || templated(db, decl) {
        return Arc::default();
    }
    let body = cufront_hir::infer::decl_body(db, decl);
    let lambdas = lambdas_of(&body);
    let used: rustc_hash::FxHashSet<&str> = body
        .exprs
        .iter()
        .filter_map(|e| match e {
            cufront_hir::body::Expr::Path(p) if p.segments.len() == 1 && !p.global => Some(p.segments[0].name.as_str()),
            _ => None,
        })
        .collect();
    if used.is_empty() {
        return Arc::default();
    }
    let Some((root, base)) = body_syntax(db, f) else { return Arc::default() };
    let mut out = Vec::new();
    for decl in root.descendants().filter(|n| n.kind() == K::SIMPLE_DECL) {
        let Some(specs) = decl.children().find(|n| n.kind() == K::DECL_SPECIFIERS) else { continue };
        if !specs.descendants_with_tokens().any(|t| t.kind() == K::EXTERN_KW) {
            continue;
        }
        if decl.ancestors().any(|n| n.kind() == K::CLASS_SPECIFIER) {
            continue;
        }
        let at = base + decl.text_range().start();
        match innermost_lambda(&lambdas, TextRange::empty(at)) {
            None => {}
            Some(l) => match lambda_space(l, space, extended_lambda) {
                Some(ExecSpace::Device | ExecSpace::Global | ExecSpace::HostDevice) | None => {}
                Some(_) => continue,
            },
        }
        for init in su::init_declarators(&decl) {
            let Some(dn) =
                (if init.kind() == K::DECLARATOR { Some(init.clone()) } else { su::child(&init, K::DECLARATOR) })
            else {
                continue;
            };
            if su::is_function_declarator(&dn) || !cufront_cuda::attrs::of_declarator(Some(&specs), &dn).shared {
                continue;
            }
            let Some(name) = su::declarator_name(&dn) else { continue };
            let complete = match cufront_hir::item_tree::declared_type(Some(&specs), Some(&dn)) {
                TypeRef::Builtin(_) | TypeRef::Ptr(_) => true,
                TypeRef::Array(e, Some(_)) => matches!(*e, TypeRef::Builtin(_)),
                _ => false,
            };
            if !complete || !used.contains(name.as_str()) {
                continue;
            }
            let args = vec![Arg::Str(name)];
            let (id, severity) = (EXTERN_TREATED_AS_STATIC, Severity::Warning);
            out.push(Raw { at: u32::from(base + dn.text_range().start()), id, severity, args });
        }
    }
    Arc::new(out)
}

/// Whether a function is a template's or a member of one (its body is
/// checked per instance).
pub(crate) fn templated(db: &dyn SourceDatabase, decl: FnDecl) -> bool {
    let Some(data) = decl.data(db) else { return true };
    if !data.outer_tparams.is_empty() || matches!(decl, FnDecl::Template(_)) {
        return true;
    }
    let map = def_map(db, decl.tu(db));
    let Some(s) = instances::fn_scope(db, decl) else { return true };
    crate::objects::in_template(&map, s)
}

/// The parsed body of a function definition and the offset its nodes'
/// offsets are relative to (within the item): the item's own tree, or a
/// lazy body parsed on demand.
pub(crate) fn body_syntax(db: &dyn SourceDatabase, f: FnId) -> Option<(SyntaxNode, TextSize)> {
    let item = f.item(db);
    let src = cufront_hir::item_source(db, item).as_ref()?;
    let root = SyntaxNode::new_root(src.green.clone());
    let at = *cufront_hir::body::item_fn_offsets(db, item).get(f.idx(db) as usize)?;
    let def = cufront_hir::body::function_def_at(&root, at)?;
    let body = def.children().find(|c| matches!(c.kind(), K::FUNCTION_BODY | K::LAZY_BODY))?;
    if body.kind() == K::FUNCTION_BODY {
        return Some((body, TextSize::from(0)));
    }
    cufront_hir::body::parse_lazy(db, item, &body)
}

/// Whether a token is in a class defined in the body.
fn in_local_class(tok: &cufront_syntax::SyntaxToken) -> bool {
    tok.parent_ancestors().any(|n| n.kind() == K::CLASS_SPECIFIER)
}

/// The start (within the item) of the declaration statement that declares
/// the local named at `name`, when it starts with a keyword (`static`,
/// `thread_local`).
fn declaration_start(root: &SyntaxNode, base: TextSize, name: TextRange) -> Option<u32> {
    let rel = name.start().checked_sub(base)?;
    let tok = cufront_syntax::green::token_at(root, rel)?;
    let decl = tok.parent_ancestors().find(|n| n.kind() == K::SIMPLE_DECL)?;
    let first = decl.descendants_with_tokens().filter_map(|e| e.into_token()).find(|t| !t.kind().is_trivia())?;
    (first.kind().is_keyword() && first.kind() != K::ATTRIBUTE_KW).then(|| u32::from(base + first.text_range().start()))
}
