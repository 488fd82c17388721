//! Where the `etcd` and `kube-apiserver` binaries are.

use std::path::{Path, PathBuf};

use super::error::Error;

/// The binaries a control plane runs.
#[derive(Debug)]
pub(crate) struct Assets {
    pub etcd: PathBuf,
    pub apiserver: PathBuf,
    /// setup-envtest puts a `kubectl` beside them.
    pub kubectl: Option<PathBuf>,
}

/// The folder setup-envtest prints (`KUBEBUILDER_ASSETS`), else `KUBEGEN_TEST_ASSETS`, holding
/// both binaries.
pub(crate) fn find() -> Result<Assets, Error> {
    let (var, dir) = ["KUBEBUILDER_ASSETS", "KUBEGEN_TEST_ASSETS"]
        .into_iter()
        .find_map(|var| Some((var, std::env::var_os(var).filter(|v| !v.is_empty())?)))
        .ok_or_else(|| {
            Error::NoAssets(format!(
                "no control-plane binaries: set KUBEBUILDER_ASSETS (or KUBEGEN_TEST_ASSETS) to a \
                 folder holding `etcd` and `kube-apiserver`, e.g. {HOW}; or set \
                 USE_EXISTING_CLUSTER=true or KUBEGEN_TEST_KUBECONFIG to test against a cluster"
            ))
        })?;
    in_dir(var, Path::new(&dir))
}

/// How to get the binaries.
const HOW: &str = "`export KUBEBUILDER_ASSETS=$(setup-envtest use -p path)` (setup-envtest: \
                   `go install sigs.k8s.io/controller-runtime/tools/setup-envtest@latest`)";

/// Both binaries in `dir`, which `var` named.
fn in_dir(var: &str, dir: &Path) -> Result<Assets, Error> {
    let binary = |name: &str| {
        let path = dir.join(name);
        if path.is_file() {
            Ok(path)
        } else {
            Err(Error::NoAssets(format!(
                "{var}={}: no `{name}` there; get the binaries with {HOW}",
                dir.display()
            )))
        }
    };
    let kubectl = dir.join("kubectl");
    Ok(Assets {
        etcd: binary("etcd")?,
        apiserver: binary("kube-apiserver")?,
        kubectl: kubectl.is_file().then_some(kubectl),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_without_the_binaries_is_named_with_how_to_get_them() {
        let dir = std::env::temp_dir();
        let error = in_dir("KUBEBUILDER_ASSETS", &dir).unwrap_err().to_string();
        assert!(error.contains("no `etcd` there"), "{error}");
        assert!(error.contains("setup-envtest use -p path"), "{error}");
    }
}
