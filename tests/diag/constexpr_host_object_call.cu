// nvcc-flags:
struct F { constexpr int operator()() const { return 1; } };
template <class G> __global__ void k1(G g) { g(); }
template <class G> __global__ void k2() { G g; g(); }
template <class G> __device__ void d1(G g) { g(); }
template <class G> __global__ void k3(G g) { d1(g); }
void h() { k1<<<1, 1>>>(F{}); k2<F><<<1, 1>>>(); k1<F><<<1, 1>>>(F{}); k3<<<1, 1>>>(F{}); }
