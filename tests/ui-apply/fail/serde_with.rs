//! A field `#[serde(with)]` writes has no apply form: the function takes the field's own type.

use kubegen::KubeSchema;
use serde::{Deserialize, Serialize};

mod as_text {
    pub fn serialize<S: serde::Serializer>(v: &i32, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.to_string())
    }
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<i32, D::Error> {
        let text = <String as serde::Deserialize>::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[derive(KubeSchema, Serialize, Deserialize)]
pub struct Spec {
    #[kube_marker(schema_type = "string")]
    #[serde(with = "as_text")]
    pub size: i32,
}

fn main() {}
