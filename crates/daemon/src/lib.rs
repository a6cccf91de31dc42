//! cufront-daemon: the machinery of the build daemon, independent of what a
//! request computes (the cufront binary plugs the cudafe++ run in through
//! [`server::Handler`]).
//!
//! - [`protocol`]: length-prefixed, versioned frames and their typed codec.
//! - [`paths`]: the per-user runtime directory (mode 0700) holding the
//!   socket (0600) and the lock that makes the server one per user.
//! - [`peer`]: the peer credentials of a connection (`SO_PEERCRED`).
//! - [`server`]: the accept loop, a thread per connection (bounded), the
//!   stop and status requests, the idle exit.
//! - [`client`]: connecting, starting a server when none runs, one request.
//! - [`lru`]: the least-recently-used map that bounds the cached units.
//!
//! Invariants:
//! - Nothing a peer sends can panic the server: every decode failure is a
//!   typed [`protocol::DecodeError`] answered with an error reply; a frame
//!   larger than its limit is refused before it is read.
//! - Only the user who runs the server is served: the directory is checked
//!   (owner, mode) before use and every connection's peer uid is compared.
//! - A request carries everything that differs between clients (argv, cwd,
//!   environment, pid, whether stderr is a terminal): the server's own cwd
//!   and environment never reach a compilation.
//! - A connection that dies mid-request ends its own thread only.

pub mod client;
pub mod lru;
pub mod paths;
pub mod peer;
pub mod protocol;
pub mod server;
