//! One mistake in a spec field, one error: the root type and its impls are still generated,
//! so the code that uses them adds none (no "no `Site` in the root").

use kubegen::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube_marker(group = "example.com", version = "v1", kind = "Site")]
#[kube_marker(status = "SiteStatus")]
pub struct SiteSpec {
    pub replicas: i32,
    pub pair: (i32, String),
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default)]
pub struct SiteStatus {
    pub ready: i32,
}

#[allow(dead_code)]
fn controller(client: kube::Client) -> kube::Api<Site> {
    kube::Api::namespaced(client, "default")
}

fn main() {
    let spec = SiteSpec {
        replicas: 1,
        pair: (1, String::new()),
    };
    let site = Site::new("a", spec);
    let _ = site.status.unwrap_or_default().ready;
    let _ = <Site as kube::CustomResourceExt>::crd_name();
}
