package emulator

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"canopy/api"
)

// Account associations, as the service keeps them: at most one per group
// (organization or folder), whose uid is the group's; made under the
// group, changed part by part with a mask, deleted without complaint when
// there is none. Check tries a credential exchange with one of the clouds
// (see exchange). Reading and checking one take the capability of listing
// them, on its group.

const (
	capAssocList   = "CAP_IAM_ACCOUNT_ASSOCIATIONS_LIST"
	capAssocCreate = "CAP_IAM_ACCOUNT_ASSOCIATIONS_CREATE"
	capAssocUpdate = "CAP_IAM_ACCOUNT_ASSOCIATIONS_UPDATE"
	capAssocDelete = "CAP_IAM_ACCOUNT_ASSOCIATIONS_DELETE"
)

const typeAssociation = "chainguard.iam.v2.AccountAssociation"

// checkVerb follows an association's uid in the path of a check.
const checkVerb = ":checkAccountAssociation"

// maxAssociationName bounds an association's name.
const maxAssociationName = 256

// associationSpec is how an association is updated: a part named by its
// mask path is replaced whole, or by one of its members.
var associationSpec = sync.OnceValue(func() *maskSpec {
	return &maskSpec{
		fields:    jsonNames("uid", "name", "description", "amazon", "google", "chainguard", "azure", "create_time", "update_time", "github"),
		updatable: []string{"name", "description", "amazon", "google", "chainguard", "azure", "github"},
		members: map[string][]string{
			"amazon": {"account"}, "google": {"project_id", "project_number"}, "azure": {"tenant_id", "client_ids"},
			"chainguard": {"service_bindings"}, "github": {"app_installations"},
		}}
})

// sortAssociations: an association has a name and times; its uid is its
// group's, which the service orders by by default.
var sortAssociations = sorting{name: "name", created: true, byUID: true}

func (c *call) associations(rest string) *apiErr {
	st := c.st
	if uid, ok := strings.CutSuffix(rest, checkVerb); ok && uid != "" {
		if c.r.Method != http.MethodPost {
			return methodNotAllowed(domainIAM, c.r)
		}
		return c.checkAssociation(uid)
	}
	switch {
	case rest == "" && c.r.Method == http.MethodGet:
		return listMembers(c, domainIAM, sortAssociations, listSpec[api.AccountAssociation]{c: st.assocs,
			plural: "accountAssociations", mask: maskAll,
			keep: scopedKeep(c.p, capAssocList, false, api.AccountAssociationKey),
			out:  func(a *api.AccountAssociation) any { return a }})
	case rest == "":
		return methodNotAllowed(domainIAM, c.r)
	case c.r.Method == http.MethodGet:
		return getMember(c, domainIAM, capAssocList, typeAssociation, st.assocs, rest, nil)
	case c.r.Method == http.MethodPost:
		return c.createAssociation(rest)
	case c.r.Method == http.MethodPatch:
		if e := c.p.require(domainIAM, capAssocUpdate, rest, false); e != nil {
			return e
		}
		return patchStored(c, domainIAM, typeAssociation, st.assocs, rest, associationSpec(),
			func(next, _ *api.AccountAssociation) *apiErr { return c.checkAssociationParts(next) },
			func(a *api.AccountAssociation, now api.Time) { a.UpdateTime = now })
	case c.r.Method == http.MethodDelete:
		if e := c.p.require(domainIAM, capAssocDelete, rest, false); e != nil {
			return e
		}
		// Deleting what is not there is done (AIP-135).
		if id, ok := st.assocs.find(rest); ok {
			st.assocs.remove(id)
		}
		writeJSON(c.w, struct{}{})
		return nil
	}
	return methodNotAllowed(domainIAM, c.r)
}

// associationBody is a create's body: the service sets the uid and times.
type associationBody struct {
	Name        string                  `json:"name"`
	Description string                  `json:"description"`
	Amazon      *api.AmazonAccount      `json:"amazon"`
	Google      *api.GoogleProject      `json:"google"`
	Azure       *api.AzureTenant        `json:"azure"`
	GitHub      *api.GitHubApps         `json:"github"`
	Chainguard  *api.ChainguardServices `json:"chainguard"`
}

func (c *call) createAssociation(group string) *apiErr {
	st := c.st
	if e := c.p.require(domainIAM, capAssocCreate, group, false); e != nil {
		return e
	}
	if _, ok := st.groups.get(group); !ok {
		return notFound(domainIAM, typeGroup, group)
	}
	var body associationBody
	if e := decodeBody(c, domainIAM, &body); e != nil {
		return e
	}
	if _, ok := st.assocs.get(group); ok {
		return alreadyExists(domainIAM, typeAssociation, group,
			fmt.Sprintf("the group %s has an account association already: a group has one, changed with an update", group))
	}
	now := c.now()
	a := api.AccountAssociation{UID: group, Name: body.Name, Description: body.Description, Amazon: body.Amazon,
		Google: body.Google, Azure: body.Azure, GitHub: body.GitHub, Chainguard: body.Chainguard, CreateTime: now, UpdateTime: now}
	if e := c.checkAssociationParts(&a); e != nil {
		return e
	}
	st.assocs.insert(a)
	writeJSON(c.w, a)
	return nil
}

// checkAssociationParts checks an association as it would be stored: a
// name, and each part it has whole (every member the service requires).
func (c *call) checkAssociationParts(a *api.AccountAssociation) *apiErr {
	if e := checkName(domainIAM, "name", a.Name, 1, maxAssociationName); e != nil {
		return e
	}
	if e := checkDescription(domainIAM, "description", a.Description); e != nil {
		return e
	}
	if a.Amazon != nil && !awsAccountPattern.MatchString(a.Amazon.Account) {
		return badField(domainIAM, "amazon.account", fmt.Sprintf("%q is not an AWS account id: 12 digits", a.Amazon.Account))
	}
	if g := a.Google; g != nil {
		if err := api.CheckGoogleProjectID(g.ProjectID); err != nil {
			return badField(domainIAM, "google.project_id", fmt.Sprintf("%q %v", g.ProjectID, err))
		}
		if err := api.CheckGoogleProjectNumber(g.ProjectNumber); err != nil {
			return badField(domainIAM, "google.project_number", fmt.Sprintf("%q %v", g.ProjectNumber, err))
		}
	}
	if z := a.Azure; z != nil {
		if !guid.MatchString(z.TenantID) {
			return badField(domainIAM, "azure.tenant_id", fmt.Sprintf("%q is not a tenant id (a GUID)", z.TenantID))
		}
		if len(z.ClientIDs) == 0 {
			return badField(domainIAM, "azure.client_ids", "is required: the client id of each component")
		}
		for name, id := range z.ClientIDs {
			if strings.TrimSpace(name) == "" || !guid.MatchString(id) {
				return badField(domainIAM, "azure.client_ids", fmt.Sprintf("%q: %q is not a client id (a GUID)", name, id))
			}
		}
	}
	if e := c.checkGitHub(a.GitHub); e != nil {
		return e
	}
	return c.checkServiceBindings(a.Chainguard, api.RootUID(a.UID))
}

// checkGitHub: app ids and installation ids are positive numbers, and an
// app is listed with its installations.
func (c *call) checkGitHub(g *api.GitHubApps) *apiErr {
	if g == nil {
		return nil
	}
	for app, in := range g.AppInstallations {
		if n, err := strconv.ParseInt(app, 10, 64); err != nil || n <= 0 {
			return badField(domainIAM, "github.app_installations", fmt.Sprintf("%q is not a GitHub App id", app))
		}
		if len(in.Installations) == 0 {
			return badField(domainIAM, "github.app_installations", fmt.Sprintf("app %s has no installation", app))
		}
		for _, i := range in.Installations {
			if i.InstallationID <= 0 {
				return badField(domainIAM, "github.app_installations", fmt.Sprintf("app %s: an installation id is required", app))
			}
		}
	}
	return nil
}

// checkServiceBindings: each of Chainguard's services (by its name, with
// or without the enum's prefix) acts as an identity of the organization.
func (c *call) checkServiceBindings(s *api.ChainguardServices, org string) *apiErr {
	if s == nil {
		return nil
	}
	if len(s.ServiceBindings) == 0 {
		return badField(domainIAM, "chainguard.service_bindings", "is required: the identity each service acts as")
	}
	for svc, id := range s.ServiceBindings {
		if !knownService(svc) {
			return badField(domainIAM, "chainguard.service_bindings", fmt.Sprintf("%q is not one of Chainguard's services", svc))
		}
		if got, ok := c.st.idents.get(id); !ok || api.RootUID(got.UID) != org {
			return badField(domainIAM, "chainguard.service_bindings", fmt.Sprintf("%s: %q is not an identity of the organization", svc, id))
		}
	}
	return nil
}

// knownService reports whether name is a service principal, as the enum
// names it or without its prefix.
func knownService(name string) bool {
	for _, sp := range servicePrincipals {
		if name == sp || "SERVICE_PRINCIPAL_"+name == sp {
			return true
		}
	}
	return false
}

// checkRequest is a check's body; the provider may come by name or number.
type checkRequest struct {
	ProviderType json.RawMessage `json:"providerType"`
}

// providerTypes are the providers a check takes, by number.
var providerTypes = []string{"ACCOUNT_PROVIDER_TYPE_UNSPECIFIED", api.ProviderGoogle, api.ProviderAmazon, api.ProviderAzure}

func (c *call) checkAssociation(uid string) *apiErr {
	if e := c.p.require(domainIAM, capAssocList, uid, false); e != nil {
		return e
	}
	a, ok := c.st.assocs.get(uid)
	if !ok {
		return notFound(domainIAM, typeAssociation, uid)
	}
	var body checkRequest
	if e := decodeBody(c, domainIAM, &body); e != nil {
		return e
	}
	provider := ""
	if err := json.Unmarshal(body.ProviderType, &provider); err != nil {
		var n int
		if json.Unmarshal(body.ProviderType, &n) == nil && n >= 0 && n < len(providerTypes) {
			provider = providerTypes[n]
		}
	}
	if provider == "" || provider == providerTypes[0] {
		return badField(domainIAM, "provider_type", "is required: "+strings.Join(providerTypes[1:], ", "))
	}
	if !slices.Contains(providerTypes[1:], provider) {
		return badField(domainIAM, "provider_type", fmt.Sprintf("unknown provider %s", body.ProviderType))
	}
	writeJSON(c.w, exchange(a, provider))
	return nil
}

// accountAssociationsPath is the collection of associations.
const accountAssociationsPath = "/iam/v2/accountAssociations"

// newAssociations is the store's collection of associations, by their
// groups' uids.
func newAssociations() *coll[api.AccountAssociation] {
	return newColl(accessors[api.AccountAssociation]{
		uid: api.AccountAssociationKey, name: func(a *api.AccountAssociation) string { return a.Name },
		ctime: func(a *api.AccountAssociation) int64 { return ms(a.CreateTime) },
		utime: func(a *api.AccountAssociation) int64 { return ms(a.UpdateTime) }})
}
