package emulator

import (
	"fmt"
	"time"

	"canopy/api"
)

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

// artifactUID is an artifact's uid: its ecosystem's repository and its
// package, with exactly one slash ("pypi/requests",
// "maven/com.google.guava:guava"). Package names hold no slash.
func artifactUID(ecosystem, name string) string {
	if ecosystem == api.EcosystemPython {
		return "pypi/" + name
	}
	return "maven/" + name
}

// seedArtifacts adds the library artifacts and their versions, oldest
// first: a version's uid is its artifact's, a slash and the version.
func (s *seeder) seedArtifacts() {
	for _, a := range seedArtifacts {
		uid := artifactUID(a.eco, a.name)
		created := s.ago(3*365*day, 2*365*day)
		n := 5 + s.rng.IntN(26)
		maj, mi, p := 1+s.rng.IntN(5), s.rng.IntN(10), 0
		// A Java jar is smaller than a Python wheel, which may bundle
		// native code.
		size := int64(40<<10 + s.rng.IntN(3<<20))
		if a.eco == api.EcosystemPython {
			size = int64(80<<10 + s.rng.IntN(30<<20))
		}
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
			size += size * int64(s.rng.IntN(7)-2) / 100 // a release grows or shrinks a little
			s.versions.add(api.ArtifactVersion{UID: uid + "/" + last, Name: a.name, Version: last, Description: a.desc,
				SizeBytes: api.Int64(size), CreateTime: api.TimeOf(lastT), UpdateTime: api.TimeOf(lastT)})
		}
		s.artifacts.add(api.Artifact{UID: uid, Name: a.name, Description: a.desc, Ecosystem: a.eco,
			LatestVersion: last, VersionCount: int32(n), CreateTime: api.TimeOf(created), UpdateTime: api.TimeOf(lastT)})
	}
}
