//! `kubegen diff`: each CRD `manifests` would write now, compared with a base (the files on
//! disk, another folder, or a git revision) by the engine's upgrade-safety rules
//! ([`kubegen_core::diff`]); every change printed as a diagnostic at the Rust field or key
//! that causes it. `kubegen manifests` uses [`overwrite_warnings`] to warn before it
//! overwrites a CRD with a breaking change.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use clap::Args;
use kubegen_core::diff::{self, Change, Class, Config, SchemaPath, Segment, Source};
use kubegen_core::model::{Diagnostic, Label, Level, ResourceDef};
use serde_json::Value;

use crate::generate::{Generated, What};
use crate::options::Options;
use crate::parallel::parallel;
use crate::paths::display;
use crate::report::Reporter;

/// `kubegen diff`.
#[derive(Debug, Clone, Args)]
pub struct DiffArgs {
    /// Common options.
    #[command(flatten)]
    pub options: Options,
    /// Compare with the CRD files in this folder, the old CRDs of every selected package
    /// (default: each package's `<out-dir>/crd/bases` on disk).
    #[arg(long, value_name = "DIR", conflicts_with = "base_ref")]
    pub base: Option<PathBuf>,
    /// Compare with each package's CRD files at this git revision (`origin/main`), read with
    /// `git show`.
    #[arg(long, value_name = "GIT_REF")]
    pub base_ref: Option<String>,
}

/// Where the old CRDs are.
enum Base<'a> {
    /// Each package's CRD folder on disk.
    Disk,
    /// One folder for every package.
    Dir(&'a Path),
    /// Each package's CRD folder at a git revision.
    Git(&'a str),
}

/// A CRD file: where it is and its object as JSON.
struct CrdFile {
    path: String,
    crd: Value,
}

/// CRD files by the CRD's name.
type Crds = BTreeMap<String, CrdFile>;

/// What a comparison found: diagnostics for breaking and warning changes, lines for safe ones.
#[derive(Default)]
struct Found {
    diagnostics: Vec<Diagnostic>,
    safe: Vec<String>,
}

/// Runs `kubegen diff`; `false` (exit 1) when a change is breaking or something failed.
pub fn run(args: &DiffArgs, reporter: &Reporter) -> bool {
    let all = match crate::generate::render(&args.options, What::CRDS) {
        Ok(all) => all,
        Err(found) => {
            reporter.emit_failure(&found, "nothing was compared");
            return false;
        }
    };
    let base = match (&args.base, &args.base_ref) {
        (Some(dir), _) => Base::Dir(dir),
        (None, Some(rev)) => Base::Git(rev),
        (None, None) => Base::Disk,
    };
    // Every package's old CRDs together (a `--base` folder holds them all), then each
    // package's new ones against them.
    let mut old = Crds::new();
    let mut packages = Vec::new();
    for g in &all {
        let read = config(g).and_then(|config| {
            let folder = bases(g);
            if !matches!(base, Base::Dir(_)) {
                old.extend(read_base(&base, &folder)?);
            }
            Ok((g, config, generated(g, &folder)?))
        });
        match read {
            Ok(package) => packages.push(package),
            Err(e) => {
                reporter.emit_failure(&[e], "nothing was compared");
                return false;
            }
        }
    }
    if let Base::Dir(dir) = base {
        match read_base(&base, dir) {
            Ok(crds) => old = crds,
            Err(e) => {
                reporter.emit_failure(&[e], "nothing was compared");
                return false;
            }
        }
    }
    let mut found = Found::default();
    for (g, config, new) in &packages {
        compare(&old, new, &g.resources, config, &mut found);
    }
    removed(
        &old,
        |name| packages.iter().any(|(_, _, new)| new.contains_key(name)),
        &mut found,
    );
    for line in &found.safe {
        eprintln!("{line}");
    }
    reporter.emit_all(&found.diagnostics);
    let count = |level| {
        found
            .diagnostics
            .iter()
            .filter(|d| d.level == level)
            .count()
    };
    let breaking = count(Level::Error);
    eprintln!(
        "kubegen diff: {breaking} breaking, {} warning, {} safe",
        count(Level::Warning),
        found.safe.len()
    );
    breaking == 0
}

/// Warnings for each breaking change `kubegen manifests` is about to write over a CRD file on
/// disk (it never blocks).
pub fn overwrite_warnings(all: &[Generated]) -> Vec<Diagnostic> {
    let mut found = Found::default();
    for g in all {
        let Ok(config) = config(g) else { continue };
        // Only the files kubegen wrote that it now changes or removes: unchanged files are not
        // even parsed.
        let (mut old, mut new) = (Crds::new(), Crds::new());
        let folder = bases(g);
        let files = std::fs::read_dir(&folder).into_iter().flatten();
        let paths: Vec<PathBuf> = files.filter_map(|e| Some(e.ok()?.path())).collect();
        // Read and compared on every core; the changed ones in the folder's order.
        let changed = parallel(&paths, |path| {
            let text = std::fs::read_to_string(path).ok()?;
            let content = g.plan.files.get(path);
            (crate::output::is_ours(&text) && content != Some(&text)).then_some(text)
        });
        for (path, text) in paths.iter().zip(changed) {
            let Some(text) = text else { continue };
            let content = g.plan.files.get(path);
            if let Some(content) = content {
                let _ = add(&mut new, display(path), content);
            }
            let _ = add(&mut old, display(path), &text);
        }
        compare(&old, &new, &g.resources, &config, &mut found);
        removed(&old, |name| new.contains_key(name), &mut found);
    }
    found
        .diagnostics
        .into_iter()
        .filter(|d| d.level == Level::Error)
        .map(|mut d| {
            d.level = Level::Warning;
            d.with_note("`kubegen diff` lists every change; this one is written anyway")
        })
        .collect()
}

/// A package's CRD folder (where `manifests` writes its CRD files).
fn bases(g: &Generated) -> PathBuf {
    g.crd_dir.clone().unwrap_or_default()
}

/// The package's `[package.metadata.kubegen.diff]` (or the workspace's).
fn config(g: &Generated) -> Result<Config, Diagnostic> {
    let Some(value) = &g.package.diff else {
        return Ok(Config::default());
    };
    let config: Config = serde_json::from_value(value.clone()).map_err(|e| {
        Diagnostic::plain(format!(
            "`[package.metadata.kubegen.diff]` of `{}`: {e}",
            g.package.name
        ))
    })?;
    if let Some(name) = config.unknown_rules().first() {
        let mut d = Diagnostic::plain(format!(
            "`[package.metadata.kubegen.diff.enforcement]` of `{}`: no rule is named `{name}`",
            g.package.name
        ));
        if let Some(near) = kubegen_core::parse::values::nearest(name, diff::RULES) {
            d = d.with_help(format!("did you mean `{near}`?"), None);
        }
        return Err(d);
    }
    Ok(config)
}

/// The CRDs `manifests` would write into `folder`.
fn generated(g: &Generated, folder: &Path) -> Result<Crds, Diagnostic> {
    let mut crds = Crds::new();
    for (path, content) in &g.plan.files {
        if path.parent() == Some(folder) {
            add(&mut crds, display(path), content)?;
        }
    }
    Ok(crds)
}

/// The old CRDs of a package whose CRD folder is `folder`.
fn read_base(base: &Base<'_>, folder: &Path) -> Result<Crds, Diagnostic> {
    let mut crds = Crds::new();
    let dir = match base {
        Base::Disk => folder,
        Base::Dir(dir) => dir,
        Base::Git(rev) => return read_git(rev, folder),
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return match base {
            Base::Dir(_) => Err(Diagnostic::plain(format!(
                "cannot read `{}`",
                dir.display()
            ))),
            _ => Ok(crds),
        };
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| Some(e.ok()?.path())).collect();
    paths.sort();
    for path in paths
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
    {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Diagnostic::plain(format!("cannot read `{}`: {e}", display(path))))?;
        add(&mut crds, display(path), &text)?;
    }
    Ok(crds)
}

/// The CRD files under `folder` at the git revision `rev`.
fn read_git(rev: &str, folder: &Path) -> Result<Crds, Diagnostic> {
    // The folder may not exist now: git runs in the nearest folder that does.
    let mut existing = folder;
    while !existing.is_dir() {
        existing = existing.parent().unwrap_or(Path::new("."));
    }
    let top = git(existing, &["rev-parse", "--show-toplevel"])?;
    let top = PathBuf::from(top.trim());
    let absolute = std::fs::canonicalize(existing)
        .map_err(|e| Diagnostic::plain(format!("`{}`: {e}", existing.display())))?
        .join(folder.strip_prefix(existing).unwrap_or(Path::new("")));
    let relative = absolute
        .strip_prefix(&top)
        .unwrap_or(&absolute)
        .to_string_lossy()
        .to_string();
    git(
        &top,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("{rev}^{{commit}}"),
        ],
    )
    .map_err(|_| {
        Diagnostic::plain(format!(
            "`{rev}` is not a git revision of `{}`",
            top.display()
        ))
    })?;
    let listed = git(
        &top,
        &["ls-tree", "--name-only", rev, "--", &format!("{relative}/")],
    )?;
    let mut crds = Crds::new();
    for path in listed.lines().filter(|p| p.ends_with(".yaml")) {
        let text = git(&top, &["show", &format!("{rev}:{path}")])?;
        add(&mut crds, format!("{rev}:{path}"), &text)?;
    }
    Ok(crds)
}

/// Runs git in `dir`; its standard output.
fn git(dir: &Path, args: &[&str]) -> Result<String, Diagnostic> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .map_err(|e| Diagnostic::plain(format!("cannot run git: {e}")))?;
    if !out.status.success() {
        return Err(Diagnostic::plain(format!(
            "`git {}` failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Adds the CRD in `text` (a YAML file; other kinds are skipped).
fn add(crds: &mut Crds, path: String, text: &str) -> Result<(), Diagnostic> {
    let crd: Value = serde_saphyr::from_str(text)
        .map_err(|e| Diagnostic::plain(format!("`{path}` is not a YAML object: {e}")))?;
    if crd["kind"] != "CustomResourceDefinition" {
        return Ok(());
    }
    let name = crd["metadata"]["name"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    crds.insert(name, CrdFile { path, crd });
    Ok(())
}

/// Every change to the CRDs of `new` from `old` (a CRD `old` lacks is new, and safe).
fn compare(old: &Crds, new: &Crds, resources: &[ResourceDef], config: &Config, found: &mut Found) {
    for (name, is) in new {
        let Some(was) = old.get(name) else {
            found
                .safe
                .push(format!("safe: new CRD `{name}` (`{}`)", is.path));
            continue;
        };
        let group = is.crd["spec"]["group"].as_str().unwrap_or_default();
        let kind = is.crd["spec"]["names"]["kind"].as_str().unwrap_or_default();
        let defs: Vec<&ResourceDef> = resources
            .iter()
            .filter(|d| d.markers.group == group && d.markers.kind == kind)
            .collect();
        for change in diff::compare(&was.crd, &is.crd, config) {
            let at = match change.place() {
                p if p.is_empty() => format!("`{name}`"),
                p => format!("`{name}` {p}"),
            };
            match change.class {
                Class::Safe => found.safe.push(format!("safe: {at}: {}", change.message)),
                _ => found.diagnostics.push(diagnostic(&at, &change, &defs)),
            }
        }
    }
}

/// The old CRDs nothing generates any more: breaking.
fn removed(old: &Crds, generated: impl Fn(&str) -> bool, found: &mut Found) {
    for (name, was) in old {
        if !generated(name) {
            found.diagnostics.push(
                Diagnostic::plain(format!(
                    "breaking change: CRD `{name}` removed (was `{}`)",
                    was.path
                ))
                .with_note("deleting a CRD deletes every object of its kind"),
            );
        }
    }
}

/// A breaking or warning change, at the Rust field or key that causes it when it is found.
fn diagnostic(at: &str, change: &Change, defs: &[&ResourceDef]) -> Diagnostic {
    // A new required field is shown at that field (the others, if several, as labels).
    let required = newly_required(change);
    let Source {
        loc,
        accepted,
        accept_on,
    } = source(change, defs, required.first().map(String::as_str));
    let accepted = accepted.iter().any(|r| r == change.rule);
    // Where the key that accepts this change goes.
    let place = match &accept_on {
        Some(spec) => format!("on the spec struct `{spec}`"),
        None => "here".to_string(),
    };
    let class = change.class.as_str();
    let headline = format!("{class} change to {at}: {}", change.message);
    let mut d = match accepted {
        true => Diagnostic::warning(loc.as_ref(), "", format!("accepted {headline}")),
        false => Diagnostic::new(loc.as_ref(), "", headline),
    };
    if change.class == Class::Warning {
        d.level = Level::Warning;
    }
    if accepted {
        d = d.with_note(format!(
            "accepted by `accept_change = \"{}\"` {place}: remove the key once this has shipped",
            change.rule
        ));
    }
    if loc.is_some() {
        let label = match change.rule {
            "existingFieldRemoval" => "the field was removed from here",
            _ if change.path.is_root() => "this kind",
            _ => "this field",
        };
        d = d.with_label(label);
    }
    for name in required.iter().skip(1) {
        if let Some(loc) = source(change, defs, Some(name)).loc {
            d.labels.push(Label {
                loc,
                message: "required now too".to_string(),
            });
        }
    }
    let shown = |v: &Option<Value>| match v {
        Some(Value::Object(_)) | None => None,
        Some(v) => Some(v.to_string()),
    };
    match (shown(&change.old), shown(&change.new)) {
        (None, None) => {}
        (old, new) => {
            let or_none = |v: Option<String>| v.unwrap_or_else(|| "(none)".into());
            d = d.with_note(format!("old: {}, new: {}", or_none(old), or_none(new)));
        }
    }
    if let Some(note) = change.note {
        d = d.with_note(note);
    }
    if d.level == Level::Error && loc.is_some() {
        d = d.with_help(
            format!(
                "if this is intended, accept it {place}: `#[kube_marker(accept_change = \"{}\")]`",
                change.rule
            ),
            None,
        );
    }
    d.with_note(format!(
        "rule `{}`; its enforcement is set in `[package.metadata.kubegen.diff.enforcement]`",
        change.rule
    ))
}

/// Where the change comes from: the field along its path (and on to `field`) in the version's
/// spec struct, or the spec struct of the version the key is on.
fn source(change: &Change, defs: &[&ResourceDef], field: Option<&str>) -> Source {
    let version = match (&change.version, &change.new) {
        // A pair of served versions: the later one.
        (Some(v), _) => v.rsplit(" -> ").next().unwrap_or(v).to_string(),
        // The storage version moved: the version that has it now.
        (None, Some(Value::String(v))) if change.rule == "storageVersionChange" => v.clone(),
        // The kind as a whole: the spec struct that accepts the change, else the first.
        (None, _) => {
            let spec = SchemaPath::default();
            let all: Vec<Source> = defs.iter().map(|d| diff::locate(d, &spec)).collect();
            let accepting = all
                .iter()
                .find(|s| s.accepted.iter().any(|r| r == change.rule));
            return accepting.or(all.first()).cloned().unwrap_or_default();
        }
    };
    let Some(def) = defs.iter().find(|d| d.markers.version == version) else {
        return Source::default();
    };
    let path = match field {
        Some(name) => change.path.child(Segment::Field(name.to_string())),
        None => change.path.clone(),
    };
    diff::locate(def, &path)
}

/// The fields a `required` change makes required.
fn newly_required(change: &Change) -> Vec<String> {
    let names = |v: &Option<Value>| -> Vec<String> {
        let list = v
            .as_ref()
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        list.iter()
            .filter_map(|n| n.as_str().map(str::to_string))
            .collect()
    };
    if change.rule != "required" {
        return Vec::new();
    }
    let before = names(&change.old);
    names(&change.new)
        .into_iter()
        .filter(|n| !before.contains(n))
        .collect()
}
