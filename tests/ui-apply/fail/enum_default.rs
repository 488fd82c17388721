//! An enum's configuration has no `Default`: each of its values sets a variant, which the
//! manager would then own. A field holding one is an `Option`, whose default is `None`.

use kubegen::KubeSchema;
use serde::{Deserialize, Serialize};

#[derive(KubeSchema, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum Source {
    Git { url: String },
    Oci { image: String },
}

fn main() {
    let _ = SourceApply::default();
}
