use kubegen::KubeSchema;

// Patterns are Go regular expressions (RE2 syntax), as the apiserver compiles them: what Go's
// `regexp.Compile` refuses is refused, with Go's error.
#[derive(KubeSchema, serde::Serialize, serde::Deserialize)]
pub struct Patterns {
    #[kube_marker(pattern = "a++")]
    pub possessive: String,
    #[kube_marker(pattern = "^(?=x)")]
    pub lookahead: String,
    #[kube_marker(pattern = "(a)\\1")]
    pub backreference: String,
    #[kube_marker(pattern = "^a\\Z")]
    pub end_of_text: String,
    #[kube_marker(pattern = "\\u0041")]
    pub unicode_escape: String,
    #[kube_marker(pattern = "a{1001}")]
    pub count: String,
    #[kube_marker(pattern = "\\p{Klingon}")]
    pub script: String,
    #[kube_marker(items(pattern = "(?x) a"))]
    pub verbose: Vec<String>,
}

// What RE2 has, and Rust's `regex` refuses or reads otherwise, is fine.
#[derive(KubeSchema, serde::Serialize, serde::Deserialize)]
pub struct Fine {
    #[kube_marker(pattern = "(?i)^(?P<a>x)(?<b>y)\\p{Greek}\\p{greek}[[:alpha:]]\\Qa.b\\E\\z")]
    pub re2: String,
    #[kube_marker(pattern = "(?P<n>a)(?P<n>b)\\0[[]x{,5}")]
    pub quirks: String,
}

fn main() {}
