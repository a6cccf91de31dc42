//! cufront-lsp: the language server over `cufront-ide` (rust-analyzer's
//! main loop, small).
//!
//! One thread owns the [`cufront_ide::AnalysisHost`] and is the only
//! writer: it applies document changes and loaded units. Requests run on a
//! pool of reader threads, each on a snapshot ([`cufront_ide::Analysis`]);
//! a change cancels the snapshots still computing (salsa), and a cancelled
//! request answers `ContentModified` so the client asks again.
//!
//! Units: opening a `.cu` file preprocesses it on a thread of its own with
//! the flags `compile_commands.json` gives it (the workspace root's, or
//! its `build/`), or the documented default (`cufront_ide::workspace`):
//! the host view first (its diagnostics are published at once), then the
//! device view (nvcc's device preprocessing; dropped and both views loaded
//! again if the buffer changed meanwhile). Later loads make both at once.
//! A header opened on its own is seen through a unit that includes it. An
//! edit is patched into the unit in place when it touches no directive or
//! macro use (`cufront_ide::patch`); otherwise the unit is preprocessed
//! again in the background and the old one serves until then.
//!
//! Diagnostics are published per file after every change (the EDG number
//! as the code, notes as related information), progress is reported while
//! a unit is first preprocessed and analysed when the client supports it.

mod convert;
mod main_loop;

pub use crate::main_loop::{Config, run};

use lsp_server::Connection;

/// Runs the server over stdin/stdout until the client says `exit`.
pub fn run_stdio(config: Config) -> Result<(), String> {
    let (connection, io_threads) = Connection::stdio();
    run(connection, config)?;
    io_threads.join().map_err(|e| format!("stdio: {e}"))?;
    Ok(())
}
