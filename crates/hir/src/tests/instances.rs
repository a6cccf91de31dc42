//! Function template specializations, members of class template
//! specializations and variable template specializations: linkage names
//! (g++'s `nm` is the oracle: each expected name below is what g++ 12
//! emits for the same declarations), signatures, lookup.

use expect_test::{Expect, expect};

use crate::Entity;
use crate::instances::{self, FnDecl, VarDecl};
use crate::scopes::{self, Def, ROOT};
use crate::templates::{self, ClassRefT, TemplateArg};
use crate::ty::{self, TyKind};

/// What a test asks for: `f<int,char>` (a function template
/// specialization; `[..]` groups a pack), `S<int>::f` (a member of a
/// specialization), `S<int>::g<char>`, `var<int>`.
fn spell(text: &str, wants: &[&str]) -> String {
    let (db, tu) = super::db_with(text);
    let map = crate::def_map(&db, tu);
    let arg = |s: &str| -> TemplateArg {
        if let Some(inner) = s.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
            let v =
                if inner.is_empty() { Vec::new() } else { split(inner).iter().map(|x| ty_arg(&db, tu, x)).collect() };
            return TemplateArg::Pack(v);
        }
        ty_arg(&db, tu, s)
    };
    let mut out = String::new();
    for w in wants {
        // `Class<args>::name<args>` or `name<args>`.
        let (class, rest) = match top_level_rfind(w, "::") {
            Some(i) => (Some(&w[..i]), &w[i + 2..]),
            None => (None, *w),
        };
        let (name, args) = match rest.find('<') {
            Some(i) => (&rest[..i], split(&rest[i + 1..rest.len() - 1]).iter().map(|a| arg(a)).collect::<Vec<_>>()),
            None => (rest, Vec::new()),
        };
        let r = match class {
            None => {
                if let Some(Def::VarTemplate(v)) = scopes::lookup(&db, &map, ROOT, name, scopes::Ns::Value) {
                    let i = instances::var_instance(&db, VarDecl::Template(v), None, args);
                    crate::symbols::mangled_name(&db, Entity::VarInst(i))
                } else {
                    let fs = scopes::lookup_fns(&db, &map, ROOT, name);
                    match fs.iter().find(|f| matches!(f, FnDecl::Template(_))) {
                        Some(&f) => crate::symbols::mangled_name(
                            &db,
                            Entity::FnInst(instances::fn_instance(&db, f, None, args)),
                        ),
                        None => Err(format!("no function template `{name}`").into()),
                    }
                }
            }
            Some(c) => {
                let t = crate::type_named(&db, tu, c).map(|t| ty::canonical(&db, t));
                match t.map(|t| templates::class_of(&db, t)) {
                    Some(Ok(ClassRefT::Inst(inst))) => {
                        let key =
                            if name == "{ctor}" || name == "{dtor}" { name.to_string() } else { name.to_string() };
                        let fs = instances::member_fns(&db, ClassRefT::Inst(inst), &key);
                        let want_template = !args.is_empty();
                        if let Some(&(f, outer)) =
                            fs.iter().find(|(f, _)| matches!(f, FnDecl::Template(_)) == want_template)
                        {
                            crate::symbols::mangled_name(
                                &db,
                                Entity::FnInst(instances::fn_instance(&db, f, outer, args)),
                            )
                        } else if let Some((Def::Var(v), _, _)) =
                            templates::member_of(&db, ClassRefT::Inst(inst), name, scopes::Ns::Value, 0)
                        {
                            crate::symbols::mangled_name(
                                &db,
                                Entity::VarInst(instances::var_instance(&db, VarDecl::Var(v), Some(inst), args)),
                            )
                        } else {
                            Err(format!("no member `{name}`").into())
                        }
                    }
                    other => Err(format!("`{c}` is not a specialization: {other:?}").into()),
                }
            }
        };
        match r {
            Ok(n) => out.push_str(&format!("{w}: {n}\n")),
            Err(e) => out.push_str(&format!("{w}: error: {e}\n")),
        }
    }
    out
}

fn ty_arg(db: &dyn cufront_base_db::SourceDatabase, tu: cufront_base_db::TranslationUnit, s: &str) -> TemplateArg {
    match crate::type_named(db, tu, s) {
        Some(t) => TemplateArg::Type(ty::canonical(db, t)),
        None => TemplateArg::Type(ty::mk(db, TyKind::Error(format!("bad type `{s}`").into()))),
    }
}

/// The last `pat` outside `<…>`.
fn top_level_rfind(s: &str, pat: &str) -> Option<usize> {
    let mut depth = 0;
    let mut found = None;
    for (i, c) in s.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            _ if depth == 0 && s[i..].starts_with(pat) => found = Some(i),
            _ => {}
        }
    }
    found
}

/// Splits at top-level commas.
fn split(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '<' | '[' => depth += 1,
            '>' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

fn check(text: &str, wants: &[&str], want: Expect) {
    want.assert_eq(&spell(text, wants));
}

const O1: &str = "namespace ns { struct P {}; template<class T> struct V { T* p; }; }
template<class T> void f(T) {}
template<class T> T g(const T&, T*) { return T(); }
template<class... Ts> void h(Ts... xs) {}
template<class T> void k(ns::V<T>, T&&) {}
template<class T, class U> U cvt(T) { return U(); }
template<class T> struct S {
  static int m;
  S() {}
  ~S() {}
  void f(T) {}
  T get() const { return T(); }
  template<class U> void g(T, U) {}
  template<class U> S(U, int) {}
  struct In { void q(T) {} };
};
template<class T> int S<T>::m = 1;
template<class T> struct S<T*> { void pf(T) {} };
template<class T> T var = T(1);
template<class T> static void sf(T) {}
";

#[test]
fn function_template_specializations() {
    check(
        O1,
        &["f<int>", "f<ns::P>", "g<double>", "h<[int, char, double]>", "h<[]>", "k<int>", "cvt<int, long>", "sf<int>"],
        expect![[r#"
            f<int>: _Z1fIiEvT_
            f<ns::P>: _Z1fIN2ns1PEEvT_
            g<double>: _Z1gIdET_RKS0_PS0_
            h<[int, char, double]>: _Z1hIJicdEEvDpT_
            h<[]>: _Z1hIJEEvDpT_
            k<int>: _Z1kIiEvN2ns1VIT_EEOS2_
            cvt<int, long>: _Z3cvtIilET0_T_
            sf<int>: _Z2sfIiEvT_
        "#]],
    );
}

#[test]
fn members_of_class_template_specializations() {
    check(
        O1,
        &[
            "S<int>::f",
            "S<int>::get",
            "S<int>::{ctor}",
            "S<int>::{dtor}",
            "S<int>::g<char>",
            "S<int>::{ctor}<char>",
            "S<int>::m",
            "S<ns::P>::In::q",
            "S<char*>::pf",
        ],
        expect![[r#"
            S<int>::f: _ZN1SIiE1fEi
            S<int>::get: _ZNK1SIiE3getEv
            S<int>::{ctor}: _ZN1SIiEC1Ev
            S<int>::{dtor}: _ZN1SIiED1Ev
            S<int>::g<char>: _ZN1SIiE1gIcEEviT_
            S<int>::{ctor}<char>: _ZN1SIiEC1IcEET_i
            S<int>::m: _ZN1SIiE1mE
            S<ns::P>::In::q: _ZN1SIN2ns1PEE2In1qES1_
            S<char*>::pf: _ZN1SIPcE2pfEc
        "#]],
    );
}

#[test]
fn variable_template_specializations() {
    check(
        O1,
        &["var<int>", "var<ns::P*>"],
        expect![[r#"
        var<int>: _Z3varIiE
        var<ns::P*>: _Z3varIPN2ns1PEE
    "#]],
    );
}

#[test]
fn dependent_member_types() {
    // g++: _Z3fwdIiEOT_RN2rrIS0_E4typeE, _Z2alIiEvN2rrIT_E4typeE,
    // _Z2okIiEv2rrIT_Ei, _Z2tmI1HENT_4typeES1_,
    // _Z2scIfEvPKT_PN4meta9scalar_ofIS0_E4typeEi: dependent names kept as
    // written (alias templates expanded), never `_Z3fwdIiEOT_RS0_`.
    check(
        "template<class T> struct rr { typedef T type; };\n\
         template<class T> using rr_t = typename rr<T>::type;\n\
         template<class T> T&& fwd(typename rr<T>::type& t);\n\
         template<class T> void al(rr_t<T>);\n\
         template<class T> void ok(rr<T>, rr<int>::type);\n\
         struct H { typedef int type; }; template<class T> typename T::type tm(T);\n\
         namespace meta { template<class T> struct scalar_of { using type = T; }; template<class T> using scalar_of_t = typename scalar_of<T>::type; }\n\
         template<class T> void sc(const T*, meta::scalar_of_t<T>*, int);",
        &["fwd<int>", "al<int>", "ok<int>", "tm<H>", "sc<float>"],
        expect![[r#"
            fwd<int>: _Z3fwdIiEOT_RN2rrIS0_E4typeE
            al<int>: _Z2alIiEvN2rrIT_E4typeE
            ok<int>: _Z2okIiEv2rrIT_Ei
            tm<H>: _Z2tmI1HENT_4typeES1_
            sc<float>: _Z2scIfEvPKT_PN4meta9scalar_ofIS0_E4typeEi
        "#]],
    );
}

#[test]
fn implicit_special_members() {
    // g++: _ZN1BC1Ev, _ZN1BD1Ev, _ZN1WIiEC1Ev, _ZN1WIiED1Ev; `P` is trivial.
    let text = "struct A { A(); ~A(); };\n\
                struct B { A a; };\n\
                struct P { int x; };\n\
                template<class T> struct W { T t; A a; };";
    let (db, tu) = super::db_with(text);
    let mut out = String::new();
    for c in ["B", "P", "W<int>"] {
        let t = ty::canonical(&db, crate::type_named(&db, tu, c).unwrap());
        let class = templates::class_of(&db, t).unwrap();
        for k in [instances::SpecialKind::DefaultCtor, instances::SpecialKind::Dtor, instances::SpecialKind::CopyCtor] {
            match instances::implicit_special(&db, class, k) {
                Some(e) => {
                    let req: Vec<String> = match e {
                        Entity::Special(s) => instances::special_required(&db, s)
                            .into_iter()
                            .map(|x| crate::symbols::mangled_name(&db, x).unwrap_or_else(|e| e.to_string()))
                            .collect(),
                        _ => Vec::new(),
                    };
                    out.push_str(&format!(
                        "{c} {k:?}: {} requires {req:?}\n",
                        crate::symbols::mangled_name(&db, e).unwrap_or_else(|e| e.to_string())
                    ))
                }
                None => out.push_str(&format!("{c} {k:?}: trivial\n")),
            }
        }
    }
    expect![[r#"
        B DefaultCtor: _ZN1BC1Ev requires ["_ZN1AC1Ev"]
        B Dtor: _ZN1BD1Ev requires ["_ZN1AD1Ev"]
        B CopyCtor: trivial
        P DefaultCtor: trivial
        P Dtor: trivial
        P CopyCtor: trivial
        W<int> DefaultCtor: _ZN1WIiEC1Ev requires ["_ZN1AC1Ev"]
        W<int> Dtor: _ZN1WIiED1Ev requires ["_ZN1AD1Ev"]
        W<int> CopyCtor: trivial
    "#]]
    .assert_eq(&out);
}

#[test]
fn constructors_and_destructors_are_not_inherited() {
    // A member (or base) of a class without declared constructors or
    // destructor is handled by its implicit ones, never the base's
    // (g++ emits B<int>::Impl::Impl() and ~Impl(), C::Impl::~Impl()).
    let (db, tu) = super::db_with(
        "template<class T> struct A { A(); ~A(); };\n\
         template<class T> struct B { struct Impl : A<T> { int x; }; Impl m; B() {} ~B() { } };\n\
         struct C { struct Impl : A<int> { int x; }; Impl m; ~C() { } };\n\
         void user() { B<int> b; C c; }",
    );
    let mut names: Vec<String> = instances::required_entities(&db, tu)
        .iter()
        .map(|&e| crate::symbols::mangled_name(&db, e).unwrap_or_else(|e| e.to_string()))
        .collect();
    names.sort();
    expect![[r#"
        [
            "_Z4userv",
            "_ZN1AIiEC1Ev",
            "_ZN1AIiED1Ev",
            "_ZN1BIiE4ImplC1Ev",
            "_ZN1BIiE4ImplD1Ev",
            "_ZN1BIiEC1Ev",
            "_ZN1BIiED1Ev",
            "_ZN1C4ImplC1Ev",
            "_ZN1C4ImplD1Ev",
            "_ZN1CC1Ev",
            "_ZN1CD1Ev",
        ]
    "#]]
    .assert_debug_eq(&names);
}

#[test]
fn templates_declared_before_their_definition() {
    // A function template declared (as <bits/algorithmfwd.h> does) and
    // defined later in the same namespace: the instance's body is the
    // definition's, and what it calls is required.
    let (db, tu) = super::db_with(
        "namespace std { template<class T> const T& mn(const T&, const T&);\n\
         template<class T> const T& cl(const T&, const T&, const T&);\n\
         template<class T> const T& mn(const T& a, const T& b) { return b < a ? b : a; }\n\
         template<class T> const T& cl(const T& v, const T& lo, const T& hi) { return std::mn(v, hi); } }\n\
         void user() { float f = 1; std::cl(f, 0.0f, 2.0f); }",
    );
    let mut names: Vec<String> = instances::required_entities(&db, tu)
        .iter()
        .map(|&e| crate::symbols::mangled_name(&db, e).unwrap_or_else(|e| e.to_string()))
        .collect();
    names.sort();
    expect![[r#"
        [
            "_Z4userv",
            "_ZSt2clIfERKT_S2_S2_S2_",
            "_ZSt2mnIfERKT_S2_S2_",
        ]
    "#]]
    .assert_debug_eq(&names);
}

#[test]
fn class_explicit_instantiations_define_their_members() {
    // g++'s `nm` of the same file names these members (and the C5/D5
    // comdat aliases of the constructor and destructor): the members the
    // unit defines, one defined after the instantiation included, and the
    // member class's; not a member declared only, a member template, a
    // member class template, or an `extern template` class.
    let text = "\
template <class T> struct V {
    void a() {}
    int b(T);
    void c();
    template <class U> void t(U) {}
    V() {}
    ~V() {}
    struct In { void d() {} static int e() { return 1; } };
    template <class U> struct Tm { void f() {} };
};
template struct V<int>;
template <class T> int V<T>::b(T) { return 0; }
template struct V<char>::In;
extern template struct V<long>;
namespace ns { template <class T> struct W { void w() {} }; }
template struct ns::W<double>;
";
    let (db, tu) = super::db_with(text);
    let mut got: Vec<String> = crate::infer::explicit_instances(&db, tu)
        .iter()
        .map(|&(_, at, i)| {
            format!("{at} {}", crate::symbols::mangled_name(&db, Entity::FnInst(i)).unwrap_or_else(|e| e.to_string()))
        })
        .collect();
    got.sort();
    expect![[r#"
        [
            "16 _ZN1VIcE2In1dEv",
            "16 _ZN1VIcE2In1eEv",
            "16 _ZN1VIiE1aEv",
            "16 _ZN1VIiE1bEi",
            "16 _ZN1VIiE2In1dEv",
            "16 _ZN1VIiE2In1eEv",
            "16 _ZN1VIiEC1Ev",
            "16 _ZN1VIiED1Ev",
            "16 _ZN2ns1WIdE1wEv",
        ]
    "#]]
    .assert_debug_eq(&got);
}

#[test]
fn explicit_instantiations_name_their_specializations() {
    // The linkage names are g++'s for the same explicit instantiations
    // (`nm` of the object); `extern template` instantiates nothing here.
    let text = "\
template <class T> void f(T *) {}
template <class T> void g(T) {}
template <class T> void g(T, int) {}
namespace ns { template <class T, int N> T h(const T &) { return T(); } }
template <class T> struct S { void m() {} template <class U> U g(U u) { return u; } int n(T); };
template <class T> int S<T>::n(T) { return 0; }
template void f<int>(int *);
template void f(float *);
template void g<char>(char);
template void g(double, int);
template int ns::h<int, 3>(const int &);
extern template void f<long>(long *);
template void S<int>::m();
namespace ns { template short h<short, 1>(const short &); }
template char S<int>::g<char>(char);
template double S<long>::g(double);
template int S<float>::n(float);
";
    let (db, tu) = super::db_with(text);
    let got: Vec<String> = crate::infer::explicit_instances(&db, tu)
        .iter()
        .map(|&(_, at, i)| {
            format!("{at} {}", crate::symbols::mangled_name(&db, Entity::FnInst(i)).unwrap_or_else(|e| e.to_string()))
        })
        .collect();
    expect![[r#"
        [
            "14 _Z1fIiEvPT_",
            "14 _Z1fIfEvPT_",
            "14 _Z1gIcEvT_",
            "14 _Z1gIdEvT_i",
            "13 _ZN2ns1hIiLi3EEET_RKS1_",
            "14 _ZN1SIiE1mEv",
            "30 _ZN2ns1hIsLi1EEET_RKS1_",
            "14 _ZN1SIiE1gIcEET_S2_",
            "16 _ZN1SIlE1gIdEET_S2_",
            "13 _ZN1SIfE1nEf",
        ]
    "#]]
    .assert_debug_eq(&got);
}
