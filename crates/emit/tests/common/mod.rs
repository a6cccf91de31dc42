//! Helpers shared by the host-file tests.

use cufront_emit::host::{HostFile, HostOptions};

/// The host file of `text`, with a semantic model of the same text.
pub fn host_file(text: &str, o: &HostOptions) -> HostFile {
    let db = cufront_base_db::RootDatabase::new();
    let lang = cufront_base_db::new_options(&db, cufront_base_db::LangOptions::default());
    let tu = cufront_base_db::new_translation_unit(&db, "x.ii".into(), std::sync::Arc::from(text), lang);
    cufront_emit::host::host_file(&db, tu, o).clone()
}
