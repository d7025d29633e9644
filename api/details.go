package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// MarshalJSON writes the detail with its @type beside its fields, as protojson's Any does.
func (d Detail) MarshalJSON() ([]byte, error) {
	var body any
	typ := d.Type
	switch {
	case d.ErrorInfo != nil:
		body, typ = d.ErrorInfo, TypeErrorInfo
	case d.BadRequest != nil:
		body, typ = d.BadRequest, TypeBadRequest
	case d.PreconditionFailure != nil:
		body, typ = d.PreconditionFailure, TypePreconditionFailure
	case d.ResourceInfo != nil:
		body, typ = d.ResourceInfo, TypeResourceInfo
	default:
		body = struct{}{}
	}
	fields, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("marshal %s: %w", typ, err)
	}
	typeJSON, err := json.Marshal(typ)
	if err != nil {
		return nil, fmt.Errorf("marshal detail type: %w", err)
	}
	out := append([]byte(`{"@type":`), typeJSON...)
	if len(fields) > 2 {
		out = append(out, ',')
		out = append(out, fields[1:]...)
	} else {
		out = append(out, '}')
	}
	return out, nil
}

// UnmarshalJSON decodes a detail by its @type; unknown types are kept by name only.
func (d *Detail) UnmarshalJSON(b []byte) error {
	var head struct {
		Type string `json:"@type"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return fmt.Errorf("error detail: %w", err)
	}
	*d = Detail{Type: head.Type}
	var target any
	switch detailName(head.Type) {
	case "google.rpc.ErrorInfo":
		d.ErrorInfo = &ErrorInfo{}
		target = d.ErrorInfo
	case "google.rpc.BadRequest":
		d.BadRequest = &BadRequest{}
		target = d.BadRequest
	case "google.rpc.PreconditionFailure":
		d.PreconditionFailure = &PreconditionFailure{}
		target = d.PreconditionFailure
	case "google.rpc.ResourceInfo":
		d.ResourceInfo = &ResourceInfo{}
		target = d.ResourceInfo
	default:
		return nil
	}
	if err := json.Unmarshal(b, target); err != nil {
		return fmt.Errorf("error detail %s: %w", head.Type, err)
	}
	return nil
}

// detailName strips the type URL's host part: "type.googleapis.com/google.rpc.X" → "google.rpc.X".
func detailName(typeURL string) string {
	if i := strings.LastIndexByte(typeURL, '/'); i >= 0 {
		return typeURL[i+1:]
	}
	return typeURL
}

// UnmarshalJSON decodes a status leniently: each detail on its own, so that
// one malformed detail (or a code of the wrong type) loses only itself, not
// the code, message and other details. A detail that cannot be decoded is
// kept by its @type alone. Only a body that is not a JSON object fails.
func (s *Status) UnmarshalJSON(b []byte) error {
	var raw struct {
		Code    json.RawMessage `json:"code"`
		Message json.RawMessage `json:"message"`
		Details json.RawMessage `json:"details"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("error status: %w", err)
	}
	*s = Status{}
	if raw.Code != nil {
		var n int32
		if json.Unmarshal(raw.Code, &n) == nil {
			s.Code = Code(n)
		}
	}
	if raw.Message != nil {
		_ = json.Unmarshal(raw.Message, &s.Message) // not a string: no message
	}
	var details []json.RawMessage
	if raw.Details == nil || json.Unmarshal(raw.Details, &details) != nil {
		return nil
	}
	for _, d := range details {
		if bytes.Equal(bytes.TrimSpace(d), []byte("null")) {
			continue
		}
		var det Detail
		if err := json.Unmarshal(d, &det); err != nil {
			var head struct {
				Type string `json:"@type"`
			}
			_ = json.Unmarshal(d, &head)
			det = Detail{Type: head.Type}
		}
		s.Details = append(s.Details, det)
	}
	return nil
}
