//! Writing the `config/` tree: whole files only (temporary file, then rename), never a file
//! kubegen did not write, stale CRDs removed, and `--check` as a diff. The plans of several
//! packages are applied as one, so a refused file anywhere means nothing is written anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use kubegen_core::render::HEADER;

use crate::parallel::parallel;
use crate::paths::display;

/// The files one run produces, and the CRD files it owns in the folders it writes to.
#[derive(Debug, Default)]
pub struct Plan {
    /// Every file to write, with its content.
    pub files: BTreeMap<PathBuf, String>,
    /// Folders whose kubegen-written `.yaml` and `.md` files are removed when not in `files`.
    pub owned_dirs: Vec<PathBuf>,
    /// Files removed if kubegen wrote them (a role file when no `#[rbac]` is left).
    pub owned_files: Vec<PathBuf>,
}

/// What applying (or checking) a plan found.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Files written (or, with `--check`, that would be).
    pub changed: Vec<PathBuf>,
    /// Stale files kubegen wrote earlier, removed (or that would be).
    pub removed: Vec<PathBuf>,
    /// Unified diffs, with `--check`.
    pub diffs: Vec<String>,
}

/// Why a plan cannot be applied.
#[derive(Debug)]
pub struct WriteError(pub String);

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// True if kubegen wrote this content (its [`HEADER`] line comes first, or after the
/// project's header).
pub fn is_ours(content: &str) -> bool {
    crate::header::is_ours(content)
}

/// Several plans (one per package) as one: applying it checks every file before writing any.
impl FromIterator<Plan> for Plan {
    fn from_iter<I: IntoIterator<Item = Plan>>(plans: I) -> Self {
        let mut all = Plan::default();
        for p in plans {
            all.files.extend(p.files);
            all.owned_dirs.extend(p.owned_dirs);
            all.owned_files.extend(p.owned_files);
        }
        all
    }
}

impl Plan {
    /// Applies the plan, or with `check` only compares. Files kubegen did not write are never
    /// touched: finding any where a file must go is an error (one per file), before anything
    /// is written.
    pub fn apply(&self, check: bool) -> Result<Outcome, Vec<WriteError>> {
        let mut out = Outcome::default();
        let mut writes = Vec::new();
        let mut refused = Vec::new();
        // Each file on disk read and compared on every core, in the plan's order.
        let files: Vec<(&PathBuf, &String)> = self.files.iter().collect();
        let on_disk = parallel(&files, |(path, content)| {
            fs::read_to_string(path).map(|old| (old != **content).then_some(old))
        });
        for ((path, content), old) in files.into_iter().zip(on_disk) {
            match old {
                Ok(None) => {}
                Ok(Some(old)) if !is_ours(&old) => refused.push(WriteError(format!(
                    "{}: exists and was not written by kubegen (it has no `{}` line at its top); \
                     move it away or delete it, kubegen will not overwrite it",
                    display(path),
                    HEADER.trim_end()
                ))),
                Ok(Some(old)) => {
                    out.diffs.push(diff(path, &old, content));
                    writes.push((path, content));
                }
                Err(_) => {
                    out.diffs.push(diff(path, "", content));
                    writes.push((path, content));
                }
            }
        }
        let owned = self
            .owned_files
            .iter()
            .filter(|p| fs::read_to_string(p).is_ok_and(|c| is_ours(&c)))
            .cloned();
        let stale_in_dirs = self
            .owned_dirs
            .iter()
            .flat_map(|d| stale_files(d, &self.files));
        for stale in stale_in_dirs.chain(owned) {
            let old = fs::read_to_string(&stale).unwrap_or_default();
            out.diffs.push(diff(&stale, &old, ""));
            out.removed.push(stale);
        }
        if !refused.is_empty() {
            return Err(refused);
        }
        out.changed = writes.iter().map(|(p, _)| p.to_path_buf()).collect();
        if check {
            return Ok(out);
        }
        let failed =
            |path: &Path, e: std::io::Error| vec![WriteError(format!("{}: {e}", display(path)))];
        let folders: BTreeSet<&Path> = (self.files.keys())
            .filter_map(|p| p.parent())
            .chain(self.owned_dirs.iter().map(PathBuf::as_path))
            .collect();
        for folder in folders {
            remove_abandoned_temporaries(folder);
        }
        for (path, content) in writes {
            write_atomically(path, content).map_err(|e| failed(path, e))?;
        }
        for stale in &out.removed {
            fs::remove_file(stale).map_err(|e| failed(stale, e))?;
        }
        Ok(out)
    }
}

/// kubegen-written YAML files in `dir` that the plan no longer produces.
fn stale_files(dir: &Path, planned: &BTreeMap<PathBuf, String>) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut stale: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "md"))
        .filter(|p| !planned.contains_key(p))
        .filter(|p| fs::read_to_string(p).is_ok_and(|c| is_ours(&c)))
        .collect();
    stale.sort();
    stale
}

/// The temporary file [`write_atomically`] writes `name`'s content to, for process `pid`.
fn temporary_name(name: &str, pid: u32) -> String {
    format!(".{name}.kubegen-{pid}.tmp")
}

/// Removes the temporary files a killed run left in `dir`: those named by
/// [`temporary_name`] whose process is gone (on Linux, no `/proc/<pid>`; elsewhere any other
/// process's, so two runs writing the same folder at once may fail one another's write).
fn remove_abandoned_temporaries(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let proc = Path::new("/proc");
    for entry in entries.filter_map(Result::ok) {
        let file = entry.file_name();
        let pid = file
            .to_str()
            .and_then(|f| f.strip_suffix(".tmp"))
            .and_then(|f| f.rsplit_once(".kubegen-"))
            .filter(|(name, _)| name.starts_with('.'))
            .and_then(|(_, pid)| pid.parse::<u32>().ok());
        let Some(pid) = pid else { continue };
        let alive =
            pid == std::process::id() || (proc.is_dir() && proc.join(pid.to_string()).exists());
        if !alive {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Writes the whole file or nothing: a temporary file in the same folder, renamed over.
pub(crate) fn write_atomically(path: &Path, content: &str) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("out");
    let tmp = dir.join(temporary_name(name, std::process::id()));
    let result = (|| {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(content.as_bytes())?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Writes each file whole ([`write_atomically`]), after removing the temporary files a killed
/// run left beside them: files a command rewrites in place (`kubegen migrate`'s sources),
/// which the user wrote and [`Plan::apply`] would refuse.
pub(crate) fn replace_all(files: &BTreeMap<PathBuf, String>) -> Result<(), WriteError> {
    let folders: BTreeSet<&Path> = files.keys().filter_map(|p| p.parent()).collect();
    for folder in folders {
        remove_abandoned_temporaries(folder);
    }
    for (path, content) in files {
        write_atomically(path, content)
            .map_err(|e| WriteError(format!("{}: {e}", display(path))))?;
    }
    Ok(())
}

/// A unified diff from `old` to `new`, labelled with the path.
pub(crate) fn diff(path: &Path, old: &str, new: &str) -> String {
    let name = path.display().to_string();
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{name}"), &format!("b/{name}"))
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> tempfile::TempDir {
        tempfile::Builder::new()
            .prefix(&format!("kubegen-output-{name}-"))
            .tempdir()
            .unwrap()
    }

    #[test]
    fn writes_checks_and_removes_only_its_own_files() {
        let tmp = temp_dir("own");
        let dir = tmp.path();
        let a = dir.join("a.yaml");
        let stale = dir.join("old.yaml");
        let theirs = dir.join("theirs.yaml");
        fs::write(&stale, format!("{HEADER}---\nold: 1\n")).unwrap();
        fs::write(&theirs, "hand: written\n").unwrap();
        let plan = Plan {
            files: [(a.clone(), format!("{HEADER}---\na: 1\n"))].into(),
            owned_dirs: vec![dir.to_path_buf()],
            owned_files: vec![],
        };
        let checked = plan.apply(true).unwrap();
        assert_eq!(checked.changed, std::slice::from_ref(&a));
        assert_eq!(checked.removed, std::slice::from_ref(&stale));
        assert!(checked.diffs[0].contains("+a: 1"), "{}", checked.diffs[0]);
        assert!(!a.exists() && stale.exists(), "--check writes nothing");
        plan.apply(false).unwrap();
        assert_eq!(
            fs::read_to_string(&a).unwrap(),
            format!("{HEADER}---\na: 1\n")
        );
        assert!(!stale.exists());
        assert_eq!(fs::read_to_string(&theirs).unwrap(), "hand: written\n");
        let again = plan.apply(true).unwrap();
        assert!(again.changed.is_empty() && again.removed.is_empty());
        let leftovers: Vec<_> = fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty());
    }

    #[test]
    fn never_overwrites_a_file_it_did_not_write() {
        let tmp = temp_dir("theirs");
        let dir = tmp.path();
        let role = dir.join("role.yaml");
        fs::write(&role, "kind: ClusterRole\n").unwrap();
        let other = dir.join("z.yaml");
        let plan = Plan {
            files: [
                (role.clone(), format!("{HEADER}---\nkind: ClusterRole\n")),
                (other.clone(), format!("{HEADER}x: 1\n")),
            ]
            .into(),
            owned_dirs: vec![],
            owned_files: vec![],
        };
        let err = plan.apply(false).unwrap_err();
        assert_eq!(err.len(), 1);
        assert!(
            err[0].0.contains("was not written by kubegen"),
            "{}",
            err[0]
        );
        assert_eq!(fs::read_to_string(&role).unwrap(), "kind: ClusterRole\n");
        assert!(
            !other.exists(),
            "nothing is written when one file is refused"
        );
    }

    #[test]
    fn merged_plans_are_checked_whole_before_anything_is_written() {
        let plan_in = |dir: &Path, theirs: bool| {
            let file = dir.join("a.yaml");
            if theirs {
                fs::write(&file, "hand: written\n").unwrap();
            }
            Plan {
                files: [(file, format!("{HEADER}a: 1\n"))].into(),
                owned_dirs: vec![dir.to_path_buf()],
                owned_files: vec![],
            }
        };
        let dirs = [temp_dir("m1"), temp_dir("m2"), temp_dir("m3")];
        let [one, two, three] = dirs.each_ref().map(|d| d.path());
        let plan: Plan = [
            plan_in(one, false),
            plan_in(two, true),
            plan_in(three, true),
        ]
        .into_iter()
        .collect();
        let refused = plan.apply(false).unwrap_err();
        assert_eq!(refused.len(), 2, "every refused file is named: {refused:?}");
        assert!(refused[0].0.contains("m2"), "{}", refused[0]);
        assert!(refused[1].0.contains("m3"), "{}", refused[1]);
        assert!(!one.join("a.yaml").exists(), "nothing is written anywhere");
        fs::remove_file(two.join("a.yaml")).unwrap();
        fs::remove_file(three.join("a.yaml")).unwrap();
        assert_eq!(plan.apply(false).unwrap().changed.len(), 3);
    }
}
