template <typename... Ts> auto sum(Ts... xs) { return (xs + ...); }
template <typename... Ts> auto sum0(Ts... xs) { return (0 + ... + xs); }
template <typename... Ts> bool all(Ts... xs) { return (... && xs); }
template <typename... Ts> void each(Ts... xs) { (f(xs), ...); }
template <typename... Ts> void shift(Ts... xs) { int c = 0; (c << ... << xs); (c >>= ... >>= xs); }
template <typename... Ts> void call(Ts... xs) { g(xs...); g(h(xs)...); }
