//! What kernel stubs bring into the host object (`instances::stub`):
//! kernel templates' `__wrapper__device_stub_…` specializations and
//! `__cudaAddressOf<T>` for class-typed kernel parameters. Expected names
//! are `nm` of the object nvcc 13.0 (cudafe++, cicc's stub, g++ 12) builds
//! from the same source (with `__global__` for `__attribute__((global))`).

use expect_test::{Expect, expect};

use crate::Entity;

fn check(text: &str, expect: Expect) {
    let (db, tu) = super::db_with(text);
    let mut names: Vec<String> = crate::instances::required_entities(&db, tu)
        .iter()
        .filter(|e| matches!(e, Entity::Stub(_)))
        .map(|&e| match crate::symbols::mangled_name(&db, e) {
            Ok(n) => n,
            Err(err) => format!("error: {err}"),
        })
        .collect();
    names.sort();
    expect.assert_eq(&(names.join("\n") + "\n"));
}

#[test]
fn wrappers_and_address_of() {
    check(
        r#"
struct Image { int w, h; };
enum E { A, B };
union U { int i; float f; };
struct Empty {};
typedef struct { int q; } Anon;
namespace ns {
  template <class T> struct Box { T v; };
  template <class T, int N>
  __attribute__((global)) void nk(const T x, Box<T> b, T* p, const Image im, E e, U u, Empty em, int arr[4], const int ci, int (*fp)(int)) {}
}
template <class... Ts> __attribute__((global)) void vk(Ts... ts) {}
template <bool H> __attribute__((global)) void sep(const float *in, float *out, Image img, int r) {}
__attribute__((global)) void plain(const Image a, Image b, volatile int c, Anon n) {}
int main() {
  ns::nk<int, 3><<<1,1>>>(1, {}, 0, {}, A, {}, {}, 0, 0, 0);
  vk<int, Image, float><<<1,1>>>(1, {}, 2.f);
  sep<true><<<1,1>>>(0, 0, {}, 1);
  vk<><<<1,1>>>();
}
"#,
        expect![[r#"
            _Z15__cudaAddressOfI4AnonEPT_RS1_
            _Z15__cudaAddressOfI5EmptyEPT_RS1_
            _Z15__cudaAddressOfI5ImageEPT_RS1_
            _Z15__cudaAddressOfIK5ImageEPT_RS2_
            _Z15__cudaAddressOfIN2ns3BoxIiEEEPT_RS3_
            _Z25__wrapper__device_stub_vkIJEEvDpRT_
            _Z25__wrapper__device_stub_vkIJi5ImagefEEvDpRT_
            _Z26__wrapper__device_stub_sepILb1EEvRPKfRPfR5ImageRi
            _ZN2nsL25__wrapper__device_stub_nkIiLi3EEEvRKT_RNS_3BoxIS1_EERPS1_RK5ImageR1ER1UR5EmptyPiRKiRPFiiE
        "#]],
    );
}

/// g++ marks a specialization of a `static` function template `L` in a
/// namespace, not at global scope.
#[test]
fn static_function_template_in_namespace() {
    let (db, tu) = super::db_with(
        r#"
template<class T> static void f(T) {}
namespace ns { template<class T> static void g(T) {} namespace in { template<class T> static void h(T) {} } }
namespace { template<class T> static void a(T) {} }
void use() { f(1); ns::g(1); ns::in::h(1); a(1); }
"#,
    );
    let mut names: Vec<String> = crate::instances::required_entities(&db, tu)
        .iter()
        .filter(|e| matches!(e, Entity::FnInst(_)))
        .map(|&e| crate::symbols::mangled_name(&db, e).unwrap_or_else(|e| e.to_string()))
        .collect();
    names.sort();
    expect![[r#"
        [
            "_Z1fIiEvT_",
            "_ZN12_GLOBAL__N_1L1aIiEEvT_",
            "_ZN2ns2inL1hIiEEvT_",
            "_ZN2nsL1gIiEEvT_",
        ]
    "#]]
    .assert_debug_eq(&names);
}

#[test]
fn kernel_template_specializations_are_static_in_a_namespace() {
    // Whole-program mode: a kernel template's host stub is `static`
    // (`-static-global-template-stub`), which g++ spells with `L` in a
    // namespace and without at global scope (nvcc 13's `nm`:
    // `t _ZN2nsL2nkIiEEvPT_`, `t _Z2gkIiEvPT_`).
    let (db, tu) = super::db_with(
        "namespace ns { template <class T> __attribute__((global)) void nk(T* p) {} }\n\
         template <class T> __attribute__((global)) void gk(T* p) {}\n\
         int main() { int* p = 0; ns::nk<int><<<1,1>>>(p); gk<int><<<1,1>>>(p); }",
    );
    let names: Vec<String> = crate::symbols::entities(&db, tu).into_iter().filter_map(|(_, n)| n.ok()).collect();
    assert!(names.iter().any(|n| n == "_ZN2nsL2nkIiEEvPT_"), "{names:?}");
    assert!(names.iter().any(|n| n == "_Z2gkIiEvPT_"), "{names:?}");
}
