//! The webhook model: one `#[webhook(...)]` in ([`Webhook`]), one
//! `#[webhook_configuration(...)]` ([`ConfigurationName`]), configurations out
//! ([`Configuration`]).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::model::Loc;

/// One `#[webhook(...)]` attribute, checked, with the values as written (the policies as
/// their words): what a handler's `webhooks()` returns for `kubegen::webhook::Server`. Its
/// fields are the engine's (hidden from kubegen's documentation, not a stable API).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Webhook {
    /// `true`: a MutatingWebhookConfiguration entry; `false`: a validating one.
    #[doc(hidden)]
    pub mutating: bool,
    /// `failurePolicy`.
    #[doc(hidden)]
    pub failure_policy: FailurePolicy,
    /// `matchPolicy`; `None` leaves the API server's default.
    #[doc(hidden)]
    pub match_policy: Option<MatchPolicy>,
    /// `sideEffects`.
    #[doc(hidden)]
    pub side_effects: SideEffects,
    /// 1–30; `None` leaves the API server's default.
    #[doc(hidden)]
    pub timeout_seconds: Option<i32>,
    /// API groups; `core` and `""` are the core group.
    #[doc(hidden)]
    pub groups: Vec<String>,
    /// Resources, subresources as `pods/status`.
    #[doc(hidden)]
    pub resources: Vec<String>,
    /// Operations as written, in any case: `create`, `update`, `delete`, `connect`, `*`.
    #[doc(hidden)]
    pub verbs: Vec<String>,
    /// API versions.
    #[doc(hidden)]
    pub versions: Vec<String>,
    /// The webhook's name, a DNS name of at least three labels.
    #[doc(hidden)]
    pub name: String,
    /// The service path; `None` means the default path (see [`route`](super::route)), unless
    /// `url` is given.
    #[doc(hidden)]
    pub path: Option<String>,
    /// A URL instead of a service.
    #[doc(hidden)]
    pub url: Option<String>,
    /// The service's name; default [`DEFAULT_SERVICE`](super::DEFAULT_SERVICE).
    #[doc(hidden)]
    pub service_name: Option<String>,
    /// The service's namespace; default [`DEFAULT_NAMESPACE`](super::DEFAULT_NAMESPACE).
    #[doc(hidden)]
    pub service_namespace: Option<String>,
    /// The service's port; `None` leaves the API server's default (443).
    #[doc(hidden)]
    pub service_port: Option<i32>,
    /// The AdmissionReview versions the webhook understands.
    #[doc(hidden)]
    pub admission_review_versions: Vec<String>,
    /// `reinvocationPolicy`, mutating webhooks only.
    #[doc(hidden)]
    pub reinvocation_policy: Option<ReinvocationPolicy>,
    /// A JSON object merged into the generated entry (selectors, `matchConditions`).
    #[doc(hidden)]
    pub patch: Option<Value>,
    /// Where the attribute is, when the front end knows it (the CLI fills it).
    #[doc(hidden)]
    pub loc: Option<Loc>,
}

/// A value of an admissionregistration v1 field that takes one of a few words.
pub trait Word: Copy + Sized + 'static {
    /// Every value, in the order messages list them.
    const ALL: &'static [Self];

    /// The word, as Kubernetes spells it (and serde writes it).
    fn as_str(self) -> &'static str;
}

/// Enums of words, each variant spelled as Kubernetes spells it.
macro_rules! words {
    ($($(#[$doc:meta])* $name:ident { $($(#[$variant_doc:meta])* $variant:ident,)+ })+) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
        pub enum $name {
            $($(#[$variant_doc])* $variant,)+
        }

        impl Word for $name {
            const ALL: &'static [Self] = &[$(Self::$variant),+];

            fn as_str(self) -> &'static str {
                match self {
                    $(Self::$variant => stringify!($variant),)+
                }
            }
        }
    )+};
}

words! {
    /// What the API server does when the webhook cannot be called (`failurePolicy`).
    FailurePolicy {
        /// The request fails.
        Fail,
        /// The call is skipped.
        Ignore,
    }
    /// Which requests a rule matches (`matchPolicy`).
    MatchPolicy {
        /// Only the listed group, version and resource.
        Exact,
        /// The listed ones, and every version or group the same object is served as.
        Equivalent,
    }
    /// What the webhook does beside answering (`sideEffects`).
    SideEffects {
        /// Nothing.
        None,
        /// Something, but nothing on a dry run.
        NoneOnDryRun,
    }
    /// Whether a mutating webhook runs again after later mutations (`reinvocationPolicy`).
    ReinvocationPolicy {
        /// Once.
        Never,
        /// Again when a later webhook changed the object.
        IfNeeded,
    }
}

/// The API server's default.
impl Default for FailurePolicy {
    fn default() -> Self {
        Self::Fail
    }
}

/// What kubebuilder scaffolds.
impl Default for SideEffects {
    fn default() -> Self {
        Self::None
    }
}

/// One `#[webhook_configuration(mutating = ..., name = "...")]`: the name of one of the two
/// configurations.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConfigurationName {
    /// Which configuration it names.
    pub mutating: bool,
    /// Its name.
    pub name: String,
    /// Where the attribute is, when the front end knows it.
    pub loc: Option<Loc>,
}

/// One generated configuration: its name and its webhooks, in output order.
#[derive(Clone, Debug, PartialEq)]
pub struct Configuration {
    /// Mutating or validating.
    pub mutating: bool,
    /// `metadata.name`.
    pub name: String,
    /// The entries, stably sorted by name.
    pub webhooks: Vec<Webhook>,
}
