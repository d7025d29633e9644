package api_test

import (
	"fmt"
	"strconv"
	"strings"
)

// A small reader of .proto files, enough to hold the contract table to the
// vendor's definitions: services and their rpcs' HTTP routes, messages (and
// the messages in them) with their fields, and enums with their values.
// Anything else (imports, options other than the HTTP route, reserved
// ranges) is read past. It is no general proto parser: it trusts the files
// to be valid, as protoc has already accepted them.

// protoSet is every service, message and enum read, by full name.
type protoSet struct {
	services map[string]*protoService
	messages map[string]*protoMessage
	enums    map[string]*protoEnum
}

type protoService struct {
	full string
	rpcs []*protoRPC
}

// protoRPC is an rpc with its HTTP route: method (lower case, as in the
// option), path template and body ("" for none).
type protoRPC struct {
	name, req, resp    string // request and response types, full names once resolved
	method, path, body string
	scope              string // the package, for resolving req and resp
}

type protoMessage struct {
	full   string
	fields []*protoField
}

type protoField struct {
	name, typ string // typ: a scalar, or the full name of a message or enum once resolved
	scope     string // the message it is in, for resolving typ
	repeated  bool
	isMap     bool
	oneof     string // the oneof it is a member of, if any
	jsonName  string // from the json_name option; "" for the default
	behaviors []string
}

type protoEnum struct {
	full   string
	values []string
}

// json is the field's JSON name: its json_name, else its proto name in
// lowerCamelCase (each letter after an underscore upper case).
func (f *protoField) json() string {
	if f.jsonName != "" {
		return f.jsonName
	}
	var b strings.Builder
	up := false
	for _, r := range f.name {
		switch {
		case r == '_':
			up = true
		case up:
			b.WriteString(strings.ToUpper(string(r)))
			up = false
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func (f *protoField) has(behavior string) bool {
	for _, b := range f.behaviors {
		if b == behavior {
			return true
		}
	}
	return false
}

// protoParser reads the tokens of one file into a protoSet.
type protoParser struct {
	toks []string
	i    int
	set  *protoSet
	pkg  string
}

func (p *protoParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

func (p *protoParser) next() string { t := p.peek(); p.i++; return t }

func (p *protoParser) expect(want string) {
	if got := p.next(); got != want {
		panic(fmt.Errorf("token %d: %q, want %q", p.i-1, got, want))
	}
}

// skip reads past a statement: to its ";" or the end of its block, over
// nested braces, brackets and parentheses.
func (p *protoParser) skip() {
	depth := 0
	for p.i < len(p.toks) {
		switch p.next() {
		case "{", "[", "(":
			depth++
		case "}", "]", ")":
			depth--
			if depth == 0 && p.peek() != ";" && p.toks[p.i-1] == "}" {
				return
			}
		case ";":
			if depth == 0 {
				return
			}
		}
	}
}

// value reads an option value: a scalar (adjacent strings joined,
// unquoted), a list or an aggregate (read past, "" returned).
func (p *protoParser) value() string {
	switch p.peek() {
	case "{", "[":
		p.skipBlock()
		return ""
	case "-":
		p.next()
		return "-" + p.next()
	}
	v := p.next()
	if !strings.HasPrefix(v, `"`) && !strings.HasPrefix(v, "'") {
		return v
	}
	var b strings.Builder
	for {
		s, err := strconv.Unquote(v)
		if err != nil {
			s = strings.Trim(v, `"'`)
		}
		b.WriteString(s)
		if n := p.peek(); !strings.HasPrefix(n, `"`) && !strings.HasPrefix(n, "'") {
			return b.String()
		}
		v = p.next()
	}
}

// skipBlock reads past one balanced {…} or […].
func (p *protoParser) skipBlock() {
	depth := 0
	for p.i < len(p.toks) {
		switch p.next() {
		case "{", "[":
			depth++
		case "}", "]":
			if depth--; depth == 0 {
				return
			}
		}
	}
}

// aggregate reads a {key: value …} option value into its scalar members;
// nested aggregates are read past.
func (p *protoParser) aggregate() map[string]string {
	out := map[string]string{}
	p.expect("{")
	for p.peek() != "}" && p.peek() != "" {
		key := p.next()
		if p.peek() == ":" {
			p.next()
		}
		out[key] = p.value()
		if p.peek() == "," || p.peek() == ";" {
			p.next()
		}
	}
	p.expect("}")
	return out
}

// optionName reads an option's name: a word, or a parenthesized extension
// name with an optional member after it.
func (p *protoParser) optionName() string {
	if p.peek() != "(" {
		return p.next()
	}
	p.next()
	name := "(" + p.next() + ")"
	p.expect(")")
	if strings.HasPrefix(p.peek(), ".") {
		name += p.next()
	}
	return name
}

// file reads the top level of a file.
func (p *protoParser) file() {
	for p.i < len(p.toks) {
		switch p.next() {
		case "package":
			p.pkg = p.next()
			p.expect(";")
		case "service":
			p.service()
		case "message":
			p.message(p.pkg)
		case "enum":
			p.enum(p.pkg)
		case ";":
		default: // syntax, import, option, extend
			p.skip()
		}
	}
}

func (p *protoParser) service() {
	s := &protoService{full: p.pkg + "." + p.next()}
	p.set.services[s.full] = s
	p.expect("{")
	for tok := p.next(); tok != "}" && tok != ""; tok = p.next() {
		if tok != "rpc" {
			p.skip()
			continue
		}
		r := &protoRPC{name: p.next(), scope: p.pkg}
		r.req, r.resp = p.rpcType(), ""
		p.expect("returns")
		r.resp = p.rpcType()
		s.rpcs = append(s.rpcs, r)
		if p.peek() == ";" {
			p.next()
			continue
		}
		p.expect("{")
		for p.peek() != "}" {
			if p.next() != "option" || p.optionName() != "(google.api.http)" {
				p.skip()
				continue
			}
			p.expect("=")
			for k, v := range p.aggregate() {
				switch k {
				case "get", "put", "post", "delete", "patch":
					r.method, r.path = k, v
				case "body":
					r.body = v
				}
			}
			p.expect(";")
		}
		p.expect("}")
	}
}

// rpcType reads "(Type)" or "(stream Type)".
func (p *protoParser) rpcType() string {
	p.expect("(")
	t := p.next()
	if t == "stream" {
		t = p.next()
	}
	p.expect(")")
	return t
}

func (p *protoParser) message(scope string) {
	m := &protoMessage{full: scope + "." + p.next()}
	p.set.messages[m.full] = m
	p.expect("{")
	p.members(m, "")
}

// members reads the body of a message or of one of its oneofs, to its "}".
func (p *protoParser) members(m *protoMessage, oneof string) {
	for tok := p.next(); tok != "}" && tok != ""; tok = p.next() {
		switch tok {
		case ";":
		case "message":
			p.message(m.full)
		case "enum":
			p.enum(m.full)
		case "option", "reserved", "extensions", "extend":
			p.skip()
		case "oneof":
			name := p.next()
			p.expect("{")
			p.members(m, name)
		default:
			p.field(m, oneof, tok)
		}
	}
}

// field reads a field whose first token is tok.
func (p *protoParser) field(m *protoMessage, oneof, tok string) {
	f := &protoField{scope: m.full, oneof: oneof}
	switch tok {
	case "repeated":
		f.repeated, tok = true, p.next()
	case "optional", "required":
		tok = p.next()
	}
	if tok == "map" {
		p.expect("<")
		p.next()
		p.expect(",")
		tok = p.next()
		p.expect(">")
		f.isMap = true
	}
	f.typ, f.name = tok, p.next()
	p.expect("=")
	p.next()
	if p.peek() == "[" {
		p.next()
		for p.peek() != "]" && p.peek() != "" {
			name := p.optionName()
			p.expect("=")
			v := p.value()
			switch name {
			case "json_name":
				f.jsonName = v
			case "(google.api.field_behavior)":
				f.behaviors = append(f.behaviors, v)
			}
			if p.peek() == "," {
				p.next()
			}
		}
		p.expect("]")
	}
	p.expect(";")
	m.fields = append(m.fields, f)
}

func (p *protoParser) enum(scope string) {
	e := &protoEnum{full: scope + "." + p.next()}
	p.set.enums[e.full] = e
	p.expect("{")
	for tok := p.next(); tok != "}" && tok != ""; tok = p.next() {
		if tok == "option" || tok == "reserved" || tok == ";" {
			if tok != ";" {
				p.skip()
			}
			continue
		}
		e.values = append(e.values, tok)
		p.skip()
	}
}

// parseProto reads one file's source into set.
func parseProto(set *protoSet, src string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	p := &protoParser{toks: protoTokens(src), set: set}
	p.file()
	return nil
}
