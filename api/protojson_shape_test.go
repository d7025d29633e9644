package api_test

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bufbuild/protocompile"
	"google.golang.org/protobuf/reflect/protoreflect"

	"canopy/api"
)

// The vendor's definitions compiled by a real proto compiler, so that JSON
// can be read as their messages by protojson: the hand-written parser
// (proto_parse_test.go) knows names and routes, not how a message reads.

// googleAPIStubs are the few googleapis files the vendor's definitions
// import and the directory does not hold: only what the definitions use
// (google.api.http, field_behavior, resource), with googleapis' own field
// numbers. They are test data, written here rather than copied.
var googleAPIStubs = map[string]string{
	"google/api/annotations.proto": `syntax = "proto3";
package google.api;
import "google/api/http.proto";
import "google/protobuf/descriptor.proto";
extend google.protobuf.MethodOptions { HttpRule http = 72295728; }
`,
	"google/api/http.proto": `syntax = "proto3";
package google.api;
message HttpRule {
  string selector = 1;
  oneof pattern {
    string get = 2;
    string put = 3;
    string post = 4;
    string delete = 5;
    string patch = 6;
    CustomHttpPattern custom = 8;
  }
  string body = 7;
  string response_body = 12;
  repeated HttpRule additional_bindings = 11;
}
message CustomHttpPattern {
  string kind = 1;
  string path = 2;
}
`,
	"google/api/field_behavior.proto": `syntax = "proto3";
package google.api;
import "google/protobuf/descriptor.proto";
enum FieldBehavior {
  FIELD_BEHAVIOR_UNSPECIFIED = 0;
  OPTIONAL = 1;
  REQUIRED = 2;
  OUTPUT_ONLY = 3;
  INPUT_ONLY = 4;
  IMMUTABLE = 5;
  UNORDERED_LIST = 6;
  NON_EMPTY_DEFAULT = 7;
  IDENTIFIER = 8;
}
extend google.protobuf.FieldOptions { repeated FieldBehavior field_behavior = 1052 [packed = false]; }
`,
	"google/api/resource.proto": `syntax = "proto3";
package google.api;
import "google/protobuf/descriptor.proto";
message ResourceDescriptor {
  string type = 1;
  repeated string pattern = 2;
  string plural = 5;
  string singular = 6;
}
extend google.protobuf.MessageOptions { ResourceDescriptor resource = 1053; }
`,
}

// shapeRoute is one HTTP binding of an rpc: how it travels, and the
// messages its request body and its answer are.
type shapeRoute struct {
	rpc      protoreflect.MethodDescriptor
	method   string // GET, POST…
	template string // the path template as the option writes it
	body     string // the option's body: "" none, "*" the whole request, else a field
	in, out  protoreflect.MessageDescriptor
	literals int // literal path segments and custom verbs: the more, the more specific the route
}

// bodyMessage is the message a request body is read as: the request, or
// its field the option names.
func (r *shapeRoute) bodyMessage() protoreflect.MessageDescriptor {
	if r.body == "*" {
		return r.in
	}
	if f := r.in.Fields().ByName(protoreflect.Name(r.body)); f != nil && f.Message() != nil {
		return f.Message()
	}
	return nil
}

// shapes are the compiled definitions' routes.
type shapes struct{ routes []*shapeRoute }

// compileShapes compiles every .proto file under dir (imports resolved in
// dir, then the stubs, then protocompile's copy of the well-known types)
// and reads each rpc's google.api.http bindings.
func compileShapes(t *testing.T, dir string) *shapes {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".proto") {
			rel, err := filepath.Rel(dir, path)
			files = append(files, filepath.ToSlash(rel))
			return err
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	c := protocompile.Compiler{Resolver: protocompile.WithStandardImports(protocompile.CompositeResolver{
		&protocompile.SourceResolver{ImportPaths: []string{dir}},
		&protocompile.SourceResolver{Accessor: protocompile.SourceAccessorFromMap(googleAPIStubs)},
	})}
	compiled, err := c.Compile(context.Background(), files...)
	if err != nil {
		t.Fatalf("compiling the vendor's definitions in %s: %v", dir, err)
	}
	s := &shapes{}
	for _, f := range compiled {
		for i := range f.Services().Len() {
			ms := f.Services().Get(i).Methods()
			for j := range ms.Len() {
				s.add(t, ms.Get(j))
			}
		}
	}
	if len(s.routes) == 0 {
		t.Fatalf("%s: %d files compiled, no rpc with a google.api.http option", dir, len(compiled))
	}
	return s
}

// add reads an rpc's google.api.http option and its additional bindings.
func (s *shapes) add(t *testing.T, m protoreflect.MethodDescriptor) {
	t.Helper()
	var rule protoreflect.Message
	m.Options().ProtoReflect().Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		if fd.FullName() == "google.api.http" {
			rule = v.Message()
		}
		return rule == nil
	})
	if rule == nil {
		return // not served over HTTP
	}
	var bind func(rule protoreflect.Message)
	bind = func(rule protoreflect.Message) {
		fields := rule.Descriptor().Fields()
		str := func(name protoreflect.Name) string { return rule.Get(fields.ByName(name)).String() }
		r := &shapeRoute{rpc: m, body: str("body"), in: m.Input(), out: m.Output()}
		for _, verb := range []protoreflect.Name{"get", "put", "post", "delete", "patch"} {
			if p := str(verb); p != "" {
				r.method, r.template = strings.ToUpper(string(verb)), p
			}
		}
		if r.template == "" {
			t.Fatalf("%s: a google.api.http binding with no method this test knows", m.FullName())
		}
		for _, seg := range strings.Split(r.template, "/") {
			if !strings.HasPrefix(seg, "{") || strings.Contains(seg, "}:") {
				r.literals++
			}
		}
		s.routes = append(s.routes, r)
		more := rule.Get(fields.ByName("additional_bindings")).List()
		for i := range more.Len() {
			bind(more.Get(i).Message())
		}
	}
	bind(rule)
}

// route is the binding a request travelled by: of those whose method and
// template fit, the one with the most literal segments and verbs (GET
// /registry/v2/repos/x/readme fits {uid=**} too, but is GetRepoReadme's;
// POST …/identityProviders/x:generateScimToken fits {parent=**} too).
func (s *shapes) route(method, path string) *shapeRoute {
	var best *shapeRoute
	for _, r := range s.routes {
		if r.method == method && matchTemplate(r.template, path) && (best == nil || r.literals > best.literals) {
			best = r
		}
	}
	return best
}

// shapeExchange is one exchange of the contract drive and the call of the
// table it was made by.
type shapeExchange struct {
	call api.Route
	ex   exchange
}

// checkShapes reads each request body the client sent as its rpc's request
// (or the field of it the route's body is), and each 2xx answer the
// emulator gave as its rpc's response, and fails on the first that does
// not fit. Error answers are not read: the definitions define no message
// for them (google.rpc.Status is googleapis', not the vendor's), and
// errors_test.go holds them to AIP-193 already.
func checkShapes(t *testing.T, seen []shapeExchange) {
	t.Helper()
	s := compileShapes(t, protoDir(t))
	answers, bodies := 0, 0
	answered, sent := map[string]bool{}, map[string]bool{} // by call
	for _, se := range seen {
		ex, call := se.ex, se.call.Call
		path, _, _ := strings.Cut(ex.target, "?")
		r := s.route(ex.method, path)
		if r == nil {
			t.Fatalf("%s: %s %s fits no route of the definitions", call, ex.method, ex.target)
		}
		if got, want := string(r.rpc.FullName()), se.call.Service+"."+se.call.RPC; got != want {
			t.Fatalf("%s: %s %s travelled by %s's route, the table says %s", call, ex.method, ex.target, got, want)
		}
		// Nothing is exempt: every misfit found so far was the emulator's
		// or the client's, and fixed there.
		fail := func(direction string, md protoreflect.MessageDescriptor, raw []byte, m *misfit) {
			t.Helper()
			t.Fatalf("%s: %s %s: the %s does not read as %s: %v\n%s", call, ex.method, ex.target, direction, md.FullName(), m, clip(raw))
		}
		if r.body != "" && len(ex.body) > 0 {
			md := r.bodyMessage()
			if md == nil {
				t.Fatalf("%s: the route's body %q is not a message field of %s", call, r.body, r.in.FullName())
			}
			if m := fit(md, ex.body); m != nil {
				fail("request", md, ex.body, m)
			}
			bodies++
			sent[call] = true
		}
		if ex.status/100 == 2 {
			if m := fit(r.out, ex.answer); m != nil {
				fail("answer", r.out, ex.answer, m)
			}
			answers++
			answered[call] = true
		}
	}
	// Every call is read both ways, so that a drive that stops making a
	// call, or only ever sees it fail, does not leave it unread here.
	for _, r := range api.Contract() {
		if !answered[r.Call] {
			t.Errorf("%s: no answer of it was read (none in the drive, or only errors)", r.Call)
		}
		if r.Body != "" && !sent[r.Call] {
			t.Errorf("%s: it sends a body, and none was read", r.Call)
		}
	}
	t.Logf("%d exchanges: %d request bodies and %d answers read as the definitions' messages; answers of %d calls, bodies of %d",
		len(seen), bodies, answers, len(answered), len(sent))
}
