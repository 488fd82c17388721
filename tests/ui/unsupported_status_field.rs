//! One mistake in a status field, one error: the status type keeps a `KubeSchema` impl, so the
//! root that names it, and the code that uses both, add none.

use kubegen::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube_marker(group = "example.com", version = "v1", kind = "Site")]
#[kube_marker(status = "SiteStatus")]
pub struct SiteSpec {
    pub replicas: i32,
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase")]
pub struct SiteStatus {
    pub ready_replicas: i32,
    pub observed_generation: Option<i64>,
    pub last_sync: (u64, u32),
    pub messages: Vec<String>,
}

#[allow(dead_code)]
fn controller(client: kube::Client) -> kube::Api<Site> {
    kube::Api::namespaced(client, "default")
}

fn main() {
    let site = Site::new("a", SiteSpec { replicas: 1 });
    let _ = site.status.unwrap_or_default().ready_replicas;
    let _ = <Site as kube::CustomResourceExt>::crd_name();
}
