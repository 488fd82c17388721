//! What a scaffolding command changes, checked whole before anything is written: new files
//! (never written over a file that exists) and lines added at a marker comment in existing
//! files (never twice). Every file is reported as created, updated, unchanged or kept.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// The changes of one command, relative to the project folder.
#[derive(Debug, Default)]
pub struct Changes {
    files: BTreeMap<PathBuf, String>,
    inserts: Vec<Insert>,
}

/// Lines to add before the line holding `marker`.
#[derive(Debug)]
struct Insert {
    path: PathBuf,
    marker: String,
    lines: String,
}

/// What happened to a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// It did not exist; it was written.
    Created,
    /// Lines were added at a marker.
    Updated,
    /// It was already as it would be written.
    Unchanged,
    /// It exists with other content, which was kept: kubegen never overwrites a file.
    Kept,
}

/// The outcome of each file touched, in path order.
pub type Report = Vec<(PathBuf, Outcome)>;

impl Changes {
    /// Writes `content` to `path` unless a file is there already.
    pub fn file(&mut self, path: impl Into<PathBuf>, content: String) {
        self.files.insert(path.into(), content);
    }

    /// Adds `lines` (one or more, without indentation) before the line containing `marker` in
    /// `path`, indented as that line, unless the file has those lines already. `path` may be
    /// a file of this same change set.
    pub fn insert(&mut self, path: impl Into<PathBuf>, marker: &str, lines: &str) {
        self.inserts.push(Insert {
            path: path.into(),
            marker: marker.to_string(),
            lines: lines.to_string(),
        });
    }

    /// Applies the changes under `root`, or does nothing and returns every problem (a file
    /// or marker that is missing).
    pub fn apply(self, root: &Path) -> Result<Report, Vec<String>> {
        let mut contents: BTreeMap<PathBuf, (Option<String>, String)> = BTreeMap::new();
        let mut report: BTreeMap<PathBuf, Outcome> = BTreeMap::new();
        for (path, content) in self.files {
            match fs::read_to_string(root.join(&path)) {
                Ok(old) => {
                    let outcome = if old == content {
                        Outcome::Unchanged
                    } else {
                        Outcome::Kept
                    };
                    report.insert(path.clone(), outcome);
                    contents.insert(path, (Some(old.clone()), old));
                }
                Err(_) => {
                    report.insert(path.clone(), Outcome::Created);
                    contents.insert(path, (None, content));
                }
            }
        }
        let mut problems = Vec::new();
        for insert in self.inserts {
            let entry = match contents.entry(insert.path.clone()) {
                std::collections::btree_map::Entry::Occupied(e) => e.into_mut(),
                std::collections::btree_map::Entry::Vacant(e) => {
                    match fs::read_to_string(root.join(&insert.path)) {
                        Ok(old) => e.insert((Some(old.clone()), old)),
                        Err(error) => {
                            problems.push(format!("{}: {error}", insert.path.display()));
                            continue;
                        }
                    }
                }
            };
            match add_at_marker(&entry.1, &insert.marker, &insert.lines) {
                Some(new) => entry.1 = new,
                None => problems.push(format!(
                    "{}: no line with the marker `{}`; add these lines yourself:\n{}",
                    insert.path.display(),
                    insert.marker,
                    insert.lines
                )),
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        for (path, (old, new)) in contents {
            let full = root.join(&path);
            let outcome = match (&old, report.get(&path)) {
                (None, _) => Outcome::Created,
                (Some(old), _) if *old != new => Outcome::Updated,
                (Some(_), Some(outcome)) => *outcome,
                (Some(_), None) => Outcome::Unchanged,
            };
            if matches!(outcome, Outcome::Created | Outcome::Updated) {
                write(&full, &new).map_err(|e| vec![format!("{}: {e}", path.display())])?;
            }
            report.insert(path, outcome);
        }
        Ok(report.into_iter().collect())
    }
}

/// `content` with `lines` added before the marker line, indented as it; `content` itself
/// when those lines follow each other in it already; `None` without a marker line.
fn add_at_marker(content: &str, marker: &str, lines: &str) -> Option<String> {
    let wanted: Vec<&str> = lines.lines().map(str::trim).collect();
    let have: Vec<&str> = content.lines().map(str::trim).collect();
    if have.windows(wanted.len()).any(|w| w == wanted.as_slice()) {
        return Some(content.to_string());
    }
    let at = content.lines().position(|l| l.contains(marker))?;
    let mut out = String::new();
    for (i, line) in content.lines().enumerate() {
        if i == at {
            // The length of the leading whitespace `trim_start` removed: a character boundary.
            let indent = &line[..line.len() - line.trim_start().len()];
            for new in lines.lines() {
                out.push_str(indent);
                out.push_str(new);
                out.push('\n');
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    Some(out)
}

/// Writes the whole file or nothing (a temporary file renamed over), creating its folder.
fn write(path: &Path, content: &str) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let tmp = dir.join(format!(".{name}.kubegen-{}.tmp", std::process::id()));
    fs::write(&tmp, content).and_then(|()| fs::rename(&tmp, path))
}

/// Prints the report on stderr (stdout is for what a command outputs, as with `kubegen
/// manifests`), one `created: path` line per file, paths as `kubegen manifests` shows them
/// (relative to the current folder when under it); the files of a package copied under
/// `vendor/` are one line per package and outcome.
pub fn print(root: &Path, report: &Report) {
    let mut lines: Vec<(Outcome, PathBuf, usize)> = Vec::new();
    for (path, outcome) in report {
        let mut parts = path.components();
        let shown = match (parts.next(), parts.next()) {
            (Some(first), Some(package)) if first.as_os_str() == super::vendor::FOLDER => {
                Path::new(&first).join(package)
            }
            _ => path.clone(),
        };
        match lines.last_mut() {
            Some((o, p, count)) if *o == *outcome && *p == shown && shown != *path => *count += 1,
            _ => lines.push((*outcome, shown, 1)),
        }
    }
    for (outcome, path, count) in lines {
        let what = match outcome {
            Outcome::Created => "created",
            Outcome::Updated => "updated",
            Outcome::Unchanged => "unchanged",
            Outcome::Kept => "kept (exists with other content; not overwritten)",
        };
        let shown: PathBuf = root
            .join(&path)
            .components()
            .filter(|c| *c != std::path::Component::CurDir)
            .collect();
        let files = if count > 1 {
            format!(" ({count} files)")
        } else {
            String::new()
        };
        eprintln!("{what}: {}{files}", crate::paths::display(&shown));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds_lines_at_the_marker_once_with_its_indentation() {
        let src = "fn main() {\n    let m = m;\n    // kubegen:scaffold:x\n}\n";
        let once = add_at_marker(src, "kubegen:scaffold:x", "a();\nb();").unwrap();
        assert_eq!(
            once,
            "fn main() {\n    let m = m;\n    a();\n    b();\n    // kubegen:scaffold:x\n}\n"
        );
        assert_eq!(
            add_at_marker(&once, "kubegen:scaffold:x", "a();\nb();").unwrap(),
            once
        );
        assert_eq!(add_at_marker(src, "kubegen:scaffold:y", "a();"), None);
    }

    #[test]
    fn checks_everything_before_writing_anything() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        fs::write(root.join("mine.txt"), "edited by hand\n").unwrap();
        fs::write(root.join("main.rs"), "// no marker\n").unwrap();

        let mut changes = Changes::default();
        changes.file("new.txt", "new\n".into());
        changes.insert("main.rs", "kubegen:scaffold:x", "x();");
        let problems = changes.apply(root).unwrap_err();
        assert!(
            problems[0].contains("no line with the marker"),
            "{problems:?}"
        );
        assert!(!root.join("new.txt").exists(), "nothing is written");

        let mut changes = Changes::default();
        changes.file("new.txt", "new\n".into());
        changes.file("mine.txt", "template\n".into());
        changes.insert("new.txt", "new", "first");
        let report = changes.apply(root).unwrap();
        assert_eq!(
            report,
            vec![
                (PathBuf::from("mine.txt"), Outcome::Kept),
                (PathBuf::from("new.txt"), Outcome::Created),
            ]
        );
        assert_eq!(
            fs::read_to_string(root.join("mine.txt")).unwrap(),
            "edited by hand\n"
        );
        assert_eq!(
            fs::read_to_string(root.join("new.txt")).unwrap(),
            "first\nnew\n"
        );
    }
}
