// nvcc-flags:
struct S { S(int) = delete; S(); void g() = delete; };
struct U { U() = delete; U(int); };
void host_fn() { S s(1); s.g(); U u; U arr[2]; }
