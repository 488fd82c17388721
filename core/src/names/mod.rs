//! The naming rules of Kubernetes objects, each written once: DNS labels and subdomains, API
//! groups and kinds ([`is_dns_label`], [`is_group`], [`is_kind`]), property names as CEL
//! escapes them ([`cel_name`]), Kubernetes version names and their priority ([`KubeVersion`],
//! [`kube_order`]), the plural of a kind as controller-gen computes it ([`pluralize`]), and the
//! approval the API server asks of a CRD in a Kubernetes group ([`approval_problem`]). The
//! derive, `gen-cli`, the scaffold, CRD assembly, webhooks and the checks all use these.

mod approval;
mod cel;
mod dns;
mod plural;
mod version;

pub use approval::{APPROVAL_ANNOTATION, approval_problem, is_protected_group};
pub use cel::{cel_field, cel_name};
pub use dns::{dashed, is_dns_label, is_dns_subdomain, is_dns1035_label, is_group, is_kind};
pub use plural::pluralize;
pub use version::{KubeVersion, Stability, kube_order};
