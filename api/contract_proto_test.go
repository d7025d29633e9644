package api_test

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"canopy/api"
)

// uidpFilter is the hierarchy filter of the Lists. Where its definition is
// among the vendor's files at hand, its members are read from there like
// any message's; where it is not (an older copy of the definitions), they
// are taken as the client uses them (ListOptions): descendants_of,
// children_of, in_root.
const uidpFilter = "chainguard.platform.common.UIDPFilter"

func uidpMembers() []string { return []string{"descendants_of", "children_of", "in_root"} }

// protoDir is where the vendor's definitions are: $CANOPY_PROTOS, else the
// shared reference beside the repository (../../shared/reference from this
// package, as in CI). The test skips, saying so, when there are none.
func protoDir(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("CANOPY_PROTOS"); d != "" {
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			t.Fatalf("CANOPY_PROTOS=%s is not a directory of .proto files", d)
		}
		return d
	}
	d, err := filepath.Abs(filepath.Join("..", "..", "shared", "reference", "platform-v2-protos"))
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
		t.Skipf("the vendor's v2 definitions are not at %s and CANOPY_PROTOS is unset: the contract table "+
			"is checked against the emulator only (TestContractRequests), not against the protos", d)
	}
	return d
}

// loadProtos reads every .proto file under dir and resolves the type names.
func loadProtos(t *testing.T, dir string) *protoSet {
	t.Helper()
	set := &protoSet{services: map[string]*protoService{}, messages: map[string]*protoMessage{}, enums: map[string]*protoEnum{}}
	n := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".proto") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		n++
		if err := parseProto(set, string(src)); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 || len(set.services) == 0 {
		t.Fatalf("%s: %d .proto files, %d services read; want the vendor's definitions", dir, n, len(set.services))
	}
	for _, s := range set.services {
		for _, r := range s.rpcs {
			r.req, r.resp = set.resolve(r.req, r.scope), set.resolve(r.resp, r.scope)
		}
	}
	for _, m := range set.messages {
		for _, f := range m.fields {
			f.typ = set.resolve(f.typ, f.scope)
		}
	}
	return set
}

// resolve finds the full name of a type named in scope: the innermost
// enclosing scope that has it wins. A name found nowhere (a type of
// another package, such as google.protobuf.Timestamp) stays as written.
func (s *protoSet) resolve(name, scope string) string {
	if full, ok := strings.CutPrefix(name, "."); ok {
		return full
	}
	for sc := scope; sc != ""; {
		cand := sc + "." + name
		if s.messages[cand] != nil || s.enums[cand] != nil {
			return cand
		}
		i := strings.LastIndexByte(sc, '.')
		if i < 0 {
			break
		}
		sc = sc[:i]
	}
	return name
}

// field is m's field of this name: a JSON name when byJSON, else a proto name.
func (m *protoMessage) field(name string, byJSON bool) *protoField {
	for _, f := range m.fields {
		if byJSON && f.json() == name || !byJSON && f.name == name {
			return f
		}
	}
	return nil
}

// path walks a dotted field path from m and returns the fields along it,
// or what in it the definitions do not have.
func (s *protoSet) path(m *protoMessage, path string, byJSON bool) ([]*protoField, error) {
	var out []*protoField
	segs := strings.Split(path, ".")
	for i, seg := range segs {
		f := m.field(seg, byJSON)
		if f == nil {
			hint := ""
			if g := m.field(seg, !byJSON); g != nil {
				hint = fmt.Sprintf(" (%s is its %s name; write %s)", seg, map[bool]string{true: "proto", false: "JSON"}[byJSON],
					map[bool]string{true: g.json(), false: g.name}[byJSON])
			}
			return nil, fmt.Errorf("%s has no field %s%s", m.full, seg, hint)
		}
		out = append(out, f)
		if i == len(segs)-1 {
			break
		}
		if f.typ == uidpFilter && !f.isMap && s.messages[uidpFilter] == nil {
			if rest := strings.Join(segs[i+1:], "."); !slices.Contains(uidpMembers(), rest) {
				return nil, fmt.Errorf("%s: the hierarchy filter has no member %s (the client knows %v)", path, rest, uidpMembers())
			}
			return out, nil
		}
		if m = s.messages[f.typ]; m == nil || f.isMap {
			return nil, fmt.Errorf("%s: %s is a %s, which has no members to name", path, f.name, f.typ)
		}
	}
	return out, nil
}

// pathVars are the top field names bound by a route template's variables.
func pathVars(template string) []string {
	var out []string
	for _, seg := range strings.Split(template, "/") {
		if v, ok := strings.CutPrefix(seg, "{"); ok {
			v, _, _ = strings.Cut(strings.TrimSuffix(v, "}"), "=")
			top, _, _ := strings.Cut(v, ".")
			out = append(out, top)
		}
	}
	return out
}

// normTemplate writes a template's one-segment variables in one way:
// {digest} and {digest=*} are the same route.
func normTemplate(template string) string {
	segs := strings.Split(template, "/")
	for i, seg := range segs {
		if strings.HasPrefix(seg, "{") && !strings.Contains(seg, "=") {
			segs[i] = strings.TrimSuffix(seg, "}") + "=*}"
		}
	}
	return strings.Join(segs, "/")
}

// TestContractMatchesProtos holds api.Contract() to the vendor's v2
// definitions: each route is its rpc's (method, template, body), each
// query name a field of the request, each list key the JSON name of the
// answer's items, each field read or sent one of the message's (and none
// sent that only the server sets), each mask path an updatable field, each
// enum value one of the enum's; and what a call must carry (a required
// request field, a required field of what a create makes) the client can
// send. rpcs of the services used that the client never calls are logged.
func TestContractMatchesProtos(t *testing.T) {
	t.Parallel()
	set := loadProtos(t, protoDir(t))
	called := map[string]bool{}
	for _, r := range api.Contract() {
		svc := set.services[r.Service]
		if svc == nil {
			t.Errorf("%s: service %s is not in the protos", r.Call, r.Service)
			continue
		}
		i := slices.IndexFunc(svc.rpcs, func(p *protoRPC) bool { return p.name == r.RPC })
		if i < 0 {
			t.Errorf("%s: %s has no rpc %s", r.Call, r.Service, r.RPC)
			continue
		}
		called[r.Service+"."+r.RPC] = true
		for _, bad := range checkRoute(set, r, svc.rpcs[i]) {
			t.Errorf("%s (%s): %s", r.Call, r.RPC, bad)
		}
	}
	names := slices.Sorted(maps.Keys(set.services))
	for _, name := range names {
		s := set.services[name]
		if !slices.ContainsFunc(api.Contract(), func(r api.Route) bool { return r.Service == s.full }) {
			continue
		}
		for _, r := range s.rpcs {
			if !called[s.full+"."+r.name] {
				t.Logf("not called by the client: %s.%s (%s %s)", s.full, r.name, strings.ToUpper(r.method), r.path)
			}
		}
	}
}

// checkRoute compares one route of the table with its rpc and returns
// what differs.
func checkRoute(set *protoSet, r api.Route, rpc *protoRPC) []string {
	var bad []string
	badf := func(format string, args ...any) { bad = append(bad, fmt.Sprintf(format, args...)) }
	if m := strings.ToUpper(rpc.method); m != r.Method {
		badf("method %s, proto says %s", r.Method, m)
	}
	if got, want := normTemplate(r.Path), normTemplate(rpc.path); got != want {
		badf("route %s, proto says %s", r.Path, rpc.path)
	}
	if r.Body != rpc.body {
		badf("body %q, proto says %q", r.Body, rpc.body)
	}
	req, resp := set.messages[rpc.req], set.messages[rpc.resp]
	if rpc.resp == "google.protobuf.Empty" {
		resp = &protoMessage{full: rpc.resp} // a Delete answers nothing to read
	}
	if req == nil || resp == nil {
		return append(bad, fmt.Sprintf("request %s or answer %s is not among the messages read", rpc.req, rpc.resp))
	}
	vars := pathVars(rpc.path)
	for _, q := range r.Query {
		along, err := set.path(req, q, false)
		top, _, _ := strings.Cut(q, ".")
		switch {
		case err != nil:
			badf("query %s: %v", q, err)
		case slices.Contains(vars, top) || top == rpc.body || rpc.body == "*":
			badf("query %s is bound by the route or the body, not the query", q)
		case set.messages[along[len(along)-1].typ] != nil:
			badf("query %s is a message (%s), not a value", q, along[len(along)-1].typ)
		}
	}
	for _, f := range req.fields {
		sent := slices.Contains(vars, f.name) || f.name == rpc.body || rpc.body == "*" || slices.Contains(r.Query, f.name) ||
			// A message in the query travels member by member.
			slices.ContainsFunc(r.Query, func(q string) bool { return strings.HasPrefix(q, f.name+".") })
		if f.has("REQUIRED") && !sent {
			badf("the proto requires %s of %s, which the client never sends", f.name, req.full)
		}
	}
	item := resp
	if r.ListKey != "" {
		var lists []string
		item = nil
		for _, f := range resp.fields {
			if f.repeated && set.messages[f.typ] != nil {
				lists = append(lists, f.json())
				if f.json() == r.ListKey {
					item = set.messages[f.typ]
				}
			}
		}
		if item == nil {
			return append(bad, fmt.Sprintf("list key %s, proto says %s", r.ListKey, strings.Join(lists, ", ")))
		}
		for _, k := range r.Page {
			if resp.field(k, true) == nil {
				badf("page key %s is not a field of %s", k, resp.full)
			}
		}
	}
	for _, p := range r.Reads {
		if _, err := set.path(item, p, true); err != nil {
			badf("reads %s: %v", p, err)
		}
	}
	body := req
	if rpc.body != "" && rpc.body != "*" {
		if f := req.field(rpc.body, false); f != nil {
			body = set.messages[f.typ]
		}
	}
	if body == nil {
		return append(bad, fmt.Sprintf("the body %s is not a message read", rpc.body))
	}
	for _, p := range r.Sends {
		along, err := set.path(body, p, true)
		if err != nil {
			badf("sends %s: %v", p, err)
		} else if f := along[len(along)-1]; f.has("OUTPUT_ONLY") {
			badf("sends %s, which the proto says only the server sets", p)
		}
	}
	if r.Method == "POST" {
		// What a create must carry, the client must be able to send.
		for _, f := range body.fields {
			if f.has("REQUIRED") && !slices.Contains(r.Sends, f.json()) && !slices.Contains(vars, f.name) {
				badf("the proto requires %s of %s, which the table does not send", f.json(), body.full)
			}
		}
	}
	resource, prefix := body, ""
	if r.MaskOf != "" {
		// The mask names fields of a member of the request, whose JSON
		// the body carries under that member's name.
		f := req.field(r.MaskOf, false)
		if f == nil || set.messages[f.typ] == nil {
			return append(bad, fmt.Sprintf("the mask's message %s is not a message field of %s", r.MaskOf, req.full))
		}
		resource, prefix = set.messages[f.typ], f.json()+"."
	}
	for _, u := range r.Updates {
		json, ok := strings.CutPrefix(u.JSON, prefix)
		if !ok {
			badf("mask path %s is sent as %s, not under %s", u.Mask, u.JSON, prefix)
			continue
		}
		u.JSON = json
		bad = append(bad, checkUpdate(set, resource, u)...)
	}
	if r.Replace {
		// A full replacement sends the resource as read: a field the server
		// takes that the client never read would be cleared.
		for _, p := range unread(set, body, "", r.Reads) {
			badf("the mask * would clear %s, which the client does not read", p)
		}
	}
	for _, e := range r.Enums {
		root, byJSON := item, true
		switch e.In {
		case api.InQuery:
			root, byJSON = req, false
		case api.InBody:
			root = body
		}
		bad = append(bad, checkEnum(set, root, e, byJSON)...)
	}
	return bad
}

// unread are the fields of m (under prefix) that a client could set but
// that reads does not name: a field read member by member is followed.
func unread(set *protoSet, m *protoMessage, prefix string, reads []string) []string {
	var out []string
	for _, f := range m.fields {
		j := prefix + f.json()
		switch {
		case f.has("OUTPUT_ONLY") || slices.Contains(reads, j):
		case !slices.ContainsFunc(reads, func(p string) bool { return strings.HasPrefix(p, j+".") }):
			out = append(out, j)
		case set.messages[f.typ] != nil:
			out = append(out, unread(set, set.messages[f.typ], j+".", reads)...)
		}
	}
	return out
}

// checkUpdate holds one updatable field to the resource: a path of proto
// names, none of them set only by the server, whose JSON is the table's.
func checkUpdate(set *protoSet, resource *protoMessage, u api.Update) []string {
	along, err := set.path(resource, u.Mask, false)
	if err != nil {
		return []string{fmt.Sprintf("mask path %s: %v", u.Mask, err)}
	}
	var bad, js []string
	for _, f := range along {
		js = append(js, f.json())
		if f.has("OUTPUT_ONLY") {
			bad = append(bad, fmt.Sprintf("mask path %s: %s is output only, not updatable", u.Mask, f.name))
		}
	}
	if j := strings.Join(js, "."); j != u.JSON {
		bad = append(bad, fmt.Sprintf("mask path %s is sent as %s, proto says %s", u.Mask, u.JSON, j))
	}
	return bad
}

// checkEnum holds an enum field and its values to the definitions.
func checkEnum(set *protoSet, root *protoMessage, e api.Enum, byJSON bool) []string {
	along, err := set.path(root, e.Field, byJSON)
	if err != nil {
		return []string{fmt.Sprintf("enum field %s (%s): %v", e.Field, e.In, err)}
	}
	f := along[len(along)-1]
	enum := set.enums[f.typ]
	if enum == nil {
		return []string{fmt.Sprintf("enum field %s (%s) is a %s, not an enum", e.Field, e.In, f.typ)}
	}
	var bad []string
	for _, v := range e.Values {
		if !slices.Contains(enum.values, v) {
			bad = append(bad, fmt.Sprintf("%s (%s): %s has no value %s (it has %s)", e.Field, e.In, enum.full, v,
				strings.Join(enum.values, ", ")))
		}
	}
	return bad
}
