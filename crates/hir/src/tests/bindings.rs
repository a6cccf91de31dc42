//! Structured bindings ([dcl.struct.bind]): tuple-like (`get<i>` by ADL or
//! member, odr-used), array and data member cases; the bound names' types
//! pick the overloads of later calls (checked against g++ 12's `nm`).

use expect_test::expect;

use super::calls;

const SB: &str = r#"
namespace std {
  typedef unsigned long size_t;
  template<class T> struct tuple_size;
  template<size_t I, class T> struct tuple_element;
  template<class A, class B> struct pair { A first; B second; };
  template<class A, class B> struct tuple_size<pair<A, B>> { static constexpr size_t value = 2; };
  template<class A, class B> struct tuple_element<0, pair<A, B>> { typedef A type; };
  template<class A, class B> struct tuple_element<1, pair<A, B>> { typedef B type; };
  template<class T> struct tuple_size<const T> { static constexpr size_t value = tuple_size<T>::value; };
  template<size_t I, class T> struct tuple_element<I, const T> { typedef const typename tuple_element<I, T>::type type; };
  template<size_t I> struct pget;
  template<> struct pget<0> { template<class A, class B> static const A& cget(const pair<A, B>& p) { return p.first; } };
  template<> struct pget<1> { template<class A, class B> static const B& cget(const pair<A, B>& p) { return p.second; } };
  template<size_t I, class A, class B> const typename tuple_element<I, pair<A, B>>::type& get(const pair<A, B>& p) { return pget<I>::cget(p); }
  template<size_t I, class A, class B> typename tuple_element<I, pair<A, B>>::type&& get(pair<A, B>&& p) { return static_cast<typename tuple_element<I, pair<A, B>>::type&&>(const_cast<typename tuple_element<I, pair<A, B>>::type&>(pget<I>::cget(p))); }
}
struct S { int a; double b; };
struct M { template<std::size_t I> int get() const { return I; } };
namespace std {
  template<> struct tuple_size<M> { static constexpr size_t value = 2; };
  template<size_t I> struct tuple_element<I, M> { typedef int type; };
}
void show(int);
void show(double);
void show(const char*);
std::pair<int, double> mk();
void use(const std::pair<int, const char*>& p, S s, M m) {
  const auto& [a, b] = p;
  show(a);
  show(b);
  auto [x, y] = mk();
  show(y);
  auto& [u, v] = s;
  show(v);
  int arr[2] = {1, 2};
  auto [i, j] = arr;
  show(j);
  auto [m0, m1] = m;
  show(m1);
}
void ranged(const std::pair<int, double>* ps, int n);
void ranged(const std::pair<int, double>* ps, int n) {
  for (int k = 0; k < n; ++k) {
    const auto& [w, c] = ps[k];
    show(c);
  }
}
"#;

#[test]
fn structured_bindings_call_get_and_type_their_names() {
    calls(
        SB,
        "use",
        expect![[r#"
        _ZSt3getILm0EiPKcERKNSt13tuple_elementIXT_ESt4pairIT0_T1_EE4typeERKS6_
        _ZSt3getILm1EiPKcERKNSt13tuple_elementIXT_ESt4pairIT0_T1_EE4typeERKS6_
        _Z4showi
        _Z4showPKc
        _Z2mkv
        _ZSt3getILm0EidEONSt13tuple_elementIXT_ESt4pairIT0_T1_EE4typeEOS4_
        _ZSt3getILm1EidEONSt13tuple_elementIXT_ESt4pairIT0_T1_EE4typeEOS4_
        _Z4showd
        _ZNK1M3getILm0EEEiv
        _ZNK1M3getILm1EEEiv
    "#]],
    );
    calls(
        SB,
        "ranged",
        expect![[r#"
        _ZSt3getILm0EidERKNSt13tuple_elementIXT_ESt4pairIT0_T1_EE4typeERKS4_
        _ZSt3getILm1EidERKNSt13tuple_elementIXT_ESt4pairIT0_T1_EE4typeERKS4_
        _Z4showd
    "#]],
    );
}

/// The `get` instances the closure reaches, and what their bodies call
/// (`pget<I>::cget`): exactly the weak definitions in g++'s object.
#[test]
fn structured_bindings_require_the_get_instances() {
    let (db, tu) = super::db_with(SB);
    let mut out = String::new();
    for e in crate::instances::required_entities(&db, tu).iter() {
        let name = crate::symbols::mangled_name(&db, *e).unwrap_or_else(|x| format!("<{x}>"));
        if name.contains("get") {
            out.push_str(&name);
            out.push('\n');
        }
    }
    expect![[r#"
        _ZSt3getILm0EiPKcERKNSt13tuple_elementIXT_ESt4pairIT0_T1_EE4typeERKS6_
        _ZSt3getILm1EiPKcERKNSt13tuple_elementIXT_ESt4pairIT0_T1_EE4typeERKS6_
        _ZSt3getILm0EidEONSt13tuple_elementIXT_ESt4pairIT0_T1_EE4typeEOS4_
        _ZSt3getILm1EidEONSt13tuple_elementIXT_ESt4pairIT0_T1_EE4typeEOS4_
        _ZNK1M3getILm0EEEiv
        _ZNK1M3getILm1EEEiv
        _ZSt3getILm0EidERKNSt13tuple_elementIXT_ESt4pairIT0_T1_EE4typeERKS4_
        _ZSt3getILm1EidERKNSt13tuple_elementIXT_ESt4pairIT0_T1_EE4typeERKS4_
        _ZNSt4pgetILm0EE4cgetIiPKcEERKT_RKSt4pairIS4_T0_E
        _ZNSt4pgetILm1EE4cgetIiPKcEERKT0_RKSt4pairIT_S4_E
        _ZNSt4pgetILm0EE4cgetIidEERKT_RKSt4pairIS2_T0_E
        _ZNSt4pgetILm1EE4cgetIidEERKT0_RKSt4pairIT_S2_E
    "#]]
    .assert_eq(&out);
}

/// The data member and array cases type the names by the member and the
/// element (g++ calls `show(char const*)` and `show(double)`).
#[test]
fn structured_bindings_of_members_and_arrays() {
    const T: &str = "struct B { int a; const char* b; };\n\
        struct D : B {};\n\
        void show(int);\n\
        void show(double);\n\
        void show(const char*);\n\
        void members(const D& d) { const auto& [x, y] = d; show(y); }\n\
        void array() { double xs[2] = {1, 2}; auto& [i, j] = xs; show(j); }\n";
    calls(
        T,
        "members",
        expect![[r#"
        _Z4showPKc
    "#]],
    );
    calls(
        T,
        "array",
        expect![[r#"
        _Z4showd
    "#]],
    );
}

/// `&C::f` of a non-static member function is a pointer to member function
/// (`M1CKFvPiE`); of a static one a plain function pointer (g++ 12's `nm`).
#[test]
fn address_of_a_qualified_member_function_is_a_member_pointer() {
    const T: &str = "template<class F, class... A> void co(F&& f, A&&... a) {}\n\
        struct C { void f(int*) const; static void s(); void run() { int x; co(&C::f, this, &x); co(&C::s); } };\n\
        void g(C& c) { c.run(); }\n";
    calls(
        T,
        "run",
        expect![[r#"
        _ZNK1C1fEPi
        _Z2coIM1CKFvPiEJPS0_S1_EEvOT_DpOT0_
        _ZN1C1sEv
        _Z2coIPFvvEJEEvOT_DpOT0_
    "#]],
    );
}
