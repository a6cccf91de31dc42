//! A probe of the device closure over a real unit, for people working on
//! the device view: the closure's size, the bodies it walks whose calls
//! stay unresolved (by reason), and with `CUFRONT_DUMP=NAME` the body and
//! calls of each reached entity whose mangled name contains NAME.
//!
//!     cargo run --release -p cufront-device --example device_probe -- k/x.cpp1.ii
//!
//! The acceptance measure is `crates/cufront/tests/device_stub.rs` (with
//! `CUFRONT_DEVICE_NAMES=DIR` it writes each unit's misses); this shows why
//! a reached body does not reach what cicc's does.

use cufront_hir::infer::{self, Callee};
use cufront_hir::{Entity, instances, symbols};

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: device_probe FILE.cpp1.ii");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(&path).expect("read");
    let db = cufront_base_db::RootDatabase::new();
    let standard = if std::env::var_os("CUFRONT_CXX20").is_some() {
        cufront_base_db::LangStandard::Cxx20
    } else {
        cufront_base_db::LangStandard::Cxx17
    };
    let opts = cufront_base_db::new_options(&db, cufront_base_db::LangOptions { standard, ..Default::default() });
    let tu = cufront_base_db::new_translation_unit(&db, path.clone(), std::sync::Arc::from(text.as_str()), opts);
    let t0 = std::time::Instant::now();
    let closure = cufront_device::closure::device_closure(&db, tu);
    let dump = std::env::var("CUFRONT_DUMP").ok();
    let name = |e: Entity| symbols::mangled_name(&db, e).unwrap_or_else(|why| format!("<{why}> {e:?}"));
    let mut reasons: std::collections::BTreeMap<String, (usize, String)> = Default::default();
    for &(e, from) in closure.iter() {
        let Some(owner) = instances::body_owner(&db, e) else { continue };
        let r = infer::infer(&db, owner);
        let n = name(e);
        if dump.as_deref().is_some_and(|d| n.contains(d)) {
            println!("== {n}\n   reached from {}", from.map(name).unwrap_or_else(|| "a root".into()));
            let body = match owner {
                infer::InferOwner::Fn(f) => infer::decl_body(&db, instances::FnDecl::Fn(f)),
                infer::InferOwner::Inst(i) => {
                    infer::decl_body(&db, instances::inst_definition(&db, i).unwrap_or(i.decl(&db)))
                }
                _ => infer::owner_body(&db, owner),
            };
            println!("{}", cufront_hir::body::render(&body));
            println!("skipped: {:?}", r.skipped);
            for (site, c) in &r.calls {
                let c = match c {
                    // An instance without a name: what it is an instance of.
                    Callee::Entity(x @ Entity::FnInst(fi)) if symbols::mangled_name(&db, *x).is_err() => {
                        let outer = fi.outer(&db).map(|o| {
                            let class = cufront_hir::layout::class_name(&db, o.class(&db));
                            format!("{class} with {} arguments", o.args(&db).len())
                        });
                        format!(
                            "{} ({:?}, outer {outer:?}, {} own arguments)",
                            name(*x),
                            fi.decl(&db),
                            fi.args(&db).len()
                        )
                    }
                    Callee::Entity(x) => name(*x),
                    c => format!("{c:?}"),
                };
                println!("  {site:?} -> {c}");
            }
            if std::env::var_os("CUFRONT_TYS").is_some() {
                for (i, t) in r.expr_tys.iter().enumerate() {
                    let t = t.map(|t| cufront_hir::ty::display(&db, t)).unwrap_or_else(|| "-".into());
                    println!("  ty e{i} : {t}");
                }
            }
        }
        for (_, c) in &r.calls {
            if let Callee::Unresolved(why) = c {
                let key: String = why.to_string().chars().take(70).collect();
                let ent = reasons.entry(key).or_insert((0, String::new()));
                ent.0 += 1;
                if ent.1.is_empty() {
                    ent.1 = n.clone();
                }
            }
        }
    }
    println!("{path}: {} reached, {:?}", closure.len(), t0.elapsed());
    let mut reasons: Vec<_> = reasons.into_iter().collect();
    reasons.sort_by_key(|(_, (n, _))| std::cmp::Reverse(*n));
    for (why, (n, first)) in reasons.iter().take(40) {
        println!("{n:6} {why}\n         e.g. in {first}");
    }
}
