package emulator

import (
	"fmt"
	"slices"
	"sync"

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
var imageComponents = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"python": {"cpython", "pip", "setuptools", "expat"}, "node": {"nodejs", "undici", "npm", "c-ares"},
		"go": {"stdlib", "golang.org/x/net", "golang.org/x/crypto"}, "nginx": {"nginx", "pcre2", "openssl"},
		"postgres": {"postgresql", "libpq", "openssl"}, "redis": {"redis", "jemalloc"}, "curl": {"libcurl", "nghttp2"},
		"git": {"git", "libcurl"}, "jdk": {"openjdk", "zlib"}, "jre": {"openjdk"}, "php": {"php", "libxml2"},
		"ruby": {"ruby", "rubygems"}, "kubectl": {"k8s.io/client-go", "golang.org/x/net"}, "grafana": {"grafana", "github.com/golang-jwt/jwt/v4"},
	}
})

// advisoryTotal is how many advisories the feed holds.
const advisoryTotal = 320

var systemComponents = []string{"openssl", "glibc", "zlib", "busybox", "ncurses", "libxml2"}

// advisoryOutcomes are the timelines an advisory may have, each a
// realistic sequence of event kinds: always a detection first.
var advisoryOutcomes = [][]string{
	{api.EventDetection, api.EventFixed},
	{api.EventDetection, api.EventFixed},
	{api.EventDetection, api.EventFixed},
	{api.EventDetection, api.EventPendingUpstreamFix, api.EventFixed},
	{api.EventDetection, api.EventPendingUpstreamFix},
	{api.EventDetection, api.EventFalsePositiveDetermination},
	{api.EventDetection, api.EventFalsePositiveDetermination},
	{api.EventDetection, api.EventTruePositiveDetermination, api.EventFixed},
	{api.EventDetection, api.EventTruePositiveDetermination, api.EventPatched},
	{api.EventDetection, api.EventTruePositiveDetermination, api.EventFixNotPlanned},
	{api.EventDetection, api.EventFixNotPlanned},
	{api.EventDetection, api.EventAnalysisNotPlanned},
	{api.EventDetection, api.EventTruePositiveDetermination},
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
	for _, r := range acmeRepos() {
		if seen[r.name] {
			continue
		}
		seen[r.name] = true
		comps := append(slices.Clone(imageComponents()[r.name]), r.name)
		for range 1 + s.rng.IntN(4) {
			pick := comps
			if s.rng.IntN(3) == 0 {
				pick = systemComponents
			}
			s.advisory(r.name, pick[s.rng.IntN(len(pick))], true)
		}
	}
	for s.advs.live < advisoryTotal {
		pkg := advisoryPackages[s.rng.IntN(len(advisoryPackages))]
		s.advisory(pkg.artifact, pkg.component, false)
	}
}

// advisory adds one advisory about component in artifact, an image or a
// package.
func (s *seeder) advisory(artifact, component string, image bool) {
	t := s.ago(2*365*day, 2*day)
	aliases := []string{fmt.Sprintf("CVE-%d-%d", t.Year(), 1000+s.rng.IntN(60000))}
	if s.rng.IntN(3) == 0 {
		aliases = append(aliases, fmt.Sprintf("GHSA-%s-%s-%s", s.alnum4(), s.alnum4(), s.alnum4()))
	}
	sev := s.severities()
	f := s.facts(artifact, component)
	artifactType, arch := "package", []string{"x86_64", "aarch64"}[s.rng.IntN(2)]
	if image {
		artifactType, arch = "image", []string{"amd64", "arm64"}[s.rng.IntN(2)]
	}
	events := s.events(t, advisoryOutcomes[s.rng.IntN(len(advisoryOutcomes))], f)
	s.advs.add(api.Advisory{UID: s.hex32(), AdvisoryID: "CGA-" + s.alnum4() + "-" + s.alnum4() + "-" + s.alnum4(),
		Author: events[0].Author, ArtifactName: artifact, ArtifactType: artifactType, ArtifactArchitecture: arch,
		ComponentName: component, ComponentType: f.componentType, ComponentLocation: f.location, Aliases: aliases,
		Severities: sev, Events: events, CreateTime: api.TimeOf(t), UpdateTime: events[len(events)-1].CreateTime})
}

// pickOf is one of choices, each as likely.
func pickOf[T any](s *seeder, choices ...T) T { return choices[s.rng.IntN(len(choices))] }

// severities scores an advisory: mostly a CVSS 3.1 vector (some with a 4.0
// vector beside it), some 4.0 alone, a few version 2 vectors and a few
// bare numbers.
func (s *seeder) severities() []api.Severity {
	v3 := func() api.Severity {
		return api.Severity{Type: api.SeverityCVSSv3, Score: fmt.Sprintf("CVSS:3.1/AV:%s/AC:%s/PR:%s/UI:%s/S:%s/C:%s/I:%s/A:%s",
			pickOf(s, "N", "N", "N", "N", "A", "L", "L", "P"), pickOf(s, "L", "L", "L", "H"), pickOf(s, "N", "N", "L", "H"),
			pickOf(s, "N", "N", "R"), pickOf(s, "U", "U", "U", "C"), pickOf(s, "H", "H", "L", "N"), pickOf(s, "H", "L", "N"), pickOf(s, "H", "L", "N"))}
	}
	v4 := func() api.Severity {
		return api.Severity{Type: api.SeverityCVSSv4, Score: fmt.Sprintf("CVSS:4.0/AV:%s/AC:%s/AT:%s/PR:%s/UI:%s/VC:%s/VI:%s/VA:%s/SC:%s/SI:%s/SA:%s",
			pickOf(s, "N", "N", "N", "A", "L"), pickOf(s, "L", "L", "H"), pickOf(s, "N", "N", "P"), pickOf(s, "N", "N", "L", "H"),
			pickOf(s, "N", "N", "P", "A"), pickOf(s, "H", "H", "L", "N"), pickOf(s, "H", "L", "N"), pickOf(s, "H", "L", "N"),
			pickOf(s, "N", "N", "L"), pickOf(s, "N", "N", "L"), pickOf(s, "N", "N", "L"))}
	}
	switch r := s.rng.IntN(20); {
	case r < 4:
		return []api.Severity{v3(), v4()}
	case r < 13:
		return []api.Severity{v3()}
	case r < 15:
		return []api.Severity{v4()}
	case r < 16:
		return []api.Severity{{Type: api.SeverityCVSSv2, Score: fmt.Sprintf("AV:%s/AC:%s/Au:%s/C:%s/I:%s/A:%s",
			pickOf(s, "N", "N", "A", "L"), pickOf(s, "L", "M", "H"), pickOf(s, "N", "N", "S"),
			pickOf(s, "P", "C", "N"), pickOf(s, "P", "C", "N"), pickOf(s, "P", "C", "N"))}}
	}
	return []api.Severity{{Type: api.SeverityCVSSv3, Score: fmt.Sprintf("%.1f", float64(20+s.rng.IntN(81))/10)}}
}
