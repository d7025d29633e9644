package emulator

import (
	"fmt"
	"strings"
	"time"

	"canopy/api"
)

// advisoryFacts are what an advisory's events say about the component.
type advisoryFacts struct {
	artifact, component, componentType, location string
	version, fixed                               string // the package's version when detected, and with the fix
	componentVersion                             string
}

// Who records advisory events: a scanner bot detects, people triage.
const advisoryBot = "scanner-bot@advisories.example"

var advisoryPeople = []string{"r.ito@advisories.example", "m.osei@advisories.example",
	"k.larsen@advisories.example", "d.silva@advisories.example", "j.moreau@advisories.example"}

// componentType is the scanner's type of a component, by its name's shape.
func componentType(component string) string {
	switch {
	case strings.Contains(component, ":"):
		return "java-archive"
	case component == "stdlib" || strings.Contains(component, "/"):
		return "go-module"
	case component == "undici" || component == "npm":
		return "npm"
	case component == "requests" || component == "urllib3" || component == "tornado" || component == "torch" ||
		component == "pip" || component == "setuptools":
		return "python"
	}
	return "apk"
}

// componentLocation is where a scanner finds a component of its type.
func componentLocation(typ, artifact, component, version string) string {
	last := component[strings.LastIndexAny(component, "/:")+1:]
	switch typ {
	case "java-archive":
		return "/usr/share/java/" + artifact + "/" + last + "-" + version + ".jar"
	case "go-module":
		return "/usr/bin/" + artifact
	case "npm":
		return "/usr/lib/node_modules/" + component + "/package.json"
	case "python":
		return "/usr/lib/python3.12/site-packages/" + component + "-" + version + ".dist-info/METADATA"
	}
	return "/lib/apk/db/installed"
}

// facts draws a component's versions and finds its type and location.
func (s *seeder) facts(artifact, component string) advisoryFacts {
	maj, mi, p, r := 1+s.rng.IntN(4), s.rng.IntN(20), s.rng.IntN(15), s.rng.IntN(4)
	f := advisoryFacts{artifact: artifact, component: component, componentType: componentType(component),
		version: fmt.Sprintf("%d.%d.%d-r%d", maj, mi, p, r), fixed: fmt.Sprintf("%d.%d.%d-r0", maj, mi, p+1)}
	f.componentVersion = fmt.Sprintf("%d.%d.%d", s.rng.IntN(10), s.rng.IntN(30), s.rng.IntN(20))
	if f.componentType == "apk" {
		f.componentVersion = f.version
	}
	f.location = componentLocation(f.componentType, artifact, component, f.componentVersion)
	return f
}

// events is an advisory's timeline of kinds from t on, a few hours to a
// month apart: who recorded each, its review, and its details.
func (s *seeder) events(t time.Time, kinds []string, f advisoryFacts) []api.AdvisoryEvent {
	out := make([]api.AdvisoryEvent, 0, len(kinds))
	et := t
	for i, kind := range kinds {
		ev := api.AdvisoryEvent{UID: s.hex16(), CreateTime: api.TimeOf(et), Kind: kind, Details: s.details(kind, f, et)}
		ev.Author = advisoryPeople[s.rng.IntN(len(advisoryPeople))]
		if kind == api.EventDetection && ev.Details.Detection != "manual" {
			ev.Author = advisoryBot
		}
		// The newest event may still wait for its review.
		switch r := s.rng.IntN(20); {
		case i == len(kinds)-1 && r < 3:
			ev.ReviewState = api.ReviewPending
		case i == len(kinds)-1 && r == 3:
			ev.ReviewState, ev.Reviewer = api.ReviewRequestChanges, s.reviewer(ev.Author)
		default:
			ev.ReviewState, ev.Reviewer = api.ReviewApproved, s.reviewer(ev.Author)
		}
		if kind == api.EventPendingUpstreamFix && s.rng.IntN(2) == 0 {
			ev.Issue = fmt.Sprintf("https://tracker.example/%s/issues/%d", strings.NewReplacer("/", "-", ":", "-").Replace(f.component), 1000+s.rng.IntN(9000))
		}
		out = append(out, ev)
		et = minTime(et.Add(time.Duration(1+s.rng.IntN(30*24))*time.Hour), s.now)
	}
	return out
}

// reviewer is someone other than the author.
func (s *seeder) reviewer(author string) string {
	for {
		if r := advisoryPeople[s.rng.IntN(len(advisoryPeople))]; r != author {
			return r
		}
	}
}

// falsePositives are the kinds of false positive, each with a note.
var falsePositives = []struct{ typ, note string }{
	{"TYPE_VULNERABILITY_RECORD_ANALYSIS_CONTESTED", "The upstream maintainers dispute this record; no release is affected."},
	{"TYPE_COMPONENT_VULNERABILITY_MISMATCH", "The record is about a different project of the same name."},
	{"TYPE_VULNERABLE_CODE_VERSION_NOT_USED", "The affected range ends before the version packaged here."},
	{"TYPE_VULNERABLE_CODE_NOT_INCLUDED_IN_PACKAGE", "The vulnerable module is not built into this package."},
	{"TYPE_VULNERABLE_CODE_NOT_IN_EXECUTION_PATH", "The vulnerable function is never called by this artifact."},
	{"TYPE_VULNERABLE_CODE_CANNOT_BE_CONTROLLED_BY_ADVERSARY", "The affected input only comes from the build configuration."},
	{"TYPE_INLINE_MITIGATIONS_EXIST", "The build disables the affected feature."},
}

// details are an event's kind-specific fields.
func (s *seeder) details(kind string, f advisoryFacts, t time.Time) api.EventDetails {
	var d api.EventDetails
	switch kind {
	case api.EventDetection:
		switch r := s.rng.IntN(10); {
		case r < 7:
			d.Detection = "scanv1"
			d.Facts = map[string]string{"scanner": "grype", "scannerVersion": fmt.Sprintf("0.%d.%d", 80+s.rng.IntN(20), s.rng.IntN(5)),
				"componentId": s.hex16(), "component": f.component, "componentVersion": f.componentVersion,
				"componentType": f.componentType, "componentLocation": f.location, "artifactVersion": f.version,
				"grypeDbBuilt":    t.Add(-time.Duration(1+s.rng.IntN(48)) * time.Hour).Format(time.RFC3339),
				"grypeDbChecksum": "sha256:" + s.hex32() + s.hex32()}
		case r < 9:
			name := strings.ToLower(f.component[strings.LastIndexAny(f.component, "/:")+1:])
			d.Detection = "nvdapi"
			d.Facts = map[string]string{"cpeSearched": "cpe:2.3:a:*:" + name + ":*:*:*:*:*:*:*:*",
				"cpeFound": "cpe:2.3:a:" + name + ":" + name + ":" + f.componentVersion + ":*:*:*:*:*:*:*"}
		default:
			d.Detection = "manual"
		}
	case api.EventTruePositiveDetermination:
		d.Note = pickOf(s, "Reachable from the default configuration.", "Confirmed with the upstream proof of concept.",
			"The affected code path is used by this artifact.")
	case api.EventFixed:
		d.FixedVersion = f.fixed
		if s.rng.IntN(2) == 0 {
			d.Note = "Upgraded " + f.component + " to a release with the fix."
		}
	case api.EventFalsePositiveDetermination:
		fp := falsePositives[s.rng.IntN(len(falsePositives))]
		d.Type, d.Note = fp.typ, fp.note
	case api.EventAnalysisNotPlanned:
		d.Note = "This release line is past its end of life; it will not be analysed."
	case api.EventFixNotPlanned:
		d.Note = pickOf(s, "Upstream will not fix this in the maintained releases.",
			"The fix needs a major version change; use a newer release line.")
	case api.EventPendingUpstreamFix:
		d.Note = "Waiting for an upstream release of " + f.component + " with the fix."
	case api.EventPatched:
		d.PatchedVersions = []string{f.fixed}
		if s.rng.IntN(2) == 0 {
			d.PatchedVersions = append(d.PatchedVersions, strings.TrimSuffix(f.fixed, "-r0")+"-r1")
		}
		d.Note = "Backported the upstream patch."
	}
	return d
}
