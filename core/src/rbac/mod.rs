//! RBAC: `#[rbac]` rules in, normalized Roles and ClusterRoles out.
