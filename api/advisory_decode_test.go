package api

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"
)

// TestEventsReadAsBefore: an event read in one pass is the event the
// reading it replaced made of it (the common fields, the whole object as
// a map, the kind's details as a map, then as fields), over every kind,
// each way a detection is made, details of every shape, keys the client
// does not know, and nulls.
func TestEventsReadAsBefore(t *testing.T) {
	common := `"uid":"e1","createTime":"2026-01-02T03:04:05Z","author":"a","reviewState":"REVIEW_STATE_APPROVED","issue":"x","findings":[{"a":1}]`
	details := []string{`{}`, `null`, `"text"`, `[1]`, `7`, `{"note":"n"}`, `{"note":5,"fixedVersion":"1.2"}`,
		`{"fixedVersion":"1.2.3","type":"TYPE_COMPONENT_VULNERABILITY_MISMATCH","patchedVersions":["1","2"]}`,
		`{"nvdapi":{"cpeSearched":"c","cpeFound":"d","n":3}}`, `{"manual":{}}`, `{"scanv1":{"scanner":"grype","componentName":"x"},"note":"s"}`,
		`{"manual":null,"nvdapi":{"cpeFound":"z"}}`, ` {"note":"spaced"}`}
	var events []string
	for _, kind := range append(EventKinds(), "somethingNew") {
		for _, d := range details {
			events = append(events, `{`+common+`,"`+kind+`":`+d+`}`)
			events = append(events, `{"`+kind+`":`+d+`,"zeta":{"note":"z"}}`)
		}
	}
	events = append(events, `{}`, `{`+common+`}`, `{"fixed":null,"patched":null}`, `{"fixed":null,"alpha":{"note":"a"},"beta":{}}`,
		`{"uid":7}`, `{"createTime":"yesterday"}`, `{"uid":"u","uid":"v","fixed":{"note":"1"},"fixed":{"note":"2"}}`,
		// Keys are matched exactly: another case is another key.
		`{"Fixed":{"fixedVersion":"9.9"}}`, `{"UID":"u","Detection":{"NVDAPI":{"cpeFound":"x"}}}`,
		`{"detection":{"NVDAPI":{"cpeFound":"x"},"Manual":{}}}`, `{"FIXED":{},"fixed":null}`,
		// Escapes in keys and values, and space everywhere.
		`{"fix\u0065d":{"note":"e"}}`, `{"note\"":1,"fixed":{"no\u0074e":"q\"}{","fixedVersion":"1"}}`,
		" \n{ \"fixed\" :\t{ \"note\" : \"a , b\" } , \"uid\" : \"s\" }\n ",
		`{"detection":{"scanv1":{"scanner":"grype","componentCount":3,"cpes":["a","b"]},"manual":{}}}`)
	for _, ev := range events {
		var got AdvisoryEvent
		gotErr := json.Unmarshal([]byte(ev), &got)
		want, wantErr := readEventAsBefore([]byte(ev))
		if (gotErr == nil) != (wantErr == nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v (%v)\nwant %+v (%v)", ev, got, gotErr, want, wantErr)
		}
	}
}

// readEventAsBefore is how an event was read before it was read in one
// pass: the reference TestEventsReadAsBefore holds the new reading to.
func readEventAsBefore(b []byte) (AdvisoryEvent, error) {
	type plain AdvisoryEvent
	var common plain
	if err := json.Unmarshal(b, &common); err != nil {
		return AdvisoryEvent{}, err
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return AdvisoryEvent{}, err
	}
	e := AdvisoryEvent(common)
	var unknown []string
	for k, v := range raw {
		if slices.Contains(eventCommon, k) || string(v) == "null" {
			continue
		}
		if slices.Contains(EventKinds(), k) {
			e.Kind = k
			continue
		}
		unknown = append(unknown, k)
	}
	if e.Kind == "" && len(unknown) > 0 {
		slices.Sort(unknown)
		e.Kind = unknown[0]
	}
	if e.Kind == "" {
		return e, nil
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw[e.Kind], &obj) != nil {
		return e, nil
	}
	_ = json.Unmarshal(raw[e.Kind], &e.Details)
	if e.Kind == EventDetection {
		for _, how := range []string{"nvdapi", "manual", "scanv1"} {
			if v, ok := obj[how]; ok {
				e.Details.Detection, e.Details.Facts = how, stringFields(v)
				break
			}
		}
	}
	return e, nil
}

// TestMembersIsJSONsMap: members finds what json.Unmarshal into a map of
// raw values finds, in objects of every shape, and refuses what it does.
func TestMembersIsJSONsMap(t *testing.T) {
	for _, b := range []string{`{}`, ` { } `, `null`, `{"a":1}`, `{"a":-1.5e3,"b":true,"c":false,"d":null}`,
		`{"a":"x,y}z","b":[1,{"c":"]"}],"c":{"d":{"e":[]}}}`, `{"a":"\"","b":"\\"}`, `{"a\"b":1}`, `{"\u00e9":2}`,
		`{"a":1,"a":2}`, `{"é":"ü"}`, "{\n\t\"a\" :\r\n [ 1 , 2 ] ,\"b\":{ }\n}", `[1]`, `"s"`, `7`, `{"a":1}x`, `{"a"}`, `{"a":}`,
		`{"a":1,}`, `{"a":1`, `{"a":"1}`, `{"a":{"b":1}`, `{,}`, `{"a":1 "b":2}`, ``} {
		got, gotErr := members([]byte(b))
		var want map[string]json.RawMessage
		wantErr := json.Unmarshal([]byte(b), &want)
		if (gotErr == nil) != (wantErr == nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %q (%v), want %q (%v)", b, got, gotErr, want, wantErr)
		}
	}
}
