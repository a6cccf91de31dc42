//! `decltype(expr)` return types in function template signatures
//! (`symbols/decltype_ret.rs`); each expected name is g++ 12's `nm`.

fn names_with(text: &str, pat: &str) -> Vec<String> {
    let (db, tu) = super::db_with(text);
    crate::symbols::entities(&db, tu)
        .into_iter()
        .filter_map(|(_, n)| n.ok())
        .map(|n| n.to_string())
        .filter(|n| n.contains(pat))
        .collect()
}

const STD: &str = "namespace std {\n\
    template<class T> struct remove_reference { typedef T type; };\n\
    template<class T> struct remove_reference<T&> { typedef T type; };\n\
    template<class T> T&& declval() noexcept;\n\
    template<class T> constexpr T&& forward(typename remove_reference<T>::type& t) noexcept { return static_cast<T&&>(t); }\n\
  }\n\
  void* operator new(unsigned long, void* p) noexcept;\n";

#[test]
fn placement_new_with_pack() {
    let text = format!(
        "{STD}template<class T, class... A> auto ca(T* p, A&&... a) -> decltype(::new((void*)0) T(std::declval<A>()...)) {{ return ::new((void*)p) T(std::forward<A>(a)...); }}\n\
         int main() {{ int x; ca(&x, 1); }}"
    );
    assert_eq!(names_with(&text, "2ca"), ["_Z2caIiJiEEDTgsnwcvPvLi0E_T_pispcl7declvalIT0_EEEEPS1_DpOS2_"]);
}

#[test]
fn new_without_initializer() {
    let text = format!(
        "{STD}template<class T> auto nn(T* p) -> decltype(new T) {{ return p; }}\nint main() {{ int x; nn(&x); }}"
    );
    assert_eq!(names_with(&text, "2nn"), ["_Z2nnIiEDTnw_T_EEPS0_"]);
}

#[test]
fn forwarded_parameters_and_operator() {
    let text = format!(
        "{STD}struct P {{ template<class A, class B> auto operator()(A&& a, B&& b) const -> decltype(std::forward<A>(a) + std::forward<B>(b)) {{ return a + b; }} }};\n\
         int main() {{ P{{}}(1, 2L); }}"
    );
    assert_eq!(names_with(&text, "1Pcl"), ["_ZNK1PclIilEEDTplcl7forwardIT_Efp_Ecl7forwardIT0_Efp0_EEOS1_OS2_"]);
}

#[test]
fn member_of_dependent_type() {
    let text = format!(
        "{STD}struct U {{ template<class I> static I __unwrap(I i) {{ return i; }} }};\n\
         template<class I, class Impl> auto uw(I i) -> decltype(Impl::__unwrap(std::declval<I>())) {{ return i; }}\n\
         int main() {{ int x; uw<int*, U>(&x); }}"
    );
    assert_eq!(names_with(&text, "2uw"), ["_Z2uwIPi1UEDTclsrT0_8__unwrapcl7declvalIT_EEEES3_"]);
}
