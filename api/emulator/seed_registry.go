package emulator

import (
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
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

func (s *seeder) newDigest() [32]byte { return randomDigest(s.rng.Uint64) }

// seedRegistry adds the repos of both organizations, and the generated ones
// of the medium and large sizes. Their tags are made when first asked for
// (lazy.go), unless s.eager: at every size, the organization opens
// without them.
func (s *seeder) seedRegistry(acme, globex string) {
	if s.progress != nil {
		s.progress.allRepos.Store(int64(len(acmeRepos()) + len(globexRepos()) + s.shape.extraRepos))
	}
	for i := range acmeRepos() {
		r := &acmeRepos()[i]
		s.seedRepo(r, s.folders[r.folder], r.name, "acme.example")
		s.progress.repoSeeded(s.tagTotal())
	}
	for i := range globexRepos() {
		r := &globexRepos()[i]
		s.seedRepo(r, s.folders[r.folder], r.name, "globex.example")
		s.progress.repoSeeded(s.tagTotal())
	}
	taken := map[string]bool{}
	for i := range s.shape.extraRepos {
		base := &extraBases()[s.rng.IntN(len(extraBases()))]
		team := fmt.Sprintf("teams/team-%02d", i%s.shape.extraFolders+1)
		name := base.name + extraSuffixes[s.rng.IntN(len(extraSuffixes))]
		for n := 2; taken[team+"/"+name]; n++ {
			name = fmt.Sprintf("%s%s-%d", base.name, extraSuffixes[s.rng.IntN(len(extraSuffixes))], n)
		}
		taken[team+"/"+name] = true
		s.seedRepo(base, s.folders[team], name, "acme.example")
		s.progress.repoSeeded(s.tagTotal())
	}
}

// extraBases are the repos the medium and large sizes copy: all but the
// few whose release lines are long already. Made on first use, not at
// init: every start of canopy would pay for it, and only a demo or an
// emulator of those sizes reads it.
var extraBases = sync.OnceValue(func() []seedRepo {
	var out []seedRepo
	for _, r := range acmeRepos() {
		if r.name != "aws-cli" && r.name != "python" && r.name != "node" {
			out = append(out, r)
		}
	}
	return out
})

// versions lists a line's versions, oldest first, with the floating tags
// each moves: made once for every line of the seeded repos (lineVersions),
// as the large size draws 7,700 repos of theirs.
func (l vline) versions() []lineVersion {
	if vs, ok := lineVersions()[l]; ok {
		return vs
	}
	return l.makeVersions()
}

// lineVersion is a version of a line and the floating tags it moves.
type lineVersion struct {
	version  string
	floating []string
}

func (l vline) makeVersions() []lineVersion {
	var out []lineVersion
	add := func(v string) { out = append(out, lineVersion{v, floating(v)}) }
	n := l.to - l.from + 1
	for m := l.from; m <= l.to; m++ {
		if l.patches == 0 {
			add(fmt.Sprintf("%d.%d", l.major, m))
			continue
		}
		for p := range max(1, (l.patches*(l.to-m+1)+n-1)/n) {
			add(fmt.Sprintf("%d.%d.%d", l.major, m, p))
		}
	}
	return out
}

// lineVersions are the versions of every line of the seeded repos, made
// once, on first use (about 10,000 small allocations that canopy's start
// need not pay for); never changed.
var lineVersions = sync.OnceValue(func() map[vline][]lineVersion {
	out := map[vline][]lineVersion{}
	for _, r := range slices.Concat(acmeRepos(), globexRepos()) {
		for _, l := range r.lines {
			out[l] = l.makeVersions()
		}
	}
	return out
})

// release is one version of a repo and when it came out.
type release struct {
	lineVersion
	at time.Time
}

// releases spreads each line's versions from some time after the repo was
// created (the older the line, the earlier) to a little before now.
func (s *seeder) releases(r *seedRepo, created time.Time) []release {
	n := 0
	for _, l := range r.lines {
		n += len(l.versions())
	}
	out := make([]release, 0, n)
	span := s.now.Sub(created)
	for k, l := range r.lines {
		start := created.Add(span * time.Duration(k) / time.Duration(2*len(r.lines)))
		vs := l.versions()
		for i, ver := range vs {
			at := start.Add(time.Duration(float64(s.now.Sub(start)) * float64(i+1) / float64(len(vs)+1)))
			at = minTime(at.Add(time.Duration(s.frac()*float64(6*time.Hour))), s.now).Truncate(time.Millisecond)
			out = append(out, release{ver, at})
		}
	}
	return out
}

// seedRepo adds a repo of r created after its group, and its tags
// (drawRepo): made now when s.eager, else when first asked for (lazy.go).
// r is kept until then, never changed.
func (s *seeder) seedRepo(r *seedRepo, group, name, org string) {
	if !s.eager {
		s.seedLazily(r, group, name, org)
		return
	}
	d := s.drawRepo(r, group, func(t drawnTag) {
		s.tags.add(s.newTag(t.repo, t.suffix, t.name, t.digest, t.create.UnixMilli(), t.update.UnixMilli(), t.deprecated))
	})
	s.addRepo(r, d, name, org)
}

// addRepo adds the record of a drawn repo.
func (s *seeder) addRepo(r *seedRepo, d repoDraw, name, org string) {
	active := []string{"latest"}
	for _, v := range r.variants {
		if v != "" {
			active = append(active, "latest"+v)
		}
	}
	s.repos.add(repoRec{
		Repo: api.Repo{UID: d.uid, Name: name, Description: r.desc, CatalogTier: r.tier,
			Bundles: bundlesFor(r.tier), Aliases: []string{"cgr.dev/" + org + "/" + name},
			ActiveTags: append(active, d.latest), CreateTime: api.TimeOf(d.created), UpdateTime: api.TimeOf(d.updated)},
		seeded: &seededReadme{name: name, desc: r.desc, latest: d.latest, org: org, variants: r.variants},
	})
}

// repoDraw is what drawing a repo decided: its uid, times, newest version
// and how many tags it has.
type repoDraw struct {
	uid              string
	created, updated time.Time
	latest           string
	tags             int
}

// drawnTag is one tag of a drawn repo.
type drawnTag struct {
	repo           string
	suffix         uint64
	name           string
	digest         [32]byte
	create, update time.Time
	deprecated     bool
}

// drawRepo draws a repo of r in group from s.rng, created after the group,
// and its tags, each created after the repo: a version tag per release and
// variant (the oldest tenth deprecated), an epoch rebuild of each,
// floating tags (minor line, major, latest) on the newest release they
// cover, signature and attestation tags on the minor lines, and dated
// tags on the newest releases. Each tag goes to emit; with emit nil the
// tags are only drawn (their names not made), which leaves s.rng as
// making them would, at a fraction of the cost: a lazily made repo
// (lazy.go) draws them again, from where s.rng was, when first asked.
func (s *seeder) drawRepo(r *seedRepo, group string, emit func(drawnTag)) repoDraw {
	uid := group + "/" + s.hex16()
	created := s.after(s.born[group], max(0, min(300*day, s.now.Sub(s.born[group])-120*day)))
	rel := s.releases(r, created)
	n := len(rel)
	byTime := make([]int, n)
	for i := range byTime {
		byTime[i] = i
	}
	slices.SortStableFunc(byTime, func(a, b int) int { return rel[a].at.Compare(rel[b].at) })
	// The oldest releases are deprecated: about a tenth of the visible
	// tags, floating tags included.
	deprecated := make([]bool, n)
	for _, i := range byTime[:n*14/100] {
		deprecated[i] = true
	}
	out := repoDraw{uid: uid, created: created, latest: rel[n-1].version}
	named := emit != nil // names are made only for tags emitted
	tag := func(name string, d [32]byte, c, u time.Time, deprecated bool) {
		suffix := s.rng.Uint64()
		out.tags++
		if named {
			emit(drawnTag{repo: uid, suffix: suffix, name: name, digest: d, create: c, update: u, deprecated: deprecated})
		}
	}
	soon := func(t time.Time) time.Time {
		return minTime(t.Add(time.Duration(s.frac()*float64(3*time.Hour))), s.now).Truncate(time.Millisecond)
	}
	updated := created
	// Which release each floating tag is on, and since when: the same for
	// every variant (no draw), so found once.
	newest := map[string]int{} // floating tag → the highest release it covers
	first := map[string]time.Time{}
	for i, rl := range rel {
		for _, f := range rl.floating {
			if t, ok := first[f]; !ok || rl.at.Before(t) {
				first[f] = rl.at
			}
			newest[f] = i // releases are in version order within a line, lines oldest first
		}
	}
	floats := slices.Sorted(maps.Keys(newest))
	digests := make([][32]byte, n)
	for _, v := range r.variants {
		for i, rl := range rel {
			d := s.newDigest()
			digests[i] = d
			u := soon(rl.at)
			if v == "" {
				// Each rebuild of a version is an epoch tag (-r0, -r1...);
				// the version tag points at the newest.
				// Rebuilds come every few days, none in the future.
				epochs := 1 + s.rng.IntN(3)
				for epochs > 1 && !rl.at.Add(time.Duration(epochs-1)*3*day).Before(s.now) {
					epochs--
				}
				for e := range epochs {
					at, de := rl.at.Add(time.Duration(e)*3*day), d
					if e < epochs-1 {
						de = s.newDigest()
					}
					name := ""
					if named {
						name = rl.version + "-r" + strconv.Itoa(e)
					}
					tag(name, de, at, at, deprecated[i])
					u = later(u, at)
				}
			}
			updated = later(updated, u)
			name := ""
			if named {
				name = rl.version + v
			}
			tag(name, d, rl.at, u, deprecated[i])
		}
		for _, f := range floats {
			i := newest[f]
			name := ""
			if named {
				name = f + v
			}
			u := soon(later(rel[i].at, first[f]))
			updated = later(updated, u)
			tag(name, digests[i], first[f], u, false)
			if v == "" && f != "latest" && f == rel[i].floating[0] {
				// Signatures and attestations of the newest image of each
				// minor line (major line for major.minor versions).
				sig, att := "", ""
				if named {
					sub := strings.TrimPrefix(digestString(digests[i]), "sha256:")
					sig, att = "sha256-"+sub+".sig", "sha256-"+sub+".att"
				}
				tag(sig, s.newDigest(), rel[i].at, rel[i].at, false)
				tag(att, s.newDigest(), rel[i].at, rel[i].at, false)
			}
		}
		if v == "" {
			for _, i := range byTime[max(0, n-3):] {
				name := ""
				if named {
					name = rel[i].version + "-" + rel[i].at.Format("20060102")
				}
				tag(name, digests[i], rel[i].at, rel[i].at, false)
			}
		}
	}
	out.updated = updated
	return out
}

// floating is the floating tags a version moves, most specific first: its
// minor line (for major.minor.patch), its major, and latest.
func floating(version string) []string {
	parts := strings.Split(version, ".")
	if len(parts) == 3 {
		return []string{parts[0] + "." + parts[1], parts[0], "latest"}
	}
	return []string{parts[0], "latest"}
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
func readme(name, desc, latest string, variants []string, org string) string {
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
	fmt.Fprintf(&b, "docker pull cgr.dev/%s/%s:latest\ndocker run --rm cgr.dev/%s/%s:latest --version\n```\n\n", org, name, org, name)
	b.WriteString("## Verifying signatures\n\n```sh\ncosign verify \\\n  --certificate-oidc-issuer=https://token.actions.githubusercontent.com \\\n")
	fmt.Fprintf(&b, "  --certificate-identity-regexp='https://github.com/%s/images/.*' \\\n  cgr.dev/%s/%s:latest\n```\n\n", strings.TrimSuffix(org, ".example"), org, name)
	b.WriteString("Tags ending in `-r<N>` are epoch rebuilds of the same version; `sha256-<digest>.sig` and `.att` tags hold signatures and attestations. Both are hidden from tag lists unless asked for.\n")
	return b.String()
}
