struct Base { virtual ~Base(); virtual void f() = 0; int x; };
class Derived final : public Base, private virtual Base2 {
public:
    Derived();
    explicit Derived(int);
    ~Derived() override;
    void f() override final;
    Derived& operator=(const Derived&) = default;
    Derived(Derived&&) = delete;
protected:
    int bits : 3, : 0, more : 5;
    static const int c = 3;
    mutable int m{4};
    struct Nested { int n; } nested;
    union { int i; float f2; };
    enum { A, B } e;
private:
    friend class Other;
    friend void swap(Derived&, Derived&) noexcept;
    Nested make() const & { return nested; }
    int get() && noexcept(true);
};
struct Fwd;
struct Fwd* pf;
struct __attribute__((aligned(16))) Aligned { char c; } __attribute__((packed));
struct alignas(8) A8 { int i; };
union U { int i; float f; };
int Derived::* pm;
int (Derived::*pmf)(int) const;
