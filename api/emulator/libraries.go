package emulator

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"

	"canopy/api"
)

const artifactsPrefix = "/libraries/v2/artifacts"

// ecosystemNumbers are the Ecosystem values by number, which a gateway
// takes in a query as well as names.
var ecosystemNumbers = sync.OnceValue(func() map[string]string {
	return map[string]string{"1": api.EcosystemJava, "2": api.EcosystemPython}
})

// ecosystemsOf reads the required ecosystems parameter: one or more
// known ecosystems, each once.
func ecosystemsOf(p params) ([]string, *apiErr) {
	vals := p.all("ecosystems")
	if len(vals) == 0 {
		return nil, badField(domainLibraries, "ecosystems", "is required: give one or more of "+strings.Join(api.Ecosystems(), ", "))
	}
	var out []string
	for _, v := range vals {
		if n, ok := ecosystemNumbers()[v]; ok {
			v = n
		}
		if !slices.Contains(api.Ecosystems(), v) {
			return nil, badField(domainLibraries, "ecosystems", fmt.Sprintf("unknown ecosystem %q; use %s", v, strings.Join(api.Ecosystems(), " or ")))
		}
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out, nil
}

// artifactsRoute serves the three library calls: the list, the count and
// an artifact's versions. There is no call that gets one artifact. The
// versions route takes the artifact id as ONE path segment although the id
// holds a slash: the client escapes it (pypi%2Frequests), and the route is
// found on the path as sent, as the gateway does; unescaped, the slash
// makes a path no call is served on.
func (c *call) artifactsRoute(string) *apiErr {
	rest, _ := strings.CutPrefix(c.r.URL.EscapedPath(), artifactsPrefix)
	rest = strings.TrimPrefix(rest, "/")
	var serve func() *apiErr
	switch seg, tail, _ := strings.Cut(rest, "/"); {
	case rest == "":
		serve = c.listArtifacts
	case rest == "count":
		serve = c.countArtifacts
	case tail == "versions" && seg != "":
		id, err := url.PathUnescape(seg)
		if err != nil {
			return noRoute()
		}
		serve = func() *apiErr { return c.listVersions(id) }
	default:
		return noRoute()
	}
	if c.r.Method != http.MethodGet {
		return methodNotAllowed(domainLibraries, c.r)
	}
	return serve()
}

func (c *call) listArtifacts() *apiErr {
	q, e := c.parseList(domainLibraries, sortArtifacts)
	if e != nil {
		return e
	}
	ecos, e := ecosystemsOf(q.p)
	if e != nil {
		return e
	}
	query := strings.ToLower(q.p.get("query"))
	ls := listSpec[api.Artifact]{c: c.st.artifacts, plural: "artifacts", mask: maskAll,
		extra: []string{strings.Join(ecos, ","), query},
		out:   func(a *api.Artifact) any { return a }}
	if len(ecos) < len(api.Ecosystems()) || query != "" {
		ls.keep = func(a *api.Artifact) bool {
			return slices.Contains(ecos, a.Ecosystem) &&
				(query == "" || strings.Contains(strings.ToLower(a.Name), query) ||
					strings.Contains(strings.ToLower(a.Description), query))
		}
	}
	runList(c.srv, c.w, c.r, q, ls)
	return nil
}

func (c *call) countArtifacts() *apiErr {
	ecos, e := ecosystemsOf(params{c.r.URL.Query()})
	if e != nil {
		return e
	}
	st := c.st
	counts := api.ArtifactCounts{}
	for _, eco := range ecos {
		n := 0
		for i := range st.artifacts.items {
			if !st.artifacts.dead[i] && st.artifacts.items[i].Ecosystem == eco {
				n++
			}
		}
		counts.Counts = append(counts.Counts, api.EcosystemCount{Ecosystem: eco, TotalCount: api.Int64(n)})
	}
	writeJSON(c.w, counts)
	return nil
}

func (c *call) listVersions(artifact string) *apiErr {
	st := c.st
	if _, ok := st.artifacts.get(artifact); !ok {
		return notFound(domainLibraries, typeArtifact, artifact)
	}
	q, e := c.parseList(domainLibraries, sortVersions)
	if e != nil {
		return e
	}
	// A version's uid is its artifact's and the version: the versions of
	// an artifact are its children.
	q.childrenOf, q.descendantsOf, q.inRoot, q.name = artifact, "", false, ""
	runList(c.srv, c.w, c.r, q, listSpec[api.ArtifactVersion]{c: st.versions, plural: "artifactVersions", mask: maskAll,
		out: func(v *api.ArtifactVersion) any { return v }})
	return nil
}

// versionKeyDigits is the width versionKey pads every run of digits to.
const versionKeyDigits = 12

// versionKey is a version that sorts as versions do: every run of digits
// padded to the same width, so 2.10.0 comes after 2.9.1.
func versionKey(v string) string {
	var b strings.Builder
	for i := 0; i < len(v); {
		j := i
		for j < len(v) && v[j] >= '0' && v[j] <= '9' {
			j++
		}
		if j == i {
			b.WriteByte(v[i])
			i++
			continue
		}
		b.WriteString(strings.Repeat("0", max(0, versionKeyDigits-(j-i))))
		b.WriteString(v[i:j])
		i = j
	}
	return b.String()
}

// compareVersionKeys is strings.Compare(versionKey(a), versionKey(b)),
// reading both keys a byte at a time rather than making them.
func compareVersionKeys(a, b string) int {
	x, y := keyReader{v: a}, keyReader{v: b}
	for {
		cx, okx := x.next()
		cy, oky := y.next()
		switch {
		case !okx && !oky:
			return 0
		case !okx:
			return -1
		case !oky:
			return 1
		case cx != cy:
			if cx < cy {
				return -1
			}
			return 1
		}
	}
}

// keyReader gives versionKey(v) a byte at a time.
type keyReader struct {
	v   string
	i   int // the next byte of v
	pad int // zeros still to give before the digits from i
	run int // end of the run of digits i is in; <= i outside one
}

func (r *keyReader) next() (byte, bool) {
	if r.pad > 0 {
		r.pad--
		return '0', true
	}
	if r.i >= len(r.v) {
		return 0, false
	}
	if r.i >= r.run && isDigit(r.v[r.i]) {
		j := r.i
		for j < len(r.v) && isDigit(r.v[j]) {
			j++
		}
		r.run = j
		if r.pad = versionKeyDigits - (j - r.i); r.pad > 0 {
			r.pad--
			return '0', true
		}
		r.pad = 0
	}
	c := r.v[r.i]
	r.i++
	return c, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
