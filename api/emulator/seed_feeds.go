package emulator

import (
	"fmt"
	"slices"
	"time"

	"canopy/api"
)

var advisoryPackages = []struct{ artifact, component string }{
	{"openssl", "openssl"}, {"glibc", "glibc"}, {"curl", "libcurl"}, {"libxml2", "libxml2"}, {"zlib", "zlib"},
	{"busybox", "busybox"}, {"python-3.12", "cpython"}, {"python-3.13", "pip"}, {"nodejs-22", "undici"},
	{"nodejs-20", "nodejs"}, {"go-1.23", "stdlib"}, {"go-1.24", "golang.org/x/net"}, {"nginx", "nginx"},
	{"postgresql-16", "postgresql"}, {"redis", "redis"}, {"git", "git"}, {"expat", "expat"}, {"sqlite", "sqlite"},
	{"libpng", "libpng"}, {"krb5", "krb5"}, {"gnutls", "gnutls"}, {"openssh", "openssh"}, {"bash", "bash"},
	{"binutils", "binutils"}, {"pcre2", "pcre2"}, {"xz", "xz"}, {"libgcrypt", "libgcrypt"}, {"c-ares", "c-ares"},
	{"grafana", "github.com/golang-jwt/jwt/v4"}, {"argocd", "github.com/go-git/go-git/v5"},
	{"trivy", "google.golang.org/grpc"}, {"jenkins", "org.springframework:spring-web"},
	{"keycloak", "com.fasterxml.jackson.core:jackson-databind"}, {"kafka", "io.netty:netty-handler"},
	{"py3-requests", "requests"}, {"py3-urllib3", "urllib3"}, {"jupyter", "tornado"}, {"vllm", "torch"},
	{"python-3.11", "cpython"}, {"python-3.14", "cpython"}, {"nodejs-24", "nodejs"}, {"nodejs-18", "nodejs"},
	{"go-1.25", "stdlib"}, {"postgresql-17", "postgresql"}, {"openjdk-21", "openjdk"}, {"openjdk-17", "openjdk"},
	{"ruby-3.3", "ruby"}, {"php-8.3", "php"}, {"kubectl-1.33", "k8s.io/client-go"}, {"helm", "helm.sh/helm/v3"},
}

// imageComponents are the components inside an image that its own
// advisories (artifactName = the image's name) are about; an image not
// listed has advisories about itself and the usual system libraries.
var imageComponents = map[string][]string{
	"python": {"cpython", "pip", "setuptools", "expat"}, "node": {"nodejs", "undici", "npm", "c-ares"},
	"go": {"stdlib", "golang.org/x/net", "golang.org/x/crypto"}, "nginx": {"nginx", "pcre2", "openssl"},
	"postgres": {"postgresql", "libpq", "openssl"}, "redis": {"redis", "jemalloc"}, "curl": {"libcurl", "nghttp2"},
	"git": {"git", "libcurl"}, "jdk": {"openjdk", "zlib"}, "jre": {"openjdk"}, "php": {"php", "libxml2"},
	"ruby": {"ruby", "rubygems"}, "kubectl": {"k8s.io/client-go", "golang.org/x/net"}, "grafana": {"grafana", "github.com/golang-jwt/jwt/v4"},
}

// advisoryTotal is how many advisories the feed holds.
const advisoryTotal = 320

var systemComponents = []string{"openssl", "glibc", "zlib", "busybox", "ncurses", "libxml2"}

var advisoryOutcomes = [][]string{
	{api.EventDetection, api.EventFixed},
	{api.EventDetection, api.EventFixed},
	{api.EventDetection, api.EventPendingUpstreamFix, api.EventFixed},
	{api.EventDetection, api.EventPendingUpstreamFix},
	{api.EventDetection, api.EventFalsePositiveDetermination},
	{api.EventDetection, api.EventTruePositiveDetermination, api.EventFixed},
	{api.EventDetection, api.EventFixNotPlanned},
	{api.EventDetection},
}

const alnum = "abcdefghijklmnopqrstuvwxyz0123456789"

func (s *seeder) alnum4() string {
	b := make([]byte, 4)
	for i := range b {
		b[i] = alnum[s.rng.IntN(len(alnum))]
	}
	return string(b)
}

func (s *seeder) hex32() string { return fmt.Sprintf("%016x%016x", s.rng.Uint64(), s.rng.Uint64()) }

// seedAdvisories adds a few hundred advisories with CVE/GHSA aliases,
// severities and event timelines: one to four under each image's own name
// (what a repo's detail lists), and the rest of advisoryTotal over packages,
// versioned ones too (python-3.12, nodejs-22).
func (s *seeder) seedAdvisories() {
	seen := map[string]bool{}
	for _, r := range acmeRepos {
		if seen[r.name] {
			continue
		}
		seen[r.name] = true
		comps := append(slices.Clone(imageComponents[r.name]), r.name)
		for range 1 + s.rng.IntN(4) {
			pick := comps
			if s.rng.IntN(3) == 0 {
				pick = systemComponents
			}
			s.advisory(r.name, pick[s.rng.IntN(len(pick))])
		}
	}
	for s.advs.live < advisoryTotal {
		pkg := advisoryPackages[s.rng.IntN(len(advisoryPackages))]
		s.advisory(pkg.artifact, pkg.component)
	}
}

// advisory adds one advisory about component in artifact.
func (s *seeder) advisory(artifact, component string) {
	t := s.ago(2*365*day, 2*day)
	aliases := []string{fmt.Sprintf("CVE-%d-%d", t.Year(), 1000+s.rng.IntN(60000))}
	if s.rng.IntN(3) == 0 {
		aliases = append(aliases, fmt.Sprintf("GHSA-%s-%s-%s", s.alnum4(), s.alnum4(), s.alnum4()))
	}
	score := float64(20+s.rng.IntN(81)) / 10
	sev := []api.Severity{{Type: "CVSS_V3", Score: fmt.Sprintf("%.1f", score)}}
	if s.rng.IntN(4) == 0 {
		sev = append(sev, api.Severity{Type: "CVSS_V4", Score: fmt.Sprintf("%.1f", min(10, score+0.3))})
	}
	var events []api.AdvisoryEvent
	et := t
	for _, typ := range advisoryOutcomes[s.rng.IntN(len(advisoryOutcomes))] {
		events = append(events, api.AdvisoryEvent{UID: s.hex16(), CreateTime: api.TimeOf(et), Kind: typ})
		et = minTime(et.Add(time.Duration(1+s.rng.IntN(30*24))*time.Hour), s.now)
	}
	s.advs.add(api.Advisory{UID: s.hex32(), AdvisoryID: "CGA-" + s.alnum4() + "-" + s.alnum4() + "-" + s.alnum4(),
		ArtifactName: artifact, ArtifactType: "package", ComponentName: component, Aliases: aliases,
		Severities: sev, Events: events, CreateTime: api.TimeOf(t), UpdateTime: events[len(events)-1].CreateTime})
}

var seedArtifacts = []struct{ eco, name, desc string }{
	{api.EcosystemJava, "com.fasterxml.jackson.core:jackson-databind", "General data-binding for Jackson."},
	{api.EcosystemJava, "org.springframework:spring-core", "Spring Framework core."},
	{api.EcosystemJava, "org.apache.logging.log4j:log4j-core", "Apache Log4j implementation."},
	{api.EcosystemJava, "com.google.guava:guava", "Google core libraries for Java."},
	{api.EcosystemJava, "io.netty:netty-handler", "Netty handlers."},
	{api.EcosystemJava, "org.apache.commons:commons-text", "Apache Commons Text."},
	{api.EcosystemJava, "org.yaml:snakeyaml", "YAML parser and emitter."},
	{api.EcosystemJava, "org.apache.tomcat.embed:tomcat-embed-core", "Embedded Tomcat core."},
	{api.EcosystemJava, "com.squareup.okhttp3:okhttp", "HTTP client."},
	{api.EcosystemJava, "org.slf4j:slf4j-api", "Simple Logging Facade for Java."},
	{api.EcosystemJava, "ch.qos.logback:logback-classic", "Logback classic module."},
	{api.EcosystemJava, "org.apache.kafka:kafka-clients", "Kafka client library."},
	{api.EcosystemPython, "requests", "HTTP for Humans."},
	{api.EcosystemPython, "urllib3", "HTTP library with thread-safe connection pooling."},
	{api.EcosystemPython, "numpy", "Fundamental package for array computing."},
	{api.EcosystemPython, "pandas", "Data analysis and manipulation."},
	{api.EcosystemPython, "django", "High-level Python web framework."},
	{api.EcosystemPython, "flask", "A simple framework for building web apps."},
	{api.EcosystemPython, "cryptography", "Cryptographic recipes and primitives."},
	{api.EcosystemPython, "pyyaml", "YAML parser and emitter for Python."},
	{api.EcosystemPython, "jinja2", "A very fast and expressive template engine."},
	{api.EcosystemPython, "setuptools", "Build and distribute Python packages."},
	{api.EcosystemPython, "pillow", "Python Imaging Library fork."},
	{api.EcosystemPython, "protobuf", "Protocol Buffers."},
	{api.EcosystemPython, "grpcio", "HTTP/2-based RPC framework."},
}

// seedArtifacts adds the library artifacts and their versions.
func (s *seeder) seedArtifacts() {
	for _, a := range seedArtifacts {
		uid := s.hex32()
		created := s.ago(3*365*day, 2*365*day)
		n := 5 + s.rng.IntN(26)
		maj, mi, p := 1+s.rng.IntN(5), s.rng.IntN(10), 0
		var last string
		var lastT time.Time
		for i := range n {
			switch {
			case s.rng.IntN(8) == 0:
				maj, mi, p = maj+1, 0, 0
			case s.rng.IntN(3) == 0:
				mi, p = mi+1, 0
			default:
				p++
			}
			last = fmt.Sprintf("%d.%d.%d", maj, mi, p)
			lastT = created.Add(time.Duration(float64(s.now.Sub(created)) * float64(i+1) / float64(n+1))).Truncate(time.Millisecond)
			s.versions.add(api.ArtifactVersion{UID: uid + "/" + s.hex16(), Version: last,
				CreateTime: api.TimeOf(lastT), UpdateTime: api.TimeOf(lastT)})
		}
		s.artifacts.add(api.Artifact{UID: uid, Name: a.name, Description: a.desc, Ecosystem: a.eco,
			LatestVersion: last, VersionCount: int32(n), CreateTime: api.TimeOf(created), UpdateTime: api.TimeOf(lastT)})
	}
}
