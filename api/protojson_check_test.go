package api_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
)

// misfit says where a JSON body does not read as a message.
type misfit struct {
	path string // the JSON path of what does not fit ("repos[2].catalogTier"), "" the whole body
	err  error
}

func (m *misfit) Error() string {
	if m.path == "" {
		return m.err.Error()
	}
	return m.path + ": " + m.err.Error()
}

// fit reads raw as md the way the vendor's gateway would: protojson with
// its default options, so an unknown field, a value of the wrong type or an
// enum name the definitions lack is refused. protojson also takes a field
// by its proto name (create_time); the service writes and the client reads
// the lowerCamelCase JSON name only, so a proto name is refused here too.
func fit(md protoreflect.MessageDescriptor, raw []byte) *misfit {
	if err := (protojson.UnmarshalOptions{}).Unmarshal(raw, dynamicpb.NewMessage(md)); err != nil {
		return &misfit{path: pathAtError(raw, err), err: err}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return &misfit{err: err} // protojson read it: cannot happen
	}
	return jsonNames(md, v, "")
}

// jsonNames finds a member of v written by its proto name where it has a
// distinct JSON name. Well-known types have JSON forms of their own.
func jsonNames(md protoreflect.MessageDescriptor, v any, path string) *misfit {
	obj, ok := v.(map[string]any)
	if !ok || strings.HasPrefix(string(md.FullName()), "google.protobuf.") {
		return nil
	}
	for k, val := range obj {
		p := joinPath(path, k)
		fd := md.Fields().ByJSONName(k)
		if fd == nil {
			if fd = md.Fields().ByName(protoreflect.Name(k)); fd != nil {
				return &misfit{path: p, err: fmt.Errorf("%s is written by its proto name; its JSON name is %s", k, fd.JSONName())}
			}
			continue // protojson took it: an extension or an Any's @type
		}
		if m := fieldJSONNames(fd, val, p); m != nil {
			return m
		}
	}
	return nil
}

// fieldJSONNames is jsonNames over the messages a field's value holds.
func fieldJSONNames(fd protoreflect.FieldDescriptor, val any, path string) *misfit {
	switch {
	case fd.IsMap() && fd.MapValue().Message() != nil:
		m, _ := val.(map[string]any)
		for k, el := range m {
			if bad := jsonNames(fd.MapValue().Message(), el, path+"["+strconv.Quote(k)+"]"); bad != nil {
				return bad
			}
		}
	case fd.IsList() && fd.Message() != nil:
		l, _ := val.([]any)
		for i, el := range l {
			if bad := jsonNames(fd.Message(), el, fmt.Sprintf("%s[%d]", path, i)); bad != nil {
				return bad
			}
		}
	case !fd.IsMap() && fd.Message() != nil:
		return jsonNames(fd.Message(), val, path)
	}
	return nil
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// protojsonPos is where protojson's errors say they are: "(line 1:45)",
// a line and a column counted in runes from 1.
var protojsonPos = regexp.MustCompile(`\(line (\d+):(\d+)\)`)

// pathAtError is the JSON path of what a protojson error is about, found
// from the position the error gives: "" when it gives none.
func pathAtError(raw []byte, err error) string {
	m := protojsonPos.FindStringSubmatch(err.Error())
	if m == nil {
		return ""
	}
	line, _ := strconv.Atoi(m[1])
	col, _ := strconv.Atoi(m[2])
	off := 0
	for ; line > 1 && off < len(raw); line-- {
		i := bytes.IndexByte(raw[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
	}
	for ; col > 1 && off < len(raw); col-- {
		_, n := utf8.DecodeRune(raw[off:])
		off += n
	}
	return pathAt(raw, off)
}

// jsonFrame is one object or array pathAt is inside.
type jsonFrame struct {
	obj     bool
	wantKey bool   // an object's next token is a key
	key     string // the member being read
	idx     int    // the element being read
}

// pathAt is the JSON path of the token that ends first after offset off
// of raw: a key names its member, a value the member or element it is.
func pathAt(raw []byte, off int) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	var stack []jsonFrame
	path := func() string {
		var b strings.Builder
		for _, f := range stack {
			switch {
			case f.obj && f.key != "":
				if b.Len() > 0 {
					b.WriteByte('.')
				}
				b.WriteString(f.key)
			case !f.obj:
				fmt.Fprintf(&b, "[%d]", f.idx)
			}
		}
		return b.String()
	}
	next := func() { // the current member or element is read
		if n := len(stack); n > 0 {
			if stack[n-1].obj {
				stack[n-1].wantKey = true
			} else {
				stack[n-1].idx++
			}
		}
	}
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) || err != nil {
			return path()
		}
		end := int(dec.InputOffset())
		top := len(stack) - 1
		if s, isKey := tok.(string); isKey && top >= 0 && stack[top].obj && stack[top].wantKey {
			stack[top].key, stack[top].wantKey = s, false
			if end > off {
				return path()
			}
			continue
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:top]
			next()
			continue
		}
		if end > off {
			return path()
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, jsonFrame{obj: true, wantKey: true})
		case json.Delim('['):
			stack = append(stack, jsonFrame{})
		default:
			next()
		}
	}
}

// clip is a body short enough for a failure message.
func clip(b []byte) string {
	const most = 400
	if len(b) <= most {
		return string(b)
	}
	return string(b[:most]) + fmt.Sprintf("… (%d bytes)", len(b))
}

// TestShapeCheckRefuses proves the check checks: a Repo answer with a field
// the definitions lack, one with a value of the wrong type, one with a
// member under its proto name, and one with a bad item deep in a page are
// each refused at their JSON path, while a Repo that fits is taken.
func TestShapeCheckRefuses(t *testing.T) {
	t.Parallel()
	s := compileShapes(t, protoDir(t))
	get, list := s.route("GET", "/registry/v2/repos/abc/def"), s.route("GET", "/registry/v2/repos")
	create := s.route("POST", "/registry/v2/repos/abc")
	if get == nil || list == nil || create == nil || get.rpc.Name() != "GetRepo" || list.rpc.Name() != "ListRepos" ||
		create.bodyMessage() == nil || create.bodyMessage().Name() != "Repo" {
		t.Fatalf("the routes of GetRepo, ListRepos and CreateRepo's body were not found: %v %v %v", get, list, create)
	}
	if m := fit(get.out, []byte(`{"uid":"abc/def","name":"python","catalogTier":"CATALOG_TIER_BASE"}`)); m != nil {
		t.Errorf("a Repo that fits was refused: %v", m)
	}
	for _, c := range []struct {
		md         protoreflect.MessageDescriptor
		body, path string
	}{
		{get.out, `{"uid":"abc/def","colour":"blue"}`, "colour"},
		{get.out, `{"uid":"abc/def","name":5}`, "name"},
		{get.out, `{"uid":"abc/def","catalogTier":"GOLD"}`, "catalogTier"},
		{create.bodyMessage(), `{"name":"python","catalog_tier":"CATALOG_TIER_BASE"}`, "catalog_tier"},
		{list.out, "{\n  \"repos\": [\n    {\"uid\": \"a\"},\n    {\"uid\": \"b\", \"aliases\": \"one\"}\n  ]\n}", "repos[1].aliases"},
		{list.out, `{"repos":[],"totalCount":"many"}`, "totalCount"},
	} {
		m := fit(c.md, []byte(c.body))
		switch {
		case m == nil:
			t.Errorf("%s was taken as %s", c.body, c.md.FullName())
		case m.path != c.path:
			t.Errorf("%s: refused at %q, want at %q: %v", c.body, m.path, c.path, m)
		}
	}
}
