//! Classes defined in function bodies (`local_classes`): found by lookup
//! from the body, their members called, instantiated with the enclosing
//! function's instance, and named `Z <function> E <class> …` as g++ does
//! (every name below checked against g++ 12's `nm`).

use expect_test::{Expect, expect};

use super::db_with;

/// The required entities local to some function (`_ZZ…`), sorted.
fn check(text: &str, want: Expect) {
    let (db, tu) = db_with(text);
    let mut names: Vec<String> = crate::instances::required_entities(&db, tu)
        .iter()
        .filter_map(|e| crate::symbols::mangled_name(&db, *e).ok())
        .filter(|n| n.starts_with("_ZZ"))
        .collect();
    names.sort();
    names.dedup();
    want.assert_eq(&names.join("\n"));
}

const UNIT: &str = r#"
void sink(void*);
int h() {
  struct S { int v; static int get(int x) { return x + 1; } ~S() { sink(this); } };
  S s{1};
  { struct T { void f() {} }; T().f(); }
  { struct T { void f() {} }; T().f(); }
  return S::get(s.v);
}
template <class A> struct Tr {
  static int alloc(A a, int n);
};
template <class A> int Tr<A>::alloc(A a, int n) {
  struct W { static int go(A a, int n) { return (int)a + n; } };
  return W::go(a, n);
}
template <class It> int mk(It x) {
  struct G { It p; G(It q) : p(q) {} ~G() { sink(&p); } } g(x);
  return 0;
}
struct B { void m(); };
void B::m() { struct L { L() { sink(this); } } l; }
int main() { Tr<long>::alloc(1, 2); mk<char*>(nullptr); B().m(); return h(); }
"#;

#[test]
fn members_of_local_classes() {
    check(
        UNIT,
        expect![[r#"
            _ZZ1hvEN1S3getEi
            _ZZ1hvEN1SD1Ev
            _ZZ1hvEN1T1fE_0v
            _ZZ1hvEN1T1fEv
            _ZZ2mkIPcEiT_EN1GC1ES0_
            _ZZ2mkIPcEiT_EN1GD1Ev
            _ZZN1B1mEvEN1LC1Ev
            _ZZN2TrIlE5allocEliEN1W2goEli"#]],
    );
}

#[test]
fn found_from_nested_lambdas() {
    check(
        r#"
int g() {
  struct P { static int twice(int x) { return 2 * x; } };
  auto f = [](int y) { return P::twice(y); };
  return f(3);
}
"#,
        expect![[r#"
            _ZZ1gvEN1P5twiceEi
            _ZZ1gvENKUliE_clEi"#]],
    );
}

#[test]
fn layout_of_local_classes() {
    let (db, tu) = db_with("int h() { struct L { char c; double d; int i; }; L l{}; return l.i; }");
    let map = crate::def_map(&db, tu);
    let mut out = String::new();
    for cs in map.block_classes.values() {
        for c in cs {
            out.push_str(&crate::layout::render(&db, *c));
        }
    }
    expect![[r#"
        h()::L: size 24 align 8
          0: c char
          8: d double
          16: i int
    "#]]
    .assert_eq(&out);
}
