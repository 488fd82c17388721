//! The CRDs objects are validated against: a package's, generated in memory as `manifests`
//! generates them (no compiling), or CRD files; one validator per served version.

use std::collections::BTreeMap;
use std::path::PathBuf;

use kubegen_core::check::admit::Validator;
use kubegen_core::model::Diagnostic;

use crate::generate::{What, render};
use crate::import::read::{Input, crds, inputs};
use crate::options::Options;
use crate::paths::display;

/// The validators by `apiVersion` and `kind`.
pub struct Kinds {
    by_version_kind: BTreeMap<(String, String), Validator>,
}

impl Kinds {
    /// The CRDs of `files` (CRD files and folders), or of the packages `options` selects when
    /// there are none.
    pub fn load(files: &[PathBuf], options: &Options) -> Result<Kinds, Vec<Diagnostic>> {
        let sources = if files.is_empty() {
            package_crds(options)?
        } else {
            inputs(files).map_err(|e| vec![Diagnostic::plain(e)])?
        };
        let mut by_version_kind = BTreeMap::new();
        let mut problems = Vec::new();
        for input in &sources {
            let found = crds(input)
                .map_err(|e| e.into_iter().map(Diagnostic::plain).collect::<Vec<_>>())?;
            for (at, crd) in found {
                let spec = &crd.spec;
                for version in &spec.versions {
                    let Some(schema) = version
                        .schema
                        .as_ref()
                        .and_then(|s| s.open_api_v3_schema.as_ref())
                    else {
                        continue;
                    };
                    let json = serde_json::to_value(schema).unwrap_or_default();
                    match Validator::from_json(&json) {
                        Ok(v) => {
                            let api_version =
                                kubegen_core::names::api_version(&spec.group, &version.name);
                            by_version_kind.insert((api_version, spec.names.kind.clone()), v);
                        }
                        Err(e) => problems.push(Diagnostic::plain(format!(
                            "{at}: version {}: {e}",
                            version.name
                        ))),
                    }
                }
            }
        }
        if problems.is_empty() {
            Ok(Kinds { by_version_kind })
        } else {
            Err(problems)
        }
    }

    /// The validator of objects of `api_version` and `kind`.
    pub fn get(&self, api_version: &str, kind: &str) -> Option<&Validator> {
        self.by_version_kind
            .get(&(api_version.to_string(), kind.to_string()))
    }

    /// Every `apiVersion` and `kind` known, as `kind (apiVersion)`.
    pub fn known(&self) -> Vec<String> {
        self.by_version_kind
            .keys()
            .map(|(v, k)| format!("{k} ({v})"))
            .collect()
    }
}

/// The CRD files `manifests` would write for the selected packages, in memory.
fn package_crds(options: &Options) -> Result<Vec<Input>, Vec<Diagnostic>> {
    let generated = render(options, What::CRDS)?;
    let mut out = Vec::new();
    for g in generated {
        let Some(dir) = &g.crd_dir else { continue };
        for (path, text) in g.plan.files {
            if path.starts_with(dir) {
                out.push(Input {
                    name: display(&path),
                    text,
                    in_folder: true,
                });
            }
        }
    }
    Ok(out)
}
