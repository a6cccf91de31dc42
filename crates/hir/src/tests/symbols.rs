//! Signatures → linkage names (host spelling, spec 50 §8).

use expect_test::{Expect, expect};

fn check(text: &str, want: Expect) {
    let (db, tu) = super::db_with(text);
    let mut out = String::new();
    for (_, name) in crate::symbols::entities(&db, tu) {
        match name {
            Ok(n) => out.push_str(&format!("{n}\n")),
            Err(e) => out.push_str(&format!("error: {e}\n")),
        }
    }
    want.assert_eq(&out);
}

#[test]
fn functions_and_parameters() {
    check(
        "void f(); int g(int a[3], const int b, void h(int), ...); long k(const char*, int (*)[4]) noexcept;\n\
         extern \"C\" void cf(int); extern \"C\" { int cv; }\n\
         typedef unsigned long size_t; void t(size_t, size_t*);",
        expect![[r#"
            _Z1fv
            _Z1gPiiPFviEz
            _Z1kPKcPA4_i
            cf
            cv
            _Z1tmPm
        "#]],
    );
}

#[test]
fn members_ctors_operators() {
    check(
        "namespace ns { struct S { S(); S(const S&); ~S(); int operator+(int) const; bool operator==(const S&) const;\n\
           operator int() &&; static int sm; void m() volatile &; static void st(S*); int &operator[](long); };\n\
           S::S() {} int S::sm = 1; S operator-(const S&); void *operator new(unsigned long); }\n\
         void ns::S::m() volatile & {}",
        expect![[r#"
            _ZN2ns1SC1Ev
            _ZN2ns1SC1ERKS0_
            _ZN2ns1SD1Ev
            _ZNK2ns1SplEi
            _ZNK2ns1SeqERKS0_
            _ZNO2ns1ScviEv
            _ZN2ns1S2smE
            _ZNVR2ns1S1mEv
            _ZN2ns1S2stEPS0_
            _ZN2ns1SixEl
            _ZN2ns1SC1Ev
            _ZN2ns1S2smE
            _ZN2nsngERKNS_1SE
            _ZN2nsnwEm
            _ZNVR2ns1S1mEv
        "#]],
    );
}

#[test]
fn std_and_templates_as_parameters() {
    check(
        "namespace std { template<class T> struct allocator {}; template<class C> struct char_traits {};\n\
           template<class C, class T = char_traits<C>, class A = allocator<C>> struct basic_string {};\n\
           typedef basic_string<char> string; template<class T, class A = allocator<T>> struct vector {}; }\n\
         void f(std::string); void g(std::vector<int>, std::vector<int>); template<int N> struct A {};\n\
         void h(A<3>, A<-1>); void u(std::allocator<char>&);",
        expect![[r#"
            _Z1fSs
            _Z1gSt6vectorIiSaIiEES1_
            _Z1h1AILi3EES_ILin1EE
            _Z1uRSaIcE
        "#]],
    );
}

#[test]
fn internal_linkage_and_anonymous_namespaces() {
    check(
        "static int sx = 1; const int cx = 2; extern const int ex; namespace N { static int nsx; int nx; static void sf(int); }\n\
         namespace { int ax; void af(); struct P {}; } void usep(P); static void gsf(int);\n\
         extern \"C\" { static void csf(); }",
        expect![[r#"
            _ZL2sx
            _ZL2cx
            ex
            _ZN1NL3nsxE
            _ZN1N2nxE
            _ZN1NL2sfEi
            _ZN12_GLOBAL__N_12axE
            _ZN12_GLOBAL__N_12afEv
            _Z4usepN12_GLOBAL__N_11PE
            _ZL3gsfi
            csf
        "#]],
    );
}

#[test]
fn members_of_explicit_specializations() {
    check(
        "namespace std { template<class T> struct atomic; template<> struct atomic<bool> { bool load() const; static const bool always; };\n\
         bool atomic<bool>::load() const { return 0; } }",
        expect![[r#"
            _ZNKSt6atomicIbE4loadEv
            _ZNSt6atomicIbE6alwaysE
            _ZNKSt6atomicIbE4loadEv
        "#]],
    );
}

#[test]
fn device_variables_main_and_module_id() {
    check(
        "__attribute__((device)) int dv; static __attribute__((constant)) float cv[4]; namespace ns { __attribute__((managed)) int mv; }\n\
         int main(); int main(int, char**); constexpr int k = 3;",
        expect![[r#"
            _ZL2dv
            _ZL2cv
            _ZN2nsL2mvE
            main
            main
            _ZL1k
        "#]],
    );
    let n = crate::symbols::with_module_id("_ZN12_GLOBAL__N_12afEv", "_a5a9e84b_6_x_cu_e72c1746");
    assert_eq!(n, "_ZN36_GLOBAL__N__a5a9e84b_6_x_cu_e72c17462afEv");
    let n = crate::symbols::with_module_id(
        "_ZN12_GLOBAL__N_115__nv_hdl_helperIN12_GLOBAL__N_11AEfJEE9fp_callerE",
        "_a5a9e84b_6_x_cu_e72c1746",
    );
    assert_eq!(n, "_ZN12_GLOBAL__N_115__nv_hdl_helperIN36_GLOBAL__N__a5a9e84b_6_x_cu_e72c17461AEfJEE9fp_callerE");
}

#[test]
fn elaborated_type_specifiers_declare_classes() {
    // `struct X` in a declaration declares X in the nearest enclosing
    // namespace when lookup finds none ([basic.scope.pdecl]/7), also from a
    // class member; found ones (`struct stat` beside the function `stat`) are
    // reused. g++: _Z1kPN1n1QE, _ZN1n1gEPNS_6HiddenE, _ZN1n1hEPNS_6Inner2E,
    // _ZN1m3useEP4stat.
    check(
        "struct stat { int x; }; int stat(const char*, struct stat*);\n\
         namespace n { typedef struct Hidden *H; struct C { struct Inner2 *p; }; void f(struct Q*); void g(H); void h(Inner2*); }\n\
         namespace m { void use(struct stat*); }\n\
         void k(n::Q*) {}",
        expect![[r#"
            _Z4statPKcP4stat
            _ZN1n1fEPNS_1QE
            _ZN1n1gEPNS_6HiddenE
            _ZN1n1hEPNS_6Inner2E
            _ZN1m3useEP4stat
            _Z1kPN1n1QE
        "#]],
    );
}

#[test]
fn implicit_abi_tags_of_variables() {
    // A variable with linkage gets its type's tags (g++ 12 `nm`:
    // `_Z4nameB5cxx11`, `_ZN1N2nnB5cxx11E`, `_ZN1S1mB5cxx11E`,
    // `_Z1pB5cxx11`, `_Z3arrB5cxx11`); a `static` one does not (`_ZL5sname`).
    check(
        "namespace std { inline namespace __cxx11 __attribute__((__abi_tag__ (\"cxx11\"))) { struct str { }; } }\n\
         std::str name;\n\
         static std::str sname;\n\
         namespace N { std::str nn; }\n\
         struct S { static std::str m; };\n\
         std::str S::m;\n\
         const std::str* p;\n\
         std::str arr[2];",
        expect![[r#"
            _Z4nameB5cxx11
            _ZL5sname
            _ZN1N2nnB5cxx11E
            _ZN1S1mB5cxx11E
            _ZN1S1mB5cxx11E
            _Z1pB5cxx11
            _Z3arrB5cxx11
        "#]],
    );
}

#[test]
fn implicit_abi_tags_from_the_return_type() {
    // libstdc++'s `__cxx11` namespace carries `abi_tag("cxx11")`: a function
    // that is not a template and returns such a type gets the tag on its name
    // unless the namespace or a parameter already carries it. Checked against g++ `nm`.
    check(
        "namespace std { inline namespace __cxx11 __attribute__((__abi_tag__ (\"cxx11\"))) { struct str { str(); ~str(); }; str to_s(int); } }\n\
         struct Job { virtual std::str name() const; std::str id(std::str) const; };\n\
         std::str Job::name() const { return {}; }\n\
         std::str Job::id(std::str s) const { return s; }\n\
         std::str free_fn(int) { return {}; }\n\
         namespace ns { std::str* ptr(); }\n\
         std::str* ns::ptr() { return nullptr; }",
        expect![[r#"
            _ZNSt7__cxx113strC1Ev
            _ZNSt7__cxx113strD1Ev
            _ZNSt7__cxx114to_sEi
            _ZNK3Job4nameB5cxx11Ev
            _ZNK3Job2idENSt7__cxx113strE
            _ZNK3Job4nameB5cxx11Ev
            _ZNK3Job2idENSt7__cxx113strE
            _Z7free_fnB5cxx11i
            _ZN2ns3ptrB5cxx11Ev
            _ZN2ns3ptrB5cxx11Ev
        "#]],
    );
}

/// [dcl.link]/6: a later declaration without a linkage specification keeps
/// the C linkage of an earlier `extern "C"` one (matched on the lowered
/// parameter types); another overload of the name is a C++ function.
#[test]
fn c_linkage_is_kept_by_redeclarations() {
    check(
        "typedef unsigned long size_t; extern \"C\" void cf(); void cf() {}\n\
         namespace N { extern \"C\" int g(unsigned long); } int N::g(size_t x) { return 0; }\n\
         extern \"C\" void h(int); void h(double) {}",
        expect![[r#"
            cf
            cf
            g
            g
            h
            _Z1hd
        "#]],
    );
}

/// Whether a variable's default initialization runs code: what the module
/// id's key needs of `C c;` (spec 30 §4.2).
#[test]
fn default_initialization_that_runs_code() {
    let text = "struct U { U(); }; struct T { int x; }; struct D { D() = default; int x; };\n\
                struct N { int x = 1; }; struct M { U u; }; struct K { ~K(); }; struct V { virtual void f(); };\n\
                struct E { E() = default; U u; };\n\
                U gu; T t; D d; N n; M m; K k; V v; E e; U arr[2]; int i; Undeclared z;\n";
    let (db, tu) = super::db_with(text);
    let mut out = String::new();
    for name in ["gu", "t", "d", "n", "m", "k", "v", "e", "arr", "i", "z"] {
        let at = text.find(&format!(" {name};")).or_else(|| text.find(&format!(" {name}[")));
        let at = at.expect("declared") as u32 + 1;
        let runs = match crate::locate::entity_at(&db, tu, at) {
            Some(crate::Entity::Var(v)) => crate::instances::default_init_runs_code(&db, v),
            _ => None,
        };
        out.push_str(&format!("{name}: {runs:?}\n"));
    }
    expect![[r#"
        gu: Some(true)
        t: Some(false)
        d: Some(false)
        n: Some(true)
        m: Some(true)
        k: Some(true)
        v: Some(true)
        e: Some(true)
        arr: Some(true)
        i: Some(false)
        z: None
    "#]]
    .assert_eq(&out);
}

#[test]
fn calls_in_template_arguments_of_return_types() {
    // g++ writes the callee of a call in a signature by its name alone
    // (checked with g++ 12's `nm`); cicc keeps a relative qualifier
    // (`crates/device/tests/listing.rs`).
    check(
        "namespace d { template <class T> constexpr unsigned long sz() { return sizeof(T) / 4; } }\n\
         template <class T, unsigned long N> struct A { T v[N]; };\n\
         template <class C, class In> A<C, d::sz<In>()> f(const In& x) { return A<C, d::sz<In>()>{}; }\n\
         struct P { int a, b; };\n\
         int k(int* p) { P q{1, 2}; return f<int>(q).v[0]; }",
        expect![[r#"
            _Z1kPi
            _Z1fIi1PE1AIT_Xcl2szIT0_EEEERKS3_
        "#]],
    );
}

#[test]
fn one_decltype_text_over_different_parameter_lists() {
    // A namespace is one item: CUDA's cooperative groups trail functions
    // of different parameter lists with the same `-> decltype(op(val,
    // val))`; each is written with its own parameters' places (g++ 12's
    // `nm`; `b`'s was `fp1_`, the first function's).
    check(
        "namespace n {\n\
         template <class G, class V, class F> auto a(const G& g, V&& v, F&& f) -> decltype(f(v, v)) { return f(v, v); }\n\
         template <class G, class R, class V, class F> auto b(const G& g, R& r, V&& v, F&& f) -> decltype(f(v, v)) { return f(v, v); }\n\
         }\n\
         struct P { int operator()(int a, int b) const { return a + b; } };\n\
         int user() { int x = 1, r = 0; return n::a(0, x, P{}) + n::b(0, r, x, P{}); }",
        expect![[r#"
            _ZNK1PclEii
            _Z4userv
            _ZN1n1aIiRi1PEEDTclfp1_fp0_fp0_EERKT_OT0_OT1_
            _ZN1n1bIiiRi1PEEDTclfp2_fp1_fp1_EERKT_RT0_OT1_OT2_
        "#]],
    );
}
