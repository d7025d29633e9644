package emulator

import (
	"fmt"
	"net/http"
	"slices"
	"sync"

	"canopy/api"
)

// identitySpec is how an identity is updated: its name, description,
// company and relationship (how it is assumed), one of four kinds, whose
// members may be named one by one.
var identitySpec = sync.OnceValue(func() *maskSpec {
	return &maskSpec{
		fields: jsonNames("uid", "name", "description", "email", "email_unverified", "company", "last_seen_time",
			"create_time", "update_time", "claim_match", "static_keys", "aws_identity", "service_principal"),
		updatable: []string{"name", "description", "company", "claim_match", "static_keys", "aws_identity", "service_principal"},
		members: map[string][]string{
			"claim_match": {api.ClaimIssuer, api.ClaimIssuerPattern, api.ClaimSubject, api.ClaimSubjectPattern,
				api.ClaimAudience, api.ClaimAudiencePattern, api.ClaimClaims, api.ClaimClaimPatterns},
			"static_keys":  {"issuer", "subject", "issuer_keys", "expiration_time", "audiences"},
			"aws_identity": {"aws_account", "arn", "arn_pattern", "user_id", "user_id_pattern"},
		},
		oneofs: [][]string{
			{"claimMatch", "staticKeys", "awsIdentity", "servicePrincipal"},
			{"claimMatch.issuer", "claimMatch.issuerPattern"},
			{"claimMatch.subject", "claimMatch.subjectPattern"},
			{"claimMatch.audience", "claimMatch.audiencePattern"},
			{"awsIdentity.arn", "awsIdentity.arnPattern"},
			{"awsIdentity.userId", "awsIdentity.userIdPattern"},
		}}
})

// relationshipTypes are the relationship_type filter's values, each with
// the test of an identity it keeps.
var relationshipTypes = sync.OnceValue(func() map[string]func(*api.Identity) bool {
	return map[string]func(*api.Identity) bool{
		"RELATIONSHIP_TYPE_CLAIM_MATCH":       func(id *api.Identity) bool { return id.ClaimMatch != nil },
		"RELATIONSHIP_TYPE_STATIC":            func(id *api.Identity) bool { return id.StaticKeys != nil },
		"RELATIONSHIP_TYPE_AWS_IDENTITY":      func(id *api.Identity) bool { return id.AWSIdentity != nil },
		"RELATIONSHIP_TYPE_SERVICE_PRINCIPAL": func(id *api.Identity) bool { return id.ServicePrincipal != "" },
	}
})

func (c *call) identities(rest string) *apiErr {
	st := c.st
	switch {
	case rest == "" && c.r.Method == http.MethodGet:
		q, e := c.parseList(domainIAM, sortNamed)
		if e != nil {
			return e
		}
		ls := listSpec[api.Identity]{c: st.idents, plural: "identities", mask: maskAll,
			keep: scopedKeep(c.p, capIdentityList, false, func(g *api.Identity) string { return g.UID }),
			out:  func(g *api.Identity) any { return g }}
		if rt := q.p.get("relationship_type"); rt != "" && rt != "RELATIONSHIP_TYPE_UNSPECIFIED" {
			kind, ok := relationshipTypes()[rt]
			if !ok {
				return badField(domainIAM, "relationship_type", fmt.Sprintf("unknown relationship type %q", rt))
			}
			ls.keep, ls.extra = both(ls.keep, kind), []string{rt}
		}
		runList(c.srv, c.w, c.r, q, ls)
		return nil
	case rest == "":
		return methodNotAllowed(domainIAM, c.r)
	case c.r.Method == http.MethodGet:
		return getMember(c, domainIAM, capIdentityList, typeIdentity, st.idents, rest, nil)
	case c.r.Method == http.MethodPost:
		return c.createIdentity(rest)
	case c.r.Method == http.MethodPatch:
		return c.patchIdentity(rest)
	case c.r.Method == http.MethodDelete:
		return c.deleteIdentity(rest)
	default:
		return methodNotAllowed(domainIAM, c.r)
	}
}

func (c *call) deleteIdentity(uid string) *apiErr {
	st := c.st
	if e := c.p.require(domainIAM, capIdentityDelete, uid, false); e != nil {
		return e
	}
	id, ok := st.idents.find(uid)
	if !ok {
		return notFound(domainIAM, typeIdentity, uid)
	}
	// The identity's role bindings go with it: they grant nothing without it.
	var drop []int32
	for i := range st.bindings.items {
		if !st.bindings.dead[i] && st.bindings.items[i].IdentityUID == uid {
			drop = append(drop, int32(i))
		}
	}
	for _, b := range drop {
		st.bindings.remove(b)
	}
	st.idents.remove(id)
	writeJSON(c.w, struct{}{})
	return nil
}

func (c *call) createIdentity(parent string) *apiErr {
	if _, e := c.parentGroup(domainIAM, capIdentityCreate, parent, false); e != nil {
		return e
	}
	var id api.Identity
	raw, e := decodePatch(c, domainIAM, &id)
	if e != nil {
		return e
	}
	if e := oneofConflict(domainIAM, raw, identitySpec()); e != nil {
		return e
	}
	now := c.now()
	if sk := id.StaticKeys; sk != nil && sk.ExpirationTime.IsZero() {
		// Static keys expire: by default, and at most, a year after creation.
		sk.ExpirationTime = api.TimeOf(c.srv.now().Add(staticKeysLifetime))
	}
	if e := c.checkIdentity(&id, nil, parent, ""); e != nil {
		return e
	}
	out := api.Identity{UID: c.st.childUID(parent), Name: id.Name, Description: id.Description, Company: id.Company,
		ClaimMatch: id.ClaimMatch, StaticKeys: id.StaticKeys, AWSIdentity: id.AWSIdentity, ServicePrincipal: id.ServicePrincipal,
		CreateTime: now, UpdateTime: now}
	c.st.idents.insert(out)
	writeJSON(c.w, out)
	return nil
}

func (c *call) patchIdentity(uid string) *apiErr {
	if e := c.p.require(domainIAM, capIdentityUpdate, uid, false); e != nil {
		return e
	}
	return patchStored(c, domainIAM, typeIdentity, c.st.idents, uid, identitySpec(),
		func(next, cur *api.Identity) *apiErr { return c.checkIdentity(next, cur, api.ParentUID(uid), uid) },
		func(id *api.Identity, now api.Time) { id.UpdateTime = now })
}

// checkIdentity checks an identity being created (was nil) or changed: a
// new name, the description, and whichever relationship it has (at most
// one). Parts that did not change are checked too, except the name: an
// older identity may have a name the service would refuse today.
func (c *call) checkIdentity(id, was *api.Identity, parent, self string) *apiErr {
	if was == nil || id.Name != was.Name {
		if e := checkIdentityName(id.Name); e != nil {
			return e
		}
		if siblingNamed(c.st.idents, parent, id.Name, self) {
			return alreadyExists(domainIAM, typeIdentity, parent, fmt.Sprintf("an identity named %q already exists in %s", id.Name, parent))
		}
	}
	if e := checkDescription(domainIAM, "description", id.Description); e != nil {
		return e
	}
	if e := checkDescription(domainIAM, "company", id.Company); e != nil {
		return e
	}
	n := 0
	for _, set := range []bool{id.ClaimMatch != nil, id.StaticKeys != nil, id.AWSIdentity != nil, id.ServicePrincipal != ""} {
		if set {
			n++
		}
	}
	if n > 1 {
		return badField(domainIAM, "claimMatch", "an identity has one relationship: claimMatch, staticKeys, awsIdentity or servicePrincipal")
	}
	switch {
	case id.ClaimMatch != nil:
		return checkClaimMatch(id.ClaimMatch)
	case id.StaticKeys != nil:
		var changed bool
		if was == nil || was.StaticKeys == nil {
			changed = true
		} else {
			changed = !id.StaticKeys.ExpirationTime.Equal(was.StaticKeys.ExpirationTime)
		}
		return c.checkStaticKeys(id.StaticKeys, changed)
	case id.AWSIdentity != nil:
		return checkAWSIdentity(id.AWSIdentity)
	case id.ServicePrincipal != "":
		if !slices.Contains(servicePrincipals, id.ServicePrincipal) {
			return badField(domainIAM, "servicePrincipal", fmt.Sprintf("unknown service principal %q", id.ServicePrincipal))
		}
	}
	return nil
}
