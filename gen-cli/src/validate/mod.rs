//! `kubegen validate`: objects (YAML or JSON, many documents a file) admitted as the API
//! server would admit them (`kubegen_core::check::admit`), against the CRDs a package
//! generates (`crds`, no compiling) or CRD files; each problem at the offending value's
//! `file:line:col` (`tree` reads the documents with where each value is).

mod crds;
mod tree;

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use kubegen_core::check::admit::{Path, Step};
use kubegen_core::model::{Diagnostic, Loc};
use serde_json::Value;

use crate::config::Flags;
use crate::features::FeatureArgs;
use crate::import::read::inputs;
use crate::options::Options;
use crate::report::Reporter;

/// `kubegen validate`.
#[derive(Debug, Clone, Args)]
pub struct ValidateArgs {
    /// The objects: YAML or JSON files (one or many documents each), folders of them, `-` for
    /// stdin.
    #[arg(required = true, value_name = "FILE|DIR|-")]
    pub objects: Vec<PathBuf>,
    /// Validate against these CRD files or folders instead of the CRDs the packages generate.
    #[arg(long = "crd", value_name = "FILE|DIR")]
    pub crds: Vec<PathBuf>,
    /// The objects as they are before the update (matched by apiVersion, kind, namespace and
    /// name): transition rules run, unchanged values are ratcheted.
    #[arg(long, value_name = "FILE")]
    pub old: Option<PathBuf>,
    /// Refuse unknown and duplicate fields, as the API server does under
    /// `fieldValidation=Strict` (otherwise they are warnings, as under `Warn`).
    #[arg(long)]
    pub strict: bool,
    /// Print each object as the API server would store it (pruned and defaulted).
    #[arg(long)]
    pub print_defaulted: bool,
    /// Only the CRDs of these workspace members (default: every member that depends on
    /// kubegen).
    #[arg(short = 'p', long = "package", value_name = "NAME")]
    pub packages: Vec<String>,
    /// The workspace or package manifest (default: found from the current directory).
    #[arg(long, value_name = "PATH")]
    pub manifest_path: Option<PathBuf>,
    /// The features the packages' sources are read with, as for `manifests`.
    #[command(flatten)]
    pub features: FeatureArgs,
}

impl ValidateArgs {
    /// The options `manifests` would take to generate the same CRDs.
    fn options(&self) -> Options {
        Options {
            packages: self.packages.clone(),
            manifest_path: self.manifest_path.clone(),
            out_dir: PathBuf::from("config"),
            check: false,
            stdout: false,
            kubernetes: None,
            features: self.features.clone(),
            config: Flags::default(),
        }
    }
}

/// One object of the input, with where it is.
struct Object {
    file: String,
    tree: tree::Tree,
    value: Value,
}

impl Object {
    fn loc(&self, line: usize, column: usize) -> Loc {
        Loc::at(self.file.clone(), line, column)
    }

    fn at(&self, path: &Path) -> Loc {
        let (line, column) = self.tree.locate(path);
        self.loc(line, column)
    }

    fn str(&self, key: &str) -> &str {
        self.value
            .get(key)
            .and_then(Value::as_str)
            .unwrap_or_default()
    }

    /// apiVersion, kind, namespace and name: what pairs an object with its old self.
    fn key(&self) -> (String, String, String, String) {
        let meta = |k: &str| {
            self.value
                .pointer(&format!("/metadata/{k}"))
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string()
        };
        (
            self.str("apiVersion").into(),
            self.str("kind").into(),
            meta("namespace"),
            meta("name"),
        )
    }
}

/// Validates every object; `false` when one would be refused (or cannot be read or matched).
pub fn run(args: &ValidateArgs, reporter: &Reporter) -> bool {
    let kinds = match crds::Kinds::load(&args.crds, &args.options()) {
        Ok(kinds) => kinds,
        Err(found) => {
            reporter.emit_failure(&found, "nothing was validated");
            return false;
        }
    };
    let mut found = Vec::new();
    let objects = read(&args.objects, &mut found);
    let old: HashMap<_, _> = match &args.old {
        Some(path) => read(std::slice::from_ref(path), &mut found)
            .into_iter()
            .map(|o| (o.key(), o.value))
            .collect(),
        None => HashMap::new(),
    };
    let mut refused = 0;
    let mut stdout = std::io::stdout().lock();
    for object in &objects {
        let before = found.len();
        let (api_version, kind) = (object.str("apiVersion"), object.str("kind"));
        let name = object.key().3;
        let context = format!("{kind} {name:?}");
        let Some(validator) = kinds.get(api_version, kind) else {
            let message = format!(
                "no CRD defines kind `{kind}` in `{api_version}`; known: {}",
                kinds.known().join(", ")
            );
            found.push(Diagnostic::new(
                Some(&object.loc(object.tree.line, object.tree.column)),
                context,
                message,
            ));
            refused += 1;
            continue;
        };
        let admitted = validator.admit(&object.value, old.get(&object.key()));
        for e in &admitted.errors {
            found.push(Diagnostic::new(
                Some(&object.at(&e.path)),
                &context,
                e.to_string(),
            ));
        }
        for e in &admitted.ratcheted {
            let message =
                format!("{e} (ratcheted: the value is unchanged, the server lets it through)");
            found.push(Diagnostic::warning(
                Some(&object.at(&e.path)),
                &context,
                message,
            ));
        }
        let strict = |problem: String, loc: Loc| {
            if args.strict {
                Diagnostic::new(
                    Some(&loc),
                    &context,
                    format!("strict decoding error: {problem}"),
                )
            } else {
                Diagnostic::warning(Some(&loc), &context, problem)
            }
        };
        for field in &admitted.unknown_fields {
            found.push(strict(
                format!("unknown field {field:?}"),
                object.at(&parse_path(field)),
            ));
        }
        for (field, line, column) in object.tree.duplicates() {
            found.push(strict(
                format!("duplicate field {field:?}"),
                object.loc(line, column),
            ));
        }
        if found[before..]
            .iter()
            .any(|d| d.level == kubegen_core::model::Level::Error)
        {
            refused += 1;
        } else if args.print_defaulted {
            let _ = write!(
                stdout,
                "{}",
                kubegen_core::render::to_yaml_documents(std::slice::from_ref(&admitted.object))
            );
        }
    }
    let failed = found
        .iter()
        .any(|d| d.level == kubegen_core::model::Level::Error);
    if failed {
        reporter.emit_failure(
            &found,
            &format!("{refused} of {} objects would be refused", objects.len()),
        );
    } else {
        reporter.emit_all(&found);
        match objects.len() {
            1 => eprintln!("validated 1 object: the API server would accept it"),
            n => eprintln!("validated {n} objects: the API server would accept them"),
        }
    }
    !failed
}

/// The objects of the files, folders or stdin in `paths` (kustomize's files left out); a
/// problem for each that cannot be read.
fn read(paths: &[PathBuf], found: &mut Vec<Diagnostic>) -> Vec<Object> {
    let inputs = match inputs(paths) {
        Ok(inputs) => inputs,
        Err(e) => {
            found.push(Diagnostic::plain(e));
            return Vec::new();
        }
    };
    let mut objects = Vec::new();
    for input in inputs {
        if is_kustomization(&input.name) {
            continue;
        }
        match tree::documents(&input.text) {
            Ok(docs) => objects.extend(docs.into_iter().filter_map(|tree| {
                let value = tree.value();
                let kustomize = value
                    .get("apiVersion")
                    .and_then(Value::as_str)
                    .is_some_and(|v| v.starts_with("kustomize.config.k8s.io/"));
                (!value.is_null() && !kustomize).then(|| Object {
                    file: input.name.clone(),
                    tree,
                    value,
                })
            })),
            Err(e) => found.push(Diagnostic::plain(format!("{}: {e}", input.name))),
        }
    }
    objects
}

/// Whether a file is kustomize's (a folder of samples has one): not an object to validate.
fn is_kustomization(name: &str) -> bool {
    let file = std::path::Path::new(name)
        .file_name()
        .and_then(|f| f.to_str());
    matches!(
        file,
        Some("kustomization.yaml" | "kustomization.yml" | "Kustomization")
    )
}

/// A path as pruning writes it (`spec.a[0].b`).
fn parse_path(text: &str) -> Path {
    let mut path = Path::default();
    for part in text.split('.') {
        let (name, indexes) = part.split_once('[').map_or((part, ""), |(n, i)| (n, i));
        if !name.is_empty() {
            path = path.child(Step::Field(name.to_string()));
        }
        for index in indexes.split('[') {
            if let Ok(i) = index.trim_end_matches(']').parse() {
                path = path.child(Step::Index(i));
            }
        }
    }
    path
}
