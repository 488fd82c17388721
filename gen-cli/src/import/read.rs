//! The CRDs of the input: files, folders of `.yaml`, `.yml` and `.json` files, or stdin; each
//! file one or many YAML documents (JSON is YAML). Each CRD is named by where it is
//! (`file.yaml#2`, the document's number counting from 1).

use std::fs;
use std::io::Read;
use std::path::PathBuf;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use serde_json::Value;

/// The API version the import reads.
const API_VERSION: &str = "apiextensions.k8s.io/v1";

/// One input file.
#[derive(Debug, Clone)]
pub struct Input {
    /// How it is named in messages.
    pub name: String,
    /// Its text.
    pub text: String,
    /// Found in a folder: its documents that are not CRDs are skipped (a folder of manifests
    /// holds kustomizations and policies too), where a file named is all CRDs.
    pub in_folder: bool,
}

/// Each input, folders expanded (their files in name order).
pub fn inputs(paths: &[PathBuf]) -> Result<Vec<Input>, String> {
    let mut out = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| format!("stdin: {e}"))?;
            out.push(Input {
                name: "<stdin>".to_string(),
                text,
                in_folder: false,
            });
        } else if path.is_dir() {
            let mut files: Vec<PathBuf> = fs::read_dir(path)
                .map_err(|e| format!("{}: {e}", path.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.extension()
                        .is_some_and(|e| e == "yaml" || e == "yml" || e == "json")
                })
                .collect();
            files.sort();
            for f in files {
                let text = fs::read_to_string(&f).map_err(|e| format!("{}: {e}", f.display()))?;
                out.push(Input {
                    name: f.display().to_string(),
                    text,
                    in_folder: true,
                });
            }
        } else {
            let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            out.push(Input {
                name: path.display().to_string(),
                text,
                in_folder: false,
            });
        }
    }
    Ok(out)
}

/// The CRDs of one input, each with where it is; an error per document that is not one
/// (unless the input is in a folder: then only an object of `kind: CustomResourceDefinition`
/// is read). Empty documents are skipped.
pub fn crds(input: &Input) -> Result<Vec<(String, CustomResourceDefinition)>, Vec<String>> {
    let source = &input.name;
    let docs: Vec<Value> =
        serde_saphyr::from_multiple(&input.text).map_err(|e| vec![format!("{source}: {e}")])?;
    let mut crds = Vec::new();
    let mut errors = Vec::new();
    for (i, doc) in docs.into_iter().enumerate() {
        let at = format!("{source}#{}", i + 1);
        if doc.is_null() {
            continue;
        }
        let kind = doc.get("kind").and_then(Value::as_str).unwrap_or_default();
        let api_version = doc
            .get("apiVersion")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if kind != "CustomResourceDefinition" {
            if input.in_folder {
                continue;
            }
            errors.push(format!(
                "{at}: not a CustomResourceDefinition (kind `{kind}`)"
            ));
            continue;
        }
        if api_version != API_VERSION {
            errors.push(format!(
                "{at}: unknown apiVersion `{api_version}`; kubegen imports `{API_VERSION}` CRDs \
                 (`kubectl convert` or the API server upgrades v1beta1 ones)"
            ));
            continue;
        }
        match serde_json::from_value::<CustomResourceDefinition>(doc) {
            Ok(crd) => crds.push((at, crd)),
            Err(e) => errors.push(format!("{at}: not a valid CustomResourceDefinition: {e}")),
        }
    }
    if errors.is_empty() {
        Ok(crds)
    } else {
        Err(errors)
    }
}
