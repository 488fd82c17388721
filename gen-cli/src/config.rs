//! The project configuration: `[package.metadata.kubegen]`, with `[workspace.metadata.kubegen]`
//! as defaults for every member, and a command-line flag of the same name for each key that
//! overrides both. The result, per package, is a [`Layout`]: where each file goes and what
//! goes above its content.

use std::path::{Component, Path, PathBuf};

use clap::Args;
use kubegen_core::model::{Error, Loc};
use serde_json::Value;

use crate::header;
use crate::paths::display;
use crate::workspace::{Package, Table};

/// The configuration keys as flags (each overrides the key of the same name).
#[derive(Debug, Clone, Default, Args)]
pub struct Flags {
    /// Where CRD files go, relative to each package (default `<out-dir>/crd/bases`).
    #[arg(long, value_name = "DIR")]
    pub crd_dir: Option<PathBuf>,
    /// Where the RBAC file goes, relative to each package (default `<out-dir>/rbac`).
    #[arg(long, value_name = "DIR")]
    pub rbac_dir: Option<PathBuf>,
    /// Where the webhook configurations go, relative to each package (default
    /// `<out-dir>/webhook`).
    #[arg(long, value_name = "DIR")]
    pub webhook_dir: Option<PathBuf>,
    /// Where `kubegen docs` writes the API reference, relative to each package (default
    /// `docs/api`).
    #[arg(long, value_name = "DIR")]
    pub docs_dir: Option<PathBuf>,
    /// The name of the ClusterRole, and of Roles without `role_name` (default `manager-role`).
    #[arg(long, value_name = "NAME")]
    pub role_name: Option<String>,
    /// The RBAC file's name in the rbac folder (default `role.yaml`).
    #[arg(long, value_name = "FILE")]
    pub role_file: Option<String>,
    /// Shorten every description to this many bytes, as controller-gen's `maxDescLen`
    /// (0 removes them). The files then differ from what `crd()` renders.
    #[arg(long, value_name = "BYTES")]
    pub max_desc_len: Option<usize>,
    /// `false`: an `ObjectMeta` below the root (a pod template's `metadata`) is
    /// `{type: object}`, as controller-gen writes it without `crd:generateEmbeddedObjectMeta`,
    /// instead of keeping name, namespace, labels, annotations and finalizers (default `true`).
    /// The files then differ from what `crd()` renders.
    #[arg(long, value_name = "BOOL")]
    pub generate_embedded_object_meta: Option<bool>,
    /// A file whose text (a license) goes, commented, above the "Code generated" line of every
    /// file kubegen writes; relative to the current folder.
    #[arg(long, value_name = "PATH")]
    pub header_file: Option<PathBuf>,
    /// Replaces ` YEAR` in the header file's text, as controller-gen's `year`.
    #[arg(long, value_name = "YEAR")]
    pub year: Option<String>,
}

/// One package's resolved configuration.
#[derive(Debug, Clone)]
pub struct Layout {
    /// The folder of CRD files (kubegen removes its stale `.yaml` files there).
    pub crd_dir: PathBuf,
    /// The RBAC file.
    pub rbac_file: PathBuf,
    /// The webhook configurations' file.
    pub webhook_file: PathBuf,
    /// The folder of the API reference (kubegen removes its stale `.md` files there).
    pub docs_dir: PathBuf,
    /// The ClusterRole's name.
    pub role_name: String,
    /// controller-gen's `maxDescLen`.
    pub max_desc_len: Option<usize>,
    /// controller-gen's `generateEmbeddedObjectMeta`.
    pub embedded_object_meta: bool,
    /// The header file's text, ` YEAR` replaced.
    pub header: Option<String>,
}

/// The keys [`Layout`] reads.
const KEYS: &[&str] = &[
    "crd-dir",
    "rbac-dir",
    "webhook-dir",
    "docs-dir",
    "role-name",
    "role-file",
    "max-desc-len",
    "generate-embedded-object-meta",
    "header-file",
    "year",
];

/// The keys `kubegen init` writes for `kubegen create` in the same table.
const SCAFFOLD_KEYS: &[&str] = &["domain", "namespace"];
/// The table `kubegen diff` reads (`[package.metadata.kubegen.diff]`, see `diff`).
const DIFF_KEY: &str = "diff";

impl Layout {
    /// The layout of `package`: each key from its flag, else the package's table, else the
    /// workspace's, else the default (folders under `out_dir`).
    pub fn resolve(package: &Package, flags: &Flags, out_dir: &Path) -> Result<Layout, Vec<Error>> {
        let sources = &package.config;
        let mut errors = Vec::new();
        for table in [&sources.workspace, &sources.package] {
            errors.extend(unknown_keys(table));
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let mut r = Resolver {
            package,
            errors: Vec::new(),
        };
        let crd_dir = r.dir("crd-dir", &flags.crd_dir, out_dir.join("crd").join("bases"));
        let rbac_dir = r.dir("rbac-dir", &flags.rbac_dir, out_dir.join("rbac"));
        let webhook_dir = r.dir("webhook-dir", &flags.webhook_dir, out_dir.join("webhook"));
        let docs_dir = r.dir("docs-dir", &flags.docs_dir, PathBuf::from("docs/api"));
        let role_name = r
            .string("role-name", &flags.role_name)
            .unwrap_or_else(|| "manager-role".into());
        let role_file = r
            .file_name("role-file", &flags.role_file)
            .unwrap_or_else(|| "role.yaml".into());
        let max_desc_len = r.count("max-desc-len", flags.max_desc_len);
        let embedded_object_meta = r
            .flag(
                "generate-embedded-object-meta",
                flags.generate_embedded_object_meta,
            )
            .unwrap_or(true);
        let year = r.year(&flags.year);
        let header = r.header(&flags.header_file, year.as_deref().unwrap_or(""));
        if !r.errors.is_empty() {
            return Err(r.errors);
        }
        Ok(Layout {
            crd_dir,
            rbac_file: rbac_dir.join(role_file),
            webhook_file: webhook_dir.join("manifests.yaml"),
            docs_dir,
            role_name,
            max_desc_len,
            embedded_object_meta,
            header,
        })
    }

    /// What goes above the "Code generated" line of a YAML file: the header, commented.
    pub fn yaml_header(&self) -> String {
        self.header.as_deref().map(header::yaml).unwrap_or_default()
    }

    /// What goes above the "Code generated" line of a Markdown file.
    pub fn markdown_header(&self) -> String {
        self.header
            .as_deref()
            .map(header::markdown)
            .unwrap_or_default()
    }

    /// The files and folders this layout writes, for [`check_distinct`]: a folder kubegen
    /// owns (it removes stale files there) or a single file.
    fn outputs(&self) -> [(&'static str, &Path, bool); 4] {
        [
            ("crd-dir", &self.crd_dir, true),
            ("docs-dir", &self.docs_dir, true),
            ("rbac-dir", &self.rbac_file, false),
            ("webhook-dir", &self.webhook_file, false),
        ]
    }
}

/// Every package's layout, in order; every problem of every package, or two packages that
/// would write the same folder.
pub fn resolve_all(
    packages: &[Package],
    flags: &Flags,
    out_dir: &Path,
) -> Result<Vec<Layout>, Vec<Error>> {
    let mut layouts = Vec::new();
    let mut errors = Vec::new();
    for package in packages {
        match Layout::resolve(package, flags, out_dir) {
            Ok(layout) => layouts.push(layout),
            Err(e) => errors.extend(e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let named: Vec<(&str, &Layout)> = packages
        .iter()
        .map(|p| p.name.as_str())
        .zip(&layouts)
        .collect();
    check_distinct(&named)?;
    Ok(layouts)
}

/// Every package's folders are its own: a folder kubegen owns (crd-dir, docs-dir) holds
/// nothing else, and no two files are the same, within a package or across packages.
fn check_distinct(layouts: &[(&str, &Layout)]) -> Result<(), Vec<Error>> {
    let outputs: Vec<(&str, &str, &Path, bool)> = layouts
        .iter()
        .flat_map(|(name, layout)| {
            layout
                .outputs()
                .map(|(key, path, owned)| (*name, key, path, owned))
        })
        .collect();
    let mut errors = Vec::new();
    for (i, &(p1, k1, path1, owned1)) in outputs.iter().enumerate() {
        // `i` enumerates `outputs`: `i + 1 <= outputs.len()`.
        for &(p2, k2, path2, owned2) in &outputs[i + 1..] {
            let folder = |path: &Path, owned: bool| -> PathBuf {
                if owned {
                    path.to_path_buf()
                } else {
                    path.parent().unwrap_or(path).to_path_buf()
                }
            };
            let shared = if path1 == path2 {
                Some(path1.to_path_buf())
            } else {
                let (f1, f2) = (folder(path1, owned1), folder(path2, owned2));
                ((owned1 || owned2) && f1 == f2).then_some(f1)
            };
            if let Some(shared) = shared {
                errors.push(Error::new(
                    None,
                    "",
                    format!(
                        "`{p1}`'s {k1} and `{p2}`'s {k2} both write to {}: a folder kubegen \
                         writes is configured twice; give each its own (in \
                         [package.metadata.kubegen], or with the flags)",
                        display(&shared)
                    ),
                ));
            }
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Keys no version of kubegen reads, with the nearest known one.
fn unknown_keys(table: &Table) -> Vec<Error> {
    let Some(map) = table.values.as_object() else {
        return Vec::new();
    };
    map.keys()
        .filter(|key| {
            !KEYS.contains(&key.as_str())
                && !SCAFFOLD_KEYS.contains(&key.as_str())
                && key.as_str() != DIFF_KEY
        })
        .map(|key| {
            let near = KEYS
                .iter()
                .map(|k| (strsim::levenshtein(k, key), k))
                .min()
                .filter(|(d, _)| *d <= 3)
                .map(|(_, k)| format!("; did you mean `{k}`?"))
                .unwrap_or_default();
            Error::new(
                locate(table, key).as_ref(),
                "",
                format!(
                    "unknown key `{key}` in the kubegen table (keys: {}){near}",
                    KEYS.join(", ")
                ),
            )
        })
        .collect()
}

/// Reads keys with their precedence, collecting every problem.
struct Resolver<'a> {
    package: &'a Package,
    errors: Vec<Error>,
}

impl<'a> Resolver<'a> {
    /// Where `key` is set: the package's table first, then the workspace's.
    fn lookup(&self, key: &str) -> Option<(&'a Table, &'a Value)> {
        let sources = &self.package.config;
        [&sources.package, &sources.workspace]
            .into_iter()
            .find_map(|table| Some((table, table.values.get(key)?)))
    }

    fn wrong(&mut self, table: &Table, key: &str, expected: &str) {
        self.errors.push(Error::new(
            locate(table, key).as_ref(),
            "",
            format!("`{key}` must be {expected}"),
        ));
    }

    /// A string from the flag or a table.
    fn string(&mut self, key: &str, flag: &Option<String>) -> Option<String> {
        if flag.is_some() {
            return flag.clone();
        }
        match self.lookup(key)? {
            (_, Value::String(s)) if !s.is_empty() => Some(s.clone()),
            (table, _) => {
                self.wrong(table, key, "a string that is not empty");
                None
            }
        }
    }

    /// A file name, without folders.
    fn file_name(&mut self, key: &str, flag: &Option<String>) -> Option<String> {
        let name = self.string(key, flag)?;
        if Path::new(&name).components().count() != 1 || name == ".." || name == "." {
            self.errors.push(Error::new(
                self.where_set(key, flag.is_some()).as_ref(),
                "",
                format!(
                    "`{key}` is a file name, not a path: `{name}` (set the folder with `rbac-dir`)"
                ),
            ));
            return None;
        }
        Some(name)
    }

    /// A folder relative to the package. One a key of Cargo metadata sets must stay inside the
    /// workspace (a manifest must not send kubegen's files elsewhere); a flag's is where the
    /// user asked for them.
    fn dir(&mut self, key: &str, flag: &Option<PathBuf>, default: PathBuf) -> PathBuf {
        let flag = flag.as_ref().map(|p| p.display().to_string());
        let from_metadata = flag.is_none() && self.lookup(key).is_some();
        let relative = self.string(key, &flag).map_or(default, PathBuf::from);
        let full = normalize(&self.package.dir.join(&relative));
        let root = normalize(&self.package.config.workspace_root);
        if from_metadata && !root.as_os_str().is_empty() && !full.starts_with(&root) {
            self.errors.push(Error::new(
                self.where_set(key, false).as_ref(),
                "",
                format!(
                    "`{key}` `{}` of `{}` is {}, outside the workspace {}: a folder Cargo \
                     metadata sets stays inside the workspace (the flag `--{key}` may point \
                     anywhere)",
                    relative.display(),
                    self.package.name,
                    full.display(),
                    root.display()
                ),
            ));
        }
        full
    }

    /// A boolean (`generate-embedded-object-meta`).
    fn flag(&mut self, key: &str, flag: Option<bool>) -> Option<bool> {
        if flag.is_some() {
            return flag;
        }
        match self.lookup(key)? {
            (_, Value::Bool(b)) => Some(*b),
            (table, _) => {
                self.wrong(table, key, "`true` or `false`");
                None
            }
        }
    }

    /// A count (`max-desc-len`).
    fn count(&mut self, key: &str, flag: Option<usize>) -> Option<usize> {
        if flag.is_some() {
            return flag;
        }
        match self.lookup(key)? {
            (_, Value::Number(n)) if n.as_u64().is_some() => {
                n.as_u64().and_then(|n| usize::try_from(n).ok())
            }
            (table, _) => {
                self.wrong(table, key, "a whole number, 0 or more");
                None
            }
        }
    }

    /// The year: a string or a number.
    fn year(&mut self, flag: &Option<String>) -> Option<String> {
        if flag.is_some() {
            return flag.clone();
        }
        match self.lookup("year")? {
            (_, Value::String(s)) => Some(s.clone()),
            (_, Value::Number(n)) => Some(n.to_string()),
            (table, _) => {
                self.wrong(table, "year", "a year (`2026` or \"2026\")");
                None
            }
        }
    }

    /// The header file's text with ` YEAR` replaced: a flag's path is relative to the current
    /// folder, a key's to the `Cargo.toml` that sets it.
    fn header(&mut self, flag: &Option<PathBuf>, year: &str) -> Option<String> {
        let (path, loc) = match (flag, self.lookup("header-file")) {
            (Some(path), _) => (path.clone(), None),
            (None, None) => return None,
            (None, Some((table, Value::String(s)))) => {
                let base = table.manifest.parent().unwrap_or(Path::new("."));
                (base.join(s), locate(table, "header-file"))
            }
            (None, Some((table, _))) => {
                self.wrong(table, "header-file", "a path (a string)");
                return None;
            }
        };
        match std::fs::read_to_string(&path) {
            Ok(text) => Some(text.replace(" YEAR", &format!(" {year}"))),
            Err(e) => {
                self.errors.push(Error::new(
                    loc.as_ref(),
                    "",
                    format!("cannot read the header file {}: {e}", display(&path)),
                ));
                None
            }
        }
    }

    /// The location of the key that set `key`, unless a flag did.
    fn where_set(&self, key: &str, by_flag: bool) -> Option<Loc> {
        if by_flag {
            return None;
        }
        self.lookup(key).and_then(|(table, _)| locate(table, key))
    }
}

/// The line of `key` in the table's manifest, for error messages (`cargo metadata` gives
/// values, not places).
fn locate(table: &Table, key: &str) -> Option<Loc> {
    let text = std::fs::read_to_string(&table.manifest).ok()?;
    let mut in_table = false;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with('[') {
            in_table = trimmed.contains("metadata.kubegen]");
            continue;
        }
        let rest = trimmed
            .strip_prefix(key)
            .or_else(|| trimmed.strip_prefix(&format!("\"{key}\"")));
        if in_table && rest.is_some_and(|r| r.trim_start().starts_with('=')) {
            // The key itself, as `kubegen` underlines it.
            let column = line.len() - trimmed.len() + 1;
            let width = trimmed.len() - rest.map_or(0, str::len);
            return Some(Loc {
                file: display(&table.manifest),
                line: i + 1,
                column,
                end_line: i + 1,
                end_column: column + width,
            });
        }
    }
    None
}

/// `path` with `.` and `..` resolved without touching the file system (the folder may not
/// exist yet).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_resolves_dots() {
        assert_eq!(
            normalize(Path::new("/w/api/./../chart/crds")),
            Path::new("/w/chart/crds")
        );
        assert_eq!(normalize(Path::new("/w/../../x")), Path::new("/x"));
    }
}
