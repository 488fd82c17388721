use kubegen::KubeSchema;

/// Unit and data variants under external tagging serialize as a string or an object.
#[derive(KubeSchema, serde::Serialize)]
pub enum Mixed {
    Off,
    On { level: i32 },
}

/// A tuple field is a JSON array of mixed types.
#[derive(KubeSchema, serde::Serialize)]
pub struct Pair {
    pub both: (i32, String),
}

/// A type that contains itself has no finite schema.
#[derive(KubeSchema, serde::Serialize)]
pub struct Node {
    pub children: Vec<Node>,
}

/// Generic types are not supported.
#[derive(KubeSchema, serde::Serialize)]
pub struct Wrapper<T> {
    pub inner: T,
}

fn main() {}
