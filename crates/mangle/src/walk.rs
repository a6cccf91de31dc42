//! A walk over every name a tree holds, each given mutably to a callback
//! before its parts are walked: how a caller rewrites names in place (the
//! device stub's names of extended lambdas' closure types) and the
//! mangler then recounts substitutions over the result.
//!
//! Names inside expressions (`decltype` operands, value arguments written
//! as expressions) and special names (vtables, guards) are not visited.

use crate::tree::*;

/// Calls `f` on every name in `e` outside expressions, outermost first.
pub fn names_mut(e: &mut Encoding, f: &mut dyn FnMut(&mut Name)) {
    encoding(e, f)
}

fn encoding(e: &mut Encoding, f: &mut dyn FnMut(&mut Name)) {
    match e {
        Encoding::Function(n, t) => {
            name(n, f);
            fn_type(t, f);
        }
        Encoding::Data(n) => name(n, f),
        Encoding::Special(_) => {}
    }
}

fn name(n: &mut Name, f: &mut dyn FnMut(&mut Name)) {
    f(n);
    if let Root::Local { func, .. } = &mut n.root {
        encoding(func, f);
    }
    for c in &mut n.comps {
        if let Unqualified::Lambda { params, .. } = &mut c.name {
            params.iter_mut().for_each(|t| ty(t, f));
        }
        if let Some(args) = &mut c.args {
            args.iter_mut().for_each(|a| targ(a, f));
        }
    }
}

fn targ(a: &mut TArg, f: &mut dyn FnMut(&mut Name)) {
    match a {
        TArg::Type(t) => ty(t, f),
        TArg::Pack(v) => v.iter_mut().for_each(|a| targ(a, f)),
        TArg::Template(n) => name(n, f),
        TArg::Literal(_) | TArg::Expr(_) => {}
    }
}

fn fn_type(t: &mut FnType, f: &mut dyn FnMut(&mut Name)) {
    ty(&mut t.ret, f);
    t.params.iter_mut().for_each(|t| ty(t, f));
}

fn ty(t: &mut Type, f: &mut dyn FnMut(&mut Name)) {
    match t {
        Type::Named(n) => name(n, f),
        Type::Qualified(_, x) | Type::Ptr(x) | Type::LRef(x) | Type::RRef(x) | Type::PackExpansion(x) => ty(x, f),
        Type::Array(_, x) => ty(x, f),
        Type::Func(t) => fn_type(t, f),
        Type::MemPtr(c, m) => {
            ty(c, f);
            ty(m, f);
        }
        Type::ParamApp(_, a) => a.iter_mut().for_each(|a| targ(a, f)),
        Type::Builtin(_) | Type::Vendor(_) | Type::Param(_) | Type::Decltype(_) => {}
    }
}

/// Calls `f` on every entity a template argument names, by address or by
/// name (`&h` in `app<&h>`: `XadL_ZL1hiEE`; a reference parameter's `L_Z1xE`),
/// in every name of `e`, outermost first, then on the entities its own
/// template arguments name: how the device names of kept instances spell an
/// internal-linkage argument as cicc does (`symbols/device.rs`).
pub fn targ_entities_mut(e: &mut Encoding, f: &mut dyn FnMut(&mut Encoding)) {
    names_mut(e, &mut |n: &mut Name| {
        for c in &mut n.comps {
            for a in c.args.iter_mut().flatten() {
                targ_entity(a, f);
            }
        }
    });
}

fn targ_entity(a: &mut TArg, f: &mut dyn FnMut(&mut Encoding)) {
    let entity = match a {
        TArg::Pack(v) => return v.iter_mut().for_each(|a| targ_entity(a, f)),
        TArg::Expr(Expr::Entity(enc)) => enc,
        TArg::Expr(Expr::Unary(_, x)) => match &mut **x {
            Expr::Entity(enc) => enc,
            _ => return,
        },
        _ => return,
    };
    f(entity);
    targ_entities_mut(entity, f);
}
