//! The server driven over LSP with in-memory pipes, on real `.cu` files
//! preprocessed by the pinned toolkit's nvcc (fetched once, cached).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use lsp_types as lt;
use lsp_types::notification::Notification as _;
use serde_json::{Value, json};

const HEADER: &str = r#"#pragma once
struct Pair { int a; double b; };
__global__ void scale(Pair *p, int n);
__device__ inline int twice(int x) { return 2 * x; }
"#;

const MAIN: &str = r#"#include "k.cuh"
#define N 4

__constant__ int table[N];

__global__ void scale(Pair *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i].a = twice(p[i].a) + table[0]
}

int main() {
  Pair *p = nullptr;
  scale<<<1, N>>>(p, N);
  return 0;
}
"#;

struct Client {
    conn: Connection,
    next: i32,
    /// Notifications received while waiting for something else.
    seen: Vec<Notification>,
}

impl Client {
    fn request<R: lt::request::Request>(&mut self, params: R::Params) -> Response {
        self.next += 1;
        let id = RequestId::from(self.next);
        self.conn.sender.send(Message::Request(Request::new(id.clone(), R::METHOD.into(), params))).unwrap();
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            match self.recv(deadline) {
                Message::Response(r) if r.id == id => return r,
                Message::Notification(n) => self.seen.push(n),
                _ => {}
            }
        }
    }

    fn notify<N: lt::notification::Notification>(&self, params: N::Params) {
        self.conn.sender.send(Message::Notification(Notification::new(N::METHOD.into(), params))).unwrap();
    }

    fn recv(&mut self, deadline: Instant) -> Message {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let msg = self.conn.receiver.recv_timeout(left).expect("the server answers in time");
            // Server-to-client requests (progress creation) are acknowledged.
            if let Message::Request(req) = &msg {
                self.conn.sender.send(Message::Response(Response::new_ok(req.id.clone(), Value::Null))).unwrap();
                continue;
            }
            return msg;
        }
    }

    /// Waits for the end of a load's progress (both views loaded): the
    /// diagnostics of `uri` published after it (those before are forgotten).
    fn wait_loaded(&mut self, uri: &lt::Url) -> Vec<lt::Diagnostic> {
        let is_end = |n: &Notification| n.method == "$/progress" && n.params["value"]["kind"] == "end";
        let deadline = Instant::now() + Duration::from_secs(120);
        while !self.seen.iter().any(is_end) {
            if let Message::Notification(n) = self.recv(deadline) {
                self.seen.push(n);
            }
        }
        let end = self.seen.iter().position(is_end).expect("seen");
        let mut i = 0;
        self.seen.retain(|n| {
            i += 1;
            i > end + 1 || n.method != lt::notification::PublishDiagnostics::METHOD
        });
        self.diagnostics_for(uri)
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics_for(&mut self, uri: &lt::Url) -> Vec<lt::Diagnostic> {
        if let Some(i) = self.seen.iter().position(|n| is_diags_for(n, uri)) {
            let n = self.seen.remove(i);
            return serde_json::from_value::<lt::PublishDiagnosticsParams>(n.params).unwrap().diagnostics;
        }
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            if let Message::Notification(n) = self.recv(deadline) {
                if is_diags_for(&n, uri) {
                    return serde_json::from_value::<lt::PublishDiagnosticsParams>(n.params).unwrap().diagnostics;
                }
                self.seen.push(n);
            }
        }
    }
}

fn is_diags_for(n: &Notification, uri: &lt::Url) -> bool {
    n.method == lt::notification::PublishDiagnostics::METHOD
        && n.params.get("uri").and_then(Value::as_str) == Some(uri.as_str())
}

fn workspace(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cufront-lsp-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("k.cuh"), HEADER).unwrap();
    std::fs::write(dir.join("main.cu"), MAIN).unwrap();
    let cc =
        json!([{ "directory": dir, "file": "main.cu", "command": "nvcc -std=c++17 -arch=sm_90 -c main.cu -o main.o" }]);
    std::fs::write(dir.join("compile_commands.json"), cc.to_string()).unwrap();
    dir
}

fn pos(text: &str, needle: &str) -> lt::Position {
    let at = text.find(needle).unwrap_or_else(|| panic!("{needle}"));
    let line = text[..at].matches('\n').count() as u32;
    let col = at - text[..at].rfind('\n').map_or(0, |i| i + 1);
    lt::Position { line, character: col as u32 }
}

#[test]
fn diagnostics_hover_definition_and_edits_over_lsp() {
    let tk = cufront_tests::toolkit();
    let dir = workspace("main");
    let (server, client) = Connection::memory();
    let config = cufront_lsp::Config { cuda_path: Some(tk.root().to_path_buf()), compile_commands: None, threads: 2 };
    let server = std::thread::spawn(move || cufront_lsp::run(server, config));
    let mut c = Client { conn: client, next: 0, seen: Vec::new() };

    let root = lt::Url::from_file_path(&dir).unwrap();
    #[allow(deprecated)]
    let init = lt::InitializeParams {
        root_uri: Some(root),
        capabilities: lt::ClientCapabilities {
            window: Some(lt::WindowClientCapabilities { work_done_progress: Some(true), ..Default::default() }),
            ..Default::default()
        },
        ..Default::default()
    };
    let r = c.request::<lt::request::Initialize>(init);
    let caps = r.result.unwrap();
    assert_eq!(caps["serverInfo"]["name"], "cufront");
    assert!(caps["capabilities"]["semanticTokensProvider"]["legend"]["tokenModifiers"].to_string().contains("kernel"));
    c.notify::<lt::notification::Initialized>(lt::InitializedParams {});

    let main = dir.join("main.cu");
    let uri = lt::Url::from_file_path(&main).unwrap();
    let t0 = Instant::now();
    c.notify::<lt::notification::DidOpenTextDocument>(lt::DidOpenTextDocumentParams {
        text_document: lt::TextDocumentItem {
            uri: uri.clone(),
            language_id: "cuda".into(),
            version: 1,
            text: MAIN.into(),
        },
    });
    // The missing `;` of line 8, with its EDG number, at the user file's position.
    let diags = c.diagnostics_for(&uri);
    eprintln!("first diagnostics after {:?}", t0.elapsed());
    let got: Vec<String> = diags
        .iter()
        .map(|d| format!("{}:{} {:?} {}", d.range.start.line + 1, d.range.start.character + 1, d.code, d.message))
        .collect();
    assert_eq!(got, ["9:1 Some(Number(65)) expected a \";\""]);
    // Progress was reported around the first load.
    assert!(
        c.seen.iter().any(|n| n.method == "$/progress"),
        "no progress among {:?}",
        c.seen.iter().map(|n| &n.method).collect::<Vec<_>>()
    );

    // The first load ends with the device view (the host pass's
    // diagnostics were shown first).
    let diags = c.wait_loaded(&uri);
    assert_eq!(diags.len(), 1, "{diags:?}");

    let tdp = |p: lt::Position| lt::TextDocumentPositionParams {
        text_document: lt::TextDocumentIdentifier { uri: uri.clone() },
        position: p,
    };
    // Hover on the launch's kernel.
    let r = c.request::<lt::request::HoverRequest>(lt::HoverParams {
        text_document_position_params: tdp(pos(MAIN, "scale<<<")),
        work_done_progress_params: Default::default(),
    });
    let hover: lt::Hover = serde_json::from_value(r.result.unwrap()).unwrap();
    let lt::HoverContents::Markup(m) = hover.contents else { panic!("markup") };
    assert!(m.value.contains("__global__ void scale(Pair *p, int n)"), "{}", m.value);
    assert!(m.value.contains("kernel (`__global__`)"), "{}", m.value);
    assert!(m.value.contains("Mangled: `_Z5scaleP4Pairi`"), "{}", m.value);

    // Definition of `twice`: in the header.
    let r = c.request::<lt::request::GotoDefinition>(lt::GotoDefinitionParams {
        text_document_position_params: tdp(pos(MAIN, "twice(p")),
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
    });
    let locs: Vec<lt::Location> = serde_json::from_value(r.result.unwrap()).unwrap();
    assert_eq!(locs.len(), 1);
    assert_eq!(locs[0].uri, lt::Url::from_file_path(dir.join("k.cuh")).unwrap());
    assert_eq!(locs[0].range.start, pos(HEADER, "twice(int"));

    // Fix the error with an edit inside the body: patched in place, no preprocessor.
    let at = pos(MAIN, "\n}\n\nint main");
    let t1 = Instant::now();
    c.notify::<lt::notification::DidChangeTextDocument>(lt::DidChangeTextDocumentParams {
        text_document: lt::VersionedTextDocumentIdentifier { uri: uri.clone(), version: 2 },
        content_changes: vec![lt::TextDocumentContentChangeEvent {
            range: Some(lt::Range { start: at, end: at }),
            range_length: None,
            text: ";".into(),
        }],
    });
    let diags = c.diagnostics_for(&uri);
    eprintln!("diagnostics after the edit: {:?}", t1.elapsed());
    assert!(diags.is_empty(), "{diags:?}");

    // Semantic tokens tell the kernel and the constant variable apart.
    let r = c.request::<lt::request::SemanticTokensFullRequest>(lt::SemanticTokensParams {
        text_document: lt::TextDocumentIdentifier { uri: uri.clone() },
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
    });
    let toks: lt::SemanticTokens = serde_json::from_value(r.result.unwrap()).unwrap();
    let legend: Vec<String> =
        serde_json::from_value(caps["capabilities"]["semanticTokensProvider"]["legend"]["tokenModifiers"].clone())
            .unwrap();
    let (mut line, mut col) = (0, 0);
    let mut found = Vec::new();
    for t in &toks.data {
        if t.delta_line > 0 {
            line += t.delta_line;
            col = t.delta_start;
        } else {
            col += t.delta_start;
        }
        let text = MAIN.lines().nth(line as usize).unwrap();
        let name = &text[col as usize..(col + t.length) as usize];
        let mods: Vec<&str> = legend
            .iter()
            .enumerate()
            .filter(|(i, _)| t.token_modifiers_bitset & (1 << i) != 0)
            .map(|(_, m)| m.as_str())
            .collect();
        found.push(format!("{}:{name}:{}", line + 1, mods.join(",")));
    }
    assert!(found.contains(&"4:table:declaration,definition,constantMemory".to_string()), "{found:?}");
    assert!(found.contains(&"13:scale:kernel".to_string()), "{found:?}");
    assert!(found.contains(&"8:twice:device".to_string()), "{found:?}");

    // An edit that uses a macro needs the preprocessor again: still answered.
    let at = pos(MAIN, "table[0]");
    c.notify::<lt::notification::DidChangeTextDocument>(lt::DidChangeTextDocumentParams {
        text_document: lt::VersionedTextDocumentIdentifier { uri: uri.clone(), version: 3 },
        content_changes: vec![lt::TextDocumentContentChangeEvent {
            range: Some(lt::Range { start: at, end: lt::Position { line: at.line, character: at.character + 8 } }),
            range_length: None,
            text: "table[N - 1]".into(),
        }],
    });
    let diags = c.diagnostics_for(&uri);
    assert!(diags.is_empty(), "{diags:?}");

    let r = c.request::<lt::request::DocumentSymbolRequest>(lt::DocumentSymbolParams {
        text_document: lt::TextDocumentIdentifier { uri: uri.clone() },
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
    });
    let names: Vec<String> =
        r.result.unwrap().as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap().to_string()).collect();
    assert_eq!(names, ["table", "scale", "main"]);

    // Completion in the kernel's body offers the device function, signature
    // help in the launch's argument list shows the kernel.
    let mut at = pos(MAIN, "twice(p");
    at.character += 2;
    let r = c.request::<lt::request::Completion>(lt::CompletionParams {
        text_document_position: tdp(at),
        work_done_progress_params: Default::default(),
        partial_result_params: Default::default(),
        context: None,
    });
    let labels: Vec<String> =
        r.result.unwrap().as_array().unwrap().iter().map(|i| i["label"].as_str().unwrap().to_string()).collect();
    assert!(labels.contains(&"twice".to_string()), "{labels:?}");
    let mut at = pos(MAIN, "p, N);");
    at.character += 1;
    let r = c.request::<lt::request::SignatureHelpRequest>(lt::SignatureHelpParams {
        text_document_position_params: tdp(at),
        work_done_progress_params: Default::default(),
        context: None,
    });
    let help: lt::SignatureHelp = serde_json::from_value(r.result.unwrap()).unwrap();
    assert_eq!(help.signatures[0].label, "__global__ void scale(Pair *p, int n)");
    assert_eq!(help.active_parameter, Some(0));

    // A file whose preprocessing fails shows the compiler's message where it points.
    let bad = dir.join("bad.cu");
    let bad_text = "// a missing header\n#include \"nope.h\"\n__global__ void k() {}\n";
    std::fs::write(&bad, bad_text).unwrap();
    let bad_uri = lt::Url::from_file_path(&bad).unwrap();
    c.notify::<lt::notification::DidOpenTextDocument>(lt::DidOpenTextDocumentParams {
        text_document: lt::TextDocumentItem {
            uri: bad_uri.clone(),
            language_id: "cuda".into(),
            version: 1,
            text: bad_text.into(),
        },
    });
    let diags = c.diagnostics_for(&bad_uri);
    let got: Vec<String> = diags
        .iter()
        .map(|d| format!("{}:{} {}", d.range.start.line + 1, d.range.start.character + 1, d.message))
        .collect();
    assert_eq!(got, ["2:10 nope.h: No such file or directory"]);

    c.request::<lt::request::Shutdown>(());
    c.notify::<lt::notification::Exit>(());
    server.join().unwrap().unwrap();
    let _ = std::fs::remove_dir_all(Path::new(&dir));
}

/// A file the host pass accepts and cicc's front end does not: device-only
/// code under `__CUDA_ARCH__`, a host function called from device code.
const DEVICE_ERRORS: &str = r#"void h() {}
__device__ void d() { h(); }
__global__ void k(int n) { int unused_local; d(); }
#ifdef __CUDA_ARCH__
__device__ int dev_only = 1
#endif
"#;

/// What `nvcc -c` prints for `file` (in `dir`): (line, text) of each error
/// and warning, in its order; an error "At end of source" is on the file's
/// last line (where the editor shows it).
fn nvcc_diagnostics(tk: &cufront_toolkit::Toolkit, dir: &Path, file: &str) -> Vec<String> {
    let last_line = std::fs::read_to_string(dir.join(file)).unwrap().lines().count();
    let out = std::process::Command::new(tk.root().join("bin/nvcc"))
        .args(["-std=c++17", "-arch=sm_90", "-c", file, "-o", "/dev/null"])
        .current_dir(dir)
        .output()
        .expect("nvcc runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut got = Vec::new();
    for l in stderr.lines() {
        if let Some(text) = l.strip_prefix("At end of source: error: ") {
            got.push(format!("{last_line}: {text}"));
            continue;
        }
        let Some(rest) = l.strip_prefix(file).and_then(|r| r.strip_prefix('(')) else { continue };
        let Some((line, rest)) = rest.split_once("): ") else { continue };
        let text = rest
            .strip_prefix("error: ")
            .or_else(|| rest.strip_prefix("warning #").and_then(|w| w.split_once("-D: ").map(|(_, t)| t)));
        if let Some(text) = text {
            got.push(format!("{line}: {text}"));
        }
    }
    got
}

#[test]
fn device_pass_diagnostics_as_nvcc_reports_them() {
    let tk = cufront_tests::toolkit();
    let dir = workspace("device");
    std::fs::write(dir.join("dev.cu"), DEVICE_ERRORS).unwrap();
    let (server, client) = Connection::memory();
    let config = cufront_lsp::Config { cuda_path: Some(tk.root().to_path_buf()), compile_commands: None, threads: 2 };
    let server = std::thread::spawn(move || cufront_lsp::run(server, config));
    let mut c = Client { conn: client, next: 0, seen: Vec::new() };
    #[allow(deprecated)]
    let init = lt::InitializeParams { root_uri: Some(lt::Url::from_file_path(&dir).unwrap()), ..Default::default() };
    c.request::<lt::request::Initialize>(init);
    c.notify::<lt::notification::Initialized>(lt::InitializedParams {});
    let uri = lt::Url::from_file_path(dir.join("dev.cu")).unwrap();
    c.notify::<lt::notification::DidOpenTextDocument>(lt::DidOpenTextDocumentParams {
        text_document: lt::TextDocumentItem {
            uri: uri.clone(),
            language_id: "cuda".into(),
            version: 1,
            text: DEVICE_ERRORS.into(),
        },
    });
    let shown = |diags: &[lt::Diagnostic]| -> Vec<String> {
        diags.iter().map(|d| format!("{}: {}", d.range.start.line + 1, d.message)).collect()
    };
    // The device-only syntax error: cicc's front end stops its late phase.
    let want = nvcc_diagnostics(tk, &dir, "dev.cu");
    assert_eq!(
        want,
        ["3: variable \"unused_local\" was declared but never referenced", "6: expected a \";\""],
        "nvcc's own report changed"
    );
    // The first publication may be the host pass's alone (shown while the
    // device view is made); the next one has both.
    let first = shown(&c.diagnostics_for(&uri));
    if first != want {
        assert!(first.is_empty(), "{first:?}");
        assert_eq!(shown(&c.diagnostics_for(&uri)), want);
    }

    // Fixed in the editor (inside the `#ifdef` group: the preprocessor runs
    // again): the late phase's findings, as nvcc prints them for the fixed file.
    let at = pos(DEVICE_ERRORS, "= 1\n");
    c.notify::<lt::notification::DidChangeTextDocument>(lt::DidChangeTextDocumentParams {
        text_document: lt::VersionedTextDocumentIdentifier { uri: uri.clone(), version: 2 },
        content_changes: vec![lt::TextDocumentContentChangeEvent {
            range: Some(lt::Range {
                start: lt::Position { line: at.line, character: at.character + 3 },
                end: lt::Position { line: at.line, character: at.character + 3 },
            }),
            range_length: None,
            text: ";".into(),
        }],
    });
    std::fs::write(dir.join("dev.cu"), DEVICE_ERRORS.replace("= 1\n", "= 1;\n")).unwrap();
    let want = nvcc_diagnostics(tk, &dir, "dev.cu");
    assert_eq!(want.len(), 3, "{want:?}");
    // Diagnostics are published after each change; the last one is of the fixed text.
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let got = shown(&c.diagnostics_for(&uri));
        if got == want {
            break;
        }
        assert!(Instant::now() < deadline, "{got:?} != {want:?}");
    }

    c.request::<lt::request::Shutdown>(());
    c.notify::<lt::notification::Exit>(());
    server.join().unwrap().unwrap();
    let _ = std::fs::remove_dir_all(Path::new(&dir));
}

/// Closing the last open file of a unit drops the unit (an editor session
/// that opens and closes files does not grow without bound); opening it
/// again loads it again.
#[test]
fn closing_a_units_files_drops_it() {
    let tk = cufront_tests::toolkit();
    let dir = workspace("close");
    let (server, client) = Connection::memory();
    let config = cufront_lsp::Config { cuda_path: Some(tk.root().to_path_buf()), compile_commands: None, threads: 2 };
    let server = std::thread::spawn(move || cufront_lsp::run(server, config));
    let mut c = Client { conn: client, next: 0, seen: Vec::new() };
    #[allow(deprecated)]
    let init = lt::InitializeParams {
        root_uri: Some(lt::Url::from_file_path(&dir).unwrap()),
        capabilities: lt::ClientCapabilities {
            window: Some(lt::WindowClientCapabilities { work_done_progress: Some(true), ..Default::default() }),
            ..Default::default()
        },
        ..Default::default()
    };
    c.request::<lt::request::Initialize>(init);
    c.notify::<lt::notification::Initialized>(lt::InitializedParams {});
    let uri = lt::Url::from_file_path(dir.join("main.cu")).unwrap();
    let open = |c: &mut Client| {
        // `wait_loaded` waits for a progress end: not an earlier load's.
        c.seen.clear();
        c.notify::<lt::notification::DidOpenTextDocument>(lt::DidOpenTextDocumentParams {
            text_document: lt::TextDocumentItem {
                uri: uri.clone(),
                language_id: "cuda".into(),
                version: 1,
                text: MAIN.into(),
            },
        });
        c.wait_loaded(&uri);
    };
    let kernels = |c: &mut Client| -> usize {
        let params = lt::WorkspaceSymbolParams { query: "scale".into(), ..Default::default() };
        let r = c.request::<lt::request::WorkspaceSymbolRequest>(params);
        r.result.unwrap().as_array().map_or(0, |a| a.len())
    };
    open(&mut c);
    assert!(kernels(&mut c) > 0, "the unit's kernel is a workspace symbol");
    c.notify::<lt::notification::DidCloseTextDocument>(lt::DidCloseTextDocumentParams {
        text_document: lt::TextDocumentIdentifier { uri: uri.clone() },
    });
    assert_eq!(kernels(&mut c), 0, "the closed unit is gone");
    open(&mut c);
    assert!(kernels(&mut c) > 0, "opened again, loaded again");
    c.request::<lt::request::Shutdown>(());
    c.notify::<lt::notification::Exit>(());
    server.join().unwrap().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
