//! The cluster tests' API server: `kubegen::testing`'s control plane (etcd and kube-apiserver
//! from `KUBEBUILDER_ASSETS`, or the cluster of `USE_EXISTING_CLUSTER=true`), one per test
//! binary, and `kubectl` as its administrator.

use std::io::Write;
use std::process::Stdio;
use std::sync::OnceLock;

use kubegen::testing::ControlPlane;

/// The control plane, started by the first caller.
pub fn control_plane() -> &'static ControlPlane {
    static STARTED: OnceLock<&'static ControlPlane> = OnceLock::new();
    STARTED.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime to start the control plane on")
            .block_on(ControlPlane::shared())
            .unwrap_or_else(|e| panic!("no control plane: {e}"))
    })
}

/// `kubectl ARGS` as the control plane's administrator, with `stdin`: its stdout, or the
/// command and its stderr as the error.
pub fn kubectl(args: &[&str], stdin: Option<&str>) -> Result<String, String> {
    let mut child = control_plane()
        .kubectl()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("kubectl: {e}"))?;
    child
        .stdin
        .take()
        .expect("a piped stdin")
        .write_all(stdin.unwrap_or("").as_bytes())
        .map_err(|e| format!("kubectl {args:?}: writing its input: {e}"))?;
    let out = child
        .wait_with_output()
        .map_err(|e| format!("kubectl {args:?}: {e}"))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(format!(
            "kubectl {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}
