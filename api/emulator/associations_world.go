package emulator

import (
	"fmt"

	"canopy/api"
	"canopy/lazyregexp"
)

// The world outside the platform, as a check of an association meets it:
// each cloud trusts the platform's credentials for the accounts a
// customer set up, which are all the well-formed ones but those the seeds
// tie to a setup left unfinished (refusal). The answers are fixed, so a
// test (and the demo) knows what a check says.

var (
	// guid is an Entra tenant's or application's id.
	guid = lazyregexp.New(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
)

// The accounts the seeds tie whose setup the provider refuses.
const (
	untrustedProject = "acme-ml-sandbox"
	untrustedAccount = "480215663917"
)

// What a failed check says, as the service's reasons do.
const (
	reasonNotConfigured = "not configured"
	reasonExchange      = "error exchanging credentials"
)

// refusal is what the provider says of an account whose setup is not
// finished; "" for one that trusts the platform.
func refusal(provider, account string) string {
	switch {
	case provider == api.ProviderGoogle && account == untrustedProject:
		return fmt.Sprintf("sts.googleapis.com: the workload identity pool provider \"chainguard\" does not exist in project %s, "+
			"or the principal may not impersonate its service account (PERMISSION_DENIED)", account)
	case provider == api.ProviderAmazon && account == untrustedAccount:
		return fmt.Sprintf("sts:AssumeRoleWithWebIdentity: not authorized to assume arn:aws:iam::%s:role/chainguard-platform "+
			"(AccessDenied): the role's trust policy does not name the platform's issuer", account)
	}
	return ""
}

// exchange is what a check of a's part of provider answers.
func exchange(a *api.AccountAssociation, provider string) api.AccountCheck {
	account, words := "", ""
	switch provider {
	case api.ProviderAmazon:
		words = "AWS account"
		if a.Amazon != nil {
			account = a.Amazon.Account
		}
	case api.ProviderGoogle:
		words = "Google Cloud project"
		if a.Google != nil {
			account = a.Google.ProjectID
		}
	case api.ProviderAzure:
		words = "Azure tenant"
		if a.Azure != nil {
			account = a.Azure.TenantID
		}
	}
	if account == "" {
		return api.AccountCheck{Status: api.CheckNotReady, Reason: reasonNotConfigured,
			Message: fmt.Sprintf("the account association of %s has no %s", a.UID, words)}
	}
	if msg := refusal(provider, account); msg != "" {
		return api.AccountCheck{Status: api.CheckNotReady, Reason: reasonExchange, Message: msg}
	}
	return api.AccountCheck{Status: api.CheckReady}
}
