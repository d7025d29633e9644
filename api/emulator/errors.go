package emulator

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"canopy/api"
)

// Error domains, as ErrorInfo.domain names them.
const (
	domainIAM       = "iam.chainguard.dev"
	domainRegistry  = "registry.chainguard.dev"
	domainVulns     = "vulnerabilities.chainguard.dev"
	domainLibraries = "libraries.chainguard.dev"
	domainEvents    = "events.chainguard.dev"
	domainPing      = "ping.chainguard.dev"
)

// domainOfPath is the error domain of a request path, by its first
// segment (/registry/v2/… is registry.chainguard.dev); the ping domain for
// a path of no known domain.
func domainOfPath(path string) string {
	first, _, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	switch first {
	case "iam":
		return domainIAM
	case "registry":
		return domainRegistry
	case "vulnerabilities", "advisory":
		return domainVulns
	case "libraries":
		return domainLibraries
	case "events":
		return domainEvents
	}
	return domainPing
}

// Resource type names used in ResourceInfo.
const (
	typeGroup        = "chainguard.iam.v2.Group"
	typeIdentity     = "chainguard.iam.v2.Identity"
	typeRole         = "chainguard.iam.v2.Role"
	typeRoleBinding  = "chainguard.iam.v2.RoleBinding"
	typeRepo         = "chainguard.registry.v2.Repo"
	typeTag          = "chainguard.registry.v2.Tag"
	typeImage        = "chainguard.registry.v2.Image"
	typeAdvisory     = "chainguard.vulnerabilities.v2.Advisory"
	typeArtifact     = "chainguard.libraries.v2.Artifact"
	typeSubscription = "chainguard.events.v2.Subscription"
)

// apiErr is an error a handler answers with: an AIP-193 status.
type apiErr struct {
	status     api.Status
	retryAfter int
	// relock: not an error; the call, made under the read lock, must
	// change the store (lazy.go): ServeHTTP runs it again under the write
	// lock.
	relock bool
}

func (e *apiErr) Error() string { return e.status.Message }

// messagePrefix is how messages of each code begin.
func messagePrefix(c api.Code) string {
	switch c {
	case api.CodeInvalidArgument:
		return "Invalid argument: "
	case api.CodeFailedPrecondition:
		return "Precondition failed: "
	case api.CodeNotFound:
		return "Not found: "
	case api.CodePermissionDenied:
		return "Permission denied: "
	case api.CodeUnauthenticated:
		return "Unauthenticated: "
	case api.CodeAlreadyExists:
		return "Already exists: "
	case api.CodeResourceExhausted:
		return "Resource exhausted: "
	case api.CodeUnavailable:
		return "Unavailable: "
	}
	return ""
}

// newErr builds an error of code c in domain with an ErrorInfo and extra details.
func newErr(c api.Code, domain, msg string, details ...api.Detail) *apiErr {
	all := append([]api.Detail{{ErrorInfo: &api.ErrorInfo{Reason: c.String(), Domain: domain}}}, details...)
	return &apiErr{status: api.Status{Code: c, Message: messagePrefix(c) + msg, Details: all}}
}

// badField is INVALID_ARGUMENT with one BadRequest violation.
func badField(domain, field, desc string) *apiErr {
	return newErr(api.CodeInvalidArgument, domain, fmt.Sprintf("%s: %s", field, desc),
		api.Detail{BadRequest: &api.BadRequest{FieldViolations: []api.FieldViolation{{Field: field, Description: desc}}}})
}

// notFound is NOT_FOUND with a ResourceInfo naming the missing resource.
func notFound(domain, resType, name string) *apiErr {
	return newErr(api.CodeNotFound, domain, fmt.Sprintf("%s %q does not exist", shortType(resType), name),
		api.Detail{ResourceInfo: &api.ResourceInfo{ResourceType: resType, ResourceName: name,
			Description: "no " + shortType(resType) + " has this uid"}})
}

// noRoute is what the gateway answers for a path it serves no call on:
// NOT_FOUND with a bare message and no details at all. A missing resource
// names itself in a ResourceInfo (notFound), which is how a client tells
// "no such thing" from "no such call on this server" (api.NotOnServer).
func noRoute() *apiErr {
	return &apiErr{status: api.Status{Code: api.CodeNotFound, Message: "Not Found"}}
}

// alreadyExists is ALREADY_EXISTS with a ResourceInfo naming the conflict.
func alreadyExists(domain, resType, name, msg string) *apiErr {
	return newErr(api.CodeAlreadyExists, domain, msg,
		api.Detail{ResourceInfo: &api.ResourceInfo{ResourceType: resType, ResourceName: name, Description: msg}})
}

func shortType(t string) string {
	for i := len(t) - 1; i >= 0; i-- {
		if t[i] == '.' {
			return t[i+1:]
		}
	}
	return t
}

// writeJSON answers 200 with v.
func writeJSON(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		writeErr(w, newErr(api.CodeInternal, domainPing, "encode response: "+err.Error()))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}

// writeErr answers with the error's AIP-193 body and HTTP status.
func writeErr(w http.ResponseWriter, e *apiErr) {
	b, err := json.Marshal(e.status)
	if err != nil {
		b = []byte(`{"code":13,"message":"encode error"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	if e.retryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.retryAfter))
	}
	w.WriteHeader(e.status.Code.HTTPStatus())
	_, _ = w.Write(b)
}
