package api_test

import (
	"strings"
	"testing"
)

// protoTokens splits proto source into tokens: words (identifiers, dotted
// names, numbers), quoted strings (kept with their quotes) and single
// punctuation characters; comments are dropped.
func protoTokens(src string) []string {
	var out []string
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case strings.HasPrefix(src[i:], "//"):
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return out
			}
			i += end + 4
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(src) && src[j] != c {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			out = append(out, src[i:min(j+1, len(src))])
			i = j + 1
		case isWordByte(c):
			j := i
			for j < len(src) && isWordByte(src[j]) {
				j++
			}
			out = append(out, src[i:j])
			i = j
		default:
			out = append(out, string(c))
			i++
		}
	}
	return out
}

func isWordByte(c byte) bool {
	return c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// TestProtoParser reads a made-up file with what the vendor's files hold
// (comments with braces in them, options, nested messages and enums,
// oneofs, maps, json_name, field behaviors, HTTP routes of every form), so
// that the parser is checked even where the vendor's files are not at hand.
func TestProtoParser(t *testing.T) {
	t.Parallel()
	const src = `
syntax = "proto3";
// A comment { with braces } and "quotes".
package acme.v1;
import "google/api/annotations.proto";
option go_package = "example.com/acme";
service Things {
  /* block { comment */
  rpc GetThing(GetThingRequest) returns (Thing) {
    option (google.api.http) = {get: "/v1/things/{uid=**}"};
    option (acme.auth) = { enabled: { caps: [A, B] } };
  }
  rpc UpdateThing(UpdateThingRequest) returns (Thing) {
    option (google.api.http) = {
      patch: "/v1/things/{thing.uid=**}/parts/{part}"
      body: "thing"
      additional_bindings { post: "/v1/other" body: "*" }
    };
  }
  rpc Watch(stream GetThingRequest) returns (stream Thing);
}
message Thing {
  option (acme.resource) = { type: "acme/Thing" pattern: "things/{thing}" };
  string uid = 1 [(google.api.field_behavior) = OUTPUT_ONLY, (acme.scope) = true];
  Inner sync = 2 [json_name = "sync_it", (google.api.field_behavior) = OPTIONAL];
  reserved 3;
  reserved "old";
  map<string, int32> limits = 4;
  repeated Kind kinds = 5;
  oneof how {
    string by_name = 6;
    Inner.Deep deep = 7;
  }
  message Inner {
    optional string grype_db_v2 = 1;
    message Deep { bool on = 1; }
  }
  enum Kind {
    KIND_UNSPECIFIED = 0;
    KIND_BIG = 1 [deprecated = true];
  }
}
message GetThingRequest { string uid = 1 [(google.api.field_behavior) = REQUIRED]; }
message UpdateThingRequest { Thing thing = 1; string part = 2; }
`
	set := &protoSet{services: map[string]*protoService{}, messages: map[string]*protoMessage{}, enums: map[string]*protoEnum{}}
	if err := parseProto(set, src); err != nil {
		t.Fatal(err)
	}
	svc := set.services["acme.v1.Things"]
	if svc == nil || len(svc.rpcs) != 3 {
		t.Fatalf("service = %+v", svc)
	}
	if r := svc.rpcs[1]; r.method != "patch" || r.path != "/v1/things/{thing.uid=**}/parts/{part}" || r.body != "thing" {
		t.Errorf("UpdateThing = %+v", r)
	}
	if r := svc.rpcs[2]; r.req != "GetThingRequest" || r.resp != "Thing" || r.path != "" {
		t.Errorf("Watch = %+v", r)
	}
	thing := set.messages["acme.v1.Thing"]
	if thing == nil || len(thing.fields) != 6 {
		t.Fatalf("Thing = %+v", thing)
	}
	var got []string
	for _, f := range thing.fields {
		f.typ = set.resolve(f.typ, f.scope)
		got = append(got, strings.Join([]string{f.name, f.json(), f.typ, f.oneof, strings.Join(f.behaviors, "+")}, " "))
	}
	want := []string{"uid uid string  OUTPUT_ONLY", "sync sync_it acme.v1.Thing.Inner  OPTIONAL",
		"limits limits int32  ", "kinds kinds acme.v1.Thing.Kind  ", "by_name byName string how ",
		"deep deep acme.v1.Thing.Inner.Deep how "}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("fields:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if f := set.messages["acme.v1.Thing.Inner"].fields[0]; f.json() != "grypeDbV2" {
		t.Errorf("json of %s = %s", f.name, f.json())
	}
	if !thing.fields[2].isMap || !thing.fields[3].repeated {
		t.Error("map or repeated not noted")
	}
	if e := set.enums["acme.v1.Thing.Kind"]; e == nil || strings.Join(e.values, ",") != "KIND_UNSPECIFIED,KIND_BIG" {
		t.Errorf("enum = %+v", e)
	}
	if n := normTemplate(svc.rpcs[1].path); n != "/v1/things/{thing.uid=**}/parts/{part=*}" {
		t.Errorf("normTemplate = %s", n)
	}
}
