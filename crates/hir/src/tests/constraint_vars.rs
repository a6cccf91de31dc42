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

/// Two bodies that check the same constraints and substitute into the same
/// signature: the constraints of `f`'s candidates (`constraints_satisfied`)
/// and `g`'s `enable_if_t` (`signature`) are memoized queries, asked by the
/// first body inferred and answered from memory for the second.
const SHARED_EVALUATIONS: &str = "namespace std {
    template<class T> inline constexpr bool is_class_v = __is_class(T);
    template<class T> inline constexpr bool is_empty_v = __is_empty(T);
    template<class T, class U> inline constexpr bool is_same_v = __is_same(T, U);
    template<bool B, class T = void> struct enable_if {};
    template<class T> struct enable_if<true, T> { using type = T; };
    template<bool B, class T = void> using enable_if_t = typename enable_if<B, T>::type;
    }
    template<class T> requires std::is_same_v<T, int> int f(T) { return 0; }
    template<class T> requires std::is_class_v<T> int f(T) { return 1; }
    template<class T> std::enable_if_t<std::is_empty_v<T>, int> g(T) { return 2; }
    static auto make() { return [](long x) { return x; }; }
    int a() { return f(make()) + g(make()); }
    int b() { return f(make()) + g(make()); }
    int main() { return a() + b(); }";

/// Each named function's `instantiated_vars` (mangled), the bodies
/// inferred in `order` in a fresh database, listed by name.
fn instantiated_in_order(order: &[&str]) -> String {
    let (db, tu) = super::db_with(SHARED_EVALUATIONS);
    let mut per_fn: Vec<(String, Vec<String>)> = Vec::new();
    for name in order {
        let f = super::body::fn_named(&db, tu, name).expect("function");
        let r = crate::infer::infer(&db, crate::infer::InferOwner::Fn(f));
        let vars = r
            .instantiated_vars
            .iter()
            .map(|e| crate::symbols::mangled_name(&db, *e).unwrap_or_else(|x| format!("<{x}>")))
            .collect();
        per_fn.push((name.to_string(), vars));
    }
    per_fn.sort();
    per_fn.iter().map(|(n, v)| format!("{n}: {}\n", v.join(" "))).collect()
}

#[test]
fn variable_template_uses_do_not_depend_on_which_body_is_inferred_first() {
    // g++: `r _ZSt9is_same_vIZL4makevEUllE_iE`, `r _ZSt10is_class_vIZL4makevEUllE_E`
    // and `r _ZSt10is_empty_vIZL4makevEUllE_E`; both bodies instantiate
    // them, whichever the memoized queries were computed for.
    let ab = instantiated_in_order(&["a", "b"]);
    let ba = instantiated_in_order(&["b", "a"]);
    assert_eq!(ab, ba, "the uses a body records depend on the order bodies are inferred in");
    expect_test::expect![[r#"
        a: _ZSt9is_same_vIZL4makevEUllE_iE _ZSt10is_class_vIZL4makevEUllE_E _ZSt10is_empty_vIZL4makevEUllE_E
        b: _ZSt9is_same_vIZL4makevEUllE_iE _ZSt10is_class_vIZL4makevEUllE_E _ZSt10is_empty_vIZL4makevEUllE_E
    "#]]
    .assert_eq(&ab);
    // The unit's closure lists each once.
    super::closure(
        SHARED_EVALUATIONS,
        expect_test::expect![[r#"
            _ZL4makev
            _Z1av
            _Z1bv
            main
            _ZZL4makevENKUllE_clEl
            _Z1fIZL4makevEUllE_EiT_
            _Z1gIZL4makevEUllE_ENSt9enable_ifIX10is_empty_vIT_EEiE4typeES2_
            _ZSt9is_same_vIZL4makevEUllE_iE
            _ZSt10is_class_vIZL4makevEUllE_E
            _ZSt10is_empty_vIZL4makevEUllE_E
        "#]],
    );
}

#[test]
fn completing_a_class_checks_its_bases_members_and_special_members_constraints() {
    // g++: completing `view<lambda>` (its static member `get` is used)
    // names its base `view_base<view<lambda>>` and its member's class
    // `box<lambda>`, whose constraints it checks: `r` symbols
    // `is_class_v<view<lambda>>` and `is_object_v<lambda>` although nothing
    // uses a member of the base or of `box`. Nothing constructs a `box`, so
    // its default constructor's constraint is not checked (no
    // `is_constructible_v<lambda>`).
    super::closure(
        "namespace std {
         template<class T> inline constexpr bool is_class_v = __is_class(T);
         template<class T> inline constexpr bool is_object_v = __is_empty(T);
         template<class T, class... A> inline constexpr bool is_constructible_v = __is_constructible(T, A...);
         }
         template<class T> concept default_initializable = std::is_constructible_v<T>;
         template<class D> requires std::is_class_v<D> struct view_base { int size() { return 0; } };
         template<class T> requires std::is_object_v<T> struct box {
           T t;
           box() requires default_initializable<T> = default;
         };
         template<class F> struct view : view_base<view<F>> { box<F> f; static int get() { return 1; } };
         template<class F> int use(F) { return view<F>::get(); }
         int main() { return use([](int x) { return x; }); }",
        expect_test::expect![[r#"
            main
            _ZZ4mainENKUliE_clEi
            _Z3useIZ4mainEUliE_EiT_
            _ZN4viewIZ4mainEUliE_E3getEv
            _ZSt10is_class_vI4viewIZ4mainEUliE_EE
            _ZSt11is_object_vIZ4mainEUliE_E
        "#]],
    );
}

#[test]
fn a_qualified_name_skips_a_nearer_namespace_declared_after_it() {
    // g++: `r _ZSt10is_class_vIZ4mainEUliE_E`. `__detail::class_or_enum`
    // in `std::ranges::cs` binds at its definition to `std::__detail`:
    // `std::ranges::__detail` is opened only after it (as `<ranges>` opens
    // it after `<concepts>`), so `swappable<lambda>` checks `is_class_v`.
    super::closure(
        "namespace std {
         template<class T> struct remove_reference { using type = T; };
         template<class T> struct remove_reference<T&> { using type = T; };
         template<class T> using remove_reference_t = typename remove_reference<T>::type;
         template<class T> inline constexpr bool is_class_v = __is_class(T);
         namespace __detail { template<class T> concept class_or_enum = is_class_v<T>; }
         namespace ranges {
         namespace cs {
         template<class T> void swap(T&, T&) = delete;
         template<class T, class U> concept adl_swap = (__detail::class_or_enum<remove_reference_t<T>> || __detail::class_or_enum<remove_reference_t<U>>) && requires(T&& t, U&& u) { swap(static_cast<T&&>(t), static_cast<U&&>(u)); };
         struct Swap {
           template<class T, class U> requires adl_swap<T, U> || (__is_same(T, U))
           constexpr void operator()(T&& t, U&& u) const {}
         };
         }
         inline constexpr cs::Swap swap{};
         }
         template<class T> concept swappable = requires(T& a, T& b) { ranges::swap(a, b); };
         }
         namespace std::ranges::__detail { int later; }
         template<std::swappable T> int f(T) { return 1; }
         int main() { auto l = [](int x) { return x; }; return f(l); }",
        expect_test::expect![[r#"
            _ZNSt6ranges4swapE
            _ZNSt6ranges8__detail5laterE
            main
            _ZZ4mainENKUliE_clEi
            _Z1fIZ4mainEUliE_EiT_
            _ZSt10is_class_vIZ4mainEUliE_E
        "#]],
    );
}
