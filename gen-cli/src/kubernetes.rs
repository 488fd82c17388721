//! Which Kubernetes version's tables k8s-openapi types get in a run.

use kubegen_core::model::Diagnostic;

use crate::options::Options;
use crate::workspace::{self, Package};

/// Selects the Kubernetes version whose tables k8s-openapi types get: `--kubernetes`, else
/// the one the packages' k8s-openapi dependency names, else the one the workspace resolves when
/// a package depends on k8s-openapi without naming one; otherwise the one gen-cli is built
/// with. One per run.
pub fn select(options: &Options, packages: &[Package]) -> Result<(), Diagnostic> {
    if let Some(minor) = options.kubernetes {
        return select_minor(options, minor);
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
        Some(minor) => select_minor(options, minor),
        None => Ok(()),
    }
}

/// Selects Kubernetes 1.`minor`, reading its k8s-openapi schemas when gen-cli is built with
/// another version.
fn select_minor(options: &Options, minor: u32) -> Result<(), Diagnostic> {
    kubegen_core::known::select_kubernetes(minor).map_err(Diagnostic::plain)?;
    if minor != kubegen_core::known::compiled_kubernetes() {
        // This binary's k8s-openapi types are another version's: read the selected one's.
        let src = workspace::k8s_openapi_src(options.manifest_path.as_deref())
            .map_err(Diagnostic::plain)?
            .ok_or_else(|| {
                Diagnostic::plain(
                    "the workspace names a Kubernetes version but resolves no k8s-openapi",
                )
            })?;
        let dir = src.join(format!("v1_{minor}"));
        if !dir.is_dir() {
            return Err(Diagnostic::plain(format!(
                "k8s-openapi's sources have no {} for Kubernetes 1.{minor}",
                dir.display()
            )));
        }
        let definitions =
            kubegen_core::known::read_kubernetes_sources(&dir).map_err(Diagnostic::plain)?;
        kubegen_core::known::set_kubernetes_definitions(definitions);
    }
    Ok(())
}
