package emulator

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"canopy/api"
)

// people is what the service keeps of persons beyond the groups: those
// who signed in and belong to no organization yet (a sign-in registered
// them, with the email their sign-in verified), the profile each identity
// keeps of itself (UpdateIdentityMetadata), and the requests to join an
// organization sent to its owners.
type people struct {
	users    []user
	meta     map[string]profile   // identity uid → its profile
	requests map[string]time.Time // identity uid + " " + group uid → when asked
}

// user is a person registered by signing in, an identity of no group.
type user struct {
	uid, name, email, issuer, subject string
}

// profile is an identity's metadata, every field the vendor's message has.
type profile struct {
	UID                        string `json:"uid"`
	Name                       string `json:"name"`
	GivenName                  string `json:"givenName"`
	FamilyName                 string `json:"familyName"`
	Company                    string `json:"company"`
	UpdatesOptIn               bool   `json:"updatesOptIn"`
	Product                    string `json:"product"`
	JobTitle                   string `json:"jobTitle"`
	UTMCampaign                string `json:"utmCampaign"`
	UTMContent                 string `json:"utmContent"`
	UTMMedium                  string `json:"utmMedium"`
	UTMSource                  string `json:"utmSource"`
	UTMTerm                    string `json:"utmTerm"`
	LatestFormSubmitURL        string `json:"latestFormSubmitUrl"`
	LatestInternalReferringURL string `json:"latestInternalReferringUrl"`
	HubspotUTK                 string `json:"hubspotUtk"`
	SelfServe                  bool   `json:"selfServe"`
}

func newPeople() *people {
	return &people{meta: map[string]profile{}, requests: map[string]time.Time{}}
}

// clone is a copy that shares nothing that changes.
func (p *people) clone() *people {
	return &people{users: slices.Clone(p.users), meta: maps.Clone(p.meta), requests: maps.Clone(p.requests)}
}

// userUID is the uid the service gives whoever signs in with issuer and
// subject: the same before they sign in (LookupIdentity) as after.
func userUID(issuer, subject string) string {
	sum := sha1.Sum([]byte(issuer + "\n" + subject))
	return hex.EncodeToString(sum[:])
}

// signIn is the principal of a registered person the token names, nil for
// none.
func (p *people) signIn(tc *tokenClaims) *principal {
	for _, u := range p.users {
		if u.issuer == tc.Iss && u.subject == tc.Sub {
			return &principal{identity: u.uid, name: u.name, issuer: tc.Iss}
		}
	}
	return nil
}

// trustedIssuers are the sign-ins that verify the email addresses they
// put in their tokens: only their emails count for joining.
var trustedIssuers = []string{issuerGoogle}

// blockedDomains are the email domains never matched with an organization
// (free mail): anyone may have an address there.
var blockedDomains = []string{"gmail.com", "googlemail.com", "outlook.com", "hotmail.com", "yahoo.com", "icloud.com", "proton.me"}

// emailOf is the verified email of the caller, "" when it has none.
func (st *store) emailOf(p *principal) string {
	if p.admin {
		return ""
	}
	if id, ok := st.idents.get(p.identity); ok {
		return id.Email
	}
	for _, u := range st.people.users {
		if u.uid == p.identity {
			return u.email
		}
	}
	return ""
}

// eligible reports whether the caller passes the checks of joining: a
// verified email from a trusted sign-in, of a domain not blocked. It
// answers the domain.
func (st *store) eligible(p *principal) (string, bool) {
	email := st.emailOf(p)
	_, domain, ok := strings.Cut(email, "@")
	if !ok || domain == "" || !slices.Contains(trustedIssuers, p.issuer) || slices.Contains(blockedDomains, strings.ToLower(domain)) {
		return "", false
	}
	return strings.ToLower(domain), true
}

// domainOrg is the verified organization named as the caller's email
// domain, nil when there is none or the caller is not eligible.
func (st *store) domainOrg(p *principal) *api.Group {
	domain, ok := st.eligible(p)
	if !ok {
		return nil
	}
	for _, uid := range st.orgs {
		if g, ok := st.groups.get(uid); ok && g.Verified && strings.EqualFold(g.Name, domain) {
			return g
		}
	}
	return nil
}

// seedPeople adds two persons who signed in and belong to nowhere: erin,
// whose email's domain is globex.example's (she may ask to join it), and
// frank, of a free mail domain (he may not); and the profiles of some
// identities. Nothing is drawn from the generator: the rest of the data
// is what it was without them.
func (s *seeder) seedPeople() {
	for _, u := range seedUsers {
		s.people.users = append(s.people.users, user{uid: userUID(u.issuer, u.subject), name: u.name, email: u.email,
			issuer: u.issuer, subject: u.subject})
	}
	for i := range s.idents.items {
		id := &s.idents.items[i]
		if pr, ok := seedProfiles()[id.Name]; ok && id.ClaimMatch != nil && id.ClaimMatch.Issuer == issuerGoogle {
			pr.UID = id.UID
			s.people.meta[id.UID] = pr
		}
	}
	for _, u := range s.people.users {
		if pr, ok := seedProfiles()[u.name]; ok {
			pr.UID = u.uid
			s.people.meta[u.uid] = pr
		}
	}
}

// seedUsers are the registered persons of no organization.
var seedUsers = []struct{ name, email, issuer, subject string }{
	{"erin", "erin@globex.example", issuerGoogle, "118004716502938475610"},
	{"frank", "frank.w@gmail.com", issuerGoogle, "103957718264550193847"},
}

// seedProfiles are the profiles some persons gave of themselves.
var seedProfiles = sync.OnceValue(func() map[string]profile {
	return map[string]profile{
		"alice": {Name: "Alice Nakamura", GivenName: "Alice", FamilyName: "Nakamura", Company: "Acme Corp",
			JobTitle: "Platform lead", Product: "Chainguard Containers", UpdatesOptIn: true, UTMSource: "newsletter"},
		"bob": {Name: "Bob Okafor", GivenName: "Bob", FamilyName: "Okafor", Company: "Acme Corp", JobTitle: "Site reliability engineer"},
		"erin": {Name: "Erin Castillo", GivenName: "Erin", FamilyName: "Castillo", Company: "Globex", JobTitle: "Security engineer",
			Product: "Chainguard Containers", SelfServe: true},
	}
})

// profileOf is the caller's profile as kept, or the one its sign-in gives
// it before it set any.
func (st *store) profileOf(p *principal) profile {
	if pr, ok := st.people.meta[p.identity]; ok {
		return pr
	}
	pr := profile{UID: p.identity, Name: p.name}
	return pr
}

// TokenOf is a token of the seeded person name until exp: an identity of
// a group whose sign-in verified an email (alice, bob, carol, dave), or
// a person of no group (erin, frank). What a demo or a test acts as.
func (srv *Server) TokenOf(name string, exp time.Time) (string, error) {
	<-srv.ready
	srv.st.mu.RLock()
	defer srv.st.mu.RUnlock()
	st := srv.st
	var names []string
	for i := range st.idents.items {
		id := &st.idents.items[i]
		if st.idents.dead[i] || id.Email == "" || id.ClaimMatch == nil || id.ClaimMatch.Issuer != issuerGoogle {
			continue
		}
		if id.Name == name {
			return IdentityToken(id.ClaimMatch.Issuer, id.ClaimMatch.Subject, exp), nil
		}
		names = append(names, id.Name)
	}
	for _, u := range st.people.users {
		if u.name == name {
			return IdentityToken(u.issuer, u.subject, exp), nil
		}
		names = append(names, u.name)
	}
	return "", fmt.Errorf("emulator: no person %q to act as: one of %s", name, strings.Join(names, ", "))
}

// PersonNames are the seeded persons TokenOf makes tokens of, in the
// order the seed has them.
func PersonNames() []string {
	var out []string
	for _, list := range [][]seedIdentity{acmeIdentities, globexIdentities} {
		for _, id := range list {
			if id.email != "" && id.issuer == issuerGoogle {
				out = append(out, id.name)
			}
		}
	}
	for _, u := range seedUsers {
		out = append(out, u.name)
	}
	return out
}
