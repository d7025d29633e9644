package api

import "net/http"

// Routes of account associations (associations.go) and terms (terms.go).

const (
	svcAssociations = "chainguard.platform.iam.v2.AccountAssociationsService"
	svcTerms        = "chainguard.platform.iam.v2.TermsService"
)

// associationRoutes are the calls of associations.go.
func associationRoutes() []Route {
	p := accountAssociationsPath
	updates := func() []Update {
		return plainUpdates(FieldName, FieldDescription, FieldAmazon, FieldGoogle, FieldAzure, FieldGitHub, FieldChainguard)
	}
	return []Route{
		// AccountAssociationsUnder lists through it, with and without a name.
		{Call: "ListAccountAssociations", Service: svcAssociations, RPC: "ListAccountAssociations", Method: http.MethodGet,
			Path: p, Query: joined(uidpQuery(), []string{"name"}, pageQuery()),
			ListKey: "accountAssociations", Page: pageKeys(), Reads: associationFields()},
		{Call: "GetAccountAssociation", Service: svcAssociations, RPC: "GetAccountAssociation", Method: http.MethodGet,
			Path: p + varUID, Reads: associationFields()},
		// The folder is the parent; the service sets the uid (the
		// folder's) and the times.
		{Call: "CreateAccountAssociation", Service: svcAssociations, RPC: "CreateAccountAssociation", Method: http.MethodPost,
			Path: p + varParent, Body: "account_association", Sends: associationParts(), Reads: associationFields()},
		// Each part is replaced whole by its mask path; one named and
		// left out of the body is removed.
		{Call: "PatchAccountAssociation", Service: svcAssociations, RPC: "UpdateAccountAssociation", Method: http.MethodPatch,
			Path: p + "/{account_association.uid=**}", Body: "account_association", Query: []string{maskQuery},
			Sends: associationParts(), Updates: updates(), Reads: associationFields()},
		{Call: "DeleteAccountAssociation", Service: svcAssociations, RPC: "DeleteAccountAssociation", Method: http.MethodDelete,
			Path: p + varUID},
		// A custom method of one association: the body is the rest of
		// the request, the provider to try.
		{Call: "CheckAccountAssociation", Service: svcAssociations, RPC: "CheckAccountAssociation", Method: http.MethodPost,
			Path: p + "/{uid=**}:checkAccountAssociation", Body: "*", Sends: []string{"providerType"},
			Reads: []string{"status", "reason", "message"},
			Enums: []Enum{{In: InBody, Field: "providerType", Values: CheckProviders()},
				{In: InAnswer, Field: "status", Values: CheckStatuses()}}},
	}
}

// termsRoutes are the calls of terms.go: the group is in the path of both.
func termsRoutes() []Route {
	return []Route{
		{Call: "ListTermsAcceptances", Service: svcTerms, RPC: "ListTermsAcceptances", Method: http.MethodGet,
			Path: termsPath + "/{group=**}", Query: pageQuery(),
			ListKey: "termsAcceptances", Page: pageKeys(), Reads: []string{"docId", "acceptedBy", "orgUid", "createTime"}},
		{Call: "AcceptTerms", Service: svcTerms, RPC: "AcceptTerms", Method: http.MethodPost,
			Path: termsPath + "/{group=**}", Body: "*", Sends: []string{"documentIds"},
			Reads: []string{"group", "documentIds"}},
	}
}

// associationParts are the fields of an AccountAssociation the client
// sends: its name, description and every part (the maps whole).
func associationParts() []string {
	return joined([]string{"name", "description"}, under("amazon", "account"), under("google", "projectId", "projectNumber"),
		under("azure", "tenantId", "clientIds"), under("github", "appInstallations"), under("chainguard", "serviceBindings"))
}

// associationFields are the fields of an AccountAssociation the client
// reads.
func associationFields() []string {
	return joined([]string{"uid"}, associationParts(), []string{"createTime", "updateTime"})
}
