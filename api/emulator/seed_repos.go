package emulator

// seedRepo is a repo of the demo organization: where it lives, its tier, and
// the shape of its version history.
type seedRepo struct {
	name, folder, tier, desc string
	majors                   []int
	minors, patches          int
	variants                 []string
}

const (
	tierApp   = "CATALOG_TIER_APPLICATION"
	tierBase  = "CATALOG_TIER_BASE"
	tierFIPS  = "CATALOG_TIER_FIPS"
	tierAI    = "CATALOG_TIER_AI"
	tierTools = "CATALOG_TIER_DEVTOOLS"
)

var dev = []string{"", "-dev"}

// acmeRepos is the demo registry. python and node have over a thousand
// visible tags each, so paging shows.
var acmeRepos = []seedRepo{
	{"python", "platform/base-images", tierBase, "Python interpreter, minimal runtime.", []int{3}, 15, 35, dev},
	{"node", "platform/base-images", tierBase, "Node.js runtime.", []int{18, 20, 22, 23, 24}, 8, 14, dev},
	{"go", "platform/base-images", tierTools, "Go toolchain.", []int{1}, 8, 12, dev},
	{"wolfi-base", "platform/base-images", tierBase, "Wolfi base with apk and a shell.", []int{1}, 2, 6, []string{""}},
	{"static", "platform/base-images", tierBase, "Distroless base for static binaries.", []int{1}, 1, 4, []string{""}},
	{"glibc-dynamic", "platform/base-images", tierBase, "Distroless base with glibc.", []int{2}, 3, 5, dev},
	{"busybox", "platform/base-images", tierBase, "BusyBox utilities.", []int{1}, 4, 3, []string{""}},
	{"bash", "platform/base-images", tierTools, "GNU Bash.", []int{5}, 3, 9, dev},
	{"jdk", "platform/base-images", tierTools, "OpenJDK development kit.", []int{17, 21, 23}, 1, 9, dev},
	{"jre", "platform/base-images", tierBase, "OpenJDK runtime.", []int{17, 21, 23}, 1, 9, dev},
	{"ruby", "platform/base-images", tierBase, "Ruby interpreter.", []int{3}, 4, 7, dev},
	{"php", "platform/base-images", tierBase, "PHP interpreter.", []int{8}, 4, 12, []string{"", "-dev", "-fpm"}},
	{"rust", "platform/base-images", tierTools, "Rust toolchain.", []int{1}, 10, 3, dev},
	{"dotnet-sdk", "platform/base-images", tierTools, ".NET SDK.", []int{8, 9}, 1, 11, dev},
	{"dotnet-runtime", "platform/base-images", tierBase, ".NET runtime.", []int{8, 9}, 1, 11, dev},
	{"curl", "platform", tierTools, "curl command line tool.", []int{8}, 12, 2, dev},
	{"git", "platform", tierTools, "Git version control.", []int{2}, 8, 3, dev},
	{"kubectl", "platform", tierTools, "Kubernetes CLI.", []int{1}, 8, 6, dev},
	{"helm", "platform", tierTools, "Helm package manager.", []int{3}, 8, 4, dev},
	{"terraform", "platform", tierTools, "Terraform CLI.", []int{1}, 10, 6, dev},
	{"aws-cli", "platform", tierTools, "AWS command line interface.", []int{2}, 10, 8, dev},
	{"crane", "platform/ci", tierTools, "Registry tool from go-containerregistry.", []int{0}, 20, 2, dev},
	{"cosign", "platform/ci", tierTools, "Sigstore signing tool.", []int{2}, 5, 3, dev},
	{"syft", "platform/ci", tierTools, "SBOM generator.", []int{1}, 20, 2, dev},
	{"grype", "security", tierTools, "Vulnerability scanner.", []int{0}, 20, 2, dev},
	{"trivy", "security", tierTools, "Security scanner.", []int{0}, 15, 3, dev},
	{"maven", "platform/ci", tierTools, "Apache Maven.", []int{3}, 3, 9, dev},
	{"gradle", "platform/ci", tierTools, "Gradle build tool.", []int{8}, 12, 3, dev},
	{"jenkins", "platform/ci", tierApp, "Jenkins automation server.", []int{2}, 20, 2, dev},
	{"gitlab-runner", "platform/ci", tierApp, "GitLab Runner.", []int{17}, 10, 2, dev},
	{"nginx", "apps/web", tierApp, "NGINX web server and reverse proxy.", []int{1}, 6, 4, dev},
	{"caddy", "apps/web", tierApp, "Caddy web server.", []int{2}, 9, 4, dev},
	{"haproxy", "apps/web", tierApp, "HAProxy load balancer.", []int{2, 3}, 4, 8, dev},
	{"traefik", "apps/web", tierApp, "Traefik edge router.", []int{2, 3}, 4, 6, dev},
	{"envoy", "apps/web", tierApp, "Envoy proxy.", []int{1}, 8, 4, dev},
	{"postgres", "apps/payments", tierApp, "PostgreSQL database.", []int{14, 15, 16, 17}, 1, 8, dev},
	{"redis", "apps/payments", tierApp, "Redis key-value store.", []int{7}, 4, 8, dev},
	{"valkey", "apps/payments", tierApp, "Valkey key-value store.", []int{7, 8}, 2, 4, dev},
	{"kafka", "apps/payments", tierApp, "Apache Kafka.", []int{3}, 9, 2, dev},
	{"rabbitmq", "apps/payments", tierApp, "RabbitMQ broker.", []int{3, 4}, 4, 6, dev},
	{"memcached", "apps/payments", tierApp, "Memcached.", []int{1}, 6, 8, dev},
	{"vault", "security", tierApp, "HashiCorp Vault.", []int{1}, 8, 5, dev},
	{"keycloak", "security", tierApp, "Keycloak identity server.", []int{24, 25, 26}, 1, 5, dev},
	{"cert-manager-controller", "security", tierApp, "cert-manager controller.", []int{1}, 8, 4, []string{""}},
	{"prometheus", "platform", tierApp, "Prometheus monitoring.", []int{2, 3}, 6, 2, dev},
	{"grafana", "platform", tierApp, "Grafana dashboards.", []int{10, 11}, 4, 5, dev},
	{"alertmanager", "platform", tierApp, "Prometheus Alertmanager.", []int{0}, 8, 2, dev},
	{"node-exporter", "platform", tierApp, "Prometheus node exporter.", []int{1}, 8, 2, []string{""}},
	{"kube-state-metrics", "platform", tierApp, "Kubernetes state metrics.", []int{2}, 14, 1, []string{""}},
	{"coredns", "platform", tierApp, "CoreDNS.", []int{1}, 12, 3, []string{""}},
	{"etcd", "platform", tierApp, "etcd key-value store.", []int{3}, 6, 12, dev},
	{"argocd", "platform", tierApp, "Argo CD.", []int{2}, 13, 5, dev},
	{"istio-proxy", "platform", tierApp, "Istio sidecar proxy.", []int{1}, 8, 4, []string{""}},
	{"mariadb", "data", tierApp, "MariaDB database.", []int{10, 11}, 6, 4, dev},
	{"mysql", "data", tierApp, "MySQL database.", []int{8}, 4, 10, dev},
	{"mongodb", "data", tierApp, "MongoDB database.", []int{6, 7, 8}, 1, 10, dev},
	{"elasticsearch", "data", tierApp, "Elasticsearch.", []int{8}, 16, 3, dev},
	{"python-fips", "platform/base-images", tierFIPS, "Python with a FIPS-validated crypto module.", []int{3}, 4, 6, dev},
	{"jdk-fips", "platform/base-images", tierFIPS, "OpenJDK with FIPS crypto.", []int{17, 21}, 1, 6, dev},
	{"pytorch", "data/ml", tierAI, "PyTorch with CUDA.", []int{2}, 6, 3, dev},
	{"jupyter", "data/ml", tierAI, "Jupyter notebook server.", []int{4}, 3, 4, []string{""}},
	{"vllm", "data/ml", tierAI, "vLLM inference server.", []int{0}, 10, 3, []string{""}},
	{"ollama", "data/ml", tierAI, "Ollama model runner.", []int{0}, 12, 4, []string{""}},
}

var globexRepos = []seedRepo{
	{"nginx", "globex:", tierApp, "NGINX for Globex.", []int{1}, 3, 3, dev},
	{"python", "globex:engineering", tierBase, "Python for Globex tools.", []int{3}, 4, 4, dev},
	{"postgres", "globex:engineering", tierApp, "PostgreSQL.", []int{16}, 1, 6, dev},
	{"redis", "globex:engineering/tools", tierApp, "Redis.", []int{7}, 2, 4, []string{""}},
	{"static", "globex:", tierBase, "Static base.", []int{1}, 1, 3, []string{""}},
}

// extraSuffixes name the generated repos of the medium and large sizes.
var extraSuffixes = []string{"-fips", "-iamguarded", "-slim", "-bitnami", "-ent", "-min", "-compat", "-lts"}

var archSets = [][]string{
	{"amd64", "arm64"}, {"amd64", "arm64"}, {"amd64", "arm64"}, {"amd64"},
	{"amd64", "arm64", "arm/v7"}, {"amd64", "arm64", "ppc64le", "s390x"},
}
