//! Function template argument deduction from a call ([temp.deduct.call]),
//! as free functions of the caller's lowering context, so that the
//! constant interpreter deduces its calls (`f<V>(index_sequence<0, 1>())`
//! binding `Is...` through the alias) exactly as overload resolution does.

use super::*;

/// Explicit template arguments of a candidate (all of them given: `true`).
pub(crate) fn explicit_args(
    caller: LowerCx<'_>,
    f: FnDecl,
    written: &[TemplateArgRef],
) -> Result<(Vec<TemplateArg>, bool), crate::SemaError> {
    let params = f.tparams(caller.db);
    // `f<T, Ts...>`: expansions expanded first, one argument per element.
    let written = packs::expand_written(caller, written)?;
    let lower = |p: &TemplateParam, w: &packs::Written<'_>| match w {
        packs::Written::Ref(r) => templates::lower_arg(caller, &p.kind, r),
        packs::Written::Done(a) => Ok(a.clone()),
    };
    let mut out = Vec::new();
    let mut wi = 0;
    for p in &params {
        if p.pack {
            let mut v = Vec::new();
            while wi < written.len() {
                v.push(lower(p, &written[wi])?);
                wi += 1;
            }
            out.push(TemplateArg::Pack(v));
            continue;
        }
        let Some(w) = written.get(wi) else { break };
        out.push(lower(p, w)?);
        wi += 1;
    }
    if wi < written.len() {
        return Err("too many template arguments".into());
    }
    let complete = out.len() == params.len();
    Ok((out, complete))
}

/// Deduces a function template's arguments from a call (explicit ones first, then defaults).
pub(crate) fn deduce(
    caller: LowerCx<'_>,
    f: FnDecl,
    outer: &Env,
    data: &crate::item_tree::FnData,
    targs: Option<&[TemplateArgRef]>,
    args: &[Arg],
) -> Result<Vec<TemplateArg>, crate::SemaError> {
    let db = caller.db;
    let params: Vec<TemplateParam> = f.tparams(db);
    let n = params.len();
    let mut out: Vec<Option<TemplateArg>> = vec![None; n];
    if let Some(w) = targs {
        let (given, _) = explicit_args(caller, f, w)?;
        for (i, a) in given.into_iter().enumerate() {
            // A trailing pack with no explicit element is deduced, not empty.
            if !matches!(&a, TemplateArg::Pack(v) if v.is_empty()) {
                out[i] = Some(a);
            }
        }
    }
    let scope = instances::fn_scope(db, f).ok_or("unresolved scope")?;
    let mut env = outer.clone();
    // Parameters as placeholders (explicit ones substituted).
    for (i, p) in params.iter().enumerate() {
        let a = match &out[i] {
            Some(a) if !p.pack => a.clone(),
            _ if p.pack => packs::pack_placeholder(i as u32),
            _ => placeholder(db, p, i as u32),
        };
        if let Some(nm) = &p.name {
            env.names.push((nm.clone(), a));
        }
    }
    let cx = LowerCx { db, map: caller.map, item: f.item(db), scope, env: Some(&env) };
    // The declared type of each value parameter still to be deduced, as
    // `decltype(NAME)`: an alias of it (`constant_t<MODIFIER>`, that is
    // `integral_constant<decltype(MODIFIER), MODIFIER>`) stays a pattern
    // that deduces it (`templates::placeholder_decltype`).
    let typed: Vec<(String, TemplateArg)> = params
        .iter()
        .enumerate()
        .filter(|(i, p)| out[*i].is_none() && !p.pack)
        .filter_map(|(_, p)| {
            let (TemplateParamKind::Value(t), Some(nm)) = (&p.kind, &p.name) else { return None };
            let t = ty::canonical(db, ty::lower(cx, t));
            (!ty_has_placeholder(db, t, 0) && !matches!(t.kind(db), TyKind::Dependent(_) | TyKind::Error(_)))
                .then(|| (format!("decltype({nm})"), TemplateArg::Type(t)))
        })
        .collect();
    env.names.extend(typed);
    let cx = LowerCx { db, map: caller.map, item: f.item(db), scope, env: Some(&env) };
    packs::convert_explicit_values(cx, &params, &mut out);
    let elem_env = packs::element_env(db, &env, &params);
    let mut ai = 0;
    let mut deferred = Vec::new();
    for (pi, pref) in data.ty.params.iter().enumerate() {
        let is_pack = data.pack_params.contains(&(pi as u32));
        let pcx = if is_pack { LowerCx { env: Some(&elem_env), ..cx } } else { cx };
        // `T x[N]` is `T *x` before deduction sees it.
        let pref = &*pref.decayed_param();
        let pt = templates::nested(|| Ok(ty::lower(pcx, pref))).map_err(|e| e.to_string())?;
        if is_pack {
            // A trailing function parameter pack takes the rest of the arguments.
            let rest = args.get(ai..).unwrap_or(&[]);
            ai = args.len();
            let packs = packs::deduce_param_pack(db, pt, pref, &params, rest, &out).ok_or("deduction failed (pack)")?;
            for (s, elems) in packs {
                if out[s].is_none() || targs.is_none_or(|t| t.is_empty()) {
                    let elems = elems.into_iter().map(|e| e.unwrap_or(TemplateArg::Dependent("?".into()))).collect();
                    out[s] = Some(TemplateArg::Pack(elems));
                }
            }
            continue;
        }
        let Some(&a) = args.get(ai) else { break };
        ai += 1;
        // A function parameter is a pointer to function (`R f(A)`).
        let pt = match ty::canonical(db, pt).kind(db) {
            TyKind::Func(_) => ty::adjust_param(db, pt),
            _ => pt,
        };
        // A possibly non-deduced parameter (`typename X<T>::type`): last.
        if non_deduced::maybe_non_deduced(db, caller.map, scope, pref, &params) {
            if !non_deduced::certainly_non_deduced(db, caller.map, scope, pref, &params) {
                deferred.push((pt, a));
            }
            continue;
        }
        // `T (&)[N]`: `N` from the argument's bound, then the rest with `N` known.
        let bound = deduce_conv::deduce_array_bounds(cx, pref, a.ty, &params, &mut out);
        let pt = if bound.is_empty() {
            pt
        } else {
            let mut env2 = env.clone();
            env2.names.extend(bound);
            let cx2 = LowerCx { env: Some(&env2), ..cx };
            templates::nested(|| Ok(ty::lower(cx2, pref))).map_err(|e| e.to_string())?
        };
        if !deduce_one(db, pt, a, &mut out) {
            return Err("deduction failed".into());
        }
    }
    for (pt, a) in deferred {
        let mut scratch = out.clone();
        if deduce_one(db, pt, a, &mut scratch) {
            out = scratch;
        }
    }
    // Undeduced: trailing packs are empty; defaults are substituted.
    let mut final_args = Vec::new();
    for (i, p) in params.iter().enumerate() {
        let a = match out[i].clone() {
            Some(a) => a,
            None if p.pack && packs::in_deduced_context(p, data) => {
                return Err(crate::error::gap!(
                    "could not deduce pack `{}` from its pattern",
                    p.name.clone().unwrap_or_default()
                ));
            }
            None if p.pack => TemplateArg::Pack(Vec::new()),
            None => {
                let Some(d) = &p.default else {
                    return Err(crate::error::gap!("could not deduce `{}`", p.name.clone().unwrap_or_default()));
                };
                let mut denv = outer.clone();
                for (j, q) in params.iter().enumerate().take(i) {
                    if let Some(nm) = &q.name {
                        denv.names.push((
                            nm.clone(),
                            final_args.get(j).cloned().unwrap_or(TemplateArg::Dependent("?".into())),
                        ));
                    }
                }
                let dcx = LowerCx { db, map: caller.map, item: f.item(db), scope, env: Some(&denv) };
                let v = templates::nested(|| templates::lower_arg(dcx, &p.kind, d))?;
                if let TemplateArg::Type(t) = &v
                    && matches!(t.kind(db), TyKind::Error(_))
                {
                    return Err(crate::SemaError::substitution("substitution failure in a default argument"));
                }
                v
            }
        };
        final_args.push(normalize(db, a));
    }
    if final_args.iter().any(|a| has_placeholder(db, a)) {
        return Err("incomplete deduction".into());
    }
    nttp_sfinae::nttp_types_substitute(caller.db, caller.map, f, outer, &params, &final_args)?;
    Ok(final_args)
}
