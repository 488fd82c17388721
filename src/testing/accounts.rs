//! Clients that authenticate as a ServiceAccount bound to a package's generated roles.

use std::fmt::Debug;

use k8s_openapi::api::authentication::v1::{TokenRequest, TokenRequestSpec};
use k8s_openapi::api::core::v1::ServiceAccount;
use k8s_openapi::api::rbac::v1::{
    ClusterRole, ClusterRoleBinding, Role, RoleBinding, RoleRef, Subject,
};
use kube::api::{Api, ObjectMeta, Patch, PatchParams, PostParams};
use serde::Serialize;
use serde::de::DeserializeOwned;
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
    let accounts: Api<ServiceAccount> = Api::namespaced(admin.clone(), namespace);
    let account = ServiceAccount {
        metadata: ObjectMeta {
            name: Some(name.into()),
            ..ObjectMeta::default()
        },
        ..ServiceAccount::default()
    };
    apply(accounts.clone(), &account).await?;
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
        let binding = |role: &str| RoleBinding {
            metadata: ObjectMeta {
                name: Some(format!("{role}-{namespace}-{name}")),
                ..ObjectMeta::default()
            },
            role_ref: RoleRef {
                api_group: Some("rbac.authorization.k8s.io".into()),
                kind: kind.clone(),
                name: role.into(),
            },
            subjects: Some(vec![subject.clone()]),
        };
        match kind.as_str() {
            "ClusterRole" => {
                let role: ClusterRole = serde_json::from_value(doc).map_err(not_a_role)?;
                let RoleBinding {
                    metadata,
                    role_ref,
                    subjects,
                } = binding(&apply(Api::all(admin.clone()), &role).await?);
                let binding = ClusterRoleBinding {
                    metadata,
                    role_ref,
                    subjects,
                };
                apply(Api::all(admin.clone()), &binding).await?;
            }
            "Role" => {
                let mut role: Role = serde_json::from_value(doc).map_err(not_a_role)?;
                role.metadata.namespace = Some(namespace.into());
                let role = apply(Api::namespaced(admin.clone(), namespace), &role).await?;
                apply(Api::namespaced(admin.clone(), namespace), &binding(&role)).await?;
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
    // Its namespace is the client's default, as in a cluster, where a pod's ServiceAccount
    // names it.
    let mut config = config.clone();
    config.default_namespace = namespace.to_string();
    config.auth_info = kube::config::AuthInfo {
        token: Some(token.into()),
        ..kube::config::AuthInfo::default()
    };
    Ok(kube::Client::try_from(config)?)
}

/// Applies `object` server-side and returns its name.
async fn apply<K>(api: Api<K>, object: &K) -> Result<String, Error>
where
    K: kube::Resource + Clone + DeserializeOwned + Serialize + Debug,
{
    let name = object.meta().name.clone().unwrap_or_default();
    api.patch(
        &name,
        &PatchParams::apply(MANAGER).force(),
        &Patch::Apply(object),
    )
    .await?;
    Ok(name)
}
