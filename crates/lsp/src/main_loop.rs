//! The main loop: the writer thread, the reader pool, unit loading.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crossbeam_channel::{Receiver, Sender};
use cufront_ide::preprocess::{self, Preprocessor};
use cufront_ide::workspace::CompileDb;
use cufront_ide::{Analysis, AnalysisHost, Cancellable, Change, FilePosition};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types as lt;
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use rustc_hash::FxHashMap;

use crate::convert::{self, LineSource};

/// How the server is started.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// A CUDA installation (root or `bin/nvcc`); by default `CUDA_HOME`,
    /// `nvcc` on `PATH`, else the pinned toolkit (fetched on first use).
    pub cuda_path: Option<PathBuf>,
    /// `compile_commands.json`; by default the workspace root's, else its `build/`'s.
    pub compile_commands: Option<PathBuf>,
    /// Reader threads (at least 1).
    pub threads: usize,
}

/// What other threads tell the main loop.
enum Task {
    Respond(Response),
    Notify(Notification),
    /// A unit was (re)preprocessed.
    Loaded {
        main: String,
        result: Result<Change, String>,
        stage: Stage,
    },
    /// A first load's host view is shown: make its device view.
    LoadDevice(String),
}

/// Which part of a unit's load a [`Task::Loaded`] brings.
enum Stage {
    /// Both views (a reload).
    Full,
    /// A first load's host view: its diagnostics are shown while the
    /// device view is made.
    Host,
    /// The device view after [`Stage::Host`], made from `buffer`.
    Device { buffer: Option<Arc<str>> },
}

/// An open document.
struct Doc {
    text: Arc<str>,
}

#[derive(Default)]
struct Loading {
    in_flight: bool,
    /// Changed again while in flight: load once more when it lands.
    dirty: bool,
    /// The progress token of the first load.
    progress: Option<String>,
}

struct Server {
    sender: Sender<Message>,
    tasks: Sender<Task>,
    host: AnalysisHost,
    docs: FxHashMap<String, Doc>,
    compile_db: CompileDb,
    cuda_path: Option<PathBuf>,
    preprocessor: Option<Result<Arc<Preprocessor>, String>>,
    loading: FxHashMap<String, Loading>,
    pool: Sender<Box<dyn FnOnce() + Send>>,
    progress_supported: bool,
    /// Headers edited in ways not patched into their unit since last saved
    /// (the unit's preprocessing reads them from disk).
    unpatched: rustc_hash::FxHashSet<String>,
    next_id: u64,
    work: PathBuf,
}

/// Serves `connection` until `exit`.
pub fn run(connection: Connection, config: Config) -> Result<(), String> {
    let (id, params) = connection.initialize_start().map_err(|e| e.to_string())?;
    let init: lt::InitializeParams = serde_json::from_value(params).map_err(|e| format!("initialize: {e}"))?;
    let caps = lt::ServerCapabilities {
        text_document_sync: Some(lt::TextDocumentSyncCapability::Options(lt::TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(lt::TextDocumentSyncKind::INCREMENTAL),
            ..Default::default()
        })),
        hover_provider: Some(lt::HoverProviderCapability::Simple(true)),
        definition_provider: Some(lt::OneOf::Left(true)),
        references_provider: Some(lt::OneOf::Left(true)),
        document_symbol_provider: Some(lt::OneOf::Left(true)),
        workspace_symbol_provider: Some(lt::OneOf::Left(true)),
        inlay_hint_provider: Some(lt::OneOf::Left(true)),
        completion_provider: Some(lt::CompletionOptions {
            trigger_characters: Some(vec![".".into(), ">".into(), ":".into()]),
            ..Default::default()
        }),
        signature_help_provider: Some(lt::SignatureHelpOptions {
            trigger_characters: Some(vec!["(".into(), ",".into(), "<".into()]),
            ..Default::default()
        }),
        semantic_tokens_provider: Some(lt::SemanticTokensServerCapabilities::SemanticTokensOptions(
            lt::SemanticTokensOptions {
                legend: convert::legend(),
                full: Some(lt::SemanticTokensFullOptions::Bool(true)),
                range: None,
                ..Default::default()
            },
        )),
        ..Default::default()
    };
    let result = serde_json::json!({
        "capabilities": caps,
        "serverInfo": { "name": "cufront", "version": env!("CARGO_PKG_VERSION") },
    });
    connection.initialize_finish(id, result).map_err(|e| e.to_string())?;

    #[allow(deprecated)]
    let root = init
        .workspace_folders
        .as_ref()
        .and_then(|f| f.first())
        .and_then(|f| convert::path_of(&f.uri))
        .or_else(|| init.root_uri.as_ref().and_then(convert::path_of))
        .map(PathBuf::from);
    let opts = init.initialization_options.clone().unwrap_or_default();
    let cuda_path = config
        .cuda_path
        .clone()
        .or_else(|| opts.get("cudaPath").and_then(|v| v.as_str()).filter(|s| !s.is_empty()).map(PathBuf::from));
    let cc = config
        .compile_commands
        .clone()
        .or_else(|| opts.get("compileCommands").and_then(|v| v.as_str()).filter(|s| !s.is_empty()).map(PathBuf::from))
        .or_else(|| {
            let root = root.as_ref()?;
            [root.join("compile_commands.json"), root.join("build/compile_commands.json")]
                .into_iter()
                .find(|p| p.is_file())
        });
    let progress_supported = init.capabilities.window.as_ref().and_then(|w| w.work_done_progress).unwrap_or(false);

    let (task_tx, task_rx) = crossbeam_channel::unbounded();
    let (pool_tx, pool_rx) = crossbeam_channel::unbounded::<Box<dyn FnOnce() + Send>>();
    let threads = config.threads.max(1);
    let mut workers = Vec::new();
    for _ in 0..threads {
        let rx = pool_rx.clone();
        workers.push(std::thread::spawn(move || {
            while let Ok(job) = rx.recv() {
                job();
            }
        }));
    }
    // Private to this server: several servers of one process (tests) must
    // not share it, since each removes its own when it ends.
    static SERVERS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = SERVERS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let work = std::env::temp_dir().join(format!("cufront-lsp-{}-{n}", std::process::id()));
    let mut server = Server {
        sender: connection.sender.clone(),
        tasks: task_tx,
        host: AnalysisHost::new(),
        docs: FxHashMap::default(),
        compile_db: CompileDb::default(),
        cuda_path,
        preprocessor: None,
        loading: FxHashMap::default(),
        pool: pool_tx,
        progress_supported,
        unpatched: Default::default(),
        next_id: 0,
        work: work.clone(),
    };
    if let Some(cc) = cc {
        match CompileDb::load(&cc) {
            Ok(db) => server.compile_db = db,
            Err(e) => server.show_message(lt::MessageType::WARNING, format!("cufront: {e}")),
        }
    }
    let result = server.main_loop(&connection, &task_rx);
    drop(server);
    for w in workers {
        let _ = w.join();
    }
    let _ = std::fs::remove_dir_all(&work);
    result
}

impl Server {
    fn main_loop(&mut self, connection: &Connection, tasks: &Receiver<Task>) -> Result<(), String> {
        loop {
            crossbeam_channel::select! {
                recv(connection.receiver) -> msg => {
                    let Ok(msg) = msg else { return Ok(()) };
                    match msg {
                        Message::Request(req) => {
                            if connection.handle_shutdown(&req).map_err(|e| e.to_string())? {
                                return Ok(());
                            }
                            self.on_request(req);
                        }
                        Message::Notification(n) => self.on_notification(n),
                        Message::Response(_) => {}
                    }
                }
                recv(tasks) -> task => {
                    let Ok(task) = task else { return Ok(()) };
                    match task {
                        Task::Respond(r) => self.send(Message::Response(r)),
                        Task::Notify(n) => self.send(Message::Notification(n)),
                        Task::Loaded { main, result, stage } => self.on_loaded(main, result, stage),
                        Task::LoadDevice(main) => self.load_device(main),
                    }
                }
            }
        }
    }

    fn send(&self, m: Message) {
        let _ = self.sender.send(m);
    }

    fn show_message(&self, typ: lt::MessageType, message: String) {
        let params = lt::ShowMessageParams { typ, message };
        self.send(Message::Notification(Notification::new(lt::notification::ShowMessage::METHOD.into(), params)));
    }

    fn on_notification(&mut self, n: Notification) {
        use lt::notification as ln;
        match n.method.as_str() {
            ln::DidOpenTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<lt::DidOpenTextDocumentParams>(n.params) else {
                    return;
                };
                let Some(path) = convert::path_of(&p.text_document.uri) else {
                    return;
                };
                let text: Arc<str> = Arc::from(p.text_document.text);
                self.docs.insert(path.clone(), Doc { text: text.clone() });
                if self.host.unit_of(&path).is_some() {
                    // Seen through a unit already: the buffer may differ from disk.
                    self.on_edit(&path, text);
                } else if is_source(&path) {
                    self.host.apply_change(Change { files: vec![(path.clone(), text)], ..Change::default() });
                    self.schedule_load(&path);
                }
            }
            ln::DidChangeTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<lt::DidChangeTextDocumentParams>(n.params) else {
                    return;
                };
                let Some(path) = convert::path_of(&p.text_document.uri) else {
                    return;
                };
                let Some(doc) = self.docs.get(&path) else {
                    return;
                };
                let mut text = doc.text.to_string();
                for c in p.content_changes {
                    apply_edit(&mut text, c);
                }
                let text: Arc<str> = Arc::from(text);
                self.docs.insert(path.clone(), Doc { text: text.clone() });
                self.on_edit(&path, text);
            }
            ln::DidSaveTextDocument::METHOD => {
                // A unit reads a header from disk when it is preprocessed
                // again: a saved header that was not patched in needs it.
                let Ok(p) = serde_json::from_value::<lt::DidSaveTextDocumentParams>(n.params) else {
                    return;
                };
                let Some(path) = convert::path_of(&p.text_document.uri) else {
                    return;
                };
                if let Some(main) = self.host.unit_of(&path).filter(|m| *m != path)
                    && self.loading.get(&main).is_some_and(|l| l.in_flight || l.dirty)
                {
                    self.schedule_load(&main);
                }
            }
            ln::DidCloseTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<lt::DidCloseTextDocumentParams>(n.params) else {
                    return;
                };
                let Some(path) = convert::path_of(&p.text_document.uri) else {
                    return;
                };
                self.docs.remove(&path);
                let params =
                    lt::PublishDiagnosticsParams { uri: p.text_document.uri, diagnostics: Vec::new(), version: None };
                self.send(Message::Notification(Notification::new(ln::PublishDiagnostics::METHOD.into(), params)));
                self.drop_unit_if_closed(&path);
            }
            _ => {}
        }
    }

    /// A new text for `path`: patched into its unit when possible, else
    /// the unit is preprocessed again (the old unit serves meanwhile).
    fn on_edit(&mut self, path: &str, text: Arc<str>) {
        if self.host.file_text(path).as_deref() == Some(&*text) {
            self.publish_diagnostics();
            return;
        }
        match self.host.patch_file(path, text.clone()) {
            Ok(change) => self.host.apply_change(change),
            Err(_) => {
                self.host.apply_change(Change { files: vec![(path.to_string(), text)], ..Change::default() });
                if let Some(main) = self.host.unit_of(path) {
                    if main != path {
                        self.unpatched.insert(path.to_string());
                    }
                    self.schedule_load(&main);
                }
            }
        }
        self.publish_diagnostics();
    }

    fn preprocessor(&mut self) -> Result<Arc<Preprocessor>, String> {
        if self.preprocessor.is_none() {
            let locate = cufront_toolkit::Locate { cuda_path: self.cuda_path.clone(), require_pinned: false };
            let p = cufront_toolkit::find_or_fetch(&locate)
                .map(|tk| Arc::new(Preprocessor::new(tk, self.work.clone())))
                .map_err(|e| e.to_string());
            self.preprocessor = Some(p);
        }
        self.preprocessor.clone().expect("set above")
    }

    fn schedule_load(&mut self, main: &str) {
        let state = self.loading.entry(main.to_string()).or_default();
        if state.in_flight {
            state.dirty = true;
            return;
        }
        state.in_flight = true;
        let first = self.host.unit_of(main).is_none();
        if first && self.progress_supported {
            self.next_id += 1;
            let token = format!("cufront/load/{}", self.next_id);
            let create = Request::new(
                RequestId::from(format!("cufront/create/{}", self.next_id)),
                lt::request::WorkDoneProgressCreate::METHOD.into(),
                lt::WorkDoneProgressCreateParams { token: lt::NumberOrString::String(token.clone()) },
            );
            self.send(Message::Request(create));
            let name = Path::new(main).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            self.progress(
                &token,
                lt::WorkDoneProgress::Begin(lt::WorkDoneProgressBegin {
                    title: format!("cufront: preprocessing {name}"),
                    ..Default::default()
                }),
            );
            self.loading.get_mut(main).expect("inserted").progress = Some(token);
        }
        let pre = match self.preprocessor() {
            Ok(p) => p,
            Err(e) => {
                let _ = self.tasks.send(Task::Loaded { main: main.to_string(), result: Err(e), stage: Stage::Full });
                return;
            }
        };
        let flags = self.compile_db.flags_for(Path::new(main));
        let buffer = self.docs.get(main).map(|d| d.text.clone());
        let tasks = self.tasks.clone();
        let main = main.to_string();
        let known = known_files(&self.host, &main);
        std::thread::spawn(move || {
            let file = Path::new(&main);
            if !first {
                let result = preprocess::load_unit(&pre, file, &flags, buffer.as_deref(), &|f| known.contains(f))
                    .map_err(|e| e.to_string());
                let _ = tasks.send(Task::Loaded { main, result, stage: Stage::Full });
                return;
            }
            // A first load: the host view first; the device view once its
            // diagnostics are shown (`load_device`).
            let host = preprocess::load_host(&pre, file, &flags, buffer.as_deref(), &|f| known.contains(f))
                .map_err(|e| e.to_string());
            let _ = tasks.send(Task::Loaded { main, result: host, stage: Stage::Host });
        });
    }

    /// Makes the device view of `main` (the second stage of a first load)
    /// from the buffer as it is now.
    fn load_device(&mut self, main: String) {
        let pre = match self.preprocessor() {
            Ok(p) => p,
            Err(e) => {
                let _ = self.tasks.send(Task::Loaded { main, result: Err(e), stage: Stage::Full });
                return;
            }
        };
        let flags = self.compile_db.flags_for(Path::new(&main));
        let buffer = self.docs.get(&main).map(|d| d.text.clone());
        let tasks = self.tasks.clone();
        std::thread::spawn(move || {
            let result = preprocess::load_device(&pre, Path::new(&main), &flags, buffer.as_deref())
                .map(|d| Change { devices: vec![(main.clone(), d)], ..Change::default() })
                .map_err(|e| e.to_string());
            let _ = tasks.send(Task::Loaded { main, result, stage: Stage::Device { buffer } });
        });
    }

    fn progress(&self, token: &str, value: lt::WorkDoneProgress) {
        let params = lt::ProgressParams {
            token: lt::NumberOrString::String(token.into()),
            value: lt::ProgressParamsValue::WorkDone(value),
        };
        self.send(Message::Notification(Notification::new(lt::notification::Progress::METHOD.into(), params)));
    }

    /// Is a file of unit `main` (its `.cu` file or a header it owns) open?
    fn unit_is_open(&self, main: &str) -> bool {
        self.docs.contains_key(main) || self.docs.keys().any(|d| self.host.unit_of(d).as_deref() == Some(main))
    }

    /// Drops the unit of `path` when none of its files is open any more:
    /// its trees and queries go (the shared ones back to the pool), so a
    /// session that opens and closes files does not grow without bound.
    /// A load of it still in flight is dropped when it lands (`on_loaded`).
    fn drop_unit_if_closed(&mut self, path: &str) {
        let Some(main) = self.host.unit_of(path) else { return };
        if !self.unit_is_open(&main) {
            self.host.apply_change(Change { removed_units: vec![main], ..Change::default() });
        }
    }

    fn on_loaded(&mut self, main: String, result: Result<Change, String>, stage: Stage) {
        if !self.unit_is_open(&main) {
            // Closed while it loaded: nothing to apply, nothing to load again.
            if let Some(token) = self.loading.remove(&main).and_then(|l| l.progress) {
                self.progress(&token, lt::WorkDoneProgress::End(lt::WorkDoneProgressEnd { message: None }));
            }
            return;
        }
        let state = self.loading.entry(main.clone()).or_default();
        let host_only = matches!(stage, Stage::Host) && result.is_ok();
        if !host_only {
            state.in_flight = false;
        }
        let mut again = !host_only && std::mem::take(&mut state.dirty);
        let token = if host_only { None } else { state.progress.take() };
        let result = match stage {
            // A device view of a buffer edited since: both views again.
            Stage::Device { buffer } if self.docs.get(&main).map(|d| d.text.clone()) != buffer => {
                again = true;
                Ok(Change::default())
            }
            _ => result,
        };
        match result {
            Ok(mut change) => {
                // Open buffers win over the texts read from disk.
                for (path, text) in &mut change.files {
                    if let Some(doc) = self.docs.get(path.as_str()) {
                        *text = doc.text.clone();
                    }
                }
                self.host.apply_change(change);
            }
            Err(e) => {
                // The preprocessor's own messages (a missing header…) where
                // they point in the file, else at its start.
                let uri = convert::uri_of(&main);
                let diag = |range: lt::Range, severity, message: String| lt::Diagnostic {
                    range,
                    severity: Some(severity),
                    source: Some("cufront (preprocessor)".into()),
                    message,
                    ..Default::default()
                };
                let mut diagnostics: Vec<lt::Diagnostic> = preprocess::tool_messages(&e)
                    .into_iter()
                    .filter(|m| m.file == main)
                    .map(|m| {
                        let at = lt::Position { line: m.line.saturating_sub(1), character: m.col.saturating_sub(1) };
                        let end = lt::Position { line: at.line, character: at.character + 1 };
                        let severity = match m.severity {
                            cufront_ide::Severity::Warning => lt::DiagnosticSeverity::WARNING,
                            _ => lt::DiagnosticSeverity::ERROR,
                        };
                        diag(lt::Range { start: at, end }, severity, m.text)
                    })
                    .collect();
                if !diagnostics.iter().any(|d| d.severity == Some(lt::DiagnosticSeverity::ERROR)) {
                    let message = format!("cannot preprocess: {e}");
                    diagnostics.push(diag(lt::Range::default(), lt::DiagnosticSeverity::ERROR, message));
                }
                let params = lt::PublishDiagnosticsParams { uri, diagnostics, version: None };
                self.send(Message::Notification(Notification::new(
                    lt::notification::PublishDiagnostics::METHOD.into(),
                    params,
                )));
            }
        }
        if let Some(token) = token {
            self.progress(&token, lt::WorkDoneProgress::End(lt::WorkDoneProgressEnd { message: None }));
        }
        if again {
            self.schedule_load(&main);
        }
        if host_only {
            // The host pass's diagnostics first, then the device view.
            self.publish_diagnostics_then(Some((main.clone(), Task::LoadDevice(main))));
        } else if self.host.unit(&main).is_some() {
            self.publish_diagnostics();
        }
    }

    /// Publishes the diagnostics of every open document (on the pool).
    fn publish_diagnostics(&self) {
        self.publish_diagnostics_then(None);
    }

    /// `publish_diagnostics`, and `then.1` sent once the diagnostics of
    /// `then.0` are published (or cancelled).
    fn publish_diagnostics_then(&self, mut then: Option<(String, Task)>) {
        for path in self.docs.keys() {
            let analysis = self.host.analysis();
            let path = path.clone();
            let tasks = self.tasks.clone();
            let after = then.take_if(|(p, _)| *p == path).map(|(_, t)| t);
            let _ = self.pool.send(Box::new(move || {
                let diags = if analysis.unit_of(&path).is_none() {
                    Err(())
                } else {
                    analysis.diagnostics(&path).map_err(|_| ())
                };
                let Ok(diags) = diags else {
                    if let Some(t) = after {
                        let _ = tasks.send(t);
                    }
                    return;
                };
                let src = SnapshotLines(&analysis);
                let params = lt::PublishDiagnosticsParams {
                    uri: convert::uri_of(&path),
                    diagnostics: diags.iter().map(|d| convert::diagnostic(&src, d)).collect(),
                    version: None,
                };
                let _ = tasks
                    .send(Task::Notify(Notification::new(lt::notification::PublishDiagnostics::METHOD.into(), params)));
                if let Some(t) = after {
                    let _ = tasks.send(t);
                }
                // Then what the next request will need.
                let _ = analysis.prime_caches(&path);
            }));
        }
        if let Some((_, t)) = then {
            let _ = self.tasks.send(t);
        }
    }

    fn on_request(&mut self, req: Request) {
        use lt::request as lr;
        let analysis = self.host.analysis();
        let id = req.id.clone();
        let job: Job = match req.method.as_str() {
            lr::HoverRequest::METHOD => {
                let Ok(p) = serde_json::from_value::<lt::HoverParams>(req.params) else {
                    return self.bad(id);
                };
                Box::new(move |a| {
                    let Some(pos) = file_position(a, &p.text_document_position_params) else {
                        return Ok(serde_json::Value::Null);
                    };
                    let src = SnapshotLines(a);
                    let h = cancelled(a.hover(&pos))?.map(|h| lt::Hover {
                        contents: lt::HoverContents::Markup(lt::MarkupContent {
                            kind: lt::MarkupKind::Markdown,
                            value: h.markdown,
                        }),
                        range: Some(convert::range(&src, &h.range)),
                    });
                    Ok(serde_json::to_value(h).unwrap_or_default())
                })
            }
            lr::GotoDefinition::METHOD => {
                let Ok(p) = serde_json::from_value::<lt::GotoDefinitionParams>(req.params) else {
                    return self.bad(id);
                };
                Box::new(move |a| {
                    let Some(pos) = file_position(a, &p.text_document_position_params) else {
                        return Ok(serde_json::Value::Null);
                    };
                    let src = SnapshotLines(a);
                    let navs = cancelled(a.goto_definition(&pos))?;
                    let locs: Vec<lt::Location> =
                        navs.iter().map(|n| convert::location(&src, &n.focus_range)).collect();
                    Ok(serde_json::to_value(lt::GotoDefinitionResponse::Array(locs)).unwrap_or_default())
                })
            }
            lr::References::METHOD => {
                let Ok(p) = serde_json::from_value::<lt::ReferenceParams>(req.params) else {
                    return self.bad(id);
                };
                Box::new(move |a| {
                    let Some(pos) = file_position(a, &p.text_document_position) else {
                        return Ok(serde_json::Value::Null);
                    };
                    let src = SnapshotLines(a);
                    let refs = cancelled(a.references(&pos))?;
                    let locs: Vec<lt::Location> = refs.iter().map(|r| convert::location(&src, r)).collect();
                    Ok(serde_json::to_value(locs).unwrap_or_default())
                })
            }
            lr::DocumentSymbolRequest::METHOD => {
                let Ok(p) = serde_json::from_value::<lt::DocumentSymbolParams>(req.params) else {
                    return self.bad(id);
                };
                Box::new(move |a| {
                    let Some(path) = convert::path_of(&p.text_document.uri) else {
                        return Ok(serde_json::Value::Null);
                    };
                    let src = SnapshotLines(a);
                    let syms = cancelled(a.document_symbols(&path))?;
                    let out: Vec<lt::DocumentSymbol> = syms.iter().map(|n| convert::document_symbol(&src, n)).collect();
                    Ok(serde_json::to_value(lt::DocumentSymbolResponse::Nested(out)).unwrap_or_default())
                })
            }
            lr::WorkspaceSymbolRequest::METHOD => {
                let Ok(p) = serde_json::from_value::<lt::WorkspaceSymbolParams>(req.params) else {
                    return self.bad(id);
                };
                Box::new(move |a| {
                    let src = SnapshotLines(a);
                    let syms = cancelled(a.workspace_symbols(&p.query, 128))?;
                    let out: Vec<lt::SymbolInformation> =
                        syms.iter().map(|n| convert::symbol_information(&src, n)).collect();
                    Ok(serde_json::to_value(out).unwrap_or_default())
                })
            }
            lr::InlayHintRequest::METHOD => {
                let Ok(p) = serde_json::from_value::<lt::InlayHintParams>(req.params) else {
                    return self.bad(id);
                };
                Box::new(move |a| {
                    let Some(path) = convert::path_of(&p.text_document.uri) else {
                        return Ok(serde_json::Value::Null);
                    };
                    let src = SnapshotLines(a);
                    let hints: Vec<lt::InlayHint> = cancelled(a.inlay_hints(&path))?
                        .into_iter()
                        .map(|h| lt::InlayHint {
                            position: convert::position(&src, &path, h.pos),
                            label: lt::InlayHintLabel::String(h.label),
                            kind: Some(lt::InlayHintKind::TYPE),
                            text_edits: None,
                            tooltip: Some(lt::InlayHintTooltip::String(
                                "template arguments deduced for this launch".into(),
                            )),
                            padding_left: None,
                            padding_right: None,
                            data: None,
                        })
                        .filter(|h| h.position >= p.range.start && h.position <= p.range.end)
                        .collect();
                    Ok(serde_json::to_value(hints).unwrap_or_default())
                })
            }
            lr::Completion::METHOD => {
                let Ok(p) = serde_json::from_value::<lt::CompletionParams>(req.params) else {
                    return self.bad(id);
                };
                Box::new(move |a| {
                    let Some(pos) = file_position(a, &p.text_document_position) else {
                        return Ok(serde_json::Value::Null);
                    };
                    let items = cancelled(a.completions(&pos))?;
                    let out: Vec<lt::CompletionItem> = items
                        .into_iter()
                        .map(|i| lt::CompletionItem {
                            kind: Some(match i.kind {
                                None => lt::CompletionItemKind::VARIABLE,
                                Some(k) => convert::completion_kind(k),
                            }),
                            label: i.label,
                            detail: (!i.detail.is_empty()).then_some(i.detail),
                            ..Default::default()
                        })
                        .collect();
                    Ok(serde_json::to_value(lt::CompletionResponse::Array(out)).unwrap_or_default())
                })
            }
            lr::SignatureHelpRequest::METHOD => {
                let Ok(p) = serde_json::from_value::<lt::SignatureHelpParams>(req.params) else {
                    return self.bad(id);
                };
                Box::new(move |a| {
                    let Some(pos) = file_position(a, &p.text_document_position_params) else {
                        return Ok(serde_json::Value::Null);
                    };
                    let Some(h) = cancelled(a.signature_help(&pos))? else {
                        return Ok(serde_json::Value::Null);
                    };
                    let signatures = h
                        .signatures
                        .into_iter()
                        .map(|(label, params)| lt::SignatureInformation {
                            label,
                            documentation: None,
                            parameters: Some(
                                params
                                    .into_iter()
                                    .map(|p| lt::ParameterInformation {
                                        label: lt::ParameterLabel::Simple(p),
                                        documentation: None,
                                    })
                                    .collect(),
                            ),
                            active_parameter: None,
                        })
                        .collect();
                    let help = lt::SignatureHelp {
                        signatures,
                        active_signature: Some(0),
                        active_parameter: Some(h.active_parameter),
                    };
                    Ok(serde_json::to_value(help).unwrap_or_default())
                })
            }
            lr::SemanticTokensFullRequest::METHOD => {
                let Ok(p) = serde_json::from_value::<lt::SemanticTokensParams>(req.params) else {
                    return self.bad(id);
                };
                Box::new(move |a| {
                    let Some(path) = convert::path_of(&p.text_document.uri) else {
                        return Ok(serde_json::Value::Null);
                    };
                    let src = SnapshotLines(a);
                    let toks = cancelled(a.semantic_tokens(&path))?;
                    let data = convert::semantic_tokens(&src, &path, &toks);
                    Ok(serde_json::to_value(lt::SemanticTokensResult::Tokens(lt::SemanticTokens {
                        result_id: None,
                        data,
                    }))
                    .unwrap_or_default())
                })
            }
            _ => {
                let r =
                    Response::new_err(id, ErrorCode::MethodNotFound as i32, format!("unknown request {}", req.method));
                self.send(Message::Response(r));
                return;
            }
        };
        let tasks = self.tasks.clone();
        let _ = self.pool.send(Box::new(move || {
            let r = match job(&analysis) {
                Ok(v) => Response::new_ok(id, v),
                Err(e) if e == CANCELLED => {
                    Response::new_err(id, ErrorCode::ContentModified as i32, "content modified".into())
                }
                Err(e) => Response::new_err(id, ErrorCode::InternalError as i32, e),
            };
            drop(analysis);
            let _ = tasks.send(Task::Respond(r));
        }));
    }

    fn bad(&self, id: RequestId) {
        self.send(Message::Response(Response::new_err(
            id,
            ErrorCode::InvalidParams as i32,
            "invalid parameters".into(),
        )));
    }
}

/// A request's work on a snapshot.
type Job = Box<dyn FnOnce(&Analysis) -> Result<serde_json::Value, String> + Send>;

const CANCELLED: &str = "cancelled";

fn cancelled<T>(r: Cancellable<T>) -> Result<T, String> {
    r.map_err(|_| CANCELLED.to_string())
}

fn is_source(path: &str) -> bool {
    path.ends_with(".cu")
}

/// The files the host already has texts for that a reload of `main` need not read again.
fn known_files(host: &AnalysisHost, main: &str) -> rustc_hash::FxHashSet<String> {
    let Some(text) = host.unit_text(main) else {
        return Default::default();
    };
    let dir = Path::new(main).parent().map(|d| d.to_string_lossy().into_owned()).unwrap_or_default();
    let lines = cufront_ide::lines::UnitLines::new(&text, main, &dir);
    lines.files.into_iter().filter(|f| host.has_file(f)).collect()
}

fn file_position(a: &Analysis, p: &lt::TextDocumentPositionParams) -> Option<FilePosition> {
    let path = convert::path_of(&p.text_document.uri)?;
    let pos = convert::line_col(&SnapshotLines(a), &path, p.position);
    Some(FilePosition { file: path, pos })
}

/// Lines as the snapshot has them.
struct SnapshotLines<'a>(&'a Analysis);

impl LineSource for SnapshotLines<'_> {
    fn line(&self, file: &str, line: u32) -> Option<String> {
        self.0.file_line(file, line)
    }
}

/// Applies one content change (UTF-16 positions) to `text`.
fn apply_edit(text: &mut String, c: lt::TextDocumentContentChangeEvent) {
    let Some(range) = c.range else {
        *text = c.text;
        return;
    };
    let offset = |p: lt::Position| -> usize {
        let mut line_start = 0usize;
        for _ in 0..p.line {
            match text[line_start..].find('\n') {
                Some(i) => line_start += i + 1,
                None => return text.len(),
            }
        }
        let line_end = text[line_start..].find('\n').map_or(text.len(), |i| line_start + i);
        line_start + convert::byte_col(&text[line_start..line_end], p.character) as usize
    };
    let (s, e) = (offset(range.start), offset(range.end));
    if s <= e {
        text.replace_range(s..e, &c.text);
    }
}
