//! A probe of `infer` over a real unit, for people working on the model:
//! infers the unit's bodies and what they require, transitively, prints the
//! calls left unresolved by reason, and with `CUFRONT_SYMS` (a symbols file
//! of the parity test's cache) the share of the host object's symbols named.
//!
//!     cargo run --release -p cufront-hir --example infer_probe -- FILE.ii
//!
//! `CUFRONT_LIMIT` bounds the bodies inferred (default 20000), `CUFRONT_DUMP`
//! prints the inference of bodies whose name contains it, `CUFRONT_MISSES`
//! how many missed symbols are shown (default 30). The acceptance measure is
//! `crates/cufront/tests/symbol_parity.rs`; this is its magnifying glass.

fn main() {
    use cufront_hir::Entity;
    use cufront_hir::infer::{Callee, InferOwner};
    let Some(path) = std::env::args().nth(1).or_else(|| std::env::var("CUFRONT_II").ok()) else {
        eprintln!("usage: infer_probe FILE.ii (or CUFRONT_II=FILE.ii)");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(&path).expect("read");
    let db = cufront_base_db::RootDatabase::new();
    let std = if path.contains("c++20") {
        cufront_base_db::LangStandard::Cxx20
    } else {
        cufront_base_db::LangStandard::Cxx17
    };
    let opts = cufront_base_db::new_options(&db, cufront_base_db::LangOptions { standard: std, ..Default::default() });
    let tu = cufront_base_db::new_translation_unit(&db, path.clone(), std::sync::Arc::from(text.as_str()), opts);
    let t0 = std::time::Instant::now();
    let map = cufront_hir::def_map(&db, tu);
    // The closure the parity test lists (`instances::required_entities`):
    // implicit special members, vtables and inherited constructors
    // included, so a dump finds any function the listing reaches.
    let closure = cufront_hir::instances::required_entities(&db, tu);
    let seen: rustc_hash::FxHashSet<Entity> = closure.iter().copied().collect();
    let mut walked: rustc_hash::FxHashSet<InferOwner> = Default::default();
    let (mut bodies, mut calls, mut unresolved) = (0, 0, 0);
    let mut reasons: std::collections::BTreeMap<String, (usize, String)> = Default::default();
    let limit: usize = std::env::var("CUFRONT_LIMIT").ok().and_then(|s| s.parse().ok()).unwrap_or(20000);
    let dump = std::env::var("CUFRONT_DUMP").ok();
    for &e in closure.iter() {
        // A special member or inheriting constructor has no body to
        // infer: a dump shows what it requires.
        if matches!(e, Entity::Special(_) | Entity::Inherited(_)) {
            if dump.as_deref().is_some_and(|d| cufront_hir::symbols::mangled_name(&db, e).is_ok_and(|n| n == d)) {
                println!("{e:?} (no body)");
                for x in required_of(&db, e) {
                    println!(
                        "  req {} ",
                        cufront_hir::symbols::mangled_name(&db, x).unwrap_or_else(|e| format!("<{e}>"))
                    );
                }
            }
            continue;
        }
        let Some(owner) = cufront_hir::instances::body_owner(&db, e) else { continue };
        if !walked.insert(owner) {
            continue;
        }
        let r = cufront_hir::infer::infer(&db, owner);
        if let Some(d) = &dump
            && cufront_hir::symbols::mangled_name(&db, e).is_ok_and(|n| n == *d)
        {
            let body = match owner {
                InferOwner::Fn(f) => cufront_hir::infer::decl_body(&db, cufront_hir::instances::FnDecl::Fn(f)),
                InferOwner::Inst(i) => cufront_hir::infer::decl_body(
                    &db,
                    cufront_hir::instances::inst_definition(&db, i).unwrap_or(i.decl(&db)),
                ),
                _ => cufront_hir::infer::owner_body(&db, owner),
            };
            println!("{}", cufront_hir::body::render(&body));
            println!("{:?}", r.skipped);
            // `CUFRONT_TYS=1`: every expression's type.
            if std::env::var_os("CUFRONT_TYS").is_some() {
                for (i, t) in r.expr_tys.iter().enumerate() {
                    if let Some(t) = t {
                        println!("  ty e{i}: {}", cufront_hir::ty::display(&db, *t));
                    }
                }
            }
            for (site, c) in &r.calls {
                let c = match c {
                    Callee::Entity(x) => cufront_hir::symbols::mangled_name(&db, *x).unwrap_or_else(|e| match x {
                        cufront_hir::Entity::FnInst(i) => {
                            let d = i.decl(&db).data(&db).map(|d| format!("{:?}", d.name)).unwrap_or_default();
                            format!("<{e}> {d} <{}>", cufront_hir::templates::display_args(&db, i.args(&db)))
                        }
                        _ => format!("<{e}>"),
                    }),
                    c => format!("{c:?}"),
                };
                println!("  {site:?} -> {c} ");
            }
            // `CUFRONT_TYS=1`: the type of every expression and local too.
            if std::env::var("CUFRONT_TYS").is_ok() {
                for (i, t) in r.expr_tys.iter().enumerate() {
                    let t = t.map(|t| cufront_hir::ty::display(&db, t)).unwrap_or_else(|| "-".into());
                    println!("  ty e{i} {:?} : {t}", r.categories.get(i));
                }
                for (i, t) in r.local_tys.iter().enumerate() {
                    let t = t.map(|t| cufront_hir::ty::display(&db, t)).unwrap_or_else(|| "-".into());
                    println!("  ty local{i} : {t}");
                }
            }
            for x in &r.required {
                println!("  req {} ", cufront_hir::symbols::mangled_name(&db, *x).unwrap_or_else(|e| format!("<{e}>")));
            }
        }
        if r.skipped.is_some() {
            continue;
        }
        bodies += 1;
        if bodies > limit {
            break;
        }
        for (_, c) in &r.calls {
            calls += 1;
            if let Callee::Unresolved(why) = c {
                let why = why.to_string();
                unresolved += 1;
                // `CUFRONT_REASON=text`: every body with such a call.
                if std::env::var("CUFRONT_REASON").is_ok_and(|r| why.contains(&r)) {
                    println!("reason {why}: {}", cufront_hir::symbols::mangled_name(&db, e).unwrap_or_default());
                }
                let key: String = why.chars().take(60).collect();
                let ent = reasons.entry(key).or_insert((0, String::new()));
                ent.0 += 1;
                if ent.1.is_empty() {
                    ent.1 = cufront_hir::symbols::mangled_name(&db, e).unwrap_or_default();
                }
            }
        }
    }
    println!(
        "{path}: {bodies} bodies, {calls} calls, {unresolved} unresolved, {} entities, {:?}",
        seen.len(),
        t0.elapsed()
    );
    // `CUFRONT_LIST=text`: every entity reached whose name contains it, and who requires it.
    if let Ok(pat) = std::env::var("CUFRONT_LIST") {
        for e in &seen {
            let Ok(n) = cufront_hir::symbols::mangled_name(&db, *e) else { continue };
            if !n.contains(&pat) {
                continue;
            }
            println!("list {n}");
            for x in &seen {
                if required_of(&db, *x).contains(e) {
                    println!(
                        "  from {}",
                        cufront_hir::symbols::mangled_name(&db, *x).unwrap_or_else(|e| format!("<{e}>"))
                    );
                }
            }
        }
    }
    // Entities reached but not named: their bodies are not followed by
    // the parity test's listing either, so each error hides a subtree.
    let mut unnamed: std::collections::BTreeMap<String, (usize, String)> = Default::default();
    for e in &seen {
        if let Err(why) = cufront_hir::symbols::mangled_name(&db, *e) {
            // `CUFRONT_UNNAMED=text`: every entity whose name fails so.
            if std::env::var("CUFRONT_UNNAMED").is_ok_and(|r| why.why().contains(&r)) {
                if let Entity::FnInst(i) = e {
                    let d = i.decl(&db).data(&db).map(|d| format!("{:?}", d.name)).unwrap_or_default();
                    let outer = i
                        .outer(&db)
                        .map(|o| cufront_hir::templates::display_args(&db, o.args(&db)))
                        .unwrap_or_default();
                    println!(
                        "unnamed-entity {why}: {d} outer <{outer}> <{}>",
                        cufront_hir::templates::display_args(&db, i.args(&db))
                    );
                } else {
                    println!("unnamed-entity {why}: {e:?}");
                }
            }
            let key: String = why.why().chars().take(60).collect();
            let ent = unnamed.entry(key).or_insert((0, String::new()));
            ent.0 += 1;
            if ent.1.is_empty() {
                match e {
                    Entity::FnInst(i) => {
                        let d = i.decl(&db).data(&db).map(|d| format!("{:?}", d.name)).unwrap_or_default();
                        let outer =
                            i.outer(&db).map(|o| cufront_hir::templates::inst_name(&db, o) + "::").unwrap_or_default();
                        ent.1 = format!("{outer}{d} <{}>", cufront_hir::templates::display_args(&db, i.args(&db)));
                    }
                    Entity::Special(sp) => {
                        let c = match sp.class(&db) {
                            cufront_hir::templates::ClassRefT::Inst(i) => cufront_hir::templates::inst_name(&db, i),
                            cufront_hir::templates::ClassRefT::Class(k) => cufront_hir::layout::class_name(&db, k),
                        };
                        ent.1 = format!("{c}: {:?}", sp.kind(&db));
                    }
                    _ => ent.1 = format!("{e:?}"),
                }
            }
        }
    }
    // `CUFRONT_LIST=text`: every entity reached whose name contains it.
    if let Ok(want) = std::env::var("CUFRONT_LIST") {
        for e in &seen {
            if let Ok(n) = cufront_hir::symbols::mangled_name(&db, *e)
                && n.contains(&want)
            {
                println!("listed {n}");
            }
        }
    }
    let mut v: Vec<_> = unnamed.into_iter().collect();
    v.sort_by(|a, b| b.1.0.cmp(&a.1.0));
    for (k, (n, ex)) in v.iter().take(25) {
        println!("unnamed {n:6} {k}   [{ex}]");
    }
    if let Ok(syms) = std::env::var("CUFRONT_SYMS") {
        // The share of the host object's symbols named (as the parity test counts them, roughly).
        let mut names: rustc_hash::FxHashSet<String> = Default::default();
        for e in seen.iter().chain(map.entities.iter()) {
            if let Ok(n) = cufront_hir::symbols::mangled_name(&db, *e) {
                names.insert(n);
            }
        }
        let text = std::fs::read_to_string(&syms).expect("symbols");
        let norm = |s: &str| {
            let mut s = s.to_string();
            for (a, b) in [
                ("C2E", "C1E"),
                ("C5E", "C1E"),
                ("D2E", "D1E"),
                ("D0E", "D1E"),
                ("D5E", "D1E"),
                ("C2I", "C1I"),
                ("C5I", "C1I"),
                ("CI2", "CI1"),
                ("CI5", "CI1"),
            ] {
                s = s.replace(a, b);
            }
            s
        };
        let mut counted: rustc_hash::FxHashSet<String> = Default::default();
        let names: rustc_hash::FxHashSet<String> = names.iter().map(|n| norm(n)).collect();
        let (mut total, mut hit) = (0, 0);
        let mut missed = Vec::new();
        for l in text.lines() {
            let Some(s) = l.strip_prefix("sym ") else { continue };
            let special = [
                "_ZTV",
                "_ZTI",
                "_ZTS",
                "_ZTT",
                "_ZTC",
                "_ZGV",
                "_ZTH",
                "_ZTW",
                "__cuda",
                "__nv",
                "__device_stub_",
                "__fatbinwrap",
                "__sti",
                "_GLOBAL_",
                "_Unwind",
                "__cxa",
                "__gxx",
                "__dso",
                "DW.",
                "__static_init",
            ];
            if special.iter().any(|p| s.starts_with(p)) || s.contains('.') || s.contains("__device_stub") {
                continue;
            }
            if !counted.insert(norm(s)) {
                continue;
            }
            total += 1;
            if names.contains(&norm(s)) {
                hit += 1;
            } else {
                missed.push(s.to_string());
            }
        }
        println!("share {hit}/{total} = {:.1}%", 100.0 * hit as f64 / total.max(1) as f64);
        for m in missed.iter().take(std::env::var("CUFRONT_MISSES").ok().and_then(|s| s.parse().ok()).unwrap_or(30)) {
            println!("  miss {m}");
        }
    }
    let mut v: Vec<_> = reasons.into_iter().collect();
    v.sort_by(|a, b| b.1.0.cmp(&a.1.0));
    for (k, (n, ex)) in v.iter().take(40) {
        println!("{n:6} {k}   [{ex}]");
    }
}

/// What the parity test's closure follows from `e`: an inferred body's
/// requirements, a special member's or an inheriting constructor's callees.
fn required_of(db: &cufront_base_db::RootDatabase, e: cufront_hir::Entity) -> Vec<cufront_hir::Entity> {
    use cufront_hir::Entity;
    match e {
        Entity::Special(sp) => cufront_hir::instances::special_required(db, sp),
        Entity::Inherited(ic) => vec![cufront_hir::instances::inherited::forwarded(db, ic)],
        _ => match cufront_hir::instances::body_owner(db, e) {
            Some(o @ (cufront_hir::infer::InferOwner::Var(_) | cufront_hir::infer::InferOwner::VarInst(_))) => {
                cufront_hir::infer::var_init::var_init_required(db, o)
            }
            Some(o) => cufront_hir::infer::infer(db, o).required.clone(),
            None => Vec::new(),
        },
    }
}
