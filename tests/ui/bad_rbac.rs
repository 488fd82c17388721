use kubegen::rbac;

#[rbac(groups = "apps", resources = "deployments", verbs = "get;lsit")]
fn unknown_verb() {}

#[rbac(groups = "apps", resources = "deployments", verbs = "get", namspace = "x")]
fn unknown_key() {}

#[rbac(urls = "/metrics", groups = "apps", verbs = "get")]
fn urls_with_groups() {}

#[rbac(groups = "", resources = "pods", verbs = [])]
fn empty_verbs() {}

#[rbac(groups = "", resources = "pods", verbs = "get", role_name = "a/b", namespace = "Not_DNS")]
fn bad_names() {}

fn main() {}
