// @generated from k8s-openapi 0.29.0's sources by `topology_is_fresh` in
// `tools/k8s-facts`; do not edit. Regenerate with
// `KUBEGEN_BLESS=1 cargo test -p k8s-facts topology_is_fresh`.
//
// The merge strategy of every property whose `DeepMerge` impl neither merges it field by
// field nor as a granular map (507 entries), by Kubernetes definition and JSON name,
// grouped by the Kubernetes versions that have it: `atomic` (`list::atomic`), `set`
// (`list::set`), `map[keys]` (`list::map`; `map[]` when keyed by other than a property
// of the items) and `map_atomic` (`map::atomic`). See `topology.rs`.

k8s_topology! {
    // Kubernetes 1.33 to 1.37: 331 properties
    [] {
        "io.k8s.api.admissionregistration.v1.MatchResources" {
            "excludeResourceRules": atomic,
            "resourceRules": atomic,
        }
        "io.k8s.api.admissionregistration.v1.MutatingWebhook" {
            "admissionReviewVersions": atomic,
            "matchConditions": map["name"],
            "rules": atomic,
        }
        "io.k8s.api.admissionregistration.v1.MutatingWebhookConfiguration" {
            "webhooks": map["name"],
        }
        "io.k8s.api.admissionregistration.v1.NamedRuleWithOperations" {
            "apiGroups": atomic,
            "apiVersions": atomic,
            "operations": atomic,
            "resourceNames": atomic,
            "resources": atomic,
        }
        "io.k8s.api.admissionregistration.v1.RuleWithOperations" {
            "apiGroups": atomic,
            "apiVersions": atomic,
            "operations": atomic,
            "resources": atomic,
        }
        "io.k8s.api.admissionregistration.v1.TypeChecking" {
            "expressionWarnings": atomic,
        }
        "io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyBindingSpec" {
            "validationActions": set,
        }
        "io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicySpec" {
            "auditAnnotations": atomic,
            "matchConditions": map["name"],
            "validations": atomic,
            "variables": map["name"],
        }
        "io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyStatus" {
            "conditions": map["type"],
        }
        "io.k8s.api.admissionregistration.v1.ValidatingWebhook" {
            "admissionReviewVersions": atomic,
            "matchConditions": map["name"],
            "rules": atomic,
        }
        "io.k8s.api.admissionregistration.v1.ValidatingWebhookConfiguration" {
            "webhooks": map["name"],
        }
        "io.k8s.api.admissionregistration.v1alpha1.MatchResources" {
            "excludeResourceRules": atomic,
            "resourceRules": atomic,
        }
        "io.k8s.api.admissionregistration.v1alpha1.MutatingAdmissionPolicySpec" {
            "matchConditions": map["name"],
            "mutations": atomic,
            "variables": atomic,
        }
        "io.k8s.api.admissionregistration.v1alpha1.NamedRuleWithOperations" {
            "apiGroups": atomic,
            "apiVersions": atomic,
            "operations": atomic,
            "resourceNames": atomic,
            "resources": atomic,
        }
        "io.k8s.api.admissionregistration.v1beta1.MatchResources" {
            "excludeResourceRules": atomic,
            "resourceRules": atomic,
        }
        "io.k8s.api.admissionregistration.v1beta1.NamedRuleWithOperations" {
            "apiGroups": atomic,
            "apiVersions": atomic,
            "operations": atomic,
            "resourceNames": atomic,
            "resources": atomic,
        }
        "io.k8s.api.apiserverinternal.v1alpha1.ServerStorageVersion" {
            "decodableVersions": set,
            "servedVersions": set,
        }
        "io.k8s.api.apiserverinternal.v1alpha1.StorageVersionStatus" {
            "conditions": map["type"],
            "storageVersions": map["apiServerID"],
        }
        "io.k8s.api.apps.v1.DaemonSetStatus" {
            "conditions": map["type"],
        }
        "io.k8s.api.apps.v1.DeploymentStatus" {
            "conditions": map["type"],
        }
        "io.k8s.api.apps.v1.ReplicaSetStatus" {
            "conditions": map["type"],
        }
        "io.k8s.api.apps.v1.StatefulSetSpec" {
            "volumeClaimTemplates": map[],
        }
        "io.k8s.api.apps.v1.StatefulSetStatus" {
            "conditions": map["type"],
        }
        "io.k8s.api.authentication.v1.TokenRequestSpec" {
            "audiences": atomic,
        }
        "io.k8s.api.authentication.v1.TokenReviewSpec" {
            "audiences": atomic,
        }
        "io.k8s.api.authentication.v1.TokenReviewStatus" {
            "audiences": atomic,
        }
        "io.k8s.api.authentication.v1.UserInfo" {
            "groups": atomic,
        }
        "io.k8s.api.authorization.v1.FieldSelectorAttributes" {
            "requirements": atomic,
        }
        "io.k8s.api.authorization.v1.LabelSelectorAttributes" {
            "requirements": atomic,
        }
        "io.k8s.api.authorization.v1.NonResourceRule" {
            "nonResourceURLs": atomic,
            "verbs": atomic,
        }
        "io.k8s.api.authorization.v1.ResourceRule" {
            "apiGroups": atomic,
            "resourceNames": atomic,
            "resources": atomic,
            "verbs": atomic,
        }
        "io.k8s.api.authorization.v1.SubjectAccessReviewSpec" {
            "groups": atomic,
        }
        "io.k8s.api.authorization.v1.SubjectRulesReviewStatus" {
            "nonResourceRules": atomic,
            "resourceRules": atomic,
        }
        "io.k8s.api.autoscaling.v2.HPAScalingRules" {
            "policies": atomic,
        }
        "io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec" {
            "metrics": atomic,
        }
        "io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerStatus" {
            "conditions": map["type"],
            "currentMetrics": atomic,
        }
        "io.k8s.api.batch.v1.CronJobStatus" {
            "active": atomic,
        }
        "io.k8s.api.batch.v1.JobStatus" {
            "conditions": map["type"],
        }
        "io.k8s.api.batch.v1.PodFailurePolicy" {
            "rules": atomic,
        }
        "io.k8s.api.batch.v1.PodFailurePolicyOnExitCodesRequirement" {
            "values": set,
        }
        "io.k8s.api.batch.v1.PodFailurePolicyRule" {
            "onPodConditions": atomic,
        }
        "io.k8s.api.batch.v1.SuccessPolicy" {
            "rules": atomic,
        }
        "io.k8s.api.batch.v1.UncountedTerminatedPods" {
            "failed": set,
            "succeeded": set,
        }
        "io.k8s.api.certificates.v1.CertificateSigningRequestSpec" {
            "groups": atomic,
            "usages": atomic,
        }
        "io.k8s.api.certificates.v1.CertificateSigningRequestStatus" {
            "conditions": map["type"],
        }
        "io.k8s.api.core.v1.Capabilities" {
            "add": atomic,
            "drop": atomic,
        }
        "io.k8s.api.core.v1.CephFSPersistentVolumeSource" {
            "monitors": atomic,
        }
        "io.k8s.api.core.v1.CephFSVolumeSource" {
            "monitors": atomic,
        }
        "io.k8s.api.core.v1.ComponentStatus" {
            "conditions": map["type"],
        }
        "io.k8s.api.core.v1.ConfigMapProjection" {
            "items": atomic,
        }
        "io.k8s.api.core.v1.ConfigMapVolumeSource" {
            "items": atomic,
        }
        "io.k8s.api.core.v1.Container" {
            "args": atomic,
            "command": atomic,
            "env": map["name"],
            "envFrom": atomic,
            "ports": map["containerPort"],
            "resizePolicy": atomic,
            "volumeDevices": map["devicePath"],
            "volumeMounts": map["mountPath"],
        }
        "io.k8s.api.core.v1.ContainerImage" {
            "names": atomic,
        }
        "io.k8s.api.core.v1.ContainerStatus" {
            "allocatedResourcesStatus": map["name"],
            "volumeMounts": map["mountPath"],
        }
        "io.k8s.api.core.v1.DownwardAPIProjection" {
            "items": atomic,
        }
        "io.k8s.api.core.v1.DownwardAPIVolumeSource" {
            "items": atomic,
        }
        "io.k8s.api.core.v1.EndpointSubset" {
            "addresses": atomic,
            "notReadyAddresses": atomic,
            "ports": atomic,
        }
        "io.k8s.api.core.v1.Endpoints" {
            "subsets": atomic,
        }
        "io.k8s.api.core.v1.EphemeralContainer" {
            "args": atomic,
            "command": atomic,
            "env": map["name"],
            "envFrom": atomic,
            "ports": map["containerPort"],
            "resizePolicy": atomic,
            "volumeDevices": map["devicePath"],
            "volumeMounts": map["mountPath"],
        }
        "io.k8s.api.core.v1.ExecAction" {
            "command": atomic,
        }
        "io.k8s.api.core.v1.FCVolumeSource" {
            "targetWWNs": atomic,
            "wwids": atomic,
        }
        "io.k8s.api.core.v1.HTTPGetAction" {
            "httpHeaders": atomic,
        }
        "io.k8s.api.core.v1.HostAlias" {
            "hostnames": atomic,
        }
        "io.k8s.api.core.v1.ISCSIPersistentVolumeSource" {
            "portals": atomic,
        }
        "io.k8s.api.core.v1.ISCSIVolumeSource" {
            "portals": atomic,
        }
        "io.k8s.api.core.v1.LimitRangeSpec" {
            "limits": atomic,
        }
        "io.k8s.api.core.v1.LinuxContainerUser" {
            "supplementalGroups": atomic,
        }
        "io.k8s.api.core.v1.LoadBalancerIngress" {
            "ports": atomic,
        }
        "io.k8s.api.core.v1.LoadBalancerStatus" {
            "ingress": atomic,
        }
        "io.k8s.api.core.v1.NamespaceSpec" {
            "finalizers": atomic,
        }
        "io.k8s.api.core.v1.NamespaceStatus" {
            "conditions": map["type"],
        }
        "io.k8s.api.core.v1.NodeAffinity" {
            "preferredDuringSchedulingIgnoredDuringExecution": atomic,
        }
        "io.k8s.api.core.v1.NodeSelector" {
            "nodeSelectorTerms": atomic,
        }
        "io.k8s.api.core.v1.NodeSelectorRequirement" {
            "values": atomic,
        }
        "io.k8s.api.core.v1.NodeSelectorTerm" {
            "matchExpressions": atomic,
            "matchFields": atomic,
        }
        "io.k8s.api.core.v1.NodeSpec" {
            "podCIDRs": set,
            "taints": atomic,
        }
        "io.k8s.api.core.v1.NodeStatus" {
            "addresses": map["type"],
            "conditions": map["type"],
            "images": atomic,
            "runtimeHandlers": atomic,
            "volumesAttached": atomic,
            "volumesInUse": atomic,
        }
        "io.k8s.api.core.v1.PersistentVolumeClaimSpec" {
            "accessModes": atomic,
        }
        "io.k8s.api.core.v1.PersistentVolumeClaimStatus" {
            "accessModes": atomic,
            "conditions": map["type"],
        }
        "io.k8s.api.core.v1.PersistentVolumeSpec" {
            "accessModes": atomic,
            "mountOptions": atomic,
        }
        "io.k8s.api.core.v1.PodAffinity" {
            "preferredDuringSchedulingIgnoredDuringExecution": atomic,
            "requiredDuringSchedulingIgnoredDuringExecution": atomic,
        }
        "io.k8s.api.core.v1.PodAffinityTerm" {
            "matchLabelKeys": atomic,
            "mismatchLabelKeys": atomic,
            "namespaces": atomic,
        }
        "io.k8s.api.core.v1.PodAntiAffinity" {
            "preferredDuringSchedulingIgnoredDuringExecution": atomic,
            "requiredDuringSchedulingIgnoredDuringExecution": atomic,
        }
        "io.k8s.api.core.v1.PodDNSConfig" {
            "nameservers": atomic,
            "options": atomic,
            "searches": atomic,
        }
        "io.k8s.api.core.v1.PodSecurityContext" {
            "supplementalGroups": atomic,
            "sysctls": atomic,
        }
        "io.k8s.api.core.v1.PodSpec" {
            "containers": map["name"],
            "ephemeralContainers": map["name"],
            "hostAliases": map["ip"],
            "imagePullSecrets": map["name"],
            "initContainers": map["name"],
            "nodeSelector": map_atomic,
            "readinessGates": atomic,
            "resourceClaims": map["name"],
            "schedulingGates": map["name"],
            "tolerations": atomic,
            "topologySpreadConstraints": map["topologyKey"],
            "volumes": map["name"],
        }
        "io.k8s.api.core.v1.PodStatus" {
            "conditions": map["type"],
            "containerStatuses": atomic,
            "ephemeralContainerStatuses": atomic,
            "hostIPs": map["ip"],
            "initContainerStatuses": atomic,
            "podIPs": map["ip"],
            "resourceClaimStatuses": map["name"],
        }
        "io.k8s.api.core.v1.ProjectedVolumeSource" {
            "sources": atomic,
        }
        "io.k8s.api.core.v1.RBDPersistentVolumeSource" {
            "monitors": atomic,
        }
        "io.k8s.api.core.v1.RBDVolumeSource" {
            "monitors": atomic,
        }
        "io.k8s.api.core.v1.ReplicationControllerSpec" {
            "selector": map_atomic,
        }
        "io.k8s.api.core.v1.ReplicationControllerStatus" {
            "conditions": map["type"],
        }
        "io.k8s.api.core.v1.ResourceQuotaSpec" {
            "scopes": atomic,
        }
        "io.k8s.api.core.v1.ResourceRequirements" {
            "claims": map["name"],
        }
        "io.k8s.api.core.v1.ResourceStatus" {
            "resources": map["resourceID"],
        }
        "io.k8s.api.core.v1.ScopeSelector" {
            "matchExpressions": atomic,
        }
        "io.k8s.api.core.v1.ScopedResourceSelectorRequirement" {
            "values": atomic,
        }
        "io.k8s.api.core.v1.SecretProjection" {
            "items": atomic,
        }
        "io.k8s.api.core.v1.SecretVolumeSource" {
            "items": atomic,
        }
        "io.k8s.api.core.v1.ServiceAccount" {
            "imagePullSecrets": atomic,
            "secrets": map["name"],
        }
        "io.k8s.api.core.v1.ServiceSpec" {
            "clusterIPs": atomic,
            "externalIPs": atomic,
            "ipFamilies": atomic,
            "loadBalancerSourceRanges": atomic,
            "ports": map["port"],
            "selector": map_atomic,
        }
        "io.k8s.api.core.v1.ServiceStatus" {
            "conditions": map["type"],
        }
        "io.k8s.api.core.v1.TopologySelectorLabelRequirement" {
            "values": atomic,
        }
        "io.k8s.api.core.v1.TopologySelectorTerm" {
            "matchLabelExpressions": atomic,
        }
        "io.k8s.api.core.v1.TopologySpreadConstraint" {
            "matchLabelKeys": atomic,
        }
        "io.k8s.api.discovery.v1.Endpoint" {
            "addresses": set,
        }
        "io.k8s.api.discovery.v1.EndpointHints" {
            "forNodes": atomic,
            "forZones": atomic,
        }
        "io.k8s.api.discovery.v1.EndpointSlice" {
            "endpoints": atomic,
            "ports": atomic,
        }
        "io.k8s.api.flowcontrol.v1.FlowSchemaSpec" {
            "rules": atomic,
        }
        "io.k8s.api.flowcontrol.v1.FlowSchemaStatus" {
            "conditions": map["type"],
        }
        "io.k8s.api.flowcontrol.v1.NonResourcePolicyRule" {
            "nonResourceURLs": set,
            "verbs": set,
        }
        "io.k8s.api.flowcontrol.v1.PolicyRulesWithSubjects" {
            "nonResourceRules": atomic,
            "resourceRules": atomic,
            "subjects": atomic,
        }
        "io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationStatus" {
            "conditions": map["type"],
        }
        "io.k8s.api.flowcontrol.v1.ResourcePolicyRule" {
            "apiGroups": set,
            "namespaces": set,
            "resources": set,
            "verbs": set,
        }
        "io.k8s.api.networking.v1.HTTPIngressRuleValue" {
            "paths": atomic,
        }
        "io.k8s.api.networking.v1.IPBlock" {
            "except": atomic,
        }
        "io.k8s.api.networking.v1.IngressLoadBalancerIngress" {
            "ports": atomic,
        }
        "io.k8s.api.networking.v1.IngressLoadBalancerStatus" {
            "ingress": atomic,
        }
        "io.k8s.api.networking.v1.IngressSpec" {
            "rules": atomic,
            "tls": atomic,
        }
        "io.k8s.api.networking.v1.IngressTLS" {
            "hosts": atomic,
        }
        "io.k8s.api.networking.v1.NetworkPolicyEgressRule" {
            "ports": atomic,
            "to": atomic,
        }
        "io.k8s.api.networking.v1.NetworkPolicyIngressRule" {
            "from": atomic,
            "ports": atomic,
        }
        "io.k8s.api.networking.v1.NetworkPolicySpec" {
            "egress": atomic,
            "ingress": atomic,
            "policyTypes": atomic,
        }
        "io.k8s.api.networking.v1.ServiceCIDRSpec" {
            "cidrs": atomic,
        }
        "io.k8s.api.networking.v1.ServiceCIDRStatus" {
            "conditions": map["type"],
        }
        "io.k8s.api.node.v1.Scheduling" {
            "nodeSelector": map_atomic,
            "tolerations": atomic,
        }
        "io.k8s.api.policy.v1.PodDisruptionBudgetStatus" {
            "conditions": map["type"],
        }
        "io.k8s.api.rbac.v1.AggregationRule" {
            "clusterRoleSelectors": atomic,
        }
        "io.k8s.api.rbac.v1.ClusterRole" {
            "rules": atomic,
        }
        "io.k8s.api.rbac.v1.ClusterRoleBinding" {
            "subjects": atomic,
        }
        "io.k8s.api.rbac.v1.PolicyRule" {
            "apiGroups": atomic,
            "nonResourceURLs": atomic,
            "resourceNames": atomic,
            "resources": atomic,
            "verbs": atomic,
        }
        "io.k8s.api.rbac.v1.Role" {
            "rules": atomic,
        }
        "io.k8s.api.rbac.v1.RoleBinding" {
            "subjects": atomic,
        }
        "io.k8s.api.resource.v1beta1.AllocatedDeviceStatus" {
            "conditions": map["type"],
        }
        "io.k8s.api.resource.v1beta1.BasicDevice" {
            "consumesCounters": atomic,
            "taints": atomic,
        }
        "io.k8s.api.resource.v1beta1.DeviceAllocationConfiguration" {
            "requests": atomic,
        }
        "io.k8s.api.resource.v1beta1.DeviceAllocationResult" {
            "config": atomic,
            "results": atomic,
        }
        "io.k8s.api.resource.v1beta1.DeviceClaim" {
            "config": atomic,
            "constraints": atomic,
            "requests": atomic,
        }
        "io.k8s.api.resource.v1beta1.DeviceClaimConfiguration" {
            "requests": atomic,
        }
        "io.k8s.api.resource.v1beta1.DeviceClassSpec" {
            "config": atomic,
            "selectors": atomic,
        }
        "io.k8s.api.resource.v1beta1.DeviceConstraint" {
            "requests": atomic,
        }
        "io.k8s.api.resource.v1beta1.DeviceRequest" {
            "firstAvailable": atomic,
            "selectors": atomic,
            "tolerations": atomic,
        }
        "io.k8s.api.resource.v1beta1.DeviceRequestAllocationResult" {
            "tolerations": atomic,
        }
        "io.k8s.api.resource.v1beta1.DeviceSubRequest" {
            "selectors": atomic,
            "tolerations": atomic,
        }
        "io.k8s.api.resource.v1beta1.NetworkDeviceData" {
            "ips": atomic,
        }
        "io.k8s.api.resource.v1beta1.ResourceClaimStatus" {
            "reservedFor": map["uid"],
        }
        "io.k8s.api.resource.v1beta1.ResourceSliceSpec" {
            "devices": atomic,
            "sharedCounters": atomic,
        }
        "io.k8s.api.resource.v1beta2.AllocatedDeviceStatus" {
            "conditions": map["type"],
        }
        "io.k8s.api.resource.v1beta2.Device" {
            "consumesCounters": atomic,
            "taints": atomic,
        }
        "io.k8s.api.resource.v1beta2.DeviceAllocationConfiguration" {
            "requests": atomic,
        }
        "io.k8s.api.resource.v1beta2.DeviceAllocationResult" {
            "config": atomic,
            "results": atomic,
        }
        "io.k8s.api.resource.v1beta2.DeviceClaim" {
            "config": atomic,
            "constraints": atomic,
            "requests": atomic,
        }
        "io.k8s.api.resource.v1beta2.DeviceClaimConfiguration" {
            "requests": atomic,
        }
        "io.k8s.api.resource.v1beta2.DeviceClassSpec" {
            "config": atomic,
            "selectors": atomic,
        }
        "io.k8s.api.resource.v1beta2.DeviceConstraint" {
            "requests": atomic,
        }
        "io.k8s.api.resource.v1beta2.DeviceRequest" {
            "firstAvailable": atomic,
        }
        "io.k8s.api.resource.v1beta2.DeviceRequestAllocationResult" {
            "tolerations": atomic,
        }
        "io.k8s.api.resource.v1beta2.DeviceSubRequest" {
            "selectors": atomic,
            "tolerations": atomic,
        }
        "io.k8s.api.resource.v1beta2.ExactDeviceRequest" {
            "selectors": atomic,
            "tolerations": atomic,
        }
        "io.k8s.api.resource.v1beta2.NetworkDeviceData" {
            "ips": atomic,
        }
        "io.k8s.api.resource.v1beta2.ResourceClaimStatus" {
            "reservedFor": map["uid"],
        }
        "io.k8s.api.resource.v1beta2.ResourceSliceSpec" {
            "devices": atomic,
            "sharedCounters": atomic,
        }
        "io.k8s.api.storage.v1.CSIDriverSpec" {
            "tokenRequests": atomic,
            "volumeLifecycleModes": set,
        }
        "io.k8s.api.storage.v1.CSINodeDriver" {
            "topologyKeys": atomic,
        }
        "io.k8s.api.storage.v1.CSINodeSpec" {
            "drivers": map["name"],
        }
        "io.k8s.api.storage.v1.StorageClass" {
            "allowedTopologies": atomic,
            "mountOptions": atomic,
        }
        "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionNames" {
            "categories": atomic,
            "shortNames": atomic,
        }
        "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionSpec" {
            "versions": atomic,
        }
        "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionStatus" {
            "conditions": map["type"],
            "storedVersions": atomic,
        }
        "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionVersion" {
            "additionalPrinterColumns": atomic,
            "selectableFields": atomic,
        }
        "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps" {
            "allOf": atomic,
            "anyOf": atomic,
            "enum": atomic,
            "oneOf": atomic,
            "required": atomic,
            "x-kubernetes-list-map-keys": atomic,
            "x-kubernetes-validations": map["rule"],
        }
        "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.WebhookConversion" {
            "conversionReviewVersions": atomic,
        }
        "io.k8s.apimachinery.pkg.apis.meta.v1.APIGroup" {
            "serverAddressByClientCIDRs": atomic,
            "versions": atomic,
        }
        "io.k8s.apimachinery.pkg.apis.meta.v1.APIGroupList" {
            "groups": atomic,
        }
        "io.k8s.apimachinery.pkg.apis.meta.v1.APIResource" {
            "categories": atomic,
            "shortNames": atomic,
            "verbs": atomic,
        }
        "io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList" {
            "resources": atomic,
        }
        "io.k8s.apimachinery.pkg.apis.meta.v1.APIVersions" {
            "serverAddressByClientCIDRs": atomic,
            "versions": atomic,
        }
        "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions" {
            "dryRun": atomic,
        }
        "io.k8s.apimachinery.pkg.apis.meta.v1.FieldSelectorRequirement" {
            "values": atomic,
        }
        "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector" {
            "matchExpressions": atomic,
        }
        "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement" {
            "values": atomic,
        }
        "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta" {
            "finalizers": set,
            "managedFields": atomic,
            "ownerReferences": map["uid"],
        }
        "io.k8s.apimachinery.pkg.apis.meta.v1.StatusDetails" {
            "causes": atomic,
        }
        "io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceStatus" {
            "conditions": map["type"],
        }
    }
    // Kubernetes 1.33 to 1.36: 2 properties
    [k8s_if_le_1_36] {
        "io.k8s.api.networking.v1beta1.ServiceCIDRSpec" {
            "cidrs": atomic,
        }
        "io.k8s.api.networking.v1beta1.ServiceCIDRStatus" {
            "conditions": map["type"],
        }
    }
    // Kubernetes 1.33 to 1.34: 2 properties
    [k8s_if_le_1_34] {
        "io.k8s.api.resource.v1alpha3.DeviceTaintSelector" {
            "selectors": atomic,
        }
        "io.k8s.api.storagemigration.v1alpha1.StorageVersionMigrationStatus" {
            "conditions": map["type"],
        }
    }
    // Kubernetes 1.33 only: 33 properties
    [k8s_if_le_1_33] {
        "io.k8s.api.admissionregistration.v1beta1.TypeChecking" {
            "expressionWarnings": atomic,
        }
        "io.k8s.api.admissionregistration.v1beta1.ValidatingAdmissionPolicyBindingSpec" {
            "validationActions": set,
        }
        "io.k8s.api.admissionregistration.v1beta1.ValidatingAdmissionPolicySpec" {
            "auditAnnotations": atomic,
            "matchConditions": map["name"],
            "validations": atomic,
            "variables": map["name"],
        }
        "io.k8s.api.admissionregistration.v1beta1.ValidatingAdmissionPolicyStatus" {
            "conditions": map["type"],
        }
        "io.k8s.api.resource.v1alpha3.AllocatedDeviceStatus" {
            "conditions": map["type"],
        }
        "io.k8s.api.resource.v1alpha3.BasicDevice" {
            "consumesCounters": atomic,
            "taints": atomic,
        }
        "io.k8s.api.resource.v1alpha3.DeviceAllocationConfiguration" {
            "requests": atomic,
        }
        "io.k8s.api.resource.v1alpha3.DeviceAllocationResult" {
            "config": atomic,
            "results": atomic,
        }
        "io.k8s.api.resource.v1alpha3.DeviceClaim" {
            "config": atomic,
            "constraints": atomic,
            "requests": atomic,
        }
        "io.k8s.api.resource.v1alpha3.DeviceClaimConfiguration" {
            "requests": atomic,
        }
        "io.k8s.api.resource.v1alpha3.DeviceClassSpec" {
            "config": atomic,
            "selectors": atomic,
        }
        "io.k8s.api.resource.v1alpha3.DeviceConstraint" {
            "requests": atomic,
        }
        "io.k8s.api.resource.v1alpha3.DeviceRequest" {
            "firstAvailable": atomic,
            "selectors": atomic,
            "tolerations": atomic,
        }
        "io.k8s.api.resource.v1alpha3.DeviceRequestAllocationResult" {
            "tolerations": atomic,
        }
        "io.k8s.api.resource.v1alpha3.DeviceSubRequest" {
            "selectors": atomic,
            "tolerations": atomic,
        }
        "io.k8s.api.resource.v1alpha3.NetworkDeviceData" {
            "ips": atomic,
        }
        "io.k8s.api.resource.v1alpha3.ResourceClaimStatus" {
            "devices": map["driver", "device", "pool"],
            "reservedFor": map["uid"],
        }
        "io.k8s.api.resource.v1alpha3.ResourceSliceSpec" {
            "devices": atomic,
            "sharedCounters": atomic,
        }
        "io.k8s.api.resource.v1beta1.ResourceClaimStatus" {
            "devices": map["driver", "device", "pool"],
        }
        "io.k8s.api.resource.v1beta2.ResourceClaimStatus" {
            "devices": map["driver", "device", "pool"],
        }
    }
    // Kubernetes 1.34 to 1.37: 48 properties
    [k8s_if_ge_1_34] {
        "io.k8s.api.admissionregistration.v1beta1.MutatingAdmissionPolicySpec" {
            "matchConditions": map["name"],
            "mutations": atomic,
            "variables": atomic,
        }
        "io.k8s.api.core.v1.Container" {
            "restartPolicyRules": atomic,
        }
        "io.k8s.api.core.v1.ContainerRestartRuleOnExitCodes" {
            "values": set,
        }
        "io.k8s.api.core.v1.EphemeralContainer" {
            "restartPolicyRules": atomic,
        }
        "io.k8s.api.core.v1.PodExtendedResourceClaimStatus" {
            "requestMappings": atomic,
        }
        "io.k8s.api.resource.v1.AllocatedDeviceStatus" {
            "conditions": map["type"],
        }
        "io.k8s.api.resource.v1.CapacityRequestPolicy" {
            "validValues": atomic,
        }
        "io.k8s.api.resource.v1.Device" {
            "bindingConditions": atomic,
            "bindingFailureConditions": atomic,
            "consumesCounters": atomic,
            "taints": atomic,
        }
        "io.k8s.api.resource.v1.DeviceAllocationConfiguration" {
            "requests": atomic,
        }
        "io.k8s.api.resource.v1.DeviceAllocationResult" {
            "config": atomic,
            "results": atomic,
        }
        "io.k8s.api.resource.v1.DeviceClaim" {
            "config": atomic,
            "constraints": atomic,
            "requests": atomic,
        }
        "io.k8s.api.resource.v1.DeviceClaimConfiguration" {
            "requests": atomic,
        }
        "io.k8s.api.resource.v1.DeviceClassSpec" {
            "config": atomic,
            "selectors": atomic,
        }
        "io.k8s.api.resource.v1.DeviceConstraint" {
            "requests": atomic,
        }
        "io.k8s.api.resource.v1.DeviceRequest" {
            "firstAvailable": atomic,
        }
        "io.k8s.api.resource.v1.DeviceRequestAllocationResult" {
            "bindingConditions": atomic,
            "bindingFailureConditions": atomic,
            "tolerations": atomic,
        }
        "io.k8s.api.resource.v1.DeviceSubRequest" {
            "selectors": atomic,
            "tolerations": atomic,
        }
        "io.k8s.api.resource.v1.ExactDeviceRequest" {
            "selectors": atomic,
            "tolerations": atomic,
        }
        "io.k8s.api.resource.v1.NetworkDeviceData" {
            "ips": atomic,
        }
        "io.k8s.api.resource.v1.ResourceClaimStatus" {
            "devices": map["driver", "device", "pool", "shareID"],
            "reservedFor": map["uid"],
        }
        "io.k8s.api.resource.v1.ResourceSliceSpec" {
            "devices": atomic,
            "sharedCounters": atomic,
        }
        "io.k8s.api.resource.v1beta1.BasicDevice" {
            "bindingConditions": atomic,
            "bindingFailureConditions": atomic,
        }
        "io.k8s.api.resource.v1beta1.CapacityRequestPolicy" {
            "validValues": atomic,
        }
        "io.k8s.api.resource.v1beta1.DeviceRequestAllocationResult" {
            "bindingConditions": atomic,
            "bindingFailureConditions": atomic,
        }
        "io.k8s.api.resource.v1beta1.ResourceClaimStatus" {
            "devices": map["driver", "device", "pool", "shareID"],
        }
        "io.k8s.api.resource.v1beta2.CapacityRequestPolicy" {
            "validValues": atomic,
        }
        "io.k8s.api.resource.v1beta2.Device" {
            "bindingConditions": atomic,
            "bindingFailureConditions": atomic,
        }
        "io.k8s.api.resource.v1beta2.DeviceRequestAllocationResult" {
            "bindingConditions": atomic,
            "bindingFailureConditions": atomic,
        }
        "io.k8s.api.resource.v1beta2.ResourceClaimStatus" {
            "devices": map["driver", "device", "pool", "shareID"],
        }
    }
    // Kubernetes 1.34 only: 1 property
    [k8s_if_1_34] {
        "io.k8s.api.certificates.v1alpha1.PodCertificateRequestStatus" {
            "conditions": map["type"],
        }
    }
    // Kubernetes 1.35 to 1.37: 4 properties
    [k8s_if_ge_1_35] {
        "io.k8s.api.certificates.v1beta1.PodCertificateRequestStatus" {
            "conditions": map["type"],
        }
        "io.k8s.api.core.v1.NodeStatus" {
            "declaredFeatures": atomic,
        }
        "io.k8s.api.resource.v1alpha3.DeviceTaintRuleStatus" {
            "conditions": map["type"],
        }
        "io.k8s.api.storagemigration.v1beta1.StorageVersionMigrationStatus" {
            "conditions": map["type"],
        }
    }
    // Kubernetes 1.35 only: 1 property
    [k8s_if_1_35] {
        "io.k8s.api.scheduling.v1alpha1.WorkloadSpec" {
            "podGroups": map["name"],
        }
    }
    // Kubernetes 1.36 to 1.37: 19 properties
    [k8s_if_ge_1_36] {
        "io.k8s.api.admissionregistration.v1.MutatingAdmissionPolicySpec" {
            "matchConditions": map["name"],
            "mutations": atomic,
            "variables": atomic,
        }
        "io.k8s.api.core.v1.NodeAllocatableResourceClaimStatus" {
            "containers": set,
        }
        "io.k8s.api.resource.v1.DeviceAttribute" {
            "bools": atomic,
            "ints": atomic,
            "strings": atomic,
            "versions": atomic,
        }
        "io.k8s.api.resource.v1alpha3.ResourcePoolStatusRequestStatus" {
            "conditions": map["type"],
            "pools": atomic,
        }
        "io.k8s.api.resource.v1beta1.DeviceAttribute" {
            "bools": atomic,
            "ints": atomic,
            "strings": atomic,
            "versions": atomic,
        }
        "io.k8s.api.resource.v1beta2.DeviceAttribute" {
            "bools": atomic,
            "ints": atomic,
            "strings": atomic,
            "versions": atomic,
        }
        "io.k8s.api.resource.v1beta2.DeviceTaintRuleStatus" {
            "conditions": map["type"],
        }
    }
    // Kubernetes 1.36 only: 7 properties
    [k8s_if_1_36] {
        "io.k8s.api.core.v1.PodStatus" {
            "nodeAllocatableResourceClaimStatuses": atomic,
        }
        "io.k8s.api.scheduling.v1alpha2.PodGroupSchedulingConstraints" {
            "topology": atomic,
        }
        "io.k8s.api.scheduling.v1alpha2.PodGroupSpec" {
            "resourceClaims": map["name"],
        }
        "io.k8s.api.scheduling.v1alpha2.PodGroupStatus" {
            "conditions": map["type"],
            "resourceClaimStatuses": map["name"],
        }
        "io.k8s.api.scheduling.v1alpha2.PodGroupTemplate" {
            "resourceClaims": map["name"],
        }
        "io.k8s.api.scheduling.v1alpha2.WorkloadSpec" {
            "podGroupTemplates": map["name"],
        }
    }
    // Kubernetes 1.37 only: 59 properties
    [k8s_if_ge_1_37] {
        "io.k8s.api.batch.v1.JobSchedulingConfiguration" {
            "resourceClaims": map["name"],
        }
        "io.k8s.api.certificates.v1.PodCertificateRequestStatus" {
            "conditions": map["type"],
        }
        "io.k8s.api.core.v1.NodeAllocatableResourceClaimStatus" {
            "mapping": map["name"],
            "overhead": map["name"],
        }
        "io.k8s.api.core.v1.NodePodPreemptionPolicy" {
            "disableResizePreemption": set,
        }
        "io.k8s.api.core.v1.PodSpec" {
            "evictionResponders": map["name"],
        }
        "io.k8s.api.core.v1.PodStatus" {
            "nodeAllocatableResourceClaimStatuses": map["resourceClaimName"],
            "volumeHealth": map["name"],
        }
        "io.k8s.api.core.v1.PodVolumeHealth" {
            "healthConditions": map["status"],
        }
        "io.k8s.api.core.v1.VolumeHealthStatus" {
            "healthConditions": map["status"],
        }
        "io.k8s.api.core.v1.VolumeMount" {
            "bindMountOptions": set,
        }
        "io.k8s.api.lifecycle.v1alpha1.EvictionRequestStatus" {
            "conditions": map["type"],
        }
        "io.k8s.api.lifecycle.v1alpha1.EvictionStatus" {
            "conditions": map["type"],
            "requesters": map["name"],
            "responders": map["name"],
            "targetResponders": map["name"],
        }
        "io.k8s.api.resource.v1.DeviceCounterConsumption" {
            "compatibilityGroups": atomic,
        }
        "io.k8s.api.resource.v1.DeviceRequestAllocationResult" {
            "skipNodeOperations": set,
        }
        "io.k8s.api.resource.v1.DeviceSubRequest" {
            "derivedAttributes": atomic,
        }
        "io.k8s.api.resource.v1.DeviceTaintRuleStatus" {
            "conditions": map["type"],
        }
        "io.k8s.api.resource.v1.ExactDeviceRequest" {
            "derivedAttributes": atomic,
        }
        "io.k8s.api.resource.v1.ResourceSliceSpec" {
            "skipNodeOperations": set,
        }
        "io.k8s.api.resource.v1alpha3.PoolStatus" {
            "partitionSummary": atomic,
        }
        "io.k8s.api.resource.v1alpha3.ShareableSummaryStatus" {
            "capacity": atomic,
        }
        "io.k8s.api.resource.v1beta1.DeviceCounterConsumption" {
            "compatibilityGroups": atomic,
        }
        "io.k8s.api.resource.v1beta1.DeviceRequest" {
            "derivedAttributes": atomic,
        }
        "io.k8s.api.resource.v1beta1.DeviceRequestAllocationResult" {
            "skipNodeOperations": set,
        }
        "io.k8s.api.resource.v1beta1.DeviceSubRequest" {
            "derivedAttributes": atomic,
        }
        "io.k8s.api.resource.v1beta1.ResourceSliceSpec" {
            "skipNodeOperations": set,
        }
        "io.k8s.api.resource.v1beta2.DeviceCounterConsumption" {
            "compatibilityGroups": atomic,
        }
        "io.k8s.api.resource.v1beta2.DeviceRequestAllocationResult" {
            "skipNodeOperations": set,
        }
        "io.k8s.api.resource.v1beta2.DeviceSubRequest" {
            "derivedAttributes": atomic,
        }
        "io.k8s.api.resource.v1beta2.ExactDeviceRequest" {
            "derivedAttributes": atomic,
        }
        "io.k8s.api.resource.v1beta2.ResourceSliceSpec" {
            "skipNodeOperations": set,
        }
        "io.k8s.api.scheduling.v1alpha3.CompositePodGroupSchedulingConstraints" {
            "topology": atomic,
        }
        "io.k8s.api.scheduling.v1alpha3.CompositePodGroupStatus" {
            "conditions": map["type"],
        }
        "io.k8s.api.scheduling.v1alpha3.CompositePodGroupTemplate" {
            "compositePodGroupTemplates": map["name"],
            "podGroupTemplates": map["name"],
        }
        "io.k8s.api.scheduling.v1alpha3.PodGroupSchedulingConstraints" {
            "topology": atomic,
        }
        "io.k8s.api.scheduling.v1alpha3.PodGroupSpec" {
            "resourceClaims": map["name"],
        }
        "io.k8s.api.scheduling.v1alpha3.PodGroupStatus" {
            "conditions": map["type"],
            "resourceClaimStatuses": map["name"],
        }
        "io.k8s.api.scheduling.v1alpha3.PodGroupTemplate" {
            "resourceClaims": map["name"],
        }
        "io.k8s.api.scheduling.v1alpha3.WorkloadPodGroupSchedulingConstraints" {
            "topology": atomic,
        }
        "io.k8s.api.scheduling.v1alpha3.WorkloadSpec" {
            "compositePodGroupTemplates": map["name"],
            "podGroupTemplates": map["name"],
        }
        "io.k8s.api.scheduling.v1beta1.CompositePodGroupSchedulingConstraints" {
            "topology": atomic,
        }
        "io.k8s.api.scheduling.v1beta1.CompositePodGroupTemplate" {
            "compositePodGroupTemplates": map["name"],
            "podGroupTemplates": map["name"],
        }
        "io.k8s.api.scheduling.v1beta1.PodGroupSchedulingConstraints" {
            "topology": atomic,
        }
        "io.k8s.api.scheduling.v1beta1.PodGroupSpec" {
            "resourceClaims": map["name"],
        }
        "io.k8s.api.scheduling.v1beta1.PodGroupStatus" {
            "conditions": map["type"],
            "resourceClaimStatuses": map["name"],
        }
        "io.k8s.api.scheduling.v1beta1.PodGroupTemplate" {
            "resourceClaims": map["name"],
        }
        "io.k8s.api.scheduling.v1beta1.WorkloadSpec" {
            "compositePodGroupTemplates": map["name"],
            "podGroupTemplates": map["name"],
        }
        "io.k8s.api.storage.v1.CSINodeStatus" {
            "storageHealth": map["name"],
        }
        "io.k8s.api.storage.v1.StorageHealth" {
            "healthConditions": atomic,
        }
        "io.k8s.api.storagemigration.v1.StorageVersionMigrationStatus" {
            "conditions": map["type"],
        }
    }
}
