package emulator

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"canopy/api"
)

// maskSpec says how a resource is updated. Update mask paths are proto
// field names, compared as written (the gateway passes them through), so
// a camelCase path is a field the server does not know; the body is JSON,
// keyed by each field's JSON name.
type maskSpec struct {
	// fields maps every top-level field's proto name to its JSON key.
	fields map[string]string
	// updatable are the top-level proto names a PATCH may name.
	updatable []string
	// members are, by top-level proto name, the members of a message field
	// a path may name alone ("claim_match.subject_pattern").
	members map[string][]string
	// fixed says, by proto name, why a known field cannot be updated when
	// the plain "cannot be updated" would not say enough.
	fixed map[string]string
	// oneofs are groups of JSON paths ("claimMatch.issuer") of which at
	// most one may be set: setting one clears the others.
	oneofs [][]string
}

// listed is the updatable paths, for messages.
func (s *maskSpec) listed() string {
	var out []string
	for _, f := range s.updatable {
		if ms := s.members[f]; len(ms) > 0 {
			f += " (or one of " + f + ".{" + strings.Join(ms, ",") + "})"
		}
		out = append(out, f)
	}
	return strings.Join(out, ", ")
}

// protoPath is a camelCase path in proto form (claimMatch.issuerPattern →
// claim_match.issuer_pattern), to say what a refused path should have been.
func protoPath(p string) string {
	var b strings.Builder
	for _, r := range p {
		if unicode.IsUpper(r) {
			b.WriteByte('_')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// updateMask reads the paths a PATCH changes: the update_mask parameter
// (also spelt updateMask, as a gateway accepts), "*" for every updatable
// field, or, without one, the updatable fields present in the body.
func (c *call) updateMask(domain string, raw map[string]json.RawMessage, spec *maskSpec) ([]string, *apiErr) {
	mask := params{c.r.URL.Query()}.all("update_mask")
	if len(mask) == 0 {
		for _, f := range spec.updatable {
			if v, ok := raw[spec.fields[f]]; ok && string(v) != "null" {
				mask = append(mask, f)
			}
		}
		return mask, nil
	}
	bad := func(msg string) *apiErr { return badField(domain, "update_mask", msg+"; updatable: "+spec.listed()) }
	if slices.Contains(mask, "*") {
		if len(mask) > 1 {
			return nil, bad(`"*" must be the only path`)
		}
		return slices.Clone(spec.updatable), nil
	}
	var out []string
	for _, p := range mask {
		if strings.ToLower(p) != p {
			return nil, bad(fmt.Sprintf("%q is not a field name: paths are proto field names (%s)", p, protoPath(p)))
		}
		top, member, dotted := strings.Cut(p, ".")
		if _, ok := spec.fields[top]; !ok {
			return nil, bad(fmt.Sprintf("unknown field %q", p))
		}
		if why, ok := spec.fixed[top]; ok {
			return nil, bad(fmt.Sprintf("field %q cannot be updated: %s", p, why))
		}
		if !slices.Contains(spec.updatable, top) {
			return nil, bad(fmt.Sprintf("field %q cannot be updated", p))
		}
		if dotted && !slices.Contains(spec.members[top], member) {
			if len(spec.members[top]) == 0 {
				return nil, bad(fmt.Sprintf("unknown field %q: %s has no members to update one by one", p, top))
			}
			return nil, bad(fmt.Sprintf("unknown member %q", p))
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out, nil
}

// object decodes a JSON object; anything else (absent, null) is empty.
func object(v json.RawMessage) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	_ = json.Unmarshal(v, &out)
	if out == nil {
		out = map[string]json.RawMessage{}
	}
	return out
}

// present reports whether a JSON path ("claimMatch.issuer") is set in obj.
func present(obj map[string]json.RawMessage, path string) bool {
	top, member, dotted := strings.Cut(path, ".")
	v, ok := obj[top]
	if !ok || string(v) == "null" {
		return false
	}
	if !dotted {
		return true
	}
	return present(object(v), member)
}

// oneofConflict refuses a body that sets two members of one oneof, as a
// protojson decoder does.
func oneofConflict(domain string, body map[string]json.RawMessage, spec *maskSpec) *apiErr {
	for _, group := range spec.oneofs {
		var set []string
		for _, p := range group {
			if present(body, p) {
				set = append(set, p)
			}
		}
		if len(set) > 1 {
			return badField(domain, set[0], fmt.Sprintf("%s are one choice: set one of them, not %d", strings.Join(group, ", "), len(set)))
		}
	}
	return nil
}

// applyMask sets the masked paths of cur (the resource as JSON) from body:
// a path the body leaves out is cleared, and a member of a oneof that is
// set clears the other members of its oneof. Nothing else changes.
func applyMask(cur, body map[string]json.RawMessage, paths []string, spec *maskSpec) error {
	for _, p := range paths {
		top, member, dotted := strings.Cut(p, ".")
		key := spec.fields[top]
		if !dotted {
			if v, ok := body[key]; ok && string(v) != "null" {
				cur[key] = v
				clearSiblings(cur, key, spec)
			} else {
				delete(cur, key)
			}
			continue
		}
		obj, from := object(cur[key]), object(body[key])
		mk := api.JSONName(member)
		set := false
		if v, ok := from[mk]; ok && string(v) != "null" {
			obj[mk] = v
			set = true
		} else {
			delete(obj, mk)
		}
		enc, err := json.Marshal(obj)
		if err != nil {
			return fmt.Errorf("update %s: %w", p, err)
		}
		cur[key] = enc
		if set {
			clearSiblings(cur, key+"."+mk, spec)
		}
		// The message is now set (members or not): so is its oneof.
		clearSiblings(cur, key, spec)
	}
	return nil
}

// clearSiblings clears the other members of the oneofs path is in.
func clearSiblings(cur map[string]json.RawMessage, path string, spec *maskSpec) {
	for _, group := range spec.oneofs {
		if !slices.Contains(group, path) {
			continue
		}
		for _, other := range group {
			if other == path {
				continue
			}
			top, member, dotted := strings.Cut(other, ".")
			if !dotted {
				delete(cur, top)
				continue
			}
			if _, ok := cur[top]; !ok {
				continue
			}
			obj := object(cur[top])
			delete(obj, member)
			if enc, err := json.Marshal(obj); err == nil {
				cur[top] = enc
			}
		}
	}
}

// patched applies a PATCH to a resource: the body's oneofs are checked,
// the mask read and applied to a copy of cur, and the result decoded into
// next. It does not check the result's values.
func patched[T any](c *call, domain string, cur *T, raw map[string]json.RawMessage, spec *maskSpec, next *T) *apiErr {
	if e := oneofConflict(domain, raw, spec); e != nil {
		return e
	}
	paths, e := c.updateMask(domain, raw, spec)
	if e != nil {
		return e
	}
	b, err := json.Marshal(cur)
	if err != nil {
		return newErr(api.CodeInternal, domain, "encode resource: "+err.Error())
	}
	obj := object(b)
	if err := applyMask(obj, raw, paths, spec); err != nil {
		return newErr(api.CodeInternal, domain, err.Error())
	}
	if b, err = json.Marshal(obj); err == nil {
		err = json.Unmarshal(b, next)
	}
	if err != nil {
		return malformed(domain, err)
	}
	return nil
}

// sameJSON reports whether a and b encode alike: a PATCH that changes
// nothing keeps the update time.
func sameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}
