//! Variable template specializations that checking a candidate's
//! constraints instantiates, emitted by g++ when an argument is a closure
//! type of a non-inline, non-template function (`infer/constraint_vars.rs`).
//! Expected names from g++ 12 (`-std=c++20 -c`, `nm`).

#[test]
fn constraint_checks_emit_variable_templates_of_local_closures() {
    // g++: `r _ZSt10is_class_vIZL1svEUllE_E` only: `is_union_v` is not
    // checked (the disjunction's first operand holds), and `g`'s lambda
    // belongs to an inline function.
    super::closure(
        "namespace std {
         template<class T> inline constexpr bool is_class_v = __is_class(T);
         template<class T> inline constexpr bool is_union_v = __is_union(T);
         }
         template<class T> concept C = std::is_class_v<T> || std::is_union_v<T>;
         template<C T> int f(T) { return 1; }
         inline int g() { auto l = [](int x){ return x; }; return f(l); }
         static int s() { auto l = [](long x){ return x; }; return f(l); }
         int main() { return g() + s(); }",
        expect_test::expect![[r#"
            _Z1gv
            _ZL1sv
            main
            _ZZL1svENKUllE_clEl
            _Z1fIZL1svEUllE_EiT_
            _ZSt10is_class_vIZL1svEUllE_E
            _ZZ1gvENKUliE_clEi
            _Z1fIZ1gvEUliE_EiT_
        "#]],
    );
}
