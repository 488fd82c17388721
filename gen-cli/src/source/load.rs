//! Loading the module tree from files, following rustc's rules for where `mod x;` lives, with
//! the files read and parsed on every core.
//!
//! The state rustc keeps per module is mirrored by [`Dir`]: the directory its children are
//! found in, plus the name of a non-`mod.rs` file (`a.rs` puts its children in `a/`).
//!
//! syn's trees hold spans that mean something only on the thread that parsed them, so a tree
//! never leaves its thread. Each loader thread takes files from a shared queue, parses them,
//! queues the files their `mod x;` items name, shows the [`Visitor`] each module's items and
//! keeps what it returns, and sends back each module's [`Outline`]. The calling thread then
//! assembles the module tree in rustc's order (whatever order the files were read in), reports
//! the first error in that order, and binds names; each loader thread then finishes its own
//! modules against the complete crate.

use std::collections::{HashMap, VecDeque};
use std::fs;
use std::io;
use std::mem;
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock};
use std::thread;

use kubegen_core::model::Loc;
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{Expr, ExprLit, Item, ItemMod, Lit, Meta, Visibility};

use super::bind::{self, Names};
use super::cfg::Cfg;
use super::error::{SourceError, file_start, span_loc};
use super::id::ModuleId;
use super::krate::{Crate, Module};
use super::origin::Origin;
use super::outline::{Outline, outline};
use super::scope::Scope;

/// What [`Crate::load_with`] shows each module's items to, on the thread that parsed them.
pub trait Visitor: Sync {
    /// What a module's items give; it stays on the thread that read them (it may hold syntax).
    type Read;
    /// What a module gives once the crate is complete.
    type Output: Send;

    /// Reads one module's items, as soon as its file is parsed (modules come in no particular
    /// order). It may take what it needs out of them: they are dropped afterwards.
    fn read(&self, origin: &Origin, items: &mut [Item]) -> Self::Read;

    /// Finishes module `id` of the complete crate with what [`Visitor::read`] gave for it, on
    /// the same thread.
    fn finish(&self, krate: &Crate, id: ModuleId, read: Self::Read) -> Self::Output;
}

/// Reads nothing.
impl Visitor for () {
    type Read = ();
    type Output = ();
    fn read(&self, _: &Origin, _: &mut [Item]) {}
    fn finish(&self, _: &Crate, _: ModuleId, _: ()) {}
}

impl Crate {
    /// Reads the crate whose root file (`lib.rs`, `main.rs`) is `root_file`, following every
    /// `mod` as rustc does, configured by `cfg` as a build is (items, fields and variants
    /// whose `cfg` does not hold are left out, `cfg_attr`s are expanded), and indexes the
    /// names each module defines and imports.
    ///
    /// Each file is read and parsed once. Paths in [`SourceError`]s and [`Loc`]s are
    /// `root_file` joined with the relative paths found, so a relative `root_file` gives
    /// relative locations.
    ///
    /// # Errors
    ///
    /// A file that cannot be read or parsed, a `mod` whose file is missing (or is both `x.rs`
    /// and `x/mod.rs`), a malformed `#[path]` or `cfg`, and `#[path]`s that include a file in
    /// itself: the first of them in the order rustc meets modules.
    pub fn load(name: &str, root_file: &Path, cfg: &Cfg) -> Result<Crate, SourceError> {
        Crate::load_with(name, root_file, cfg, &()).map(|(krate, _)| krate)
    }

    /// [`Crate::load`], showing `visitor` each module's items on the thread that parsed them,
    /// and then the complete crate: the crate, and each module's [`Visitor::Output`] by id.
    ///
    /// # Errors
    ///
    /// As [`Crate::load`].
    pub fn load_with<V: Visitor>(
        name: &str,
        root_file: &Path,
        cfg: &Cfg,
        visitor: &V,
    ) -> Result<(Crate, Vec<V::Output>), SourceError> {
        let file_name = root_file.display().to_string();
        let root = Job {
            origin: Origin {
                path: Vec::new(),
                file: root_file.to_owned(),
                file_name: file_name.clone(),
            },
            file_stem: None,
            decl: None,
            chain: vec![(
                fs::canonicalize(root_file).unwrap_or_else(|_| root_file.to_owned()),
                file_name,
            )],
        };
        let shared = Shared {
            visitor,
            cfg,
            queue: Mutex::new(Queue::default()),
            changed: Condvar::new(),
            assembled: OnceLock::new(),
        };
        shared.push(root);
        let threads = thread::available_parallelism().map_or(1, |n| n.get());
        let mut outputs = thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .map(|_| scope.spawn(|| shared.work()))
                .collect();
            // `None`: a loader thread panicked, and its panic is raised again when it is joined.
            let (assembled, failed) = match shared.wait_read().map(|f| assemble(name, f)) {
                Some(Ok(assembled)) => (Some(assembled), None),
                Some(Err(failed)) => (None, Some(failed)),
                None => (None, None),
            };
            shared.publish(assembled);
            let mut outputs = Vec::new();
            for worker in workers {
                match worker.join() {
                    Ok(found) => outputs.extend(found),
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
            match failed {
                Some(e) => Err(e),
                None => Ok(outputs),
            }
        })?;
        // Set before the threads were joined: `None` only when loading failed, returned above.
        let assembled = shared
            .assembled
            .into_inner()
            .flatten()
            .expect("the crate was assembled");
        outputs.sort_by_key(|(id, _)| *id);
        let outputs = outputs.into_iter().map(|(_, output)| output).collect();
        Ok((assembled.krate, outputs))
    }
}

/// Where a module's `mod x;` children are: rustc's `dir_path` and `DirOwnership`.
struct Dir {
    /// The directory of the module's file (for an inline module: that plus the inline names).
    path: PathBuf,
    /// `Some("a")` for a module in `a.rs` (not `mod.rs`, not a root, not `#[path]`): its
    /// children are in `a/`.
    file_stem: Option<String>,
}

/// A file to read: a module with its own file.
struct Job {
    origin: Origin,
    /// [`Dir::file_stem`] of its module.
    file_stem: Option<String>,
    /// The `mod` item asking for it and the module's name; `None` for the crate root.
    decl: Option<(Loc, String)>,
    /// The files including it and itself, outermost first (canonical path, name as shown), to
    /// reject a `#[path]` that includes a file that is including it.
    chain: Vec<(PathBuf, String)>,
}

/// What reading a file gave: its modules (its own first, then the inline ones), or `None`
/// for a module file under a `#![cfg]` that does not hold.
type FileResult = Result<Option<Vec<ReadModule>>, SourceError>;

/// One module as its loader thread read it.
struct ReadModule {
    origin: Origin,
    outline: Outline,
    /// Its `mod` items, in source order; reading stopped at a [`Child::Failed`].
    children: Vec<Child>,
}

/// A `mod` item of a module that was read.
enum Child {
    /// `mod name { .. }`: the module at this index of the same file's modules.
    Inline(String, usize),
    /// `mod name;`: the file of the job with this number.
    File(String, usize),
    /// A `mod` whose file cannot be found, or is included in itself, a malformed `#[path]`,
    /// or a malformed `cfg` in the module.
    Failed(SourceError),
}

/// The files to read, and what was read.
#[derive(Default)]
struct Queue {
    jobs: VecDeque<(usize, Job)>,
    /// By job number; `None` until read.
    results: Vec<Option<FileResult>>,
    /// Jobs queued or being read.
    busy: usize,
    /// A loader thread panicked: stop.
    panicked: bool,
}

/// The complete crate, and the id of each module read, by job number and index in its file.
struct Assembled {
    krate: Crate,
    ids: Vec<Vec<Option<ModuleId>>>,
}

/// What the loader threads share.
struct Shared<'v, V: Visitor> {
    visitor: &'v V,
    cfg: &'v Cfg,
    queue: Mutex<Queue>,
    /// Signalled when a job is queued, when the last job is done, and when `assembled` is set.
    changed: Condvar,
    /// Set once every file is read: the crate, or `None` when loading failed.
    assembled: OnceLock<Option<Assembled>>,
}

/// A loader thread's modules, by job number and index in its file, with what the visitor read.
type Reads<R> = Vec<(usize, usize, R)>;

impl<V: Visitor> Shared<'_, V> {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        // A thread that panics never holds the lock (see `Running`).
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queues a file; its job number.
    fn push(&self, job: Job) -> usize {
        let mut queue = self.lock();
        let id = queue.results.len();
        queue.results.push(None);
        queue.jobs.push_back((id, job));
        queue.busy += 1;
        self.changed.notify_one();
        id
    }

    /// The next file to read; `None` once every file is read.
    fn next(&self) -> Option<(usize, Job)> {
        let mut queue = self.lock();
        loop {
            if queue.panicked {
                return None;
            }
            if let Some(job) = queue.jobs.pop_front() {
                return Some(job);
            }
            if queue.busy == 0 {
                return None;
            }
            queue = self.changed.wait(queue).unwrap_or_else(|e| e.into_inner());
        }
    }

    fn done(&self, id: usize, result: FileResult) {
        let mut queue = self.lock();
        // `id` is the number `push` gave: an index of `results`.
        queue.results[id] = Some(result);
        queue.busy -= 1;
        if queue.busy == 0 {
            self.changed.notify_all();
        }
    }

    /// Waits until every file is read: what each job read, by job number (`None` when a
    /// loader thread panicked).
    fn wait_read(&self) -> Option<Vec<Option<FileResult>>> {
        let mut queue = self.lock();
        while queue.busy > 0 && !queue.panicked {
            queue = self.changed.wait(queue).unwrap_or_else(|e| e.into_inner());
        }
        (!queue.panicked).then(|| mem::take(&mut queue.results))
    }

    /// Hands the loader threads the complete crate (or `None`: stop).
    fn publish(&self, assembled: Option<Assembled>) {
        let _queue = self.lock();
        let _ = self.assembled.set(assembled);
        self.changed.notify_all();
    }

    /// A loader thread: reads files until there are none left, then finishes its modules.
    fn work(&self) -> Vec<(ModuleId, V::Output)> {
        let mut reads = Vec::new();
        {
            let _running = Running(self);
            while let Some((id, job)) = self.next() {
                let result = self.read_file(id, job, &mut reads);
                self.done(id, result);
            }
        }
        let assembled = {
            let mut queue = self.lock();
            loop {
                if let Some(assembled) = self.assembled.get() {
                    break assembled;
                }
                queue = self.changed.wait(queue).unwrap_or_else(|e| e.into_inner());
            }
        };
        let Some(assembled) = assembled else {
            return Vec::new();
        };
        reads
            .into_iter()
            .filter_map(|(job, index, read)| {
                let id = assembled.ids.get(job)?.get(index).copied().flatten()?;
                Some((id, self.visitor.finish(&assembled.krate, id, read)))
            })
            .collect()
    }

    /// Reads and parses one file and the inline modules in it.
    fn read_file(&self, id: usize, job: Job, reads: &mut Reads<V::Read>) -> FileResult {
        let Job {
            origin,
            file_stem,
            decl,
            chain,
        } = job;
        let text = read_source(&origin.file).map_err(|err| match &decl {
            Some((loc, name)) => not_found(err, loc, name, &origin),
            None => SourceError::io(file_start(&origin.file_name), &origin.file, &err),
        })?;
        let mut parsed = syn::parse_file(&text)
            .map_err(|err| SourceError::parse(&origin.file_name, &text, &err))?;
        if decl.is_some() && !self.cfg.keep(&mut parsed.attrs, &origin.file_name)? {
            return Ok(None);
        }
        let dir = Dir {
            path: origin.file.parent().unwrap_or(Path::new("")).to_owned(),
            file_stem,
        };
        let mut file = FileReader {
            shared: self,
            job: id,
            chain: &chain,
            modules: Vec::new(),
            reads,
        };
        // A failure is recorded in the children of its module, where assembly meets it.
        file.module(origin, parsed.items, &dir);
        Ok(Some(file.modules))
    }
}

/// Marks the queue when its loader thread panics, so that nobody waits for it.
struct Running<'s, 'v, V: Visitor>(&'s Shared<'v, V>);

impl<V: Visitor> Drop for Running<'_, '_, V> {
    fn drop(&mut self) {
        if thread::panicking() {
            self.0.lock().panicked = true;
            self.0.changed.notify_all();
        }
    }
}

/// The modules of one file being read.
struct FileReader<'s, 'v, V: Visitor> {
    shared: &'s Shared<'v, V>,
    job: usize,
    chain: &'s [(PathBuf, String)],
    modules: Vec<ReadModule>,
    reads: &'s mut Reads<V::Read>,
}

impl<V: Visitor> FileReader<'_, '_, V> {
    /// Reads a module of this file: its index among the file's modules, and whether reading
    /// stopped at a failure (recorded in the children of the module it is in, where assembly
    /// meets it).
    fn module(&mut self, origin: Origin, items: Vec<Item>, dir: &Dir) -> (usize, bool) {
        let index = self.modules.len();
        self.modules.push(ReadModule {
            origin: origin.clone(),
            outline: Outline::default(),
            children: Vec::new(),
        });
        let items = match self.shared.cfg.configure(items, &origin.file_name) {
            Ok(items) => items,
            Err(failed) => {
                self.modules[index].children.push(Child::Failed(failed));
                return (index, true);
            }
        };
        let mut kept = Vec::with_capacity(items.len());
        for mut item in items {
            if let Item::Mod(decl) = &mut item {
                let (child, stopped) = match self.child(&origin, decl, dir) {
                    Ok(read) => read,
                    Err(failed) => (Child::Failed(failed), true),
                };
                // `index` was pushed at the start of this call.
                self.modules[index].children.push(child);
                if stopped {
                    return (index, true);
                }
            }
            kept.push(item);
        }
        self.modules[index].outline = outline(&origin, &kept);
        let read = self.shared.visitor.read(&origin, &mut kept);
        self.reads.push((self.job, index, read));
        (index, false)
    }

    /// The module `decl` declares in the module `parent`: read now for an inline module (its
    /// items moved out of `decl`), queued for a file; and whether reading stopped inside it.
    fn child(
        &mut self,
        parent: &Origin,
        decl: &mut ItemMod,
        dir: &Dir,
    ) -> Result<(Child, bool), SourceError> {
        let name = decl.ident.unraw().to_string();
        let mut path = parent.path.clone();
        path.push(name.clone());
        let path_attr = path_attribute(decl, &parent.file_name)?;

        if let Some((_, content)) = &mut decl.content {
            // Inline: `#[path]` names the directory; otherwise the children of `mod x { .. }`
            // in `a.rs` are in `a/x/`.
            let child_dir = match path_attr {
                Some(rel) => dir.path.join(rel),
                None => {
                    let mut child_dir = dir.path.clone();
                    child_dir.extend(&dir.file_stem);
                    child_dir.push(&name);
                    child_dir
                }
            };
            let origin = Origin {
                path,
                file: parent.file.clone(),
                file_name: parent.file_name.clone(),
            };
            let dir = Dir {
                path: child_dir,
                file_stem: None,
            };
            let (index, stopped) = self.module(origin, mem::take(content), &dir);
            return Ok((Child::Inline(name, index), stopped));
        }

        let decl_loc = span_loc(&parent.file_name, decl_span(decl));
        let (file, file_stem) = match path_attr {
            // A `#[path]` file counts as a `mod.rs`: its children are its siblings.
            Some(rel) => (dir.path.join(rel), None),
            None => default_file(&name, dir, &decl_loc)?,
        };
        let origin = Origin {
            path,
            file_name: file.display().to_string(),
            file,
        };
        let canonical = fs::canonicalize(&origin.file)
            .map_err(|err| not_found(err, &decl_loc, &name, &origin))?;
        if let Some(pos) = self.chain.iter().position(|(f, _)| *f == canonical) {
            let cycle: Vec<&str> = self.chain[pos..]
                .iter()
                .map(|(_, name)| name.as_str())
                .chain([origin.file_name.as_str()])
                .collect();
            return Err(SourceError::new(
                decl_loc,
                format!("circular modules: {}", cycle.join(" -> ")),
            ));
        }
        let mut chain = self.chain.to_vec();
        chain.push((canonical, origin.file_name.clone()));
        let job = self.shared.push(Job {
            origin,
            file_stem,
            decl: Some((decl_loc, name.clone())),
            chain,
        });
        Ok((Child::File(name, job), false))
    }
}

/// The error for a module file that cannot be found or read.
fn not_found(err: io::Error, decl_loc: &Loc, name: &str, origin: &Origin) -> SourceError {
    match err.kind() {
        io::ErrorKind::NotFound => SourceError::new(
            decl_loc.clone(),
            format!(
                "file not found for module `{name}`: tried `{}`",
                origin.file_name
            ),
        ),
        _ => SourceError::io(decl_loc.clone(), &origin.file, &err),
    }
}

/// The crate from what each job read: modules numbered as rustc meets them (depth first, in
/// source order), the first failure in that order as the error.
fn assemble(name: &str, files: Vec<Option<FileResult>>) -> Result<Assembled, SourceError> {
    let mut assembly = Assembly {
        ids: files.iter().map(|_| Vec::new()).collect(),
        files,
        read: HashMap::new(),
        modules: Vec::new(),
        names: Vec::new(),
    };
    assembly.file(0, None)?;
    let mut krate = Crate {
        name: name.to_owned(),
        modules: assembly.modules,
    };
    bind::index(&mut krate, assembly.names);
    Ok(Assembled {
        krate,
        ids: assembly.ids,
    })
}

/// The module tree being assembled.
struct Assembly {
    files: Vec<Option<FileResult>>,
    /// The modules of the files met so far, by job number, each taken when it is numbered.
    read: HashMap<usize, Vec<Option<ReadModule>>>,
    ids: Vec<Vec<Option<ModuleId>>>,
    modules: Vec<Module>,
    names: Vec<Names>,
}

impl Assembly {
    /// Numbers the modules of job `job`'s file; its module's id, `None` under `#![cfg(test)]`.
    fn file(
        &mut self,
        job: usize,
        parent: Option<ModuleId>,
    ) -> Result<Option<ModuleId>, SourceError> {
        // Job numbers index `files` (`push` made both); every job was done before assembly
        // started, and each is met once (at its `mod` item).
        let Some(modules) = self.files[job].take().expect("every job is done")? else {
            return Ok(None);
        };
        self.ids[job] = modules.iter().map(|_| None).collect();
        self.read
            .insert(job, modules.into_iter().map(Some).collect());
        self.module(job, 0, parent).map(Some)
    }

    fn module(
        &mut self,
        job: usize,
        index: usize,
        parent: Option<ModuleId>,
    ) -> Result<ModuleId, SourceError> {
        // `file` put the job's modules in `read` and `ids`, one entry each; `index` is one that
        // `FileReader::module` gave, and each is met once.
        let read = self.read.get_mut(&job).and_then(|m| m[index].take());
        let read = read.expect("each module is met once");
        let id = ModuleId(self.modules.len());
        self.ids[job][index] = Some(id);
        let Outline {
            types,
            names,
            globs,
        } = read.outline;
        self.modules.push(Module {
            origin: read.origin,
            parent,
            types,
            children: HashMap::new(),
            scope: Scope::default(),
        });
        self.names.push((names, globs));
        for child in read.children {
            let (name, child) = match child {
                Child::Inline(name, index) => (name, Some(self.module(job, index, Some(id))?)),
                Child::File(name, job) => (name, self.file(job, Some(id))?),
                Child::Failed(e) => return Err(e),
            };
            if let Some(child) = child {
                // `id` was pushed above.
                self.modules[id.0].children.entry(name).or_insert(child);
            }
        }
        Ok(id)
    }
}

/// The text of the source file `path`. Anything but a file (a folder; a named pipe, whose
/// read would wait forever) is refused without being opened.
fn read_source(path: &Path) -> io::Result<String> {
    if !fs::metadata(path)?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "it is not a file",
        ));
    }
    fs::read_to_string(path)
}

/// The file of `mod name;` without `#[path]`, and the stem to put its children under.
fn default_file(
    name: &str,
    dir: &Dir,
    decl_loc: &Loc,
) -> Result<(PathBuf, Option<String>), SourceError> {
    let base = match &dir.file_stem {
        Some(stem) => dir.path.join(stem),
        None => dir.path.clone(),
    };
    let flat = base.join(format!("{name}.rs"));
    let nested = base.join(name).join("mod.rs");
    match (flat.is_file(), nested.is_file()) {
        (true, false) => Ok((flat, Some(name.to_owned()))),
        (false, true) => Ok((nested, None)),
        (false, false) => Err(SourceError::new(
            decl_loc.clone(),
            format!(
                "file not found for module `{name}`: tried `{}` and `{}`",
                flat.display(),
                nested.display()
            ),
        )),
        (true, true) => Err(SourceError::new(
            decl_loc.clone(),
            format!(
                "file for module `{name}` found at both `{}` and `{}`; delete or rename one of them",
                flat.display(),
                nested.display()
            ),
        )),
    }
}

/// The value of the first `#[path = ".."]` on `decl`.
fn path_attribute(decl: &ItemMod, file_name: &str) -> Result<Option<String>, SourceError> {
    let Some(attr) = decl.attrs.iter().find(|attr| attr.path().is_ident("path")) else {
        return Ok(None);
    };
    match &attr.meta {
        Meta::NameValue(nv) => match &nv.value {
            Expr::Lit(ExprLit {
                lit: Lit::Str(lit), ..
            }) => Ok(Some(lit.value())),
            other => Err(SourceError::new(
                span_loc(file_name, other.span()),
                "expected a string literal: `#[path = \"file.rs\"]`",
            )),
        },
        _ => Err(SourceError::new(
            span_loc(file_name, attr.span()),
            "expected `#[path = \"file.rs\"]`",
        )),
    }
}

/// Where a `mod` item starts, past its attributes and doc comments.
fn decl_span(decl: &ItemMod) -> proc_macro2::Span {
    match &decl.vis {
        Visibility::Inherited => decl.mod_token.span,
        vis => vis.span(),
    }
}
