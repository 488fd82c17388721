//! `control-plane`: the cold start of `kubegen::testing`'s control plane, as the first test of
//! a test binary pays it: etcd and kube-apiserver started from `KUBEBUILDER_ASSETS` until
//! `/readyz`, then the bundled operator's CRD until it is `Established` and served. Each run
//! starts a new control plane and stops it; Go's envtest has no binary to compare with here, so
//! the figures stand alone, with their breakdown.

use std::path::Path;
use std::time::Instant;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kubegen::testing::ControlPlane;

use crate::measure::Stats;

/// The operator's CRD, without its conversion webhook (no webhook server runs here).
fn crd(repo: &Path) -> CustomResourceDefinition {
    let mut crd = crate::read_crd(&repo.join(crate::OPERATOR_CRD));
    crd["spec"]
        .as_object_mut()
        .expect("a spec")
        .remove("conversion");
    serde_json::from_value(crd).expect("a CustomResourceDefinition")
}

/// Starts and stops a control plane `runs` times after one warm-up start (which reads the
/// binaries into the page cache); prints each phase's statistics.
pub fn run(repo: &Path, runs: usize) {
    let crd = crd(repo);
    let runtime = tokio::runtime::Runtime::new().expect("a tokio runtime");
    let once = || {
        runtime.block_on(async {
            let start = Instant::now();
            let cp = ControlPlane::start()
                .await
                .expect("a control plane (KUBEBUILDER_ASSETS names etcd and kube-apiserver)");
            let timings = cp.timings().expect("a local control plane");
            let established = cp.install_crds(std::slice::from_ref(&crd)).await;
            let total = start.elapsed();
            let established = established.expect("the CRD is installed");
            [
                timings.etcd_ready,
                timings.apiserver_ready,
                established,
                total,
            ]
            .map(|d| d.as_secs_f64())
        })
    };
    once();
    let samples: Vec<[f64; 4]> = (0..runs.max(1)).map(|_| once()).collect();
    for (i, phase) in [
        "etcd ready (from the start)",
        "kube-apiserver ready (from the start)",
        "CRD established and served (after ready)",
        "cold start in all",
    ]
    .iter()
    .enumerate()
    {
        println!(
            "{phase}: {}",
            Stats::of(samples.iter().map(|s| s[i]).collect())
        );
    }
}
