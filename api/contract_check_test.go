package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"

	"canopy/api"
)

// The checks of what the client sends against api.Contract(). They work on
// requests as a server received them, so that what is held to the table is
// what travelled, escapes and all.

// exchange is one request as the server received it, and its answer.
type exchange struct {
	method string
	target string // the request target as sent: escaped path and query
	body   []byte
	status int
	answer []byte
}

// exchanges records every request and answer passing to next.
type exchanges struct {
	next http.Handler
	mu   sync.Mutex
	all  []exchange
}

// teeWriter keeps a copy of the status and body written.
type teeWriter struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (w *teeWriter) WriteHeader(code int) { w.status = code; w.ResponseWriter.WriteHeader(code) }

func (w *teeWriter) Write(p []byte) (int, error) { w.body.Write(p); return w.ResponseWriter.Write(p) }

func (x *exchanges) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	tee := &teeWriter{ResponseWriter: w, status: http.StatusOK}
	x.next.ServeHTTP(tee, r)
	x.mu.Lock()
	defer x.mu.Unlock()
	x.all = append(x.all, exchange{method: r.Method, target: r.RequestURI, body: body, status: tee.status, answer: tee.body.Bytes()})
}

// take returns the exchanges since the last take.
func (x *exchanges) take() []exchange {
	x.mu.Lock()
	defer x.mu.Unlock()
	out := x.all
	x.all = nil
	return out
}

// matchTemplate reports whether an escaped path fits a route template: a
// literal segment is itself, {x=*} exactly one segment, {x=**} one or more.
func matchTemplate(template, path string) bool {
	return matchSegments(strings.Split(strings.TrimPrefix(template, "/"), "/"), strings.Split(strings.TrimPrefix(path, "/"), "/"))
}

func matchSegments(tpl, segs []string) bool {
	if len(tpl) == 0 || len(segs) == 0 {
		return len(tpl) == len(segs)
	}
	if v, verb, ok := strings.Cut(tpl[len(tpl)-1], "}:"); ok && strings.HasPrefix(v, "{") {
		// A custom method of a resource ({uid=**}:verb): the last segment
		// ends with the verb, and the rest of it is the variable's.
		last, ok := strings.CutSuffix(segs[len(segs)-1], ":"+verb)
		if !ok || last == "" {
			return false
		}
		return matchSegments(append(slices.Clone(tpl[:len(tpl)-1]), v+"}"), append(slices.Clone(segs[:len(segs)-1]), last))
	}
	switch t := tpl[0]; {
	case strings.HasSuffix(t, "=**}"):
		for n := 1; n <= len(segs); n++ {
			if segs[n-1] == "" {
				return false
			}
			if matchSegments(tpl[1:], segs[n:]) {
				return true
			}
		}
		return false
	case strings.HasPrefix(t, "{"):
		return segs[0] != "" && matchSegments(tpl[1:], segs[1:])
	default:
		return t == segs[0] && matchSegments(tpl[1:], segs[1:])
	}
}

// fieldSet is a set of dotted JSON paths, and every object they lie in.
type fieldSet struct{ leaves, objects map[string]bool }

func newFieldSet(paths []string) fieldSet {
	s := fieldSet{leaves: map[string]bool{}, objects: map[string]bool{}}
	for _, p := range paths {
		s.leaves[p] = true
		parts := strings.Split(p, ".")
		for i := 1; i < len(parts); i++ {
			s.objects[strings.Join(parts[:i], ".")] = true
		}
	}
	return s
}

// walk calls found for each field of a JSON value that the set names, and
// stray for each it does not: an object (or a list of objects) is followed
// into its members only where the set names members of it.
func (s fieldSet) walk(prefix string, v any, found, stray func(path string)) {
	obj, ok := v.(map[string]any)
	if !ok {
		return
	}
	for k, m := range obj {
		p := k
		if prefix != "" {
			p = prefix + "." + k
		}
		switch {
		case s.leaves[p]:
			found(p)
		case s.objects[p]:
			if list, isList := m.([]any); isList {
				for _, el := range list {
					s.walk(p, el, found, stray)
				}
			} else {
				s.walk(p, m, found, stray)
			}
		default:
			stray(p)
		}
	}
}

// valueAt is the value at a dotted JSON path of an object, nil when absent.
func valueAt(v any, path string) any {
	for _, k := range strings.Split(path, ".") {
		obj, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = obj[k]
	}
	return v
}

// checkExchange holds one request to its route and returns what differs.
// used is told what of the route the request exercised ("query name",
// "mask path", "body path", "replace").
func checkExchange(r api.Route, ex exchange, used func(what string)) []string {
	var bad []string
	badf := func(format string, args ...any) { bad = append(bad, fmt.Sprintf(format, args...)) }
	if ex.method != r.Method {
		badf("method %s, the table says %s", ex.method, r.Method)
	}
	path, rawQuery, _ := strings.Cut(ex.target, "?")
	if !matchTemplate(r.Path, path) {
		badf("path %s does not fit %s", path, r.Path)
	}
	if _, err := url.PathUnescape(path); err != nil {
		badf("path %s is not escaped properly: %v", path, err)
	}
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		badf("query %q: %v", rawQuery, err)
	}
	for name := range q {
		if !slices.Contains(r.Query, name) {
			badf("query parameter %s is not one the table allows (%s)", name, strings.Join(r.Query, ", "))
			continue
		}
		used("query " + name)
	}
	for _, e := range r.Enums {
		if e.In != api.InQuery {
			continue
		}
		for _, v := range q[e.Field] {
			if !slices.Contains(e.Values, v) {
				badf("query %s=%s is not one of the table's values", e.Field, v)
			}
		}
	}
	mask, masked := q["update_mask"]
	var paths []string
	if masked {
		paths = strings.Split(strings.Join(mask, ","), ",")
	}
	if r.MaskOf != "" {
		paths = bodyMask(ex.body)
	}
	bad = append(bad, checkBody(r, ex.body, paths, used)...)
	return bad
}

// checkBody holds a request body to the route: no body where the route has
// none; else each field one the table says is sent (the whole resource as
// read under the mask "*"), each mask path updatable, and each field named
// by the mask.
func checkBody(r api.Route, raw []byte, mask []string, used func(string)) []string {
	var bad []string
	badf := func(format string, args ...any) { bad = append(bad, fmt.Sprintf(format, args...)) }
	if r.Body == "" {
		if len(raw) != 0 || mask != nil {
			badf("sent a body or a mask, the table says the call has neither")
		}
		return bad
	}
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		return append(bad, fmt.Sprintf("body %q is not a JSON object: %v", raw, err))
	}
	allowed, inMask := r.Sends, []string(nil)
	for _, m := range mask {
		i := slices.IndexFunc(r.Updates, func(u api.Update) bool { return u.Mask == m })
		switch {
		case m == api.FieldAll && r.Replace && len(mask) == 1:
			allowed = r.Reads
			used("replace")
		case i < 0:
			badf("update_mask path %q is not an updatable path of the table", m)
		default:
			inMask = append(inMask, r.Updates[i].JSON)
			used("mask " + m)
		}
	}
	if r.Method == http.MethodPatch && len(mask) == 0 {
		badf("an update without an update_mask")
	}
	newFieldSet(allowed).walk("", body, func(p string) { used("body " + p) },
		func(p string) { badf("body field %s is not one the table says is sent", p) })
	if inMask != nil {
		if r.MaskOf != "" {
			inMask = append(inMask, "updateMask") // the mask itself
		}
		newFieldSet(inMask).walk("", body, func(string) {},
			func(p string) { badf("body field %s is not named by the mask %s", p, strings.Join(mask, ",")) })
	}
	for _, e := range r.Enums {
		if s, ok := valueAt(body, e.Field).(string); e.In == api.InBody && ok && s != "" && !slices.Contains(e.Values, s) {
			badf("body %s=%s is not one of the table's values", e.Field, s)
		}
	}
	return bad
}

// bodyMask is the mask a body carries as the request's updateMask (a
// custom method whose body is the whole request), as proto paths: nil
// when it carries none.
func bodyMask(raw []byte) []string {
	var body struct {
		Mask *string `json:"updateMask"`
	}
	if json.Unmarshal(raw, &body) != nil || body.Mask == nil {
		return nil
	}
	var out []string
	for _, p := range strings.Split(*body.Mask, ",") {
		var b strings.Builder
		for _, r := range p {
			if r >= 'A' && r <= 'Z' {
				b.WriteByte('_')
				r += 'a' - 'A'
			}
			b.WriteRune(r)
		}
		out = append(out, b.String())
	}
	return out
}
