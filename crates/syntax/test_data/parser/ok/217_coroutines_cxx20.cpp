struct task;
struct awaitable;
awaitable get();
task co(int n) {
    int v = co_await get();
    co_yield v + 1;
    co_yield {1, 2};
    co_return;
}
