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

#[test]
fn rejected_candidates_constraints_emit_variable_templates_of_local_closures() {
    // g++: both `is_same_v<lambda, int>` (the first candidate's constraint,
    // false) and `is_class_v<lambda>` (the selected one's) are `r` symbols;
    // the lambda's call operator is not used.
    super::closure(
        "namespace std {
         template<class T> inline constexpr bool is_class_v = __is_class(T);
         template<class T, class U> inline constexpr bool is_same_v = __is_same(T, U);
         }
         template<class T> requires std::is_same_v<T, int> int f(T) { return 1; }
         template<class T> requires std::is_class_v<T> int f(T) { return 2; }
         int main() { auto l = [](int x) { return x; }; return f(l); }",
        expect_test::expect![[r#"
            main
            _ZZ4mainENKUliE_clEi
            _Z1fIZ4mainEUliE_EiT_
            _ZSt9is_same_vIZ4mainEUliE_iE
            _ZSt10is_class_vIZ4mainEUliE_E
        "#]],
    );
}

#[test]
fn noexcept_specifiers_of_selected_calls_emit_variable_templates_of_local_closures() {
    // g++: `swappable<lambda>`'s requirement selects `Swap::operator()`,
    // which instantiates its `noexcept(s_noexcept<T, U>())`: the function
    // evaluates `is_nothrow_move_constructible_v<lambda>` (the `else`
    // branch), an `r` symbol like the constraint's `is_class_v<lambda>`.
    super::closure(
        "namespace std {
         template<class T> struct remove_reference { using type = T; };
         template<class T> struct remove_reference<T&> { using type = T; };
         template<class T> struct remove_reference<T&&> { using type = T; };
         template<class T> using remove_reference_t = typename remove_reference<T>::type;
         template<class T> inline constexpr bool is_class_v = __is_class(T);
         template<class T> inline constexpr bool is_nothrow_move_constructible_v = __is_nothrow_constructible(T, T&&);
         template<class T> T&& declval();
         template<class T> concept class_or_enum = is_class_v<T>;
         namespace ranges {
         namespace cs {
         template<class T> void swap(T&, T&) = delete;
         template<class T, class U> concept adl_swap = class_or_enum<remove_reference_t<T>> && requires(T&& t, U&& u) { swap(static_cast<T&&>(t), static_cast<U&&>(u)); };
         struct Swap {
           template<class T, class U> static constexpr bool s_noexcept() {
             if constexpr (adl_swap<T, U>) return noexcept(swap(declval<T>(), declval<U>()));
             else return is_nothrow_move_constructible_v<remove_reference_t<T>>;
           }
           template<class T, class U> requires adl_swap<T, U> || class_or_enum<remove_reference_t<U>>
           constexpr void operator()(T&& t, U&& u) const noexcept(s_noexcept<T, U>()) {}
         };
         }
         inline constexpr cs::Swap swap{};
         }
         template<class T> concept swappable = requires(T& a, T& b) { ranges::swap(a, b); };
         }
         template<std::swappable T> int f(T) { return 1; }
         int main() { auto l = [](int x) { return x; }; return f(l); }",
        expect_test::expect![[r#"
            _ZNSt6ranges4swapE
            main
            _ZZ4mainENKUliE_clEi
            _Z1fIZ4mainEUliE_EiT_
            _ZSt10is_class_vIZ4mainEUliE_E
            _ZSt31is_nothrow_move_constructible_vIZ4mainEUliE_E
        "#]],
    );
}
