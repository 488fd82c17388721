use kubegen::{CustomResource, KubeSchema};

#[derive(CustomResource, serde::Serialize, serde::Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Foo", namespaced, shortname = "fo")]
pub struct FooSpec {
    #[schemars(length(min = 1, max = 63))]
    pub name: String,
    pub inner: Inner,
}

#[derive(KubeSchema, serde::Serialize, serde::Deserialize, Clone, Debug)]
pub struct Inner {
    #[x_kube(merge_strategy = ListMerge::Set)]
    pub tags: Vec<String>,
    #[schemars(schema_with = "any_object")]
    pub extra: String,
}

fn main() {}
