// `crate = "..."` naming a path that does not resolve: the first error names the path, at the
// string; the others are the generated code's uses of it (serde's derive among them).
use kubegen::KubeSchema;
use serde::{Deserialize, Serialize};

#[derive(KubeSchema, Serialize, Deserialize)]
#[kube_marker(crate = "my_sdk::kubegen")]
pub struct Part {
    pub name: String,
}

fn main() {}
