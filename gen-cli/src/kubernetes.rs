//! Which Kubernetes version's tables k8s-openapi types get in a run.

use std::path::Path;

use kubegen_core::known::{Kubernetes, Minor, read_kubernetes_sources};
use kubegen_core::model::Diagnostic;

use crate::options::Options;
use crate::workspace::{self, Package};

/// The Kubernetes version whose tables k8s-openapi types get: `--kubernetes`, else the one the
/// packages' k8s-openapi dependency names, else the one the workspace resolves when a package
/// depends on k8s-openapi without naming one; otherwise the one gen-cli is built with. One per
/// run.
pub fn select(options: &Options, packages: &[Package]) -> Result<Kubernetes, Diagnostic> {
    if let Some(minor) = options.kubernetes {
        return select_minor(options.manifest_path.as_deref(), minor);
    }
    let mut named: Vec<(u32, &str)> = packages
        .iter()
        .filter_map(|p| Some((p.kubernetes?, p.name.as_str())))
        .collect();
    named.sort();
    named.dedup_by_key(|(minor, _)| *minor);
    let minor = match named.as_slice() {
        [] if packages.iter().any(|p| p.k8s_openapi) => {
            workspace::resolved_kubernetes(options.manifest_path.as_deref())
                .map_err(Diagnostic::plain)?
        }
        [] => None,
        [(minor, _)] => Some(*minor),
        [(a, first), (b, second), ..] => {
            return Err(Diagnostic::plain(format!(
                "packages use different Kubernetes versions (`{first}`: 1.{a}, `{second}`: \
                 1.{b})"
            ))
            .with_help("run kubegen once per version, each with `-p`", None));
        }
    };
    match minor {
        Some(minor) => select_minor(options.manifest_path.as_deref(), minor),
        None => Ok(Kubernetes::compiled()),
    }
}

/// Kubernetes 1.`minor`, with its k8s-openapi schemas read from the sources of the k8s-openapi
/// that the workspace of `manifest_path` (else of the current folder) resolves, when gen-cli is
/// built with another version.
pub fn select_minor(manifest_path: Option<&Path>, minor: u32) -> Result<Kubernetes, Diagnostic> {
    let minor = Minor::new(minor).map_err(Diagnostic::plain)?;
    if minor == Minor::compiled() {
        return Ok(Kubernetes::compiled());
    }
    // This binary's k8s-openapi types are another version's: read the selected one's.
    let src = workspace::k8s_openapi_src(manifest_path)
        .map_err(Diagnostic::plain)?
        .ok_or_else(|| {
            Diagnostic::plain(
                "the workspace names a Kubernetes version but resolves no k8s-openapi",
            )
        })?;
    let dir = src.join(format!("v1_{}", minor.get()));
    if !dir.is_dir() {
        return Err(Diagnostic::plain(format!(
            "k8s-openapi's sources have no {} for Kubernetes {minor}",
            dir.display()
        )));
    }
    let definitions = read_kubernetes_sources(&dir).map_err(Diagnostic::plain)?;
    Ok(Kubernetes::with_definitions(minor, definitions))
}
