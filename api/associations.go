package api

import (
	"context"
	"fmt"
	"net/http"
)

// Account associations: the cloud and source accounts a folder is tied to.
// A folder has at most one, and it has no uid of its own: its uid is the
// folder's. It holds a part per provider it ties the folder to (an AWS
// account, a Google Cloud project, an Azure tenant and its applications,
// GitHub App installations) and the identities Chainguard's own services
// act as in the folder. Check has the service try a credential exchange
// with one of the three clouds now.

const accountAssociationsPath = "/iam/v2/accountAssociations"

// AccountAssociations: the cloud and source accounts of folders, one each.
const AccountAssociations Collection = accountAssociationsPath

// The update mask paths of an association's parts beside its name and
// description (FieldName, FieldDescription): each replaces the whole part,
// and a part left out of the body is removed.
const (
	FieldAmazon     = "amazon"
	FieldGoogle     = "google"
	FieldAzure      = "azure"
	FieldGitHub     = "github"
	FieldChainguard = "chainguard"
)

// AccountAssociation ties the folder UID to outside accounts: nil parts
// tie nothing of that provider.
type AccountAssociation struct {
	// UID is the uid of the folder it belongs to: an association has none
	// of its own.
	UID         string              `json:"uid,omitempty"`
	Name        string              `json:"name,omitempty"`
	Description string              `json:"description,omitempty"`
	Amazon      *AmazonAccount      `json:"amazon,omitempty"`
	Google      *GoogleProject      `json:"google,omitempty"`
	Azure       *AzureTenant        `json:"azure,omitempty"`
	GitHub      *GitHubApps         `json:"github,omitempty"`
	Chainguard  *ChainguardServices `json:"chainguard,omitempty"`
	CreateTime  Time                `json:"createTime,omitzero"`
	UpdateTime  Time                `json:"updateTime,omitzero"`
}

// AmazonAccount is an AWS account, by its number (12 digits).
type AmazonAccount struct {
	Account string `json:"account,omitempty"`
}

// GoogleProject is a Google Cloud project, by its id and its number.
type GoogleProject struct {
	ProjectID     string `json:"projectId,omitempty"`
	ProjectNumber string `json:"projectNumber,omitempty"`
}

// AzureTenant is a Microsoft Entra tenant and the applications (client
// ids) the platform uses in it, by the name of what uses each.
type AzureTenant struct {
	TenantID  string            `json:"tenantId,omitempty"`
	ClientIDs map[string]string `json:"clientIds,omitempty"`
}

// GitHubApps are GitHub App installations, by the app's id (a JSON
// object's key: the decimal id).
type GitHubApps struct {
	AppInstallations map[string]GitHubAppInstallations `json:"appInstallations,omitempty"`
}

// GitHubAppInstallations are the installations of one GitHub App.
type GitHubAppInstallations struct {
	Installations []GitHubInstallation `json:"installations,omitempty"`
}

// GitHubInstallation is one installation of a GitHub App; Name is the
// account it is installed on as the service noted it (not checked by it).
type GitHubInstallation struct {
	InstallationID Int64  `json:"installationId,omitempty"`
	Name           string `json:"name,omitempty"`
}

// ChainguardServices are the identities Chainguard's services act as in
// the folder, by the service's name.
type ChainguardServices struct {
	ServiceBindings map[string]string `json:"serviceBindings,omitempty"`
}

// The providers Check can try an exchange with.
const (
	ProviderAmazon = "ACCOUNT_PROVIDER_TYPE_AMAZON"
	ProviderGoogle = "ACCOUNT_PROVIDER_TYPE_GOOGLE"
	ProviderAzure  = "ACCOUNT_PROVIDER_TYPE_AZURE"
)

// CheckProviders are the providers Check takes, in the order canopy checks
// them.
func CheckProviders() []string { return []string{ProviderAmazon, ProviderGoogle, ProviderAzure} }

// What a check found.
const (
	CheckReady    = "CHECK_STATUS_READY"
	CheckNotReady = "CHECK_STATUS_NOT_READY"
)

// CheckStatuses are the statuses canopy reads in a check's answer.
func CheckStatuses() []string { return []string{CheckReady, CheckNotReady} }

// AccountCheck is a check's answer: ready, or not and why (Reason is
// short, Message the provider's detail). A status the client does not
// know (or none) is neither ready nor said not to be.
type AccountCheck struct {
	Status  string `json:"status,omitempty"`
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// checkRequest is a check's body: the uid is in the path.
type checkRequest struct {
	ProviderType string `json:"providerType"`
}

// Checkable are the providers of a that Check can try, in CheckProviders'
// order: the clouds it has a part for.
func (a *AccountAssociation) Checkable() []string {
	var out []string
	for _, p := range CheckProviders() {
		switch {
		case p == ProviderAmazon && a.Amazon != nil, p == ProviderGoogle && a.Google != nil, p == ProviderAzure && a.Azure != nil:
			out = append(out, p)
		}
	}
	return out
}

// AccountAssociationKey is an association's uid: its folder's.
func AccountAssociationKey(a *AccountAssociation) string { return a.UID }

// An association lives in the folder it belongs to, whose uid it has.
func (a *AccountAssociation) GetUID() string    { return a.UID }
func (a *AccountAssociation) GetName() string   { return a.Name }
func (a *AccountAssociation) GetParent() string { return a.UID }

var _ Resource = (*AccountAssociation)(nil)

// ListAccountAssociations lists associations as the service filters them.
// Whether a folder's own association counts among the descendants of that
// folder the service does not say: AccountAssociationsUnder gives both
// whichever way it answers.
func (c *Client) ListAccountAssociations(ctx context.Context, opts ListOptions) (*Page[AccountAssociation], error) {
	return list[AccountAssociation](ctx, c, accountAssociationsPath, "accountAssociations", opts)
}

// GetAccountAssociation reads the association of the folder uid.
func (c *Client) GetAccountAssociation(ctx context.Context, uid string) (*AccountAssociation, error) {
	return get[AccountAssociation](ctx, c, accountAssociationsPath+"/"+uid, nil)
}

// FindAccountAssociation is the association of folder, nil when it has
// none (after a create whose answer was lost: a folder has one at most).
func (c *Client) FindAccountAssociation(ctx context.Context, folder string) (*AccountAssociation, error) {
	a, err := c.GetAccountAssociation(ctx, folder)
	switch {
	case IsNotFound(err):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("read the account association of %s: %w", folder, err)
	}
	return a, nil
}

// CreateAccountAssociation makes the association of folder from a's name,
// description and parts (the service sets its uid and times).
func (c *Client) CreateAccountAssociation(ctx context.Context, folder string, a AccountAssociation) (*AccountAssociation, error) {
	a.UID, a.CreateTime, a.UpdateTime = "", Time{}, Time{}
	return create[AccountAssociation](ctx, c, AccountAssociations.Create(folder), a)
}

// PatchAccountAssociation changes the fields of a named by mask
// (FieldName, FieldDescription, FieldAmazon…): a part named and left nil
// is removed.
func (c *Client) PatchAccountAssociation(ctx context.Context, a AccountAssociation, mask ...string) (*AccountAssociation, error) {
	return patch[AccountAssociation](ctx, c, AccountAssociations.Patch(a.UID, mask...), a)
}

// DeleteAccountAssociation deletes the association of the folder uid. The
// service answers a folder without one as it answers a delete done.
func (c *Client) DeleteAccountAssociation(ctx context.Context, uid string) error {
	return del(ctx, c, AccountAssociations.Delete(uid))
}

// CheckRequest is the request of a check of the association of uid.
func CheckRequest(uid string) Request {
	return Request{Method: http.MethodPost, Path: accountAssociationsPath + "/" + uid + ":checkAccountAssociation"}
}

// CheckAccountAssociation has the service try a credential exchange with
// provider (ProviderAmazon…) for the association of uid, and says whether
// it is ready. It changes nothing, though it is a POST (never retried).
func (c *Client) CheckAccountAssociation(ctx context.Context, uid, provider string) (*AccountCheck, error) {
	return create[AccountCheck](ctx, c, CheckRequest(uid), checkRequest{ProviderType: provider})
}
