use kubegen::KubeSchema;

mod as_text {
    pub fn serialize<S: serde::Serializer>(v: &i32, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.to_string())
    }
}

#[derive(KubeSchema, serde::Serialize)]
pub struct Spec {
    #[serde(serialize_with = "as_text::serialize")]
    pub size: i32,
    /// With `schema_type` the field's JSON form is said, so this one is fine.
    #[serde(serialize_with = "as_text::serialize")]
    #[kube_marker(schema_type = "string")]
    pub said: i32,
}

fn main() {}
