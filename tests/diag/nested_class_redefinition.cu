// nvcc-flags:
struct O { struct I {}; struct I {}; };
struct P { struct J; };
struct P::J {};
struct P::J {};
namespace N { union U { int a; }; }
namespace N { union U { int a; }; }
void f() { { struct L {}; } { struct L {}; } }
