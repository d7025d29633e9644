package emulator

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"canopy/api"
)

// The vulnerabilities resolved in an image, day by day: those of the
// feed's advisories about the image itself and the packages it ships
// whose fix came on that day, if the image was rebuilt since (its tag was
// last moved after the fix). One report a day of the range asked, empty
// ones too.

// maxResolvedDays is the longest range a request may ask about.
const maxResolvedDays = 366

// systemPackages ship in every image but static (a distroless base of
// nothing): the C library, TLS, compression, XML and the rest of what a
// base image holds.
var systemPackages = []string{"openssl", "glibc", "zlib", "busybox", "libxml2", "expat", "xz", "pcre2", "sqlite",
	"krb5", "gnutls", "libgcrypt", "c-ares", "libpng"}

// imagePackages are the origin packages an image of the demo registry
// ships beside the system's: its runtime's versioned packages, by prefix,
// or the package of its own name.
var imagePackages = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"python": {"python-", "py3-"}, "node": {"nodejs-"}, "go": {"go-"}, "postgres": {"postgresql-"},
		"jdk": {"openjdk-"}, "jre": {"openjdk-"}, "ruby": {"ruby-"}, "php": {"php-"}, "kubectl": {"kubectl-"},
		"jupyter": {"jupyter", "py3-"}, "vllm": {"vllm", "py3-"},
	}
})

// ships reports whether an image (a repo's name) ships an advisory's
// artifact: the image itself, a package of its runtime, or the system's;
// never another image.
func ships(image string, a *api.Advisory) bool {
	artifact := a.ArtifactName
	switch {
	case artifact == image:
		return true
	case a.ArtifactType == "image":
		return false
	}
	origin := originOf(artifact)
	if image != "static" && slices.Contains(systemPackages, origin) {
		return true
	}
	prefixes, ok := imagePackages()[image]
	if !ok {
		return origin == image
	}
	return slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(origin, p) })
}

// resolvedVulns answers ListResolvedVulnsReports for the images named by
// image_refs: each a repo by name, among the organizations the caller may
// list repos and tags of, and its tags (none: latest). The tags of a query
// pair with its repo only when it names one repo.
func (c *call) resolvedVulns(rest string) *apiErr {
	if rest != "" {
		return noRoute()
	}
	if c.r.Method != http.MethodGet {
		return methodNotAllowed(domainVulns, c.r)
	}
	p := params{c.r.URL.Query()}
	repos, tags := p.all("image_refs.repo"), p.all("image_refs.tags")
	switch {
	case len(repos) == 0:
		return badField(domainVulns, "image_refs", "is required: the repo of at least one image")
	case len(repos) > 1 && len(tags) > 0:
		return badField(domainVulns, "image_refs", "tags name the images of one repo: ask about one repo's tags at a time")
	}
	start, e := timeParam(p, "start_time")
	if e != nil {
		return e
	}
	end, e := timeParam(p, "end_time")
	if e != nil {
		return e
	}
	from, to := start.Truncate(24*time.Hour), end.Truncate(24*time.Hour)
	switch {
	case to.Before(from):
		return badField(domainVulns, "end_time", "is before start_time")
	case to.Sub(from) > maxResolvedDays*24*time.Hour:
		return badField(domainVulns, "end_time", fmt.Sprintf("the range is longer than %d days", maxResolvedDays))
	}
	if len(tags) == 0 {
		tags = []string{"latest"}
	}
	// When each image of the query was last built: its tags' last move.
	built := map[string]int64{}
	for _, name := range repos {
		r, e := c.visibleRepo(name)
		if e != nil {
			return e
		}
		if e := c.needTags(r.UID, true); e != nil {
			return e
		}
		for _, t := range tags {
			at, ok := c.st.tagMoved(r.UID, t)
			if !ok {
				return notFound(domainRegistry, typeTag, r.Name+":"+t)
			}
			built[name] = max(built[name], at)
		}
	}
	byDay := map[time.Time][]api.ResolvedVuln{}
	for i := range c.st.advs.items {
		a := &c.st.advs.items[i]
		fix := fixTime(a)
		if c.st.advs.dead[i] || fix.IsZero() || fix.Before(from) || !fix.Before(to.Add(24*time.Hour)) {
			continue
		}
		for _, name := range repos {
			if ships(name, a) && fix.UnixMilli() <= built[name] {
				day := fix.Truncate(24 * time.Hour)
				byDay[day] = append(byDay[day], api.ResolvedVuln{ID: a.AdvisoryID, Aliases: a.Aliases, CVSSSeverities: a.Severities})
				break
			}
		}
	}
	out := struct {
		Reports []api.ResolvedVulnsReport `json:"resolvedVulnsReports"`
	}{}
	for day := from; !day.After(to); day = day.Add(24 * time.Hour) {
		out.Reports = append(out.Reports, api.ResolvedVulnsReport{Date: api.TimeOf(day), ResolvedVulns: byDay[day]})
	}
	writeJSON(c.w, out)
	return nil
}

// timeParam reads a required timestamp parameter.
func timeParam(p params, name string) (time.Time, *apiErr) {
	v := p.get(name)
	if v == "" {
		return time.Time{}, badField(domainVulns, name, "is required")
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return time.Time{}, badField(domainVulns, name, fmt.Sprintf("%q is not an RFC 3339 time", v))
	}
	return t.UTC(), nil
}

// visibleRepo is the repo of this name in the first organization (the
// primary first) whose repos and tags the caller may list; NOT_FOUND
// when none has one, whether or not an organization hidden from the
// caller does.
func (c *call) visibleRepo(name string) (*repoRec, *apiErr) {
	for _, org := range c.st.orgs {
		if !c.p.can(capRepoList, org, true) || !c.p.can(capTagList, org, true) {
			continue
		}
		s := c.st.repos.byName[name]
		if s == nil {
			break
		}
		for _, id := range s.lists[fieldUID].all() {
			if r := &c.st.repos.items[id]; !c.st.repos.dead[id] && api.RootUID(r.UID) == org {
				return r, nil
			}
		}
	}
	return nil, notFound(domainRegistry, typeRepo, name)
}

// tagMoved is when the tag of a repo was last moved (unix milliseconds).
func (s *store) tagMoved(repo, tag string) (int64, bool) {
	for _, id := range s.tags.childIDs(repo) {
		if t := &s.tags.items[id]; !s.tags.dead[id] && s.tagName(t) == tag {
			return t.Update, true
		}
	}
	return 0, false
}

// fixTime is when an advisory's first fix (or patch) came; zero when none
// has.
func fixTime(a *api.Advisory) time.Time {
	var first time.Time
	for _, e := range a.Events {
		if (e.Kind == api.EventFixed || e.Kind == api.EventPatched) && (first.IsZero() || e.CreateTime.Time().Before(first)) {
			first = e.CreateTime.Time()
		}
	}
	return first
}
