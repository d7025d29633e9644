package emulator

import (
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"canopy/api"
)

// IdentityToken is an unsigned JWT (alg "none") the emulator accepts for the
// identity whose claimMatch is {issuer, subject} (exactly or by pattern,
// and naming no audience), until exp.
func IdentityToken(issuer, subject string, exp time.Time) string {
	return unsignedJWT(map[string]any{"iss": issuer, "sub": subject, "exp": exp.Unix(), "iat": exp.Add(-time.Hour).Unix()})
}

// unsignedJWT is a JWT of these claims with no signature (alg "none"):
// the emulator does not check signatures.
func unsignedJWT(claims map[string]any) string {
	enc := base64.RawURLEncoding
	head := enc.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`))
	b, _ := json.Marshal(claims) // strings, numbers and lists of them always encode
	return head + "." + enc.EncodeToString(b) + "."
}

// grant is one role binding of the caller: a role's capabilities on a group
// and everything below it.
type grant struct {
	group string
	caps  map[string]bool
}

// principal is who a request acts as.
type principal struct {
	admin    bool
	identity string // identity uid, "" for the admin
	name     string
	issuer   string // the token's, "" for the admin
	grants   []grant
}

// authenticate resolves the bearer token. It is called with s.mu held for reading.
func (srv *Server) authenticate(r *http.Request) (*principal, *apiErr) {
	// The scheme is case-insensitive (RFC 9110 §11.1): "bearer" is fine too.
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || tok == "" {
		return nil, newErr(api.CodeUnauthenticated, domainIAM, "missing bearer token")
	}
	if subtle.ConstantTimeCompare([]byte(tok), []byte(srv.adminToken)) == 1 {
		return &principal{admin: true, name: "admin"}, nil
	}
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		return nil, newErr(api.CodeUnauthenticated, domainIAM, "token is not a JWT")
	}
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return nil, newErr(api.CodeUnauthenticated, domainIAM, "token claims are not base64url JSON")
	}
	claims, err := parseClaims(b)
	if err != nil {
		return nil, newErr(api.CodeUnauthenticated, domainIAM, "token claims are not base64url JSON")
	}
	now := srv.now()
	if claims.Exp == 0 || !time.Unix(claims.Exp, 0).After(now) {
		return nil, newErr(api.CodeUnauthenticated, domainIAM, "token has expired")
	}
	st := srv.st
	// The first identity the token may assume, in the order they were
	// made: the seeded exact matches come before the seeded patterns.
	for i := range st.idents.items {
		id := &st.idents.items[i]
		if st.idents.dead[i] || !assumes(id, claims, now) {
			continue
		}
		p := &principal{identity: id.UID, name: id.Name, issuer: claims.Iss}
		for j := range st.bindings.items {
			b := &st.bindings.items[j]
			if st.bindings.dead[j] || b.IdentityUID != id.UID {
				continue
			}
			role, ok := st.roles.get(b.RoleUID)
			if !ok {
				continue
			}
			caps := map[string]bool{}
			for _, c := range role.Capabilities {
				caps[c] = true
			}
			p.grants = append(p.grants, grant{group: api.ParentUID(b.UID), caps: caps})
		}
		return p, nil
	}
	if p := st.people.signIn(claims); p != nil {
		return p, nil // a person of no group: no grants
	}
	return nil, newErr(api.CodeUnauthenticated, domainIAM, "no identity matches the token's claims")
}

// can reports whether the caller holds capability cap on the resource uid.
// Registry resources need a binding on the organization itself: an identity
// bound only on a subgroup cannot see the registry (spec, Identity).
func (p *principal) can(cap, uid string, registry bool) bool {
	if p.admin {
		return true
	}
	for _, g := range p.grants {
		if !g.caps[cap] {
			continue
		}
		if registry {
			if g.group == api.RootUID(uid) {
				return true
			}
			continue
		}
		if uid == g.group || api.IsDescendant(uid, g.group) {
			return true
		}
	}
	return false
}

// hasAny reports whether some binding grants cap anywhere (for global feeds).
func (p *principal) hasAny(cap string) bool {
	if p.admin {
		return true
	}
	for _, g := range p.grants {
		if g.caps[cap] {
			return true
		}
	}
	return false
}

// denied is the PERMISSION_DENIED answer naming the caller and the missing capability.
func (p *principal) denied(domain, cap, uid string) *apiErr {
	who := fmt.Sprintf("identity %q (%s)", p.name, p.identity)
	return newErr(api.CodePermissionDenied, domain, fmt.Sprintf("%s lacks %s on %q", who, cap, uid),
		api.Detail{ResourceInfo: &api.ResourceInfo{ResourceName: uid, Owner: p.identity,
			Description: "missing capability " + cap}})
}

// require answers PERMISSION_DENIED unless the caller holds cap on uid.
func (p *principal) require(domain, cap, uid string, registry bool) *apiErr {
	if p.can(cap, uid, registry) {
		return nil
	}
	return p.denied(domain, cap, uid)
}
