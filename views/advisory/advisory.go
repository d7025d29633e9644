// Package advisory says in words what an advisory's events and scores
// mean: the one place the table, the tree and the detail pane read them
// from. Every string from the server it returns is made safe.
package advisory

import (
	"strings"

	"canopy/api"
	"canopy/census"
	"canopy/safe"
)

// EventName is an event kind in words ("fixed", "false positive"); a kind
// this client does not know is shown as sent, made safe.
func EventName(kind string) string {
	switch kind {
	case api.EventDetection:
		return "detected"
	case api.EventTruePositiveDetermination:
		return "true positive"
	case api.EventFixed:
		return "fixed"
	case api.EventFalsePositiveDetermination:
		return "false positive"
	case api.EventAnalysisNotPlanned:
		return "analysis not planned"
	case api.EventFixNotPlanned:
		return "fix not planned"
	case api.EventPendingUpstreamFix:
		return "pending upstream fix"
	case api.EventPatched:
		return "patched"
	case "":
		return ""
	}
	return safe.String(kind)
}

// Resolved reports whether an event kind closes the advisory for the
// image: fixed, patched, or not a vulnerability after all.
func Resolved(kind string) bool {
	return kind == api.EventFixed || kind == api.EventPatched || kind == api.EventFalsePositiveDetermination
}

// Open reports whether an event kind being latest leaves the advisory
// open, as every summary counts them: detected or pending upstream (a fix
// not planned is counted apart, as not planned).
func Open(kind string) bool {
	s, ok := census.StatusOfKind(kind)
	return ok && (s == census.Detected || s == census.PendingUpstream)
}

// Affected reports whether an event kind leaves the image affected (a fix
// not planned too, which the statuses count apart as not planned).
func Affected(kind string) bool {
	return kind == api.EventDetection || kind == api.EventTruePositiveDetermination ||
		kind == api.EventPendingUpstreamFix || kind == api.EventFixNotPlanned
}

// Status is where an advisory stands, in the words every summary counts
// by (census.Status: detected, pending upstream, fixed, not affected, not
// planned), from its latest approved event (what the service's status
// filters go by), with that event's own name where it says more
// ("detected: true positive"); then a newer event not approved and its
// review ("detected · fixed (in review)"); a timeline with no approved
// event is its latest event and its review.
func Status(a *api.Advisory) string {
	last, approved := a.Latest(), a.LatestApproved()
	switch {
	case last == nil:
		return ""
	case approved == nil:
		return StatusName(last.Kind) + " (" + inReview(last.ReviewState) + ")"
	case last == approved:
		return StatusName(approved.Kind)
	}
	return StatusName(approved.Kind) + " · " + StatusName(last.Kind) + " (" + inReview(last.ReviewState) + ")"
}

// StatusName is the status an event kind puts an advisory in, with the
// event's own name after it where that says more: "fixed", "fixed:
// patched", "not affected: false positive", "not planned: fix not
// planned"; a kind of no status is its event name.
func StatusName(kind string) string {
	s, ok := census.StatusOfKind(kind)
	if !ok {
		return EventName(kind)
	}
	if ev := EventName(kind); ev != s.String() && !strings.HasPrefix(ev, s.String()) {
		return s.String() + ": " + ev
	}
	return s.String()
}

// inReview is a review state in a status's few words.
func inReview(state string) string {
	switch state {
	case api.ReviewPending:
		return "in review"
	case api.ReviewRequestChanges:
		return "changes asked"
	}
	return Review(state)
}

// Detail is what an event says beyond its kind, in words: the fixed or
// patched versions, why it is a false positive, how it was detected, and
// its note; made safe.
func Detail(e *api.AdvisoryEvent) string {
	d := e.Details
	var parts []string
	switch e.Kind {
	case api.EventFixed:
		if d.FixedVersion != "" {
			parts = append(parts, "in "+safe.String(d.FixedVersion))
		}
	case api.EventPatched:
		if len(d.PatchedVersions) > 0 {
			parts = append(parts, "in "+safe.String(strings.Join(d.PatchedVersions, ", ")))
		}
	case api.EventFalsePositiveDetermination:
		if w := falsePositiveWords(d.Type); w != "" {
			parts = append(parts, w)
		}
	case api.EventDetection:
		if w := detectionWords(d); w != "" {
			parts = append(parts, w)
		}
	}
	if d.Note != "" {
		parts = append(parts, safe.String(d.Note))
	}
	return strings.Join(parts, " · ")
}

// falsePositiveWords says why an advisory does not apply.
func falsePositiveWords(t string) string {
	switch t {
	case "TYPE_VULNERABILITY_RECORD_ANALYSIS_CONTESTED":
		return "the vulnerability record is contested"
	case "TYPE_COMPONENT_VULNERABILITY_MISMATCH":
		return "the component does not match the vulnerability"
	case "TYPE_VULNERABLE_CODE_VERSION_NOT_USED":
		return "the vulnerable version is not used"
	case "TYPE_VULNERABLE_CODE_NOT_INCLUDED_IN_PACKAGE":
		return "the vulnerable code is not in the package"
	case "TYPE_VULNERABLE_CODE_NOT_IN_EXECUTION_PATH":
		return "the vulnerable code is never run"
	case "TYPE_VULNERABLE_CODE_CANNOT_BE_CONTROLLED_BY_ADVERSARY":
		return "an attacker cannot reach the vulnerable code"
	case "TYPE_INLINE_MITIGATIONS_EXIST":
		return "mitigations are in place"
	case "", "TYPE_UNSPECIFIED":
		return ""
	}
	return safe.String(strings.ToLower(strings.ReplaceAll(strings.TrimPrefix(t, "TYPE_"), "_", " ")))
}

// detectionWords says how a detection was made.
func detectionWords(d api.EventDetails) string {
	switch d.Detection {
	case "manual":
		return "by hand"
	case "nvdapi":
		if cpe := d.Facts["cpeFound"]; cpe != "" {
			return "by NVD, " + safe.String(cpe)
		}
		return "by NVD"
	case "scanv1":
		who := "by a scan"
		if s := d.Facts["scanner"]; s != "" {
			who = "by " + safe.String(s)
		}
		if c := d.Facts["component"]; c != "" {
			who += " in " + safe.String(c)
			if v := d.Facts["componentVersion"]; v != "" {
				who += " " + safe.String(v)
			}
		}
		return who
	}
	return ""
}

// Review is an event's review state in words when it is not simply
// approved ("pending review", "changes requested", "rejected"), else "".
func Review(state string) string {
	switch state {
	case api.ReviewPending:
		return "pending review"
	case api.ReviewRequestChanges:
		return "changes requested"
	case api.ReviewRejected:
		return "rejected"
	case "", api.ReviewApproved, "REVIEW_STATE_UNSPECIFIED":
		return ""
	}
	return safe.String(strings.ToLower(strings.ReplaceAll(strings.TrimPrefix(state, "REVIEW_STATE_"), "_", " ")))
}

// TopScore is the readable score of an advisory's highest severity (a
// computed one over one that could not be), and whether it has any.
func TopScore(a *api.Advisory) (Score, bool) { return Top(a.Severities) }

// Top is the readable score of the highest of severities (a computed one
// over one that could not be), and whether there is any.
func Top(severities []api.Severity) (Score, bool) {
	var best Score
	found := false
	for _, s := range severities {
		sc := ParseScore(s.Score)
		if sc.Vector == "" && !sc.Known {
			continue
		}
		if !found || sc.Known && (!best.Known || sc.Base > best.Base) {
			best, found = sc, true
		}
	}
	return best, found
}

// SchemeName is a severity's scheme in words ("CVSS v3").
func SchemeName(t string) string {
	switch t {
	case api.SeverityCVSSv2:
		return "CVSS v2"
	case api.SeverityCVSSv3:
		return "CVSS v3"
	case api.SeverityCVSSv4:
		return "CVSS v4"
	case "", "TYPE_UNSPECIFIED":
		return "score"
	}
	return safe.String(t)
}
