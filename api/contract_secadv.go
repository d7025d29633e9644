package api

import "net/http"

// Routes of the security advisory service: advisory documents,
// vulnerability metadata and resolved vulnerability reports (documents.go,
// vulnerabilities.go, resolved.go).

const svcSecurityAdvisory = "chainguard.platform.advisory.v2.SecurityAdvisoryService"

// securityAdvisoryRoutes are the calls of documents.go, vulnerabilities.go
// and resolved.go.
func securityAdvisoryRoutes() []Route {
	return []Route{
		// Not paged: the answer is every document at once.
		{Call: "ListDocuments", Service: svcSecurityAdvisory, RPC: "ListDocuments", Method: http.MethodGet,
			Path: documentsPath, Query: []string{"id", "cves"},
			Reads: joined([]string{"documents.id"}, under("documents.advisories", documentAdvisoryFields()...)),
			Enums: []Enum{{In: InAnswer, Field: "documents.advisories.events." + EventFalsePositiveDetermination + ".type",
				Values: falsePositiveTypes()}}},
		{Call: "ListVulnerabilityMetadata", Service: svcSecurityAdvisory, RPC: "ListVulnerabilityMetadata", Method: http.MethodGet,
			Path: vulnerabilityMetadataPath, Query: joined([]string{"ids"}, pageQuery()),
			ListKey: "vulnerabilityMetadata", Page: pageKeys(), Reads: vulnerabilityFields(),
			Enums: []Enum{
				{In: InAnswer, Field: "severities.type", Values: severityTypes()},
				{In: InAnswer, Field: "references.type", Values: append(ReferenceKinds(), "TYPE_UNSPECIFIED")},
			}},
		// One image a request: its repo and tags are two lists of the query.
		{Call: "ListResolvedVulnsReports", Service: svcSecurityAdvisory, RPC: "ListResolvedVulnsReports", Method: http.MethodGet,
			Path:  resolvedVulnsPath,
			Query: []string{"image_refs.repo", "image_refs.tags", "start_time", "end_time"},
			Reads: joined([]string{"resolvedVulnsReports.date"},
				under("resolvedVulnsReports.resolvedVulns", "id", "aliases", "cvssSeverities.type", "cvssSeverities.score")),
			Enums: []Enum{{In: InAnswer, Field: "resolvedVulnsReports.resolvedVulns.cvssSeverities.type", Values: severityTypes()}}},
	}
}

// documentAdvisoryFields are the fields of a document's advisory the
// client reads: an event's kind is the key its details are under, as an
// advisory event's is.
func documentAdvisoryFields() []string {
	out := []string{"id", "aliases", "packageNamespace", "events.timestamp"}
	out = append(out, under("events."+EventDetection, "nvdapi", "manual", "scanv1")...)
	for _, k := range EventKinds() {
		// A document's fixed event has no note, and none is patched.
		if k != EventDetection && k != EventFixed && k != EventPatched {
			out = append(out, "events."+k+".note")
		}
	}
	return append(out, "events."+EventFixed+".fixedVersion", "events."+EventFalsePositiveDetermination+".type")
}

// vulnerabilityFields are the fields of VulnerabilityMetadata the client
// reads.
func vulnerabilityFields() []string {
	return joined([]string{"id", "summary", "details"}, under("references", "type", "url"), under("severities", "type", "score"))
}

// severityTypes are the scoring schemes of a severity the client tells
// apart; the views treat an unspecified one as none.
func severityTypes() []string {
	return []string{SeverityCVSSv2, SeverityCVSSv3, SeverityCVSSv4, "TYPE_UNSPECIFIED"}
}

// falsePositiveTypes are the reasons a false positive was determined
// (views/advisory words them).
func falsePositiveTypes() []string {
	return []string{"TYPE_VULNERABILITY_RECORD_ANALYSIS_CONTESTED", "TYPE_COMPONENT_VULNERABILITY_MISMATCH",
		"TYPE_VULNERABLE_CODE_VERSION_NOT_USED", "TYPE_VULNERABLE_CODE_NOT_INCLUDED_IN_PACKAGE",
		"TYPE_VULNERABLE_CODE_NOT_IN_EXECUTION_PATH", "TYPE_VULNERABLE_CODE_CANNOT_BE_CONTROLLED_BY_ADVERSARY",
		"TYPE_INLINE_MITIGATIONS_EXIST", "TYPE_UNSPECIFIED"}
}
