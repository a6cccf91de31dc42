//! `cufront toolkit fetch|path|overlay` (the real CUDA toolkit cufront is
//! checked against).

use std::path::PathBuf;
use std::process::ExitCode;

use cufront_toolkit::Locate;

#[derive(clap::Args)]
pub struct ToolkitArgs {
    #[command(subcommand)]
    command: ToolkitCommand,
}

#[derive(clap::Subcommand)]
enum ToolkitCommand {
    /// Fetch the pinned CUDA 13.0 toolkit into the user cache (with pip), or
    /// verify the copy already there, and print its root.
    Fetch,
    /// Build a toolkit tree in DIR whose bin/cudafe++ is cufront (DIR/bin/nvcc runs unchanged).
    Overlay {
        dir: PathBuf,
        #[arg(long)]
        cuda_path: Option<PathBuf>,
    },
    /// Print the root of the toolkit cufront would use (no download).
    Path {
        /// A CUDA installation (its root, or its bin/nvcc).
        #[arg(long)]
        cuda_path: Option<PathBuf>,
    },
}

pub fn run_toolkit(args: ToolkitArgs) -> ExitCode {
    let found = match args.command {
        ToolkitCommand::Fetch => cufront_toolkit::fetch_pinned(),
        ToolkitCommand::Path { cuda_path } => cufront_toolkit::find(&Locate { cuda_path, require_pinned: false }),
        ToolkitCommand::Overlay { dir, cuda_path } => return crate::overlay::run(&dir, cuda_path),
    };
    match found {
        Ok(tk) => {
            println!("{}", tk.root().display());
            eprintln!("cufront: CUDA {}", tk.version());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("cufront: {e}");
            ExitCode::FAILURE
        }
    }
}
