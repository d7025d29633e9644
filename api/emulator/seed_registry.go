package emulator

import (
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"strings"
	"time"

	"canopy/api"
)

// archsOf is the platforms of an image digest, derived from the digest so
// that any digest (seeded or pushed) answers the same every time.
func archsOf(digest string) []string {
	h := fnv.New32a()
	h.Write([]byte(digest))
	return archSets[h.Sum32()%uint32(len(archSets))]
}

// sizeOf is the size in bytes of one architecture of an image digest.
func sizeOf(digest, arch string) int64 {
	h := fnv.New64a()
	h.Write([]byte(digest + "|" + arch))
	return 2<<20 + int64(h.Sum64()%(400<<20))
}

func (s *seeder) newDigest() int32 {
	return s.digest(fmt.Sprintf("sha256:%016x%016x%016x%016x", s.rng.Uint64(), s.rng.Uint64(), s.rng.Uint64(), s.rng.Uint64()))
}

// seedRegistry adds the repos of both organizations, and the generated ones
// of the medium and large sizes, with their tags.
func (s *seeder) seedRegistry(acme, globex string) {
	for _, r := range acmeRepos {
		s.seedRepo(r, s.folders[r.folder], r.name)
	}
	for _, r := range globexRepos {
		s.seedRepo(r, s.folders[r.folder], r.name)
	}
	taken := map[string]bool{}
	for i := range s.shape.extraRepos {
		base := acmeRepos[2+s.rng.IntN(len(acmeRepos)-2)] // python and node are big enough already
		team := fmt.Sprintf("teams/team-%02d", i%s.shape.extraFolders+1)
		name := base.name + extraSuffixes[s.rng.IntN(len(extraSuffixes))]
		for n := 2; taken[team+"/"+name]; n++ {
			name = fmt.Sprintf("%s%s-%d", base.name, extraSuffixes[s.rng.IntN(len(extraSuffixes))], n)
		}
		taken[team+"/"+name] = true
		s.seedRepo(base, s.folders[team], name)
	}
}

func (s *seeder) seedRepo(r seedRepo, group, name string) {
	uid := group + "/" + s.hex16()
	created := s.ago(3*365*day, 2*365*day)
	var versions []string
	for _, maj := range r.majors {
		for mi := range r.minors {
			for p := range r.patches {
				versions = append(versions, fmt.Sprintf("%d.%d.%d", maj, mi, p))
			}
		}
	}
	n := len(versions)
	span := s.now.Sub(created)
	at := func(i int) time.Time {
		return created.Add(time.Duration(float64(span) * float64(i+1) / float64(n+2))).Add(time.Duration(s.rng.Int64N(int64(6 * time.Hour)))).Truncate(time.Millisecond)
	}
	times := make([]time.Time, n)
	for i := range versions {
		times[i] = at(i)
	}
	tag := func(name string, d int32, c, u time.Time, deprecated bool) {
		s.tags.add(tagRec{UID: uid + "/" + s.hex16(), Name: name, Digest: d, Create: c.UnixMilli(),
			Update: u.UnixMilli(), Deprecated: deprecated, Class: tagClass(name)})
	}
	later := func(t time.Time) time.Time {
		return minTime(t.Add(time.Duration(s.rng.Int64N(int64(3*time.Hour)))), s.now)
	}
	for _, v := range r.variants {
		floating := map[string]int{} // floating tag → index of the newest version it covers
		first := map[string]int{}
		digests := make([]int32, n)
		for i, ver := range versions {
			d := s.newDigest()
			digests[i] = d
			deprecated := i < n/10
			tag(ver+v, d, times[i], later(times[i]), deprecated)
			if v == "" {
				// The bare version tag points at its newest epoch build.
				tag(fmt.Sprintf("%s-r%d", ver, s.rng.IntN(4)), d, times[i], times[i], deprecated)
			}
			parts := strings.Split(ver, ".")
			for _, f := range []string{parts[0] + "." + parts[1], parts[0], "latest"} {
				if _, ok := first[f]; !ok {
					first[f] = i
				}
				floating[f] = i
			}
		}
		for _, f := range slices.Sorted(maps.Keys(floating)) {
			i := floating[f]
			name := f + v
			if f == "latest" && v != "" {
				name = "latest" + v
			}
			tag(name, digests[i], times[first[f]], later(times[i]), false)
			if v == "" && f != "latest" && strings.Count(f, ".") == 1 {
				sub := strings.TrimPrefix(s.digests[digests[i]], "sha256:")
				tag("sha256-"+sub+".sig", s.newDigest(), times[i], times[i], false)
				tag("sha256-"+sub+".att", s.newDigest(), times[i], times[i], false)
			}
		}
		if v == "" {
			for i := max(0, n-3); i < n; i++ {
				tag(versions[i]+"-"+times[i].Format("20060102"), digests[i], times[i], times[i], false)
			}
		}
	}
	c := api.TimeOf(created)
	latest := versions[n-1]
	s.repos.add(repoRec{
		Repo: api.Repo{UID: uid, Name: name, Description: r.desc, CatalogTier: r.tier,
			Bundles: bundlesFor(r.tier), Aliases: []string{"cgr.dev/acme.example/" + name},
			ActiveTags: []string{"latest", "latest-dev", latest}, CreateTime: c, UpdateTime: api.TimeOf(later(times[n-1]))},
		Readme: readme(name, r.desc, latest, r.variants),
	})
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

func bundlesFor(tier string) []string {
	switch tier {
	case tierFIPS:
		return []string{"fips", "application"}
	case tierBase:
		return []string{"base"}
	case tierAI:
		return []string{"ai"}
	case tierTools:
		return []string{"devtools"}
	}
	return []string{"application"}
}

// readme is a repo's Markdown readme: a few paragraphs, a table and a code block.
func readme(name, desc, latest string, variants []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n%s Minimal and hardened: rebuilt nightly from source, with a signed SBOM and provenance for every image, and no known CVEs at publication.\n\n", name, desc)
	b.WriteString("Images are distroless by default: no shell and no package manager. The `-dev` variants add both, for multi-stage builds and debugging.\n\n")
	b.WriteString("## Tags\n\n| Tag | What it tracks | Shell |\n|---|---|---|\n")
	fmt.Fprintf(&b, "| `latest` | newest stable release (%s) | no |\n", latest)
	for _, v := range variants {
		if v != "" {
			fmt.Fprintf(&b, "| `latest%s` | newest stable release, %s variant | yes |\n", v, strings.TrimPrefix(v, "-"))
		}
	}
	minor := latest[:strings.LastIndexByte(latest, '.')]
	fmt.Fprintf(&b, "| `%s` | the %s release line | no |\n| `%s` | exactly this version | no |\n\n", minor, minor, latest)
	b.WriteString("## Usage\n\n```sh\n")
	fmt.Fprintf(&b, "docker pull cgr.dev/acme.example/%s:latest\ndocker run --rm cgr.dev/acme.example/%s:latest --version\n```\n\n", name, name)
	b.WriteString("## Verifying signatures\n\n```sh\ncosign verify \\\n  --certificate-oidc-issuer=https://token.actions.githubusercontent.com \\\n")
	fmt.Fprintf(&b, "  --certificate-identity-regexp='https://github.com/acme/images/.*' \\\n  cgr.dev/acme.example/%s:latest\n```\n\n", name)
	b.WriteString("Tags ending in `-r<N>` are epoch rebuilds of the same version; `sha256-<digest>.sig` and `.att` tags hold signatures and attestations. Both are hidden from tag lists unless asked for.\n")
	return b.String()
}
