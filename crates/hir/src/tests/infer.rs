//! Inference: snippets → what each body requires (mangled), and the calls left unresolved.

use expect_test::{expect, Expect};

use crate::infer::{infer, render_calls, InferOwner};

fn check(text: &str, name: &str, want: Expect) {
    let (db, tu) = super::db_with(text);
    let f = super::body::fn_named(&db, tu, name).expect("function");
    let r = infer(&db, InferOwner::Fn(f));
    want.assert_eq(&render_calls(&db, &r));
}

#[test]
fn free_functions_and_overloads() {
    check(
        "void f(int); void f(double); void f(const char*); long g(long, int = 0);\n\
         namespace n { struct A {}; void h(A); int v; }\n\
         void user() { f(1); f(2.0); f(\"s\"); f('c'); g(1); n::A a; h(a); n::v = 2; }",
        "user",
        expect![[r#"
            _Z1fi
            _Z1fd
            _Z1fPKc
            _Z1gli
            _ZN1n1hENS_1AE
            _ZN1n1vE
        "#]],
    );
}

#[test]
fn members_ctors_dtors_operators() {
    check(
        "struct S { S(); S(int); S(const S&); S(S&&); ~S(); int m(int) const; static int sm(); S& operator+=(const S&); int x; };\n\
         S operator+(const S&, const S&); bool operator==(const S&, const S&);\n\
         S make();\n\
         void user() { S a; S b(1); S c = a; S d = make(); a.m(2); S::sm(); a += b; (void)(a == b); S e = a + b; S* p = new S(3); delete p; }",
        "user",
        expect![[r#"
            _ZN1SC1Ev
            _ZN1SC1Ei
            _ZN1SC1ERKS_
            _Z4makev
            _ZN1SD1Ev
            _ZNK1S1mEi
            _ZN1S2smEv
            _ZN1SpLERKS_
            _ZeqRK1SS1_
            _ZplRK1SS1_
        "#]],
    );
}

#[test]
fn function_templates() {
    check(
        "template<class T> T id(T x) { return x; }\n\
         template<class T> void fwd(T&& x);\n\
         template<class T, int N> int size(T (&)[N]);\n\
         template<class... Ts> void many(Ts... xs);\n\
         template<class T> struct V { void push(const T&); T* data(); };\n\
         void user() { id(1); id<long>(2); int i = 0; fwd(i); fwd(3); int arr[4]; size(arr); many(1, 2.0, 'c'); V<int> v; v.push(1); v.data(); }",
        "user",
        expect![[r#"
            _Z2idIiET_S0_
            _Z2idIlET_S0_
            _Z3fwdIRiEvOT_
            _Z3fwdIiEvOT_
            _Z4manyIJidcEEvDpT_
            _ZN1VIiE4pushERKi
            _ZN1VIiE4dataEv
            unresolved Expr(ExprId(15)): could not deduce `T`
        "#]],
    );
}

/// A probe over a real unit (not run by default): `CUFRONT_II=path.ii cargo
/// test -p cufront-hir --release probe -- --ignored --nocapture` infers the
/// unit's bodies and what they require, transitively, and prints the
/// calls left unresolved by reason.
#[test]
#[ignore]
fn probe() {
    use crate::infer::{Callee, InferOwner};
    use crate::Entity;
    let Ok(path) = std::env::var("CUFRONT_II") else { return };
    let text = std::fs::read_to_string(&path).expect("read");
    let db = cufront_base_db::RootDatabase::new();
    let std = if path.contains("c++20") { cufront_base_db::LangStandard::Cxx20 } else { cufront_base_db::LangStandard::Cxx17 };
    let opts = cufront_base_db::new_options(&db, cufront_base_db::LangOptions { standard: std, ..Default::default() });
    let tu = cufront_base_db::new_translation_unit(&db, path.clone(), std::sync::Arc::from(text.as_str()), opts);
    let t0 = std::time::Instant::now();
    let map = crate::def_map(&db, tu);
    let mut work: Vec<Entity> = map.entities.iter().copied().filter(|e| matches!(e, Entity::Fn(_))).collect();
    work.reverse();
    let mut seen: rustc_hash::FxHashSet<Entity> = work.iter().copied().collect();
    let (mut bodies, mut calls, mut unresolved) = (0, 0, 0);
    let mut reasons: std::collections::BTreeMap<String, (usize, String)> = Default::default();
    let limit: usize = std::env::var("CUFRONT_LIMIT").ok().and_then(|s| s.parse().ok()).unwrap_or(20000);
    while let Some(e) = work.pop() {
        let owner = match e {
            Entity::Fn(f) => InferOwner::Fn(f),
            Entity::FnInst(i) => InferOwner::Inst(i),
            _ => continue,
        };
        let r = infer(&db, owner);
        if let Ok(d) = std::env::var("CUFRONT_DUMP") {
            if crate::symbols::mangled_name(&db, e).is_ok_and(|n| n == d) {
                let body = match owner {
                    InferOwner::Fn(f) => crate::infer::decl_body(&db, crate::instances::FnDecl::Fn(f)),
                    InferOwner::Inst(i) => crate::infer::decl_body(&db, crate::instances::fn_definition(&db, i.decl(&db)).unwrap_or(i.decl(&db))),
                };
                println!("{}", crate::body::render(&body));
                println!("{:?}", r.skipped);
                for (site, c) in &r.calls {
                    println!("  {site:?} -> {c:?}");
                }
                for x in &r.required {
                    println!("  req {:?}", crate::symbols::mangled_name(&db, *x));
                }
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
                unresolved += 1;
                let key: String = why.chars().take(60).collect();
                let ent = reasons.entry(key).or_insert((0, String::new()));
                ent.0 += 1;
                if ent.1.is_empty() {
                    ent.1 = crate::symbols::mangled_name(&db, e).unwrap_or_default();
                }
            }
        }
        for &x in r.required.iter().rev() {
            if seen.insert(x) {
                work.push(x);
            }
        }
    }
    println!("{path}: {bodies} bodies, {calls} calls, {unresolved} unresolved, {} entities, {:?}", seen.len(), t0.elapsed());
    if let Ok(syms) = std::env::var("CUFRONT_SYMS") {
        // The share of the host object's symbols named (as the parity test counts them, roughly).
        let mut names: rustc_hash::FxHashSet<String> = Default::default();
        for e in seen.iter().chain(map.entities.iter()) {
            if let Ok(n) = crate::symbols::mangled_name(&db, *e) {
                names.insert(n);
            }
        }
        let text = std::fs::read_to_string(&syms).expect("symbols");
        let norm = |s: &str| {
            let mut s = s.to_string();
            for (a, b) in [("C2E", "C1E"), ("C5E", "C1E"), ("D2E", "D1E"), ("D0E", "D1E"), ("D5E", "D1E"), ("C2I", "C1I"), ("C5I", "C1I"), ("CI2", "CI1"), ("CI5", "CI1")] {
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
            let special = ["_ZTV", "_ZTI", "_ZTS", "_ZTT", "_ZTC", "_ZGV", "_ZTH", "_ZTW", "__cuda", "__nv", "__device_stub_", "__fatbinwrap", "__sti", "_GLOBAL_", "_Unwind", "__cxa", "__gxx", "__dso", "DW.", "__static_init"];
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

#[test]
fn deduction_through_templates() {
    check(
        "template<class R, class P = int> struct dur { };\n\
         template<class C, class D = typename C::duration> struct tp { tp(); explicit tp(const D&); };\n\
         struct clk { typedef dur<long> duration; };\n\
         template<class ToD, class C, class D> tp<C, ToD> cast(const tp<C, D>& t);\n\
         template<class T> struct B { }; template<class T> struct Dv : B<T> { };\n\
         template<class T> void base(const B<T>&);\n\
         void user() { tp<clk, dur<long, char>> x; cast<dur<long>>(x); cast<dur<long>>(tp<clk, dur<long,char>>(dur<long,char>()));\n\
           Dv<int> d; base(d); }",
        "user",
        expect![[r#"
            _ZN2tpI3clk3durIlcEEC1Ev
            _Z4castI3durIliE3clkS0_IlcEE2tpIT0_T_ERKS4_IS5_T1_E
            _ZN2tpI3clk3durIlcEEC1ERKS2_
            _Z4baseIiEvRK1BIT_E
        "#]],
    );
}

#[test]
fn classes_ops_like() {
    check(
        "typedef unsigned long size_t;\n\
         template<class T> class DeviceArray { public: explicit DeviceArray(size_t n) : n_(n) { } ~DeviceArray() { } T* p_ = nullptr; size_t n_ = 0; };\n\
         class Job { public: virtual ~Job() = default; virtual void run() = 0; };\n\
         class PowerJob final : public Job { public: PowerJob(int n, int e) : in_(n), out_(n), exponent_(e) {} void run() override {} private: DeviceArray<float> in_, out_; int exponent_; };\n\
         int main() { Job* j = new PowerJob(500, 8); DeviceArray<int> a(3); return 0; }",
        "main",
        expect![[r#"
            _ZN8PowerJobC1Eii
            _ZN11DeviceArrayIiEC1Em
            _ZN11DeviceArrayIiED1Ev
        "#]],
    );
}
