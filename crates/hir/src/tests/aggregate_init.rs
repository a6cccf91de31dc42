//! Aggregate initialization ([dcl.init.aggr], `infer/aggregate.rs`): the
//! constructors that braced lists call for the members of aggregates
//! (expected names from g++ 12's `nm`).

use expect_test::expect;

#[test]
fn aggregate_members_are_copy_initialized() {
    // `{"a", 1, false}` for `B` constructs `B::name` from `const char*`;
    // a member the list does not name is value-initialized (`Str<int>()`).
    super::closure(
        "template<class C> struct Str { Str() {} Str(const C* p) {} };\n\
         struct B { Str<char> name; int k; bool t; };\n\
         struct N { B b; Str<char> extra; Str<int> none; };\n\
         void user() {\n\
           const B bs[] = { {\"a\", 1, false}, {\"b\", 2, true} };\n\
           N n = { {\"d\", 4, true}, \"e\" };\n\
         }\n",
        expect![[r#"
            _Z4userv
            _ZN3StrIcEC1EPKc
            _ZN3StrIiEC1Ev
        "#]],
    );
}
