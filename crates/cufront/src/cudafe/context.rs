//! What a cudafe++ run reads of the process it runs for: the working
//! directory (relative paths, the SARIF base, the module id's fallback),
//! the process id (the module id's fallback), the environment (colours,
//! `CUFRONT_ALL_BODIES`), whether stderr is a terminal, and the database.
//!
//! In-process ([`Context::process`]) these are the process's own, read where
//! the run needs them, and the database is fresh and leaked at the end (the
//! process is about to exit). For a daemon client ([`Context::client`]) they
//! are the client's, as sent in its request: the daemon serves many clients
//! at once, so its own working directory (process-global) is never used —
//! relative paths are joined to the client's — and the unit's database is
//! kept for the next run of the same input (salsa recomputes what the new
//! text changes).

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use cufront_base_db::{self as base_db, LangOptions, Options, RootDatabase, TranslationUnit};
use salsa::{Durability, Setter};

pub struct Context {
    client: Option<Client>,
    /// The unit this run starts from (a daemon's cache), then the one it
    /// leaves for the next run.
    pub unit: Option<Unit>,
}

struct Client {
    /// Is the client still there? A run whose client is gone writes no
    /// output (a killed or interrupted cudafe++ writes none either).
    alive: Option<Box<dyn Fn() -> bool + Send>>,
    cwd: PathBuf,
    pid: u32,
    env: HashMap<OsString, OsString>,
    stderr_is_tty: bool,
    /// The daemon's pool: its units share the trees of equal header items.
    pool: Option<Arc<base_db::GreenPool>>,
}

/// A translation unit's database and inputs.
pub struct Unit {
    pub db: RootDatabase,
    pub tu: TranslationUnit,
    pub options: Options,
    /// Gives the unit's trees back to the daemon's pool when the unit goes.
    pub pooled: PoolRelease,
}

/// Releases a unit from the green pool its database shares with the
/// daemon's other units ([`base_db::GreenPool`]) when dropped: evicted,
/// replaced, or dropped by a run that failed.
#[derive(Default)]
pub struct PoolRelease(Option<(Arc<base_db::GreenPool>, base_db::Owner)>);

impl Drop for PoolRelease {
    fn drop(&mut self) {
        if let Some((pool, owner)) = &self.0 {
            pool.release(*owner);
        }
    }
}

impl Unit {
    /// The unit for this run: `prev` with its inputs set to `name`, `text`
    /// and `lang` (only those that changed, so salsa keeps what they do not
    /// affect), else a fresh database (sharing trees through `pool`).
    pub fn load(
        prev: Option<Unit>,
        name: String,
        text: Arc<str>,
        lang: LangOptions,
        pool: Option<&Arc<base_db::GreenPool>>,
    ) -> Unit {
        let Some(mut u) = prev else {
            let db = match pool {
                Some(pool) => RootDatabase::sharing(pool.clone()),
                None => RootDatabase::new(),
            };
            let options = base_db::new_options(&db, lang);
            let tu = base_db::new_translation_unit(&db, name, text, options);
            let pooled = PoolRelease(pool.map(|p| (p.clone(), base_db::SourceDatabase::pool_owner(&db, tu))));
            return Unit { db, tu, options, pooled };
        };
        let same_lang = *u.options.lang(&u.db) == lang;
        if !same_lang {
            u.options.set_lang(&mut u.db).with_durability(Durability::HIGH).to(lang);
        }
        if *u.tu.name(&u.db) != name {
            u.tu.set_name(&mut u.db).to(name);
        }
        if **u.tu.text(&u.db) != *text {
            // An edit under the same options starts from the last parse
            // (`parse` reparses only an edited function body when it can);
            // under other options the text is parsed anew anyway.
            if same_lang {
                base_db::edit_text(&mut u.db, u.tu, text);
            } else {
                u.tu.set_text(&mut u.db).to(text);
            }
        }
        u
    }
}

impl Context {
    /// This process's own context.
    pub fn process() -> Context {
        Context { client: None, unit: None }
    }

    /// A daemon client's context (`cwd` absolute), starting from `unit`.
    pub fn client(
        cwd: PathBuf,
        pid: u32,
        env: impl IntoIterator<Item = (OsString, OsString)>,
        stderr_is_tty: bool,
        unit: Option<Unit>,
    ) -> Context {
        let env = env.into_iter().collect();
        Context { client: Some(Client { alive: None, cwd, pid, env, stderr_is_tty, pool: None }), unit }
    }

    /// A new unit of this client's shares trees through `pool`.
    pub fn set_pool(&mut self, pool: Arc<base_db::GreenPool>) {
        if let Some(c) = &mut self.client {
            c.pool = Some(pool);
        }
    }

    /// How to tell whether the client is still connected.
    pub fn set_liveness(&mut self, alive: Box<dyn Fn() -> bool + Send>) {
        if let Some(c) = &mut self.client {
            c.alive = Some(alive);
        }
    }

    /// The process the run is for is gone (a daemon client killed or
    /// interrupted): its outputs must not be written.
    pub fn client_gone(&self) -> bool {
        self.client.as_ref().and_then(|c| c.alive.as_ref()).is_some_and(|alive| !alive())
    }

    /// `std::env::current_dir()` of the process the run is for.
    pub fn current_dir(&self) -> std::io::Result<PathBuf> {
        match &self.client {
            Some(c) => Ok(c.cwd.clone()),
            None => std::env::current_dir(),
        }
    }

    /// `std::process::id()` of the process the run is for.
    pub fn pid(&self) -> u32 {
        self.client.as_ref().map_or_else(std::process::id, |c| c.pid)
    }

    /// `std::env::var_os` of the process the run is for.
    pub fn var_os(&self, key: &str) -> Option<OsString> {
        match &self.client {
            Some(c) => c.env.get(std::ffi::OsStr::new(key)).cloned(),
            None => std::env::var_os(key),
        }
    }

    /// `std::env::var(key).ok()` of the process the run is for (a value
    /// that is not UTF-8 is absent, as there).
    pub fn var(&self, key: &str) -> Option<String> {
        self.var_os(key)?.into_string().ok()
    }

    pub fn stderr_is_tty(&self) -> bool {
        use std::io::IsTerminal;
        self.client.as_ref().map_or_else(|| std::io::stderr().is_terminal(), |c| c.stderr_is_tty)
    }

    /// Where `path` (as the command line gives it) is opened: in-process as
    /// given, for a client relative to the client's directory.
    pub fn path(&self, path: impl AsRef<Path>) -> PathBuf {
        match &self.client {
            Some(c) => c.cwd.join(path),
            None => path.as_ref().to_path_buf(),
        }
    }

    /// The unit for `name` with `text` and `lang` (see [`Unit::load`]).
    pub fn load_unit(&mut self, name: String, text: Arc<str>, lang: LangOptions) -> Unit {
        let pool = self.client.as_ref().and_then(|c| c.pool.as_ref());
        Unit::load(self.unit.take(), name, text, lang, pool)
    }

    /// Ends a run. In-process nothing is freed (the process exits: freeing
    /// trees node by node, the database and the text would only cost time);
    /// for a client the unit is kept and the rest dropped.
    pub fn finish<T>(&mut self, unit: Unit, scratch: T) {
        if self.client.is_some() {
            self.unit = Some(unit);
            drop(scratch);
        } else {
            std::mem::forget(unit);
            std::mem::forget(scratch);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lang() -> LangOptions {
        LangOptions { lazy_bodies: true, ..LangOptions::default() }
    }

    /// A unit whose database logs the queries it executes.
    fn logged(text: &str) -> (Unit, base_db::EventSink) {
        let sink = base_db::EventSink::default();
        let db = RootDatabase::with_execution_log(sink.clone());
        let options = base_db::new_options(&db, lang());
        let tu = base_db::new_translation_unit(&db, "a.ii".into(), Arc::from(text), options);
        (Unit { db, tu, options, pooled: PoolRelease::default() }, sink)
    }

    fn parses(sink: &base_db::EventSink) -> usize {
        let mut log = sink.lock().unwrap();
        let n = log.iter().filter(|e| e.starts_with("parse(")).count();
        log.clear();
        n
    }

    #[test]
    fn a_reloaded_unit_recomputes_only_what_changed() {
        let (u, sink) = logged("int f() { return 1; }\n");
        base_db::parse(&u.db, u.tu);
        assert_eq!(parses(&sink), 1);
        // Same text, name and options: nothing is set, nothing re-runs.
        let u = Unit::load(Some(u), "a.ii".into(), Arc::from("int f() { return 1; }\n"), lang(), None);
        base_db::parse(&u.db, u.tu);
        assert_eq!(parses(&sink), 0);
        // An edited body: the unit's parse re-runs, with the new text, from
        // the last parse (the other function's body is the same green node).
        let u = Unit::load(
            Some(u),
            "a.ii".into(),
            Arc::from("int f() { return 2; }\nint g() { return 3; }\n"),
            lang(),
            None,
        );
        let p = base_db::parse(&u.db, u.tu).clone();
        assert_eq!(parses(&sink), 1);
        assert!(p.syntax_node().text().to_string().contains("return 2"));
        let u = Unit::load(
            Some(u),
            "a.ii".into(),
            Arc::from("int f() { return 4; }\nint g() { return 3; }\n"),
            lang(),
            None,
        );
        let q = base_db::parse(&u.db, u.tu);
        assert_eq!(parses(&sink), 1);
        assert_eq!(q.syntax_node().text().to_string(), "int f() { return 4; }\nint g() { return 3; }\n");
        let g = |p: &cufront_syntax::Parse| p.syntax_node().children().nth(1).unwrap().green().into_owned();
        assert!(std::ptr::eq(&*g(&p), &*g(q)), "the unedited function's tree is shared with the last parse");
        // Other options: the options input is set and the parse follows it.
        let cxx20 = LangOptions { standard: base_db::LangStandard::Cxx20, ..lang() };
        let u = Unit::load(Some(u), "b.ii".into(), Arc::from("int f() { return 2; }\n"), cxx20.clone(), None);
        assert_eq!(*u.options.lang(&u.db), cxx20);
        assert_eq!(u.tu.name(&u.db), "b.ii");
    }

    #[test]
    fn a_client_context_reads_the_client_not_the_process() {
        let env = [(OsString::from("TERM"), OsString::from("dumb")), (OsString::from("X"), OsString::from("1"))];
        let ctx = Context::client(PathBuf::from("/client/dir"), 4242, env, true, None);
        assert_eq!(ctx.current_dir().unwrap(), Path::new("/client/dir"));
        assert_eq!(ctx.pid(), 4242);
        assert_eq!(ctx.var("TERM").as_deref(), Some("dumb"));
        assert_eq!(ctx.var("PATH"), None);
        assert!(ctx.stderr_is_tty());
        assert_eq!(ctx.path("out/x.c"), Path::new("/client/dir/out/x.c"));
        assert_eq!(ctx.path("/abs/x.c"), Path::new("/abs/x.c"));
        let own = Context::process();
        assert_eq!(own.path("out/x.c"), Path::new("out/x.c"));
        assert_eq!(own.pid(), std::process::id());
    }
}
