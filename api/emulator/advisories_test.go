package emulator

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"testing"

	"canopy/api"
)

// allAdvisories reads the whole feed as raw JSON objects.
func allAdvisories(t *testing.T, e *env, q url.Values) []map[string]json.RawMessage {
	t.Helper()
	var out []map[string]json.RawMessage
	q.Set("page_size", "200")
	for range 100 {
		var page struct {
			Advisories    []map[string]json.RawMessage
			NextPageToken string
		}
		e.ok(e.get("/vulnerabilities/v2/advisories?"+q.Encode()), &page)
		out = append(out, page.Advisories...)
		if page.NextPageToken == "" {
			return out
		}
		q.Set("page_token", page.NextPageToken)
	}
	t.Fatal("paging did not end")
	return nil
}

// TestAdvisoryEventShape: every event carries exactly one kind key (a
// oneof, no discriminator: no "type" key), every kind is seeded, and the
// details and the advisory's own fields are those advisories.proto names.
func TestAdvisoryEventShape(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1, Hostile: true})
	advs := allAdvisories(t, e, url.Values{})
	kinds := map[string]int{}
	detections := map[string]int{}
	schemes := map[string]int{}
	vectors := 0
	for _, a := range advs {
		for _, k := range []string{"author", "artifactName", "artifactType", "artifactArchitecture", "componentName",
			"componentType", "componentLocation", "severities", "events"} {
			if _, ok := a[k]; !ok {
				t.Errorf("advisory %s without %s", a["advisoryId"], k)
			}
		}
		var sev []api.Severity
		_ = json.Unmarshal(a["severities"], &sev)
		for _, s := range sev {
			schemes[s.Type]++
			if strings.HasPrefix(s.Score, "CVSS:") {
				vectors++
			}
		}
		var events []map[string]json.RawMessage
		_ = json.Unmarshal(a["events"], &events)
		for i, ev := range events {
			if _, ok := ev["type"]; ok {
				t.Errorf("event with a type key: %s", mustJSON(ev))
			}
			var found []string
			for k := range ev {
				if slices.Contains(api.EventKinds(), k) {
					found = append(found, k)
				}
			}
			if len(found) != 1 {
				t.Fatalf("event with kinds %v: %s", found, mustJSON(ev))
			}
			kind := found[0]
			kinds[kind]++
			if i == 0 && kind != api.EventDetection {
				t.Errorf("advisory %s begins with %s", a["advisoryId"], kind)
			}
			var d map[string]json.RawMessage
			_ = json.Unmarshal(ev[kind], &d)
			switch kind {
			case api.EventDetection:
				if len(d) != 1 {
					t.Errorf("detection %s: want one of nvdapi, manual, scanv1", ev[kind])
				}
				for how := range d {
					detections[how]++
				}
			case api.EventFixed:
				if len(d["fixedVersion"]) < 3 {
					t.Errorf("fixed without a version: %s", ev[kind])
				}
			case api.EventFalsePositiveDetermination:
				if !strings.HasPrefix(string(d["type"]), `"TYPE_`) {
					t.Errorf("false positive type: %s", ev[kind])
				}
			case api.EventPatched:
				if len(d["patchedVersions"]) < 3 {
					t.Errorf("patched without versions: %s", ev[kind])
				}
			}
			if len(ev["author"]) == 0 || len(ev["reviewState"]) == 0 {
				t.Errorf("event without author or review state: %s", mustJSON(ev))
			}
		}
		// The client reads each event's kind back.
		var typed api.Advisory
		b, _ := json.Marshal(a)
		if err := json.Unmarshal(b, &typed); err != nil || len(typed.Events) != len(events) || typed.Events[0].Kind != api.EventDetection {
			t.Errorf("decoded %+v: %v", typed.Events, err)
		}
	}
	for _, k := range api.EventKinds() {
		if kinds[k] == 0 {
			t.Errorf("no %s event seeded (%v)", k, kinds)
		}
	}
	for _, how := range []string{"scanv1", "nvdapi", "manual"} {
		if detections[how] == 0 {
			t.Errorf("no %s detection (%v)", how, detections)
		}
	}
	for _, s := range []string{api.SeverityCVSSv2, api.SeverityCVSSv3, api.SeverityCVSSv4} {
		if schemes[s] == 0 {
			t.Errorf("no %s severity (%v)", s, schemes)
		}
	}
	if len(schemes) != 3 || vectors < len(advs)/2 {
		t.Errorf("severities %v, %d vectors in %d advisories", schemes, vectors, len(advs))
	}
}

// TestAdvisoryEventFilters: event_types keeps advisories with an event of
// a kind, latest_event_type those whose newest event is of it.
func TestAdvisoryEventFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{Seed: 1})
	decode := func(raw []map[string]json.RawMessage) []api.Advisory {
		out := make([]api.Advisory, len(raw))
		for i, a := range raw {
			b, _ := json.Marshal(a)
			if err := json.Unmarshal(b, &out[i]); err != nil {
				t.Fatal(err)
			}
		}
		return out
	}
	all := decode(allAdvisories(t, e, url.Values{}))
	for filter, kind := range eventTypeFilters() {
		withKind := decode(allAdvisories(t, e, url.Values{"event_types": {filter}}))
		latest := decode(allAdvisories(t, e, url.Values{"latestEventType": {filter}}))
		wantAny, wantLatest := 0, 0
		for _, a := range all {
			if slices.ContainsFunc(a.Events, func(ev api.AdvisoryEvent) bool { return ev.Kind == kind }) {
				wantAny++
			}
			// The latest approved event counts: one in review does not yet.
			if l := a.LatestApproved(); l != nil && l.Kind == kind {
				wantLatest++
			}
		}
		for _, a := range latest {
			if l := a.LatestApproved(); l == nil || l.Kind != kind {
				t.Errorf("latest_event_type=%s gave an advisory whose latest approved event is %+v", filter, l)
			}
		}
		if len(withKind) != wantAny || len(latest) != wantLatest || wantAny == 0 {
			t.Errorf("%s: event_types %d (want %d), latest_event_type %d (want %d)", filter, len(withKind), wantAny, len(latest), wantLatest)
		}
	}
	two := decode(allAdvisories(t, e, url.Values{"event_types": {"EVENT_TYPE_FILTER_PATCHED", "EVENT_TYPE_FILTER_FIX_NOT_PLANNED"}}))
	if len(two) == 0 {
		t.Error("two event types: none")
	}
	s := wantErr(t, e.get("/vulnerabilities/v2/advisories?event_types=FIXED"), 400, api.CodeInvalidArgument)
	if f := fieldOf(t, s); f != "event_types" {
		t.Errorf("unknown event type: field %q", f)
	}
}
