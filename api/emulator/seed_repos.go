package emulator

import "sync"

// seedRepo is a repo of the demo organization: where it lives, its tier, and
// its release lines as they stand today.
type seedRepo struct {
	name, folder, tier, desc string
	lines                    []vline
	variants                 []string
}

// vline is a release line: versions major.minor.patch for every minor from
// from to to, the oldest minor with patches releases and each newer one
// fewer (the newest has few, as lines still being maintained do). With
// patches 0 the versions are major.minor (PostgreSQL's scheme).
type vline struct{ major, from, to, patches int }

func v(major, from, to, patches int) vline { return vline{major, from, to, patches} }

const (
	tierApp   = "CATALOG_TIER_APPLICATION"
	tierBase  = "CATALOG_TIER_BASE"
	tierFIPS  = "CATALOG_TIER_FIPS"
	tierAI    = "CATALOG_TIER_AI"
	tierTools = "CATALOG_TIER_DEVTOOLS"
)

var dev = []string{"", "-dev"}

// lines is shorthand for a repo's release lines.
func lines(ls ...vline) []vline { return ls }

// acmeRepos is the demo registry, with current version ranges. aws-cli,
// which releases almost daily, has over a thousand visible tags, so paging
// shows.
var acmeRepos = sync.OnceValue(func() []seedRepo {
	return []seedRepo{
		{"python", "platform/base-images", tierBase, "Python interpreter, minimal runtime.", lines(v(3, 9, 14, 24)), dev},
		{"node", "platform/base-images", tierBase, "Node.js runtime.", lines(v(18, 17, 20, 4), v(20, 15, 19, 5), v(22, 16, 21, 4), v(24, 7, 11, 3)), []string{"", "-dev", "-slim"}},
		{"go", "platform/base-images", tierTools, "Go toolchain.", lines(v(1, 21, 25, 13)), dev},
		{"wolfi-base", "platform/base-images", tierBase, "Wolfi base with apk and a shell.", lines(v(1, 0, 0, 4)), []string{""}},
		{"static", "platform/base-images", tierBase, "Distroless base for static binaries.", lines(v(1, 0, 0, 3)), []string{""}},
		{"glibc-dynamic", "platform/base-images", tierBase, "Distroless base with glibc.", lines(v(2, 38, 42, 0)), dev},
		{"busybox", "platform/base-images", tierBase, "BusyBox utilities.", lines(v(1, 36, 37, 2)), []string{""}},
		{"bash", "platform/base-images", tierTools, "GNU Bash.", lines(v(5, 2, 3, 12)), dev},
		{"jdk", "platform/base-images", tierTools, "OpenJDK development kit.", lines(v(17, 0, 0, 17), v(21, 0, 0, 9), v(25, 0, 0, 2)), dev},
		{"jre", "platform/base-images", tierBase, "OpenJDK runtime.", lines(v(17, 0, 0, 17), v(21, 0, 0, 9), v(25, 0, 0, 2)), dev},
		{"ruby", "platform/base-images", tierBase, "Ruby interpreter.", lines(v(3, 2, 4, 10)), dev},
		{"php", "platform/base-images", tierBase, "PHP interpreter.", lines(v(8, 2, 4, 29)), []string{"", "-dev", "-fpm"}},
		{"rust", "platform/base-images", tierTools, "Rust toolchain.", lines(v(1, 80, 90, 4)), dev},
		{"dotnet-sdk", "platform/base-images", tierTools, ".NET SDK.", lines(v(8, 0, 0, 20), v(9, 0, 0, 10)), dev},
		{"dotnet-runtime", "platform/base-images", tierBase, ".NET runtime.", lines(v(8, 0, 0, 20), v(9, 0, 0, 10)), dev},
		{"curl", "platform", tierTools, "curl command line tool.", lines(v(8, 10, 16, 4)), dev},
		{"git", "platform", tierTools, "Git version control.", lines(v(2, 45, 51, 4)), dev},
		{"kubectl", "platform", tierTools, "Kubernetes CLI.", lines(v(1, 28, 34, 14)), dev},
		{"helm", "platform", tierTools, "Helm package manager.", lines(v(3, 14, 19, 5)), dev},
		{"terraform", "platform", tierTools, "Terraform CLI.", lines(v(1, 8, 13, 7)), dev},
		{"aws-cli", "platform", tierTools, "AWS command line interface.", lines(v(2, 15, 31, 62)), dev},
		{"crane", "platform/ci", tierTools, "Registry tool from go-containerregistry.", lines(v(0, 19, 20, 3)), dev},
		{"cosign", "platform/ci", tierTools, "Sigstore signing tool.", lines(v(2, 2, 6, 5)), dev},
		{"syft", "platform/ci", tierTools, "SBOM generator.", lines(v(1, 20, 33, 3)), dev},
		{"grype", "security", tierTools, "Vulnerability scanner.", lines(v(0, 85, 99, 3)), dev},
		{"trivy", "security", tierTools, "Security scanner.", lines(v(0, 55, 66, 4)), dev},
		{"maven", "platform/ci", tierTools, "Apache Maven.", lines(v(3, 9, 9, 12)), dev},
		{"gradle", "platform/ci", tierTools, "Gradle build tool.", lines(v(8, 10, 14, 4), v(9, 0, 1, 3)), dev},
		{"jenkins", "platform/ci", tierApp, "Jenkins automation server.", lines(v(2, 500, 528, 2)), dev},
		{"gitlab-runner", "platform/ci", tierApp, "GitLab Runner.", lines(v(17, 0, 11, 4), v(18, 0, 4, 3)), dev},
		{"nginx", "apps/web", tierApp, "NGINX web server and reverse proxy.", lines(v(1, 25, 29, 5)), dev},
		{"caddy", "apps/web", tierApp, "Caddy web server.", lines(v(2, 7, 10, 6)), dev},
		{"haproxy", "apps/web", tierApp, "HAProxy load balancer.", lines(v(2, 8, 9, 16), v(3, 0, 2, 10)), dev},
		{"traefik", "apps/web", tierApp, "Traefik edge router.", lines(v(2, 11, 11, 25), v(3, 0, 5, 5)), dev},
		{"envoy", "apps/web", tierApp, "Envoy proxy.", lines(v(1, 30, 35, 8)), dev},
		{"postgres", "apps/payments", tierApp, "PostgreSQL database.", lines(v(13, 14, 22, 0), v(14, 11, 19, 0), v(15, 6, 14, 0), v(16, 2, 10, 0), v(17, 0, 6, 0)), dev},
		{"redis", "apps/payments", tierApp, "Redis key-value store.", lines(v(7, 2, 4, 7), v(8, 0, 2, 4)), dev},
		{"valkey", "apps/payments", tierApp, "Valkey key-value store.", lines(v(7, 2, 2, 9), v(8, 0, 1, 5)), dev},
		{"kafka", "apps/payments", tierApp, "Apache Kafka.", lines(v(3, 7, 9, 3), v(4, 0, 1, 2)), dev},
		{"rabbitmq", "apps/payments", tierApp, "RabbitMQ broker.", lines(v(3, 13, 13, 8), v(4, 0, 1, 6)), dev},
		{"memcached", "apps/payments", tierApp, "Memcached.", lines(v(1, 6, 6, 40)), dev},
		{"vault", "security", tierApp, "HashiCorp Vault.", lines(v(1, 16, 20, 12)), dev},
		{"keycloak", "security", tierApp, "Keycloak identity server.", lines(v(24, 0, 0, 5), v(25, 0, 0, 6), v(26, 0, 4, 6)), dev},
		{"cert-manager-controller", "security", tierApp, "cert-manager controller.", lines(v(1, 14, 18, 6)), []string{""}},
		{"prometheus", "platform", tierApp, "Prometheus monitoring.", lines(v(2, 53, 55, 5), v(3, 0, 6, 3)), dev},
		{"grafana", "platform", tierApp, "Grafana dashboards.", lines(v(10, 4, 4, 19), v(11, 0, 6, 6), v(12, 0, 2, 4)), dev},
		{"alertmanager", "platform", tierApp, "Prometheus Alertmanager.", lines(v(0, 25, 28, 8)), dev},
		{"node-exporter", "platform", tierApp, "Prometheus node exporter.", lines(v(1, 8, 9, 3)), []string{""}},
		{"kube-state-metrics", "platform", tierApp, "Kubernetes state metrics.", lines(v(2, 12, 17, 3)), []string{""}},
		{"coredns", "platform", tierApp, "CoreDNS.", lines(v(1, 11, 12, 4)), []string{""}},
		{"etcd", "platform", tierApp, "etcd key-value store.", lines(v(3, 5, 6, 22)), dev},
		{"argocd", "platform", tierApp, "Argo CD.", lines(v(2, 11, 14, 14), v(3, 0, 1, 10)), dev},
		{"istio-proxy", "platform", tierApp, "Istio sidecar proxy.", lines(v(1, 24, 27, 6)), []string{""}},
		{"mariadb", "data", tierApp, "MariaDB database.", lines(v(10, 11, 11, 13), v(11, 4, 8, 8)), dev},
		{"mysql", "data", tierApp, "MySQL database.", lines(v(8, 0, 0, 44), v(8, 4, 4, 7), v(9, 0, 4, 2)), dev},
		{"mongodb", "data", tierApp, "MongoDB database.", lines(v(6, 0, 0, 25), v(7, 0, 0, 24), v(8, 0, 2, 14)), dev},
		{"elasticsearch", "data", tierApp, "Elasticsearch.", lines(v(8, 15, 19, 4), v(9, 0, 1, 5)), dev},
		{"python-fips", "platform/base-images", tierFIPS, "Python with a FIPS-validated crypto module.", lines(v(3, 11, 13, 12)), dev},
		{"jdk-fips", "platform/base-images", tierFIPS, "OpenJDK with FIPS crypto.", lines(v(17, 0, 0, 16), v(21, 0, 0, 8)), dev},
		{"pytorch", "data/ml", tierAI, "PyTorch with CUDA.", lines(v(2, 4, 8, 3)), dev},
		{"jupyter", "data/ml", tierAI, "Jupyter notebook server.", lines(v(4, 2, 4, 8)), []string{""}},
		{"vllm", "data/ml", tierAI, "vLLM inference server.", lines(v(0, 8, 11, 5)), []string{""}},
		{"ollama", "data/ml", tierAI, "Ollama model runner.", lines(v(0, 9, 12, 7)), []string{""}},
	}
})

var globexRepos = sync.OnceValue(func() []seedRepo {
	return []seedRepo{
		{"nginx", "globex:", tierApp, "NGINX for Globex.", lines(v(1, 27, 29, 4)), dev},
		{"python", "globex:engineering", tierBase, "Python for Globex tools.", lines(v(3, 12, 13, 8)), dev},
		{"postgres", "globex:engineering", tierApp, "PostgreSQL.", lines(v(16, 6, 10, 0)), dev},
		{"redis", "globex:engineering/tools", tierApp, "Redis.", lines(v(7, 4, 4, 5)), []string{""}},
		{"static", "globex:", tierBase, "Static base.", lines(v(1, 0, 0, 2)), []string{""}},
	}
})

// extraSuffixes name the generated repos of the medium and large sizes.
var extraSuffixes = []string{"-fips", "-iamguarded", "-slim", "-bitnami", "-ent", "-min", "-compat", "-lts"}

var archSets = [][]string{
	{"amd64", "arm64"}, {"amd64", "arm64"}, {"amd64", "arm64"}, {"amd64"},
	{"amd64", "arm64", "arm/v7"}, {"amd64", "arm64", "ppc64le", "s390x"},
}
