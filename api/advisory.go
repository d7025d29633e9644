package api

import (
	"encoding/json"
	"fmt"
	"slices"
)

// Kinds of advisory events: the JSON key under which an event carries its
// details. An event has exactly one of them and no key that names it
// otherwise, so the key's presence is the kind.
const (
	EventDetection                  = "detection"
	EventTruePositiveDetermination  = "truePositiveDetermination"
	EventFixed                      = "fixed"
	EventFalsePositiveDetermination = "falsePositiveDetermination"
	EventAnalysisNotPlanned         = "analysisNotPlanned"
	EventFixNotPlanned              = "fixNotPlanned"
	EventPendingUpstreamFix         = "pendingUpstreamFix"
	EventPatched                    = "patched"
)

// EventKinds lists every event kind the client knows, in the order the
// service numbers them.
func EventKinds() []string {
	return []string{EventDetection, EventFixed, EventFalsePositiveDetermination, EventAnalysisNotPlanned,
		EventFixNotPlanned, EventPendingUpstreamFix, EventTruePositiveDetermination, EventPatched}
}

// eventFilterNames are the service's names of the event kinds in its
// event-type filters (latest_event_type), by kind.
var eventFilterNames = map[string]string{
	EventDetection:                  "EVENT_TYPE_FILTER_DETECTION",
	EventTruePositiveDetermination:  "EVENT_TYPE_FILTER_TRUE_POSITIVE_DETERMINATION",
	EventFixed:                      "EVENT_TYPE_FILTER_FIXED",
	EventFalsePositiveDetermination: "EVENT_TYPE_FILTER_FALSE_POSITIVE_DETERMINATION",
	EventAnalysisNotPlanned:         "EVENT_TYPE_FILTER_ANALYSIS_NOT_PLANNED",
	EventFixNotPlanned:              "EVENT_TYPE_FILTER_FIX_NOT_PLANNED",
	EventPendingUpstreamFix:         "EVENT_TYPE_FILTER_PENDING_UPSTREAM_FIX",
	EventPatched:                    "EVENT_TYPE_FILTER_PATCHED",
}

// EventFilter is how a filter by event kind names the kind ("" for "" or
// a kind the service has no filter value for).
func EventFilter(kind string) string { return eventFilterNames[kind] }

// eventFilterValues are every value the client sends in an event-type
// filter.
func eventFilterValues() []string {
	out := make([]string, 0, len(eventFilterNames))
	for _, k := range EventKinds() {
		out = append(out, eventFilterNames[k])
	}
	return out
}

// Review states of an advisory event.
const (
	ReviewPending        = "REVIEW_STATE_PENDING"
	ReviewApproved       = "REVIEW_STATE_APPROVED"
	ReviewRequestChanges = "REVIEW_STATE_REQUEST_CHANGES"
	ReviewRejected       = "REVIEW_STATE_REJECTED"
)

// AdvisoryEvent is one step of an advisory's timeline: who recorded it,
// when, and what it says (Kind, with its details in Details).
type AdvisoryEvent struct {
	UID         string `json:"uid,omitempty"`
	CreateTime  Time   `json:"createTime,omitzero"`
	Author      string `json:"author,omitempty"`
	Reviewer    string `json:"reviewer,omitempty"`
	ReviewState string `json:"reviewState,omitempty"`
	Issue       string `json:"issue,omitempty"`
	// Kind is the event's kind (EventFixed…): the key its details came
	// under. An event of a kind this client does not know keeps that key
	// here too, so it can still be named; "" when the event had none.
	Kind string `json:"-"`
	// Details are the kind's fields (fixedVersion, note, type…) as sent.
	Details EventDetails `json:"-"`
}

// EventDetails are the fields of an event's kind. Every kind has at most a
// note and one or two facts; the ones the client reads are named here.
type EventDetails struct {
	Note            string   `json:"note,omitempty"`
	FixedVersion    string   `json:"fixedVersion,omitempty"`    // fixed
	Type            string   `json:"type,omitempty"`            // falsePositiveDetermination: TYPE_…
	PatchedVersions []string `json:"patchedVersions,omitempty"` // patched
	// Detection says how a detection was made: by "nvdapi" (with the CPE
	// searched and found), "manual", or "scanv1" (with the scanner and
	// component).
	Detection string            `json:"-"`
	Facts     map[string]string `json:"-"` // the detection's or scan's own fields, by JSON key
}

// eventCommon are the keys every event may have beside its kind.
var eventCommon = []string{"uid", "createTime", "author", "reviewer", "reviewState", "issue", "findings"}

// UnmarshalJSON reads the common fields and finds the kind by its key.
// The keys are found by members, not by encoding/json into a map (a page
// of 200 advisories has some 2,000 events: reading each as a map and its
// details as another was most of decoding the page).
func (e *AdvisoryEvent) UnmarshalJSON(b []byte) error {
	type plain AdvisoryEvent
	var common plain
	if err := json.Unmarshal(b, &common); err != nil {
		return fmt.Errorf("advisory event: %w", err)
	}
	raw, err := members(b)
	if err != nil {
		return fmt.Errorf("advisory event: %w", err)
	}
	*e = AdvisoryEvent(common)
	e.Kind, e.Details = eventKind(raw, eventCommon)
	return nil
}

// eventKind finds an event's kind among the keys of its object that are
// not common to every event, and reads its details. A known kind wins
// over keys the client does not know; among unknown keys the first in
// sorted order is taken, so decoding is stable.
func eventKind(raw map[string]json.RawMessage, common []string) (string, EventDetails) {
	kind := ""
	var unknown []string
	for k, v := range raw {
		if slices.Contains(common, k) || string(v) == "null" {
			continue
		}
		if slices.Contains(EventKinds(), k) {
			kind = k
			continue
		}
		unknown = append(unknown, k)
	}
	if kind == "" && len(unknown) > 0 {
		slices.Sort(unknown)
		kind = unknown[0]
	}
	var d EventDetails
	if kind != "" {
		d.decode(kind, raw[kind])
	}
	return kind, d
}

// decode reads the details of kind; details of a shape it does not expect
// are left out rather than failing the whole advisory.
func (d *EventDetails) decode(kind string, b json.RawMessage) {
	obj, err := members(b)
	if err != nil || obj == nil {
		return
	}
	_ = json.Unmarshal(b, d)
	if kind != EventDetection {
		return
	}
	for _, how := range []string{"nvdapi", "manual", "scanv1"} {
		if v, ok := obj[how]; ok {
			d.Detection = how
			d.Facts = stringFields(v)
			break
		}
	}
}

// stringFields are the string members of a JSON object.
func stringFields(b json.RawMessage) map[string]string {
	var obj map[string]json.RawMessage
	if json.Unmarshal(b, &obj) != nil {
		return nil
	}
	out := map[string]string{}
	for k, v := range obj {
		var s string
		if json.Unmarshal(v, &s) == nil && s != "" {
			out[k] = s
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// MarshalJSON writes the event as the service does: the common fields and
// the kind's key holding its details.
func (e AdvisoryEvent) MarshalJSON() ([]byte, error) {
	type plain AdvisoryEvent
	b, err := json.Marshal(plain(e))
	if err != nil {
		return nil, fmt.Errorf("advisory event: %w", err)
	}
	out, err := withKind(b, e.Kind, e.Details, eventCommon)
	if err != nil {
		return nil, fmt.Errorf("advisory event: %w", err)
	}
	return out, nil
}

// withKind adds an event's kind, the key holding its details, to the
// JSON object b of its common fields (none when it has no kind).
func withKind(b []byte, kind string, d EventDetails, common []string) ([]byte, error) {
	if kind == "" {
		return b, nil
	}
	if slices.Contains(common, kind) {
		return nil, fmt.Errorf("the kind %q is the name of a common field", kind)
	}
	details, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	if kind == EventDetection && d.Detection != "" {
		facts := d.Facts
		if facts == nil {
			facts = map[string]string{}
		}
		inner, err := json.Marshal(facts)
		if err != nil {
			return nil, err
		}
		details, _ = json.Marshal(map[string]json.RawMessage{d.Detection: inner})
	}
	k, _ := json.Marshal(kind)
	// The kind's key goes in before the closing brace of the common fields
	// (an object: b ends in '}'), rather than through a map built and
	// written again.
	out := make([]byte, 0, len(b)+len(k)+len(details)+2)
	out = append(out, b[:len(b)-1]...)
	if len(b) > 2 {
		out = append(out, ',')
	}
	out = append(append(append(out, k...), ':'), details...)
	return append(out, '}'), nil
}

// Latest is the advisory's most recent event (the last one sent among
// those of the latest time), or nil when it has none.
func (a *Advisory) Latest() *AdvisoryEvent {
	var last *AdvisoryEvent
	for i := range a.Events {
		if last == nil || !a.Events[i].CreateTime.Before(last.CreateTime) {
			last = &a.Events[i]
		}
	}
	return last
}

// LatestApproved is the advisory's most recent approved event, what the
// service's latest_event_type filter looks at (an event in review, or
// rejected, does not count), or nil when none is approved. An event
// without a review state is taken as approved (the state is required, so
// one without it predates reviews).
func (a *Advisory) LatestApproved() *AdvisoryEvent {
	var last *AdvisoryEvent
	for i := range a.Events {
		if st := a.Events[i].ReviewState; st != ReviewApproved && st != "" && st != "REVIEW_STATE_UNSPECIFIED" {
			continue
		}
		if last == nil || !a.Events[i].CreateTime.Before(last.CreateTime) {
			last = &a.Events[i]
		}
	}
	return last
}
