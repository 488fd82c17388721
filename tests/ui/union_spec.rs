use kubegen::CustomResource;

#[derive(CustomResource)]
#[kube_marker(group = "example.com", version = "v1", kind = "Bits")]
pub union BitsSpec {
    pub int: i32,
    pub float: f32,
}

fn main() {}
