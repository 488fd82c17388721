//! Clients that authenticate as a ServiceAccount bound to a package's generated roles.

use k8s_openapi::api::authentication::v1::{TokenRequest, TokenRequestSpec};
use k8s_openapi::api::core::v1::ServiceAccount;
use k8s_openapi::api::rbac::v1::{
    ClusterRole, ClusterRoleBinding, Role, RoleBinding, RoleRef, Subject,
};
use kube::api::{Api, ObjectMeta, Patch, PatchParams, PostParams};
use serde_json::Value;

use super::error::Error;

/// The field manager the accounts and roles are applied with.
const MANAGER: &str = "kubegen-testing";

/// Creates the ServiceAccount `namespace/name`, applies every ClusterRole and Role of
/// `role_yaml` (a `role.yaml` as `kubegen manifests` writes it; Roles go into `namespace`),
/// binds each to the account, and returns a client that authenticates with a token the
/// TokenRequest API issued for it.
pub(crate) async fn client_as(
    admin: &kube::Client,
    config: &kube::Config,
    namespace: &str,
    name: &str,
    role_yaml: &str,
) -> Result<kube::Client, Error> {
    let params = PatchParams::apply(MANAGER).force();
    let accounts: Api<ServiceAccount> = Api::namespaced(admin.clone(), namespace);
    let account = ServiceAccount {
        metadata: ObjectMeta {
            name: Some(name.into()),
            ..ObjectMeta::default()
        },
        ..ServiceAccount::default()
    };
    accounts
        .patch(name, &params, &Patch::Apply(&account))
        .await?;
    let subject = Subject {
        kind: "ServiceAccount".into(),
        name: name.into(),
        namespace: Some(namespace.into()),
        ..Subject::default()
    };
    let docs: Vec<Value> = serde_saphyr::from_multiple(role_yaml)
        .map_err(|e| Error::Config(format!("reading the roles: {e}")))?;
    for doc in docs.into_iter().filter(|doc| !doc.is_null()) {
        let kind = doc["kind"].as_str().unwrap_or_default().to_string();
        let not_a_role =
            |e: serde_json::Error| Error::Config(format!("a {kind} in the roles: {e}"));
        let binding_meta = |role: &str| ObjectMeta {
            name: Some(format!("{role}-{namespace}-{name}")),
            ..ObjectMeta::default()
        };
        match kind.as_str() {
            "ClusterRole" => {
                let role: ClusterRole = serde_json::from_value(doc).map_err(not_a_role)?;
                let role_name = role.metadata.name.clone().unwrap_or_default();
                let roles: Api<ClusterRole> = Api::all(admin.clone());
                roles
                    .patch(&role_name, &params, &Patch::Apply(&role))
                    .await?;
                let binding = ClusterRoleBinding {
                    metadata: binding_meta(&role_name),
                    role_ref: role_ref("ClusterRole", &role_name),
                    subjects: Some(vec![subject.clone()]),
                };
                let bindings: Api<ClusterRoleBinding> = Api::all(admin.clone());
                let binding_name = binding.metadata.name.clone().unwrap_or_default();
                bindings
                    .patch(&binding_name, &params, &Patch::Apply(&binding))
                    .await?;
            }
            "Role" => {
                let mut role: Role = serde_json::from_value(doc).map_err(not_a_role)?;
                role.metadata.namespace = Some(namespace.into());
                let role_name = role.metadata.name.clone().unwrap_or_default();
                let roles: Api<Role> = Api::namespaced(admin.clone(), namespace);
                roles
                    .patch(&role_name, &params, &Patch::Apply(&role))
                    .await?;
                let binding = RoleBinding {
                    metadata: binding_meta(&role_name),
                    role_ref: role_ref("Role", &role_name),
                    subjects: Some(vec![subject.clone()]),
                };
                let bindings: Api<RoleBinding> = Api::namespaced(admin.clone(), namespace);
                let binding_name = binding.metadata.name.clone().unwrap_or_default();
                bindings
                    .patch(&binding_name, &params, &Patch::Apply(&binding))
                    .await?;
            }
            other => {
                return Err(Error::Config(format!(
                    "the roles hold a `{other}`: only ClusterRoles and Roles are bound"
                )));
            }
        }
    }
    let request = TokenRequest {
        spec: Some(TokenRequestSpec {
            expiration_seconds: Some(3600),
            ..TokenRequestSpec::default()
        }),
        ..TokenRequest::default()
    };
    let issued = accounts
        .create_token_request(name, &PostParams::default(), &request)
        .await?;
    let token = issued.status.and_then(|s| s.token).unwrap_or_default();
    let mut config = config.clone();
    config.auth_info = kube::config::AuthInfo {
        token: Some(token.into()),
        ..kube::config::AuthInfo::default()
    };
    Ok(kube::Client::try_from(config)?)
}

/// A binding's reference to a role of this kind.
fn role_ref(kind: &str, name: &str) -> RoleRef {
    RoleRef {
        api_group: Some("rbac.authorization.k8s.io".into()),
        kind: kind.into(),
        name: name.into(),
    }
}
