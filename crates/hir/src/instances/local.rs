//! Local entities (spec 50 §8, Itanium `<local-name>`): what is declared in
//! a function body and still has a linkage name, `Z <function> E <entity>
//! [<discriminator>]` — static local variables (`_ZZ4mainE1x`, `_ZZ4mainE1x_0`
//! for the second `x`), closure types (`Z4mainEUlfE0_`) and their members
//! (`_ZZ4mainENKUlfE0_clEf`, `_FUN`, the conversion to a pointer to
//! function).
//!
//! The enclosing function is an inference owner: a function, an instance
//! (`_ZZ1fIiEvvE…`), or the `operator()` of a closure (nested lambdas,
//! statics in a lambda's body: `_ZZZ4mainENKUlvE_clEvE1x`). Its encoding
//! comes from `symbols` (`FnEncoding`; `main` and `extern "C"` functions
//! are a bare `<source-name>`).
//!
//! Discriminators count the entities of the same name in the same function
//! in order of declaration (guard variables are special names and do not
//! count); statics in a lambda's body belong to its `operator()`, so the
//! walk over a context's statements does not enter expressions.

use cufront_base_db::SourceDatabase;
use cufront_mangle::{self as m, Component, Unqualified};

use crate::body::{Body, LocalId, Stmt, StmtId};
use crate::infer::{ClosureFnId, ClosureFnKind, ClosureId, InferOwner, closure_fn_sig, lambda_index, owner_body};
use crate::symbols::{self, FnEncoding};
use crate::templates::TemplateArg;

/// A static local variable of an owner's body.
#[salsa::interned(unsafe(no_lifetime), revisions = usize::MAX, debug)]
pub struct LocalStaticId {
    #[returns(copy)]
    pub owner: InferOwner,
    #[returns(copy)]
    pub local: LocalId,
}

/// The encoding of the function a local entity is declared in.
pub(crate) fn context_encoding(db: &dyn SourceDatabase, owner: InferOwner) -> Result<m::Encoding, crate::SemaError> {
    let e = match owner {
        InferOwner::Fn(f) => symbols::fn_encoding(db, f)?,
        InferOwner::Inst(i) => symbols::fn_instance_encoding(db, i)?,
        InferOwner::Closure(f) => FnEncoding::Tree(closure_fn_encoding(db, f)?),
        // Closures of a variable's initializer are named in the variable's
        // context (`var_context_name`), static locals cannot be there.
        InferOwner::Var(_) | InferOwner::VarInst(_) => return Err("no enclosing function".into()),
    };
    let mut e = e.into_encoding();
    // g++ names what is local to a constructor or destructor by the
    // unified variant (`C4`/`D4`), whichever variant is emitted.
    if let m::Encoding::Function(name, _) = &mut e
        && let Some(c) = name.comps.last_mut()
    {
        match &mut c.name {
            Unqualified::Ctor(k) => *k = m::CtorKind::Unified,
            Unqualified::Dtor(k) => *k = m::DtorKind::Unified,
            _ => {}
        }
    }
    Ok(e)
}

/// The name of a closure type: `Z <function> E Ul <params> E <n> _`.
pub fn closure_type_name(db: &dyn SourceDatabase, c: ClosureId) -> Result<m::Name, crate::SemaError> {
    let owner = c.owner(db);
    let body = owner_body(db, owner);
    let device_view = crate::infer::owner_tu(db, owner).options(db).lang(db).device_view;
    // The declared parameters: a generic lambda's `auto`s are its
    // invented template parameters (`UlT_E_`).
    let map = crate::def_map(db, crate::infer::owner_tu(db, owner));
    let signature = |c: ClosureId| -> Result<(Vec<m::Type>, bool), crate::SemaError> {
        let params = crate::infer::closure_declared_params(db, c).map_err(|e| format!("closure signature: {e}"))?;
        Ok((declared_mangled(db, &map, &params)?, crate::infer::closure_variadic(db, c)))
    };
    let (params, variadic) = signature(c)?;
    // The device's names are EDG's, which numbers the closures of a context
    // per signature (spec 50 §8.2); g++ numbers them all together.
    let index = if device_view {
        let mut n = 0;
        for o in crate::infer::lambda_predecessors(&body, c.expr(db), true) {
            // A signature the model cannot write differs from this one.
            if signature(ClosureId::new(db, owner, o)).is_ok_and(|s| s == (params.clone(), variadic)) {
                n += 1;
            }
        }
        n
    } else {
        lambda_index(&body, c.expr(db), false)
    };
    let lambda = m::build::comp_of(Unqualified::Lambda { params, variadic, index });
    if let Some(mut name) = var_context_name(db, owner)? {
        name.comps.push(lambda);
        return Ok(name);
    }
    let func = context_encoding(db, owner)?;
    Ok(m::Name { root: m::Root::Local { func: Box::new(func), disc: 0 }, comps: vec![lambda] })
}

/// The context of a closure defined in a variable's initializer, as g++
/// names it (`None`: the owner is a function): a namespace-scope variable
/// or a static data member of a class template specialization is a
/// `<data-member-prefix>` (`4lam3M`, `L2a3M` for a `static` one,
/// `1WIlE1mM`); a static data member of a class is its class (`1S`); a
/// variable template specialization is itself (`2vtIiE`).
fn var_context_name(db: &dyn SourceDatabase, owner: InferOwner) -> Result<Option<m::Name>, crate::SemaError> {
    let (mut name, member, template) = match owner {
        InferOwner::Var(v) => {
            let name = symbols::var_name_tree(db, v)?;
            let map = crate::def_map(db, v.item(db).tu(db));
            let member = crate::infer::var_init::var_init_scope(db, owner)
                .is_some_and(|s| matches!(map.scope(s).kind, crate::scopes::ScopeKind::Class(_)));
            (name, member, false)
        }
        InferOwner::VarInst(i) => (symbols::var_instance_name_tree(db, i)?, false, !i.args(db).is_empty()),
        _ => return Ok(None),
    };
    if member {
        name.comps.pop();
    } else if !template {
        let last = name.comps.last_mut().ok_or("unnamed variable")?;
        last.name = match &last.name {
            Unqualified::Source(s) => Unqualified::DataMember(s.clone(), false),
            Unqualified::StaticSource(s) => Unqualified::DataMember(s.clone(), true),
            _ => return Err("variable name".into()),
        };
    }
    Ok(Some(name))
}

/// The encoding of a closure member.
pub(crate) fn closure_fn_encoding(db: &dyn SourceDatabase, f: ClosureFnId) -> Result<m::Encoding, crate::SemaError> {
    let c = f.closure(db);
    let map = crate::def_map(db, crate::infer::owner_tu(db, c.owner(db)));
    let mut name = closure_type_name(db, c)?;
    let args = f.args(db);
    let generic = !args.is_empty();
    // A specialization of a generic `operator()` mangles its declared
    // signature (`auto` return: `Da`; parameters `T_`…), like any function
    // template specialization.
    let sig = closure_fn_sig(db, f)?;
    let params = if generic {
        declared_mangled(db, &map, &crate::infer::closure_declared_params(db, c)?)?
    } else {
        sig.params.iter().map(|p| symbols::mangle_ty(db, &map, *p)).collect::<Result<Vec<_>, _>>()?
    };
    let (last, quals, ret) = match f.kind(db) {
        ClosureFnKind::Call => {
            let ret = if generic {
                match crate::infer::closure_written_ret(db, c) {
                    Some(t) => symbols::mangle_ty(db, &map, t)?,
                    None => m::Type::Builtin(m::Builtin::Auto),
                }
            } else {
                m::Type::Builtin(m::Builtin::Void)
            };
            (Unqualified::Operator(m::Op::Call), if sig.cv.c { m::Quals::CONST } else { m::Quals::NONE }, ret)
        }
        ClosureFnKind::Invoker => {
            (Unqualified::Source("_FUN".into()), m::Quals::NONE, m::Type::Builtin(m::Builtin::Void))
        }
        ClosureFnKind::Conversion => {
            let fp = closure_fn_sig(db, f)?.ret;
            (
                Unqualified::Conversion(Box::new(symbols::mangle_ty(db, &map, fp)?)),
                m::Quals::CONST,
                m::Type::Builtin(m::Builtin::Void),
            )
        }
    };
    let (params, comp_args) = match f.kind(db) {
        ClosureFnKind::Conversion => (Vec::new(), None),
        ClosureFnKind::Call if generic => {
            let targs = args.iter().map(|a| targ(db, &map, a)).collect::<Result<Vec<_>, _>>()?;
            (params, Some(targs))
        }
        _ => (params, None),
    };
    name.comps.push(Component { name: last, abi_tags: Vec::new(), args: comp_args });
    let variadic = sig.variadic && !matches!(f.kind(db), ClosureFnKind::Conversion);
    let f = m::FnType { ret, params, variadic, quals, ref_qual: m::RefQual::None, exception: m::ExceptionSpec::None };
    Ok(m::Encoding::Function(Box::new(name), Box::new(f)))
}

/// Declared parameters (`closure_declared_params`) as the mangler's types:
/// an `auto...` pack as `Dp <pattern>`.
fn declared_mangled(
    db: &dyn SourceDatabase,
    map: &crate::DefMap,
    params: &[(crate::TyId, bool)],
) -> Result<Vec<m::Type>, crate::SemaError> {
    params
        .iter()
        .map(|&(t, pack)| {
            let t = symbols::mangle_ty(db, map, t)?;
            Ok(if pack { m::Type::PackExpansion(Box::new(t)) } else { t })
        })
        .collect()
}

fn targ(db: &dyn SourceDatabase, map: &crate::DefMap, a: &TemplateArg) -> Result<m::TArg, crate::SemaError> {
    Ok(match a {
        TemplateArg::Type(t) => m::TArg::Type(symbols::mangle_ty(db, map, *t)?),
        TemplateArg::Pack(xs) => m::TArg::Pack(xs.iter().map(|x| targ(db, map, x)).collect::<Result<_, _>>()?),
        other => return Err(crate::error::gap!("generic lambda argument {other:?}")),
    })
}

/// The linkage name of a closure member.
pub fn closure_fn_name(db: &dyn SourceDatabase, f: ClosureFnId) -> Result<String, crate::SemaError> {
    m::mangle(&closure_fn_encoding(db, f)?).map_err(crate::SemaError::from)
}

/// The linkage name of a static local: `Z <function> E <name> [_<n>]`.
pub fn local_static_name(db: &dyn SourceDatabase, v: LocalStaticId) -> Result<String, crate::SemaError> {
    let owner = v.owner(db);
    let body = owner_body(db, owner);
    let local = v.local(db);
    let name = body.locals.get(local.0 as usize).and_then(|l| l.name.clone()).ok_or("unnamed static local")?;
    let statics = context_statics(db, owner, &body);
    let disc = statics
        .iter()
        .take_while(|l| **l != local)
        .filter(|l| body.local(**l).name.as_deref() == Some(name.as_str()))
        .count() as u32;
    let func = context_encoding(db, owner)?;
    m::symbol(&m::Encoding::Data(m::Name {
        root: m::Root::Local { func: Box::new(func), disc },
        comps: vec![m::build::comp(&name)],
    }))
    .map_err(crate::SemaError::from)
}

/// The static locals of a context, in order of declaration: its statements
/// (a lambda's body for a closure's `operator()`), expressions not entered.
fn context_statics(db: &dyn SourceDatabase, owner: InferOwner, body: &Body) -> Vec<LocalId> {
    let root = match owner {
        InferOwner::Closure(f) => match body.exprs.get(f.closure(db).expr(db).0 as usize) {
            Some(crate::body::Expr::Lambda { body: b, .. }) => *b,
            _ => None,
        },
        _ => body.root,
    };
    let mut out = Vec::new();
    if let Some(r) = root {
        statics_in(body, r, &mut out, 0);
    }
    out
}

fn statics_in(body: &Body, s: StmtId, out: &mut Vec<LocalId>, depth: u32) {
    if depth > 200 {
        return;
    }
    let Some(st) = body.stmts.get(s.0 as usize) else { return };
    let sub = |x: StmtId, out: &mut Vec<LocalId>| statics_in(body, x, out, depth + 1);
    match st {
        Stmt::Compound(ss) => ss.iter().for_each(|x| sub(*x, out)),
        Stmt::Decl(ls) => out.extend(ls.iter().copied().filter(|l| body.local(*l).is_static)),
        Stmt::If { init, then, els, .. } => {
            init.iter().chain(Some(then)).chain(els.iter()).for_each(|x| sub(*x, out));
        }
        Stmt::Switch { init, body: b, .. } => init.iter().chain(Some(b)).for_each(|x| sub(*x, out)),
        Stmt::While { body: b, .. } | Stmt::Do { body: b, .. } => sub(*b, out),
        Stmt::For { init, body: b, .. } | Stmt::RangeFor { init, body: b, .. } => {
            init.iter().chain(Some(b)).for_each(|x| sub(*x, out))
        }
        Stmt::Label { stmt, .. } | Stmt::Case { stmt, .. } | Stmt::Default(stmt) => sub(*stmt, out),
        Stmt::Try { body: b, handlers } => {
            sub(*b, out);
            handlers.iter().for_each(|h| sub(h.body, out));
        }
        _ => {}
    }
}
