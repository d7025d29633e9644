package api

import "net/http"

// Routes of the advisory and library feeds and of event subscriptions.

// feedRoutes are the calls of feeds.go.
func feedRoutes() []Route {
	// Each route gets slices of its own, so that changing one changes no other.
	ecosystems := func(answer string) []Enum {
		return []Enum{{In: InQuery, Field: "ecosystems", Values: Ecosystems()}, {In: InAnswer, Field: answer, Values: Ecosystems()}}
	}
	return []Route{
		{Call: "ListAdvisories", Service: svcAdvisories, RPC: "ListAdvisories", Method: http.MethodGet, Path: advisoriesPath,
			Query:   joined(uidpQuery(), []string{"artifact_names", "advisory_ids", "query", "latest_event_type", "origin"}, pageQuery()),
			ListKey: "advisories", Page: pageKeys(), Reads: advisoryFields(),
			Enums: append(advisoryEnums(), Enum{In: InQuery, Field: "latest_event_type", Values: eventFilterValues()})},
		{Call: "GetAdvisory", Service: svcAdvisories, RPC: "GetAdvisory", Method: http.MethodGet,
			Path: advisoriesPath + varUID, Reads: advisoryFields(), Enums: advisoryEnums()},

		// Library artifacts are not in groups: no hierarchy filter, and an
		// ecosystem is always sent (the service requires one).
		{Call: "ListArtifacts", Service: svcArtifacts, RPC: "ListArtifacts", Method: http.MethodGet, Path: artifactsPath,
			Query:   joined([]string{"ecosystems", "query"}, pageQuery()),
			ListKey: "artifacts", Page: pageKeys(), Reads: artifactFields(),
			Enums: ecosystems("ecosystem")},
		// An artifact's id holds a slash but is one segment: sent escaped.
		{Call: "ListArtifactVersions", Service: svcArtifacts, RPC: "ListArtifactVersions", Method: http.MethodGet,
			Path: artifactsPath + "/{artifact_id=*}/versions", Query: pageQuery(),
			ListKey: "artifactVersions", Page: pageKeys(), Reads: versionFields()},
		{Call: "CountArtifacts", Service: svcArtifacts, RPC: "GetArtifactCount", Method: http.MethodGet,
			Path: artifactsPath + "/count", Query: []string{"ecosystems"}, Reads: under("counts", "ecosystem", "totalCount"),
			Enums: ecosystems("counts.ecosystem")},

		{Call: "ListSubscriptions", Service: svcSubscriptions, RPC: "ListSubscriptions", Method: http.MethodGet,
			Path: subscriptionsPath, Query: joined(uidpQuery(), pageQuery()),
			ListKey: "subscriptions", Page: pageKeys(), Reads: []string{"uid", "sink"}},
		{Call: "GetSubscription", Service: svcSubscriptions, RPC: "GetSubscription", Method: http.MethodGet,
			Path: subscriptionsPath + varUID, Reads: []string{"uid", "sink"}},
		{Call: "CreateSubscription", Service: svcSubscriptions, RPC: "CreateSubscription", Method: http.MethodPost,
			Path: subscriptionsPath + varParent, Body: "subscription", Sends: []string{"sink"}, Reads: []string{"uid", "sink"}},
		{Call: "DeleteSubscription", Service: svcSubscriptions, RPC: "DeleteSubscription", Method: http.MethodDelete,
			Path: subscriptionsPath + varUID},
	}
}

// advisoryFields are the fields of an Advisory the client reads, its
// events' among them: an event's kind is the key its details are under.
func advisoryFields() []string {
	return joined([]string{"uid", "advisoryId", "legacyAdvisoryId", "author", "artifactName", "artifactType",
		"artifactArchitecture", "componentName", "componentType", "componentLocation", "aliases",
		"createTime", "updateTime", "deleteTime"},
		under("severities", "type", "score"),
		under("events", eventFields()...))
}

// eventFields are the fields of an advisory event the client reads,
// relative to the event. Every kind but a detection carries a note; a
// detection says how it was made by the key of its details, whose string
// fields are kept as they come.
func eventFields() []string {
	out := []string{"uid", "createTime", "author", "reviewer", "reviewState", "issue"}
	out = append(out, under(EventDetection, "nvdapi", "manual", "scanv1")...)
	for _, k := range EventKinds() {
		if k != EventDetection {
			out = append(out, k+".note")
		}
	}
	return append(out, EventFixed+".fixedVersion", EventFalsePositiveDetermination+".type",
		EventPatched+".patchedVersions")
}

// advisoryEnums are the enum values of an advisory the client (and its
// views) tell apart; the views treat an unspecified value as none.
func advisoryEnums() []Enum {
	return []Enum{
		{In: InAnswer, Field: "severities.type", Values: severityTypes()},
		{In: InAnswer, Field: "events.reviewState",
			Values: []string{ReviewPending, ReviewApproved, ReviewRequestChanges, ReviewRejected, "REVIEW_STATE_UNSPECIFIED"}},
		{In: InAnswer, Field: "events." + EventFalsePositiveDetermination + ".type", Values: falsePositiveTypes()},
	}
}

// artifactFields are the fields of a library Artifact the client reads.
func artifactFields() []string {
	return []string{"uid", "name", "description", "ecosystem", "latestVersion", "versionCount",
		"createTime", "updateTime"}
}

// versionFields are the fields of an ArtifactVersion the client reads.
func versionFields() []string {
	return []string{"uid", "name", "version", "description", "sizeBytes", "createTime", "updateTime"}
}
