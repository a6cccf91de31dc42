//! Variable template specializations in integral constant expressions
//! (`is_same_v<T, use_default>` in a template argument, an `enable_if`
//! condition): the arguments bound to the template's parameters (defaults
//! included), its initializer evaluated where it is declared.
//!
//! Arguments that still name a pattern's parameters make the value
//! dependent (`NotConstant`), which template argument lowering turns into
//! a dependent argument rather than an error.

use crate::item_tree::{ConstExpr, Path};
use crate::scopes::{self, DeclKey, Def, Ns};
use crate::templates::{self, Env, TemplateArg};
use crate::ty::{self, LowerCx, TyKind};
use crate::item_tree_of;

use super::{ConstError, EvalCx, Value};

/// The value of `p` when its last segment names a variable template with
/// arguments; `None` when it does not.
pub(crate) fn eval_path(cx: &EvalCx<'_>, p: &Path, depth: u32) -> Option<Result<Value, ConstError>> {
    let written = p.segments.last()?.args.clone()?;
    let mut bare = p.clone();
    bare.segments.last_mut()?.args = None;
    let lcx = cx.lower;
    let vt = match scopes::resolve_path(lcx.db, lcx.map, lcx.scope, &bare, Ns::Value) {
        Some(Def::VarTemplate(vt)) => vt,
        _ => return None,
    };
    Some(eval_var_template(lcx, vt, &written, depth))
}

fn eval_var_template(cx: LowerCx<'_>, vt: crate::VarTemplateId, written: &[crate::item_tree::TemplateArgRef], depth: u32) -> Result<Value, ConstError> {
    let db = cx.db;
    if depth > 64 {
        return Err(ConstError::Limit("variable templates nested too deeply".into()));
    }
    let tree = item_tree_of(db, vt.item(db));
    let data = tree.var_templates.get(vt.idx(db) as usize).ok_or(ConstError::Cycle)?;
    let vscope = cx.map.parent.get(&DeclKey::VarTemplate(vt)).copied().unwrap_or(scopes::ROOT);
    let params = data.tparams.clone();
    let args = templates::bind(cx, &params, written, &mut |i, sofar| {
        let p = params.get(i)?;
        let mut env = Env::default();
        for (k, a) in sofar.iter().enumerate() {
            if let Some(n) = params.get(k).and_then(|p| p.name.clone()) {
                env.names.push((n, a.clone()));
            }
        }
        let dcx = LowerCx { db, map: cx.map, item: vt.item(db), scope: vscope, env: Some(&env) };
        Some(templates::lower_arg(dcx, &p.kind, p.default.as_ref()?))
    })
    .map_err(ConstError::Unsupported)?;
    if args.iter().any(|a| dependent(db, a)) {
        return Err(ConstError::NotConstant(format!("{} (dependent)", data.var.name)));
    }
    let mut env = Env::default();
    for (p, a) in params.iter().zip(&args) {
        if let Some(n) = &p.name {
            env.names.push((n.clone(), a.clone()));
        }
    }
    let vcx = LowerCx { db, map: cx.map, item: vt.item(db), scope: vscope, env: Some(&env) };
    let init: &ConstExpr = data.var.init.as_ref().ok_or_else(|| ConstError::NotConstant(data.var.name.clone()))?;
    let v = templates::nested(|| super::eval_depth(&EvalCx::new(vcx), init, depth + 1).map_err(|e| e.to_string())).map_err(ConstError::Unsupported)?;
    let t = ty::canonical(db, ty::lower(vcx, &data.var.ty));
    let t = match t.kind(db) {
        TyKind::Qualified(x, _) => ty::canonical(db, *x),
        _ => t,
    };
    Ok(match t.kind(db) {
        TyKind::Builtin(b) if super::is_integral(*b) => Value { v: super::convert(v.v, *b), ty: *b },
        _ => v,
    })
}

/// Whether an argument still names a pattern's parameters.
fn dependent(db: &dyn cufront_base_db::SourceDatabase, a: &TemplateArg) -> bool {
    match a {
        TemplateArg::Dependent(_) | TemplateArg::ValueParam { .. } => true,
        TemplateArg::Template(templates::TemplateRef::Param { .. }) => true,
        TemplateArg::Type(t) => ty_dependent(db, *t, 0),
        TemplateArg::Pack(v) => v.iter().any(|x| dependent(db, x)),
        _ => false,
    }
}

fn ty_dependent(db: &dyn cufront_base_db::SourceDatabase, t: crate::TyId, depth: u32) -> bool {
    if depth > 32 {
        return true;
    }
    match t.kind(db) {
        TyKind::TemplateParam { .. } | TyKind::ParamApp { .. } | TyKind::Dependent(_) => true,
        TyKind::Ptr(x) | TyKind::LRef(x) | TyKind::RRef(x) | TyKind::Qualified(x, _) | TyKind::Array(x, _) => ty_dependent(db, *x, depth + 1),
        TyKind::App(a) => a.args(db).iter().any(|x| dependent(db, x)),
        TyKind::Func(f) => ty_dependent(db, f.ret, depth + 1) || f.params.iter().any(|p| ty_dependent(db, *p, depth + 1)),
        _ => false,
    }
}
