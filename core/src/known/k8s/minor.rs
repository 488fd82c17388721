//! [`Minor`]: a Kubernetes version kubegen has facts for.

use std::fmt;

use super::go_facts::SUPPORTED;

/// A Kubernetes 1.x minor version kubegen has facts for (k8s-openapi 0.29's `v1_33` to
/// `v1_37`), as a value: what a schema is built for (see [`Kubernetes`](crate::known::Kubernetes)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Minor(u8);

impl Minor {
    /// The minor version 1.`minor`; an unsupported one is an error naming the supported ones.
    pub fn new(minor: u32) -> Result<Minor, String> {
        if SUPPORTED.contains(&minor) {
            return Ok(Minor(minor as u8));
        }
        let names: Vec<String> = SUPPORTED.iter().map(|m| format!("v1_{m}")).collect();
        Err(format!(
            "kubegen has no tables for Kubernetes 1.{minor} (k8s-openapi feature `v1_{minor}`); \
             supported: {}",
            names.join(", ")
        ))
    }

    /// Every supported version, oldest first.
    pub fn supported() -> impl Iterator<Item = Minor> {
        SUPPORTED.iter().map(|m| Minor(*m as u8))
    }

    /// The version k8s-openapi is compiled for (its `v1_xx` feature).
    pub fn compiled() -> Minor {
        #[allow(unreachable_code, reason = "exactly one version gate expands")]
        fn minor() -> u8 {
            k8s_openapi::k8s_if_1_33! { return 33; }
            k8s_openapi::k8s_if_1_34! { return 34; }
            k8s_openapi::k8s_if_1_35! { return 35; }
            k8s_openapi::k8s_if_1_36! { return 36; }
            k8s_openapi::k8s_if_1_37! { return 37; }
            0
        }
        Minor(minor())
    }

    /// The `x` of 1.`x`.
    pub const fn get(self) -> u32 {
        self.0 as u32
    }
}

/// `1.37`.
impl fmt::Display for Minor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "1.{}", self.0)
    }
}
